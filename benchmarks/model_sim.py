"""Benchmark of `cardgen simulate` per bundled game, on 1 and 2 threads (issue 31; not a timed test).

    .venv/bin/python benchmarks/model_sim.py                 # 1,000,000 rounds per game and player count
    .venv/bin/python benchmarks/model_sim.py --rounds 200000

Goal: 10^6 rounds of each bundled game in under 60 s on this 2-core machine. Every game is
played by the model interpreter from its manifest's `insight: model:`
(cardgen.insight.model_run.play_rows); a game without one is listed as not simulated.
Compilation (or the cache load) is a 1,000-round warm-up outside the clock. The floor, measured in
the same run and on the same threads, is dealing alone: the same rounds' random streams and
shuffles of the same deck (`floor_s`); `ratio` = simulate / floor says what the rules cost above
the deal, whatever the machine's load. `cpu_s` is the process's CPU time over the run (on a
shared machine the wall time includes waiting for a core); `load_before` is the 1-minute load
average. Writes the `model_sim` key of benchmarks/results.json.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from cardgen.insight.rng import round_state, shuffle  # noqa: E402


@njit(cache=True, parallel=True)
def deal_only(seed, rounds, size, out):
    """The floor: each round's stream and shuffle, the top card kept."""
    for i in prange(rounds):
        state = round_state(seed, i)
        order = np.arange(size, dtype=np.int64)
        shuffle(order, state)
        out[i] = order[0]


def _floor(rounds: int, size: int) -> float:
    out = np.empty(rounds, dtype=np.int64)
    deal_only(np.int64(1), np.int64(1000), np.int64(size), out[:1000])
    t0 = time.perf_counter()
    deal_only(np.int64(1), np.int64(rounds), np.int64(size), out)
    return time.perf_counter() - t0


def bench(rounds: int) -> dict:
    import numba

    from cardgen.data.game import load_game
    from cardgen.insight.model_compile import compile_model
    from cardgen.insight.model_run import play_rows

    out = {}
    for game_dir in sorted(p for p in (ROOT / "card_data").iterdir() if (p / "game.yaml").is_file()):
        game = load_game(game_dir)
        if game.manifest.insight.model is not None:
            cm = compile_model(game)
            runs = [(c.deck.players, c.deck.size, lambda n, k=k: play_rows(cm, k, n, 1, "greedy"))
                    for k, c in enumerate(cm.counts)]
            how = f"model: {cm.model.name}"
        else:
            out[game_dir.name] = {"simulated": False, "why": "no insight.model"}
            continue
        rows = []
        for players, size, run in runs:
            run(1000)
            for threads in (1, 2):
                numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
                load = round(os.getloadavg()[0], 2)
                t0, c0 = time.perf_counter(), time.process_time()
                run(rounds)
                dt, cpu = time.perf_counter() - t0, time.process_time() - c0
                floor = _floor(rounds, size)
                rows.append({"players": players, "threads": threads, "seconds": round(dt, 2),
                             "rounds_per_second": round(rounds / dt), "cpu_s": round(cpu, 2), "floor_s": round(floor, 3),
                             "ratio": round(dt / floor, 1), "load_before": load,
                             "goal_met": dt < 60 * rounds / 1_000_000})
        out[game_dir.name] = {"simulated": True, "how": how, "rounds": rounds, "runs": rows}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    args = ap.parse_args()
    result = bench(args.rounds)
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {}
    data["model_sim"] = {"command": "python benchmarks/model_sim.py"
                         + (f" --rounds {args.rounds}" if args.rounds != 1_000_000 else ""), "cpus": os.cpu_count(),
                         "games": result}
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
