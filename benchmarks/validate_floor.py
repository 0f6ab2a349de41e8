"""Issue 27's validate target as a ratio (not a timed test): a cold `cardgen validate
card_data/tenjanpai` against `benchmarks/library_floor.py`, whole processes started in turn.

    .venv/bin/python benchmarks/validate_floor.py                 # 9 rounds, cold
    .venv/bin/python benchmarks/validate_floor.py --warm          # font caches filled
    .venv/bin/python benchmarks/validate_floor.py --tree /tmp/old # also another checkout, in turn
    .venv/bin/python benchmarks/validate_floor.py --uses          # also the wider yardsticks, in turn

Each round runs, one after the other: `python -P -m cardgen validate card_data/tenjanpai` for this
checkout (and for each ``--tree``, a folder holding another version's ``cardgen/`` package, put on
``PYTHONPATH``), then the floor. Cold: each validate gets an emptied cache folder
(``XDG_CACHE_HOME``: no parsed fonts, no font-name index). CPU is the process's user + system time
with its budgeted child (os.wait4); the ratio is taken round by round (median, min–max), so a
run and its yardstick see the same background load. ``python -m compileall cardgen`` first when
the environment sets PYTHONDONTWRITEBYTECODE (each tree's ``cardgen/``). ``--uses`` times two
wider yardsticks in the same rounds (not the target's): ``imports`` (``library_floor.py --uses``
with no font: the floor plus the other libraries validate imports, nothing else),
``library_floor.py --uses FONTS`` (those imports and reportlab's parse of the font files the check
registers, found once beforehand) and ``--uses --dictionaries`` (plus pyphen's en_US dictionary and BudouX's
model). Prints only; benchmarks/README.md keeps the figures.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _run(args: list[str], env: dict) -> tuple[float, float]:
    """(wall s, CPU s) of one whole process, its children included."""
    t = time.perf_counter()
    p = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed: status {status}")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--warm", action="store_true", help="font caches filled (one untimed run first)")
    ap.add_argument("--tree", type=Path, action="append", default=[], help="another checkout to time in turn")
    ap.add_argument("--uses", action="store_true", help="also the wider yardsticks (library_floor.py --uses)")
    a = ap.parse_args(argv)
    trees = {"this": ROOT, **{str(t): t.resolve() for t in a.tree}}
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        for tree in trees.values():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "cardgen")], check=True,
                           stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})
    command = [sys.executable, "-P", "-m", "cardgen", "validate", "card_data/tenjanpai"]
    floors = {"floor": [sys.executable, "-P", str(HERE / "library_floor.py")]}
    if a.uses:
        fonts = font_files()
        floors["imports"] = [*floors["floor"], "--uses"]  # the libraries validate imports, nothing parsed
        floors["uses"] = [*floors["floor"], "--uses", *fonts]
        floors["uses+dict"] = [*floors["floor"], "--uses", "--dictionaries", *fonts]
    load0 = os.getloadavg()[0]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in [*trees, *floors]}
    with tempfile.TemporaryDirectory() as tmp:
        def env(name: str, tree: Path) -> dict:
            cache = Path(tmp) / f"cache-{list(trees).index(name) if name in trees else 'floor'}"
            e = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(tree)}
            e.pop("CARDGEN_NO_CACHE", None)
            return e

        if a.warm:
            for name, tree in trees.items():
                _run(command, env(name, tree))
        for _ in range(a.rounds):
            for name, tree in trees.items():
                if not a.warm:
                    shutil.rmtree(env(name, tree)["XDG_CACHE_HOME"], ignore_errors=True)
                runs[name].append(_run(command, env(name, tree)))
            for name, floor in floors.items():
                runs[name].append(_run(floor, env("floor", ROOT)))
    print(f"{'warm' if a.warm else 'cold'}, {a.rounds} rounds; load average {load0:.1f} → {os.getloadavg()[0]:.1f}")
    report(runs, list(trees), list(floors))
    return 0


def font_files() -> list[str]:
    """The font files a check of 天雀牌 registers with reportlab (this checkout's cardgen, once, in a
    process of its own with an empty cache folder: not timed)."""
    code = ("import sys\nfrom cardgen.steps.game_check import check_game\nfrom cardgen.fonts import registration\n"
            "check_game('card_data/tenjanpai')\n"
            "print('\\n'.join(p for p, _i in registration._REGISTERED))")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-P", "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                             env={**os.environ, "XDG_CACHE_HOME": tmp, "PYTHONPATH": str(ROOT)})
    return out.stdout.split()


def report(runs: dict[str, list[tuple[float, float]]], trees: list[str], floors: Sequence[str] = ("floor",)) -> None:
    """Print each command's CPU and wall medians, each tree's ratio to each floor and to the first
    tree ("this"), taken run by run."""
    med = statistics.median
    for name, rs in runs.items():
        print(f"  {name}: CPU {med(c for _w, c in rs):.3f} s (min {min(c for _w, c in rs):.3f}), "
              f"wall {med(w for w, _c in rs):.3f} s")
    pairs = [(name, floor) for floor in floors for name in trees] + [(trees[0], name) for name in trees[1:]]
    for a, b in pairs:
        ratio = [x[1] / y[1] for x, y in zip(runs[a], runs[b])]
        print(f"  {a} / {b}: ×{med(ratio):.2f} CPU (×{min(ratio):.2f}–{max(ratio):.2f}), run by run")

if __name__ == "__main__":
    sys.exit(main())
