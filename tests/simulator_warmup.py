"""Compile the simulator's numba interpreter (cardgen/insight/model_round.py) into numba's cache,
once, at the start of a ``make test`` run (tests/conftest.py starts this script in the background
under pytest-xdist and holds the lock it waits on).

numba compiles the interpreter the first time a process runs a model (≈ 45 s of CPU on this
machine) and stores the machine code beside the source (``cardgen/insight/__pycache__``, its
``cache=True``); a process that starts later loads it (≈ 1–3 s). On a fresh clone, every xdist
worker and every ``cardgen simulate`` subprocess that reached a model before that store existed
compiled it again. Here it is compiled once, while the workers run other tests; the tests that run
a model wait for this (the ``compiled_simulator`` fixture) and load it.

Usage: ``python -m tests.simulator_warmup`` from the checkout (the game: card_data/tenjanpai; a handful of rounds
through :func:`cardgen.insight.model_run.play_rows` and two games through ``play_game_rows``, the
paths ``cardgen simulate`` takes, which compile every function of the interpreter they call).
"""
from __future__ import annotations

from pathlib import Path

from cardgen.data.game import load_game
from cardgen.insight.model_compile import compile_model
from cardgen.insight.model_run import play_game_rows, play_rows

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    model = compile_model(load_game(ROOT / "card_data" / "tenjanpai"))
    play_rows(model, 0, 8, 1, "greedy")
    play_game_rows(model, 0, 2, 1, "greedy")  # the game loop (insight/model_game.py) on top of the rounds


if __name__ == "__main__":
    main()
