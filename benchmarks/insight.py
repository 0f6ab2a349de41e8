"""Benchmark of `cardgen odds` and `cardgen simulate` (issue 16's speed goals; not a timed test).

    .venv/bin/python benchmarks/insight.py                  # 1,000,000 4-player 天雀牌 rounds
    .venv/bin/python benchmarks/insight.py --rounds 200000

Goals: 1,000,000 simulated 4-player rounds of 天雀牌 in under 60 s on the 2-core machine, and
`cardgen odds` for every bundled game in under 1 s. Writes the `insight` key of
benchmarks/results.json (other keys are kept) and prints the figures.

Clocks:
- simulate: `cardgen.insight.simulate.play` for the 4-player deck (deal, every turn, the result
  row of each round), all threads; the numba compilation (or cache load) is done by a 1,000-round
  warm-up outside the clock. `estimates_s` is the time to compute every estimate and its
  standard error from the rows. Both policies are timed.
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


def bench_simulate(rounds: int) -> dict:
    import numba

    from cardgen.insight.estimates import metrics
    from cardgen.insight.simulate import play, prepare

    setup = prepare(ROOT / "card_data" / "tenjanpai")
    deck = next(d for d in setup.decks if d.players == 4)
    out = {"rounds": rounds, "players": 4, "threads": numba.get_num_threads(), "load_before": other_load()}
    for policy in ("greedy", "random"):
        play(setup, deck, 1000, 1, policy)  # compile or load the cache
        t0 = time.perf_counter()
        res = play(setup, deck, rounds, 1, policy)
        dt = time.perf_counter() - t0
        t1 = time.perf_counter()
        ms = metrics(res, 4, [2, 3, 4, 5, 6, 7])
        for m in ms:
            m.value()
        est = time.perf_counter() - t1
        out[policy] = {"seconds": round(dt, 3), "rounds_per_second": round(rounds / dt), "estimates_s": round(est, 3),
                       "goal_s": 60 * rounds / 1_000_000, "met": dt < 60 * rounds / 1_000_000}
    out["load_after"] = other_load()
    return out


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
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    args = ap.parse_args()
    result = {"command": "python benchmarks/insight.py" + (f" --rounds {args.rounds}" if args.rounds != 1_000_000 else ""),
              "cpus": os.cpu_count(), "odds": bench_odds(), "simulate": bench_simulate(args.rounds)}
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {}
    data["insight"] = result
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
