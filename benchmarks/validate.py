"""Benchmark of `cardgen validate` on 天雀牌: cold, warm, after a one-cell edit (issues 14 and 19; not a timed test).

    .venv/bin/python benchmarks/validate.py            # 7 runs of each case
    .venv/bin/python benchmarks/validate.py --repeat 11

Each run is the whole `cardgen validate card_data/tenjanpai` process (the console script of this
checkout's .venv, interpreter start-up included), timed from outside: wall seconds, and the CPU
seconds of the process and its budgeted child (os.wait4). Cases, each with its own cache folder
(``XDG_CACHE_HOME``, never the user's):

- ``cold``: an empty cache folder before every run — no parsed fonts, no font-name index;
- ``warm``: the same files as the run before, the font caches filled (every run checks in full);
- ``after_edit``: one cell of characters.csv changed before every run (a new name for card c1-1 in
  a copy of the game), the font caches warm: what a designer waits for after saving a cell;
- ``after_rules_edit``: one sentence of rules/02_play.md changed before every run (a number added
  to the line under "### 1. ツモ" in the copy), the font caches warm: the rules text is laid out again;
- ``no_cache``: ``--no-cache`` (the font caches neither read nor written).

Medians are reported; ``other_load_cores`` is how busy the machine was meanwhile apart from these
runs (/proc/stat), ``loadavg_1min`` the load average at the end. Writes the ``validate`` key of
benchmarks/results.json (others kept).
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from run import _busy_ticks  # noqa: E402

CARDGEN = Path(sys.executable).parent / "cardgen"
GAME = ROOT / "card_data" / "tenjanpai"


def _run(args: list[str], cache: Path, before=None) -> tuple[float, float]:
    """(wall s, CPU s) of one ``cardgen validate`` process; ``before()`` runs first, untimed."""
    if before is not None:
        before()
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("CARDGEN_NO_CACHE", None)
    t = time.perf_counter()
    p = subprocess.Popen([str(CARDGEN), "validate", *args], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"cardgen validate {' '.join(args)} failed: status {status}")
    return wall, usage.ru_utime + usage.ru_stime


def _case(runs: list[tuple[float, float]]) -> dict:
    walls, cpus = [w for w, _c in runs], [c for _w, c in runs]
    return {"wall_s": round(statistics.median(walls), 3), "cpu_s": round(statistics.median(cpus), 3),
            "wall_min_max": [round(min(walls), 3), round(max(walls), 3)], "runs": len(runs)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs per case (median reported)")
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    a = ap.parse_args(argv)
    out: dict = {"game": "tenjanpai", "command": "cardgen validate card_data/tenjanpai"}
    busy0, t0, cpu_total = _busy_ticks(), time.perf_counter(), 0.0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cold = [_run([str(GAME)], tmp / "cold", lambda: shutil.rmtree(tmp / "cold", ignore_errors=True))
                for _ in range(a.repeat)]
        warm_cache = tmp / "warm"
        _run([str(GAME)], warm_cache)  # stores the parsed fonts and font names
        warm = [_run([str(GAME)], warm_cache) for _ in range(a.repeat)]
        no_cache = [_run(["--no-cache", str(GAME)], warm_cache) for _ in range(a.repeat)]
        copy = tmp / "game" / "tenjanpai"
        shutil.copytree(GAME, copy)
        table = copy / "characters.csv"
        lines = table.read_text(encoding="utf-8").split("\n")
        assert lines[1].startswith("c1-1,1,1,李紅蓮,")
        n = iter(range(10**6))

        def edit() -> None:
            lines[1] = lines[1].replace(lines[1].split(",")[3], f"李{next(n):04d}", 1)
            table.write_text("\n".join(lines), encoding="utf-8")

        _run([str(copy)], warm_cache)
        after_edit = [_run([str(copy)], warm_cache, edit) for _ in range(a.repeat)]
        rules = copy / "rules" / "02_play.md"
        text = rules.read_text(encoding="utf-8")
        sentence = "山の一番上のカードを1枚引いて、手札に加えます。"
        assert sentence in text

        def edit_rules() -> None:
            rules.write_text(text.replace(sentence, f"{sentence}（{next(n)}）", 1), encoding="utf-8")

        after_rules_edit = [_run([str(copy)], warm_cache, edit_rules) for _ in range(a.repeat)]
        cases = (("cold", cold), ("warm", warm), ("after_edit", after_edit), ("after_rules_edit", after_rules_edit),
                 ("no_cache", no_cache))
        for name, runs in cases:
            out[name] = _case(runs)
            cpu_total += sum(c for _w, c in runs)
    wall = time.perf_counter() - t0
    out["other_load_cores"] = round(max(0.0, ((_busy_ticks() - busy0) / os.sysconf("SC_CLK_TCK") - cpu_total) / wall), 2)
    out["loadavg_1min"] = round(os.getloadavg()[0], 2)
    out["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for name, _runs in cases:
        c = out[name]
        print(f"{name:16s} wall {c['wall_s']:.3f} s (min {c['wall_min_max'][0]:.3f}, max {c['wall_min_max'][1]:.3f}), "
              f"CPU {c['cpu_s']:.3f} s")
    print(f"other load {out['other_load_cores']} cores; load average {out['loadavg_1min']}")
    try:
        kept = json.loads(a.out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    a.out.write_text(json.dumps({**kept, "validate": out}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
