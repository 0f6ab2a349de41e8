"""Vertical names against horizontal names (issue 32): the same generated deck of character cards
(benchmarks/gen.py, 天雀牌's character template) built twice — its ``name`` element set vertically
as the template ships it, and set horizontally as it was before (box, size and title place of
the old template) — and the ratio vertical / horizontal of the build's time.

Each build is its own process (``build_game(game, steps=("sheets",))`` timed inside it, imports
outside the clock, as in run.py's cardgen row), the two variants interleaved, ``--repeat`` times;
the medians of wall time and of CPU time (user + system of the process and of the build's budget
child: less disturbed by other load on a shared machine) and their ratios go to ``benchmarks/vertical.json``. The goal: the
vertical deck within ×1.2 of the horizontal one.

    .venv/bin/python benchmarks/vertical.py --cards 600 --repeat 5
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from gen import make_game  # noqa: E402 - a script beside this one

#: The name and title elements as the template had them before the name was set vertically.
HORIZONTAL = {
    "name": {"box": [5, 9.5, 42, 8], "size": 15, "min_size": 10, "direction": "horizontal", "align": "left",
             "valign": "top"},
    "title": {"box": [5, 4.5, 40, 5]},
}

CHILD = """
import json, sys, time, resource
from cardgen.api import build_game
def cpu():  # this process and the build's budget child (core/budget forks one)
    return sum(r.ru_utime + r.ru_stime for r in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))
t0, c0 = time.perf_counter(), cpu()
build_game(sys.argv[1], sys.argv[2], steps=("sheets",), force=True)
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu_s": cpu() - c0}))
"""


def horizontal_copy(game: Path, dest: Path) -> Path:
    """A copy of ``game`` whose character template sets the name horizontally (:data:`HORIZONTAL`)."""
    shutil.copytree(game, dest)
    path = dest / "templates" / "cards" / "character.yaml"
    t = yaml.safe_load(path.read_text(encoding="utf-8"))
    for el in t["elements"]:
        el.update(HORIZONTAL.get(el.get("name"), {}))
    path.write_text(yaml.safe_dump(t, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return dest


def run(game: Path, out: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), CARDGEN_NO_DAEMON="1")
    p = subprocess.run([sys.executable, "-c", CHILD, str(game), str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"build of {game} failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=HERE / "vertical.json")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        vertical = make_game(tmp / "vertical", args.cards)
        horizontal = horizontal_copy(vertical, tmp / "horizontal")
        got: dict[str, list[dict]] = {"vertical": [], "horizontal": []}
        run(vertical, tmp / "warm")  # font caches, compiled templates: not part of either side
        for _ in range(args.repeat):
            for name, game in (("horizontal", horizontal), ("vertical", vertical)):
                got[name].append(run(game, tmp / f"out-{name}"))
    med = {k: {m: statistics.median(r[m] for r in runs) for m in ("seconds", "cpu_s")} for k, runs in got.items()}
    result = {
        "what": "cardgen sheets of a generated character deck, name vertical vs horizontal (benchmarks/vertical.py)",
        "cards": args.cards, "repeat": args.repeat, "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "horizontal": med["horizontal"], "vertical": med["vertical"],
        "ratio_wall": med["vertical"]["seconds"] / med["horizontal"]["seconds"],
        "ratio_cpu": med["vertical"]["cpu_s"] / med["horizontal"]["cpu_s"],
        "goal": "ratio <= 1.2",
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    return 0 if result["ratio_cpu"] <= 1.2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
