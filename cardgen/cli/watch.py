"""``cardgen watch``: rebuild a game on every save of its manifest, card tables, templates,
rules or fonts, and print the validator's findings each time.

:func:`cardgen.steps.changes.steps_for` is the pure decision "which outputs do these changed files
affect" (tested on its own); :func:`watch` is the loop around it (watchfiles, debounced).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from cardgen.steps.changes import ignored as _ignored  # noqa: F401 - re-exported
from cardgen.steps.changes import steps_for, watch_paths

#: Exports a watch keeps fresh when they are already in the output folder: what they are called there.
EXPORT_MARKERS = {"png": "cards", "tts": "tts", "shop": "shop"}


def stale_exports(steps: set[str], out_dir: Path) -> tuple[str, ...]:
    """Export steps to redo with the sheets: those whose outputs already sit in ``out_dir`` (an
    earlier `cardgen build` made them), so no PNG, TTS or shop file is left showing old cards.
    Exports nobody asked for are not started by a watch."""
    if "sheets" not in steps:
        return ()
    return tuple(step for step, name in EXPORT_MARKERS.items() if (Path(out_dir) / name).exists())


def summary(steps: tuple[str, ...], report, result, seconds: float, force: bool = False) -> str:
    """The one line a watch prints after each rebuild: what was rebuilt (and how many files), the
    problem counts, and the time it took (s).

    ``report``: the validator's :class:`cardgen.check.deck_math.Report` (None when the game could
    not be read); ``result``: the :class:`cardgen.api.BuildResult`, or None when nothing was built.
    """
    errors = len(report.errors) if report is not None else 0
    warnings = len(report.warnings) if report is not None else 0
    if result is not None:
        layout = [p for p in result.layout if p.severity == "error"]
        files = len(result.files)
        what = f"rebuilt {', '.join(steps)} ({files} file{'s' if files != 1 else ''}"
        what += f", {len(result.removed)} removed)" if result.removed else ")"
        if force and (errors or layout):
            what += " marked DRAFT (--force)"
    elif errors:
        what = "not rebuilt: validation failed (--force prints anyway, marked DRAFT)"
    elif not steps:
        what = "checked"
    else:
        what = "not rebuilt"
    return f"{what} · {errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''} · {seconds:.1f} s"


#: What a step's outputs are called in the line that says which outputs are current.
OUTPUT_NAMES = {"sheets": "print-sheets.pdf", "rulebook": "rulebook.pdf", "png": "card PNGs", "tts": "TTS files",
                "shop": "shop files", "report": "report.json"}


def current_line(done: list[str], pending: tuple[str, ...], seconds: float) -> str:
    """The line a watch prints when some outputs of a save are in the output folder and others are
    still being drawn: which files are current and which are still those of an earlier save."""
    names = [OUTPUT_NAMES.get(s, s) for s in done]
    waiting = ", ".join(OUTPUT_NAMES.get(s, s) for s in pending)
    return (f"current: {', '.join(names)} ({seconds:.1f} s) · still from an earlier save: {waiting} "
            "(rebuilding)")


def failed_line(done: list[str], pending: tuple[str, ...]) -> str:
    """The line after a save whose build stopped part-way: what is current, what is not."""
    names = ", ".join(OUTPUT_NAMES.get(s, s) for s in done)
    waiting = ", ".join(OUTPUT_NAMES.get(s, s) for s in pending)
    return f"partly rebuilt: current: {names} · still from an earlier save: {waiting} (its rebuild failed, above)"


def watch(game_dir: Path, out_root: Path, on_event: Callable[[str, object], None],
          stop: threading.Event | None = None, debounce_ms: int = 300, progress=None, initial: bool = True,
          save: Callable | None = None, force: bool = False, build_options: dict | None = None) -> None:
    """Check and build ``game_dir`` now (``initial``) and again after each batch of saves.

    Each save checks the game once (every check of ``cardgen validate``) and builds what the
    change affects from that same check (:func:`cardgen.api.check_then_build`); each output is
    swapped into the output folder as soon as it is written, print-sheets.pdf before the rulebook.

    ``on_event(kind, payload)`` reports: ``("changed", [paths])``, ``("report", Report)`` (the
    check's findings, before anything is drawn), ``("current", str)`` when some outputs of the
    save are in place and others still being drawn (:func:`current_line`), ``("built",
    BuildResult)``, ``("error", CardgenError)``, and after each rebuild ``("summary", str)``
    (:func:`summary`: one line; :func:`failed_line` when a build stopped after some outputs were
    in place). A save that is not built (its check failed, or did not finish) replaces the output
    folder's report.json, if there is one, by its own verdict (:func:`cardgen.api.record_unbuilt`):
    the other files stay those of the last build. Runs until ``stop`` is set (or Ctrl-C). Validation errors skip the build (the
    findings are reported) unless ``force``, which builds anyway (outputs marked DRAFT). No error
    ends the watch: an unexpected one (a bug) is reported as an ``error`` event too.

    ``build_options``: keyword arguments of :func:`cardgen.api.build_game` given to every rebuild
    (``options`` — the sheet options the watch was started with —, ``exports``, ``rulebook_paper``),
    so a rebuild never falls back to the defaults.

    ``save(game_dir, out_root, plan_steps, force=…, on_report=…, on_written=…, progress=…,
    **build_options)`` defaults to :func:`cardgen.api.check_then_build`; the CLI passes one that
    runs it under the build budget (:mod:`cardgen.core.budget`), relaying its reports.
    """
    from watchfiles import watch as fs_watch  # lazy: +46 ms of imports here (measured)

    from cardgen.api import check_then_build, record_unbuilt  # lazy: +352 ms of imports here (measured)
    from cardgen.check.deck_math import Report  # lazy: +0 ms here (measured: cardgen.api imported it)
    from cardgen.core.errors import CardgenError, Problem  # lazy: +14 ms of imports here (measured)
    from cardgen.data.project import Project  # lazy: +11 ms of imports here (measured)

    save = save or check_then_build
    game_dir = Path(game_dir).resolve()
    root = Project.for_game(game_dir).root

    extra = dict(build_options or {})
    last_id = [game_dir.name]  # the game's id as the last check that read it said (its output folder)

    def run(steps: set[str]) -> None:
        start, report, result, todo = time.perf_counter(), None, None, ()
        asked = tuple(s for s in ("sheets", "rulebook") if s in steps)
        done: list[str] = []  # steps whose outputs are swapped in (this save)
        later: list[str] = []  # steps of this save still to be written

        def plan_steps(game_id: str) -> tuple[str, ...]:
            return asked + stale_exports(steps, Path(out_root) / game_id)

        def on_report(rep) -> None:
            nonlocal report
            report = rep
            if rep.version or rep.title:  # the game was read: its id names its output folder
                last_id[0] = rep.game
            on_event("report", rep)

        def on_written(stage: tuple[str, ...], _files, pending: tuple[str, ...]) -> None:
            done.extend(stage)
            later[:] = pending
            if pending:
                on_event("current", current_line(done, pending, time.perf_counter() - start))

        try:
            report, result, todo = save(game_dir, out_root, plan_steps, force=force, on_report=on_report,
                                        on_written=on_written, progress=progress, **extra)
            if result is None and report.errors and not (report.title or report.version):  # the game could not be read
                record_unbuilt(report, Path(out_root) / last_id[0])
            if result is not None:
                on_event("built", result)
            on_event("summary", summary(todo, report, result, time.perf_counter() - start, force))
        except CardgenError as exc:
            on_event("error", exc)
            if report is None:  # the check did not finish (a budget): report.json must not keep an earlier verdict
                record_unbuilt(Report(last_id[0], "", "", errors=list(exc.problems)), Path(out_root) / last_id[0])
            if done and later:
                on_event("summary", failed_line(done, tuple(later)))
        except Exception as exc:  # noqa: BLE001 - a bug must not end the watch: show it, go on
            on_event("error", CardgenError(Problem(
                "", None, "", f"internal error: {type(exc).__name__}: {exc}",
                "this is a bug in cardgen, please report it; the watch goes on", code="internal")))

    if initial:
        run({"validate", "sheets", "rulebook"})
    for changes in fs_watch(*watch_paths(game_dir, root), stop_event=stop, debounce=debounce_ms, step=50,
                            raise_interrupt=False):
        paths = sorted({Path(p) for _kind, p in changes})
        steps = steps_for(paths, game_dir, root, out_root)
        if steps:
            on_event("changed", [p for p in paths if not _ignored(p)])
            run(steps)

