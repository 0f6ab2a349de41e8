"""A build started from the command line: one game in the budgeted child process
(:func:`cardgen.cli.options.limited`, :mod:`cardgen.core.budget`) with progress bars, then its
findings and the files it wrote printed. Shared by the output commands, ``build`` and ``watch``."""
from __future__ import annotations

import gc
import sys
from importlib import import_module
from pathlib import Path

import click

from cardgen.cli.options import limited
from cardgen.cli.output import echo, print_files
from cardgen.cli.progress import bars


def is_quiet() -> bool:
    """True when ``--quiet`` was given (no progress bars)."""
    return click.get_current_context().meta.get("cardgen.quiet", False)


def load_build_libraries() -> None:
    """Import what a build runs on (:mod:`cardgen.api` and what it loads) into this process, once,
    before a build's budgeted child is forked.

    The command's options have loaded most of cardgen and its libraries already; the rest (the
    API, the step registry, the game check, the preflight…) was imported in the child to build
    and again here to read its result (its classes come from those modules). Now the child
    inherits them. Python's cyclic garbage collector is off while they load (modules and classes
    are never garbage)."""
    if "cardgen.api" in sys.modules:
        return
    gc.disable()
    try:
        import_module("cardgen.api")
        import_module("cardgen.cli.progress")
        import_module("cardgen.check.preflight")  # the build's result holds its report (read back here)
    finally:
        gc.enable()


def build_one(game_dir: Path, out: Path, **build):
    """One game of ``cardgen build`` (:func:`cardgen.api.build_games`' ``run``): under the budget."""
    load_build_libraries()
    return limited_build(game_dir, out, **build)


def limited_build(game_dir: Path, out: Path, **build):
    """:func:`build_with_bars` in the budgeted child (:func:`limited`). On Ctrl-C the child is
    killed before it can remove its staging folder (``OUT/.GAME.tmp-PID-…``, a partial build):
    it is removed here, before the interrupt goes on, so no half-written folder is left in ``out``
    (a print shop's zip of the folder would carry it). Folders of builds still running are kept
    (:func:`cardgen.core.atomic.clean_stale_temps`)."""
    try:
        return limited(build_with_bars, game_dir, out, is_quiet(), game=game_dir, **build)
    except KeyboardInterrupt:
        from cardgen.core.atomic import clean_stale_temps
        clean_stale_temps(Path(out))
        raise


def build_with_bars(game_dir: Path, out: Path, quiet: bool, **build):
    """:func:`cardgen.api.build_game` with progress bars (runs in the budgeted child, a process that
    ends with the build; the libraries are loaded before it is forked, :func:`load_build_libraries`).

    Everything loaded so far is first frozen out of the cyclic garbage collector's passes
    (:func:`gc.freeze`), so the build's collections no longer walk every object of pydantic,
    jinja2, reportlab and cardgen's modules (a full pass cost about a quarter of a small deck's
    build)."""
    from cardgen.api import build_game  # lazy: +314 ms of imports here (measured)

    gc.freeze()
    with bars(quiet) as progress:
        return build_game(game_dir, out, progress=progress, **build)


def save_in_child(game_dir: Path, out_root: Path, quiet: bool, plan_steps, **build):
    """One save of ``cardgen watch`` (:func:`cardgen.api.check_then_build`) in the budgeted child:
    its findings and each output swapped in are handed to the watch as they happen
    (:func:`cardgen.core.budget.send_event`); what it loaded warm goes back with the result
    (:func:`cardgen.steps.warm_state.keeping`). → ``(value, warm)``."""
    from cardgen.api import check_then_build  # lazy: +314 ms of imports here (measured)
    from cardgen.core.budget import send_event  # lazy: +14 ms of imports here (measured)
    from cardgen.steps.warm_state import keeping  # lazy: +160 ms of imports here (measured: rulebook, hyphenation)

    gc.freeze()
    with bars(quiet) as progress:
        return keeping(check_then_build, game_dir, out_root, plan_steps, progress=progress,
                           on_report=lambda report: send_event(("report", report)),
                           on_written=lambda *args: send_event(("written", *args)), **build)


def print_findings(res) -> None:
    """The findings of a finished build — the same list ``cardgen validate`` prints: errors
    (only when forced past them: validation and card layout, each kind with a one-line summary)
    then warnings."""
    layout_errors = [p for p in res.layout if p.severity == "error"]  # only when forced
    warnings = res.report.warnings + [p for p in res.layout if p.severity == "warning"]
    for p in res.report.errors + layout_errors + warnings:
        echo(p.format(), err=True)
    if res.report.errors:
        echo(f"{res.game}: {len(res.report.errors)} validation error(s); printed anyway (--force), "
                   "outputs marked DRAFT", err=True)
    if layout_errors:
        echo(f"{res.game}: {len(layout_errors)} card layout error(s); printed anyway (--force), "
                   "text that does not fit is outlined in red", err=True)


def run_steps(game_dir: Path, out: Path, **build) -> None:
    """Build some steps of one game (``build`` goes to :func:`cardgen.api.build_game`) and list
    what was written. A CardgenError reaches
    :class:`cardgen.cli.commands._Group`, which prints it."""
    load_build_libraries()
    res = limited_build(game_dir, out, **build)
    print_findings(res)
    print_files(res.files, res.removed, res.out_dir)
    for note in res.notes:
        echo(f"note: {note}")
