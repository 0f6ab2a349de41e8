"""``cardgen validate``'s check started by the console entry before click is imported.

A validate that has to check (no stored result) spends its first 0.15–0.2 s loading click and the
command line in the process that then forks the budgeted check child, which loads pydantic, the
manifest models and the rest itself. :func:`start` (called by :mod:`cardgen.cli.entry` for
``validate [--format …] [--no-cache] [--memory-limit MB] [--cpu-limit S] GAME_DIR``,
:func:`cardgen.cli.entry.check_args`) forks that child at once instead, under the budget those
options give (:func:`cardgen.core.budget.start_limited`): it loads what the check needs, checks
(:func:`cardgen.steps.game_check.check_game`) and formats the report
(:mod:`cardgen.cli.report_text`); meanwhile the command line loads and parses the same
arguments, and the ``validate`` command takes the child's answer (:func:`take`) when it was
started for the same folder, cache setting and budget — else it stops it and checks as always.
When the child answers (no error), the console entry stores and prints that answer itself, as
the stored-result fast path prints (:func:`cardgen.cli.entry.finish_check`), and click is never
loaded; an error it raised goes to the command line as before, which reports it. The command
process loads neither the models nor (mostly) click. What is printed, stored and exited with is
unchanged: the child computes exactly what the command computed from the report.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePath

_STARTED: list = []  # [(folder as typed, no_cache, budget, cardgen.core.budget.Limited)]


def start(game_dir: str, no_cache: bool, budget) -> None:
    """Fork the check of ``game_dir`` now under ``budget`` (:class:`cardgen.core.budget.Budget`);
    ``no_cache``: as ``--no-cache`` (every cache off in the child)."""
    from cardgen.core.budget import start_limited

    if _STARTED:
        return
    typed = os.fspath(PurePath(game_dir))
    _STARTED.append((typed, no_cache, budget, start_limited(check_output, typed, no_cache, budget=budget, game=typed)))


def check_output(game_dir: str, no_cache: bool) -> tuple[list[tuple[bool, str]], str, int]:
    """In the budgeted child: the check of ``game_dir`` as ``cardgen validate`` prints it —
    ``(lines, json_text, code)``: the ``--format text`` lines (``True``: standard error), the
    ``--format json`` text, the exit code."""
    import gc
    import json

    if no_cache:
        os.environ["CARDGEN_NO_CACHE"] = "1"
    gc.disable()  # the libraries load without collections, and are then left out of them
    try:
        from cardgen.cli.report_text import clean, report_lines
        from cardgen.steps.game_check import check_game
    finally:
        gc.enable()
    gc.freeze()
    report = check_game(Path(game_dir)).merged_report()
    return (report_lines(report), clean(json.dumps(report.to_json(), ensure_ascii=False, indent=2)),
            0 if report.ok else 1)


def take(game_dir: Path, no_cache: bool, budget):
    """The started check (a :class:`cardgen.core.budget.Limited` whose ``result()`` is
    :func:`check_output`'s) when it is of ``game_dir`` with ``no_cache`` and ``budget`` as the
    command has them; else None (a check started otherwise is stopped)."""
    if not _STARTED:
        return None
    typed, started_no_cache, started_budget, limited = _STARTED.pop()
    if (typed, started_no_cache, started_budget) == (os.fspath(PurePath(game_dir)), no_cache, budget):
        return limited
    limited.stop()
    return None


def peek(game_dir: str | os.PathLike, no_cache: bool, budget):
    """The started check when it is of ``game_dir`` with ``no_cache`` and ``budget``, left in place
    (:func:`take` still finds it); else None."""
    if not _STARTED:
        return None
    typed, started_no_cache, started_budget, limited = _STARTED[0]
    same = (typed, started_no_cache, started_budget) == (os.fspath(PurePath(game_dir)), no_cache, budget)
    return limited if same else None


def stop() -> None:
    """Stop a started check that was not taken (its answer is not wanted; one whose answer was
    collected is only forgotten)."""
    while _STARTED:
        _STARTED.pop()[3].stop()
