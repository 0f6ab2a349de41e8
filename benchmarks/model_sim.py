"""Benchmark of `cardgen simulate` per bundled game, on 1 and 2 threads (issue 31; not a timed test).

    .venv/bin/python benchmarks/model_sim.py                 # 1,000,000 rounds per game and player count
    .venv/bin/python benchmarks/model_sim.py --rounds 200000 --games 20000
    .venv/bin/python benchmarks/model_sim.py --only majan      # one bundled game

Goal: 10^6 rounds of each bundled game in under 60 s on this 2-core machine. Every game is
played by the model interpreter from its manifest's `insight: model:`
(cardgen.insight.model_run.play_rows); a game without one is listed as not simulated.
Compilation (or the cache load) is a 1,000-round warm-up outside the clock. The floor, measured in
the same run and on the same threads, is dealing alone: the same rounds' random streams and
shuffles of the same deck (`floor_s`); `ratio` = simulate / floor says what the rules cost above
the deal, whatever the machine's load. `cpu_s` is the process's CPU time over the run (on a
shared machine the wall time includes waiting for a core); `load_before` is the 1-minute load
average. A game whose model has `game:` also plays `--games` whole games (default a tenth of the
rounds) on each thread count: `games_per_second` and the rounds they played per second.
Writes the `model_sim` key of benchmarks/results.json.
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


def bench(rounds: int, games: int, only: str | None = None) -> dict:
    import numba

    from cardgen.data.game import load_game
    from cardgen.insight.model_compile import compile_model
    from cardgen.insight.model_run import play_game_rows, play_rows

    out = {}
    for game_dir in sorted(p for p in (ROOT / "card_data").iterdir() if (p / "game.yaml").is_file()):
        if only and game_dir.name != only:
            continue
        game = load_game(game_dir)
        if game.manifest.insight.model is not None:
            cm = compile_model(game)
            runs = [(c.deck.players, c.deck.size, lambda n, k=k: play_rows(cm, k, n, 1, "greedy"),
                     (lambda n, k=k: play_game_rows(cm, k, n, 1, "greedy")) if c.gp is not None else None)
                    for k, c in enumerate(cm.counts)]
            how = f"model: {cm.model.name}"
        else:
            out[game_dir.name] = {"simulated": False, "why": "no insight.model"}
            continue
        rows = []
        for players, size, run, run_games in runs:
            run(1000)
            if run_games is not None:
                run_games(100)
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
                if run_games is not None and games > 0:
                    t0 = time.perf_counter()
                    played = int(run_games(games)[:, 0].sum())  # GR_ROUNDS
                    dt = time.perf_counter() - t0
                    rows[-1].update({"games": games, "games_seconds": round(dt, 2),
                                     "games_per_second": round(games / dt), "game_rounds": played,
                                     "game_rounds_per_second": round(played / dt)})
        out[game_dir.name] = {"simulated": True, "how": how, "rounds": rounds, "runs": rows}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=None, help="whole games per run [a tenth of --rounds]")
    ap.add_argument("--only", default=None, help="one bundled game folder name (e.g. majan)")
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    args = ap.parse_args()
    games = args.rounds // 10 if args.games is None else args.games
    result = bench(args.rounds, games, args.only)
    if args.only:  # one game: printed, results.json keeps the full run
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {}
    data["model_sim"] = {"command": "python benchmarks/model_sim.py"
                         + (f" --rounds {args.rounds}" if args.rounds != 1_000_000 else "")
                         + (f" --games {args.games}" if args.games is not None else ""), "cpus": os.cpu_count(),
                         "games": result}
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
