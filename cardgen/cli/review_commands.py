"""Click commands that look at a game without writing its outputs: ``validate`` (every check of a
build), ``serve`` (the live preview) and ``diff`` (two drafts compared); added to the main group
by :func:`register`."""
from __future__ import annotations

import gc
import json
import os
from pathlib import Path

import click

from cardgen.cli.options import budget_of, budget_options, limited, out_option
from cardgen.cli.output import clean, echo, print_files, report_lines


@click.command(short_help="Every check a build makes, short of drawing.")
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Report format.")
@click.option("--no-cache", is_flag=True,
              help="Parse every font again: no font parse or font-name index is read or written "
                   "(also CARDGEN_NO_CACHE=1).")
def validate(game_dir: Path, fmt: str, no_cache: bool) -> None:
    """Check a game as a build would, short of drawing: schema, deck math per player count,
    design rules, counts, templates and their fields, fonts and glyphs, text fit, art (present,
    resolution), print geometry and the rules text — the same problems, at the same file:line.
    Every run checks everything again."""
    lines, json_text, code = limited(check_output, os.fspath(game_dir), no_cache, game=game_dir)
    for err, text in [(False, json_text)] if fmt == "json" else lines:
        click.echo(text, err=err)
    click.get_current_context().exit(code)


def check_output(game_dir: str, no_cache: bool) -> tuple[list[tuple[bool, str]], str, int]:
    """In the budgeted child: the check of ``game_dir`` as ``cardgen validate`` prints it —
    ``(lines, json_text, code)``: the ``--format text`` lines (``True``: standard error), the
    ``--format json`` text, the exit code."""
    gc.disable()  # modules and classes are never garbage: no collection walks them while they load
    try:
        from cardgen.api import validate_game  # lazy: +304 ms of imports here (measured); --help never loads it
    finally:
        gc.enable()
    gc.freeze()  # nor do the check's own collections (as a build's, cardgen.cli.build_run)

    if no_cache:  # the child's own environment: the font caches of this run are off
        os.environ["CARDGEN_NO_CACHE"] = "1"
    # No collection at all while it checks: a check leaves almost no cyclic garbage (at most 2,215
    # objects for the bundled games, 33 for a generated 1,000-card game; the same peak memory), but
    # the collector walked every object the check kept, 249 times — 36–62 ms of 天雀牌's cold check
    # (measured with gc.callbacks). The budgeted child ends right after; in process it is put back.
    gc.disable()
    try:
        report = validate_game(Path(game_dir))
        return (report_lines(report), clean(json.dumps(report.to_json(), ensure_ascii=False, indent=2)),
                0 if report.ok else 1)
    finally:
        gc.enable()


@click.command(short_help="A live preview page of a game in the browser.")
@budget_options
@click.argument("game_dir", required=False, default=".", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default is this machine only (a warning is printed otherwise).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
def serve(game_dir: Path, host: str, port: int) -> None:
    """Serve a live preview of GAME_DIR (default: the current folder): every card face with its id
    and count, the deck math, the problems, the rulebook and print-sheet pages. The page updates
    itself after each save; only the faces a change touches are laid out and drawn again. Ctrl-C stops."""
    from cardgen.core.errors import Problem, UsageError  # lazy: +6 ms of imports here (measured)
    from cardgen.preview.app import serve as run  # lazy: +216 ms of imports here (measured)
    from cardgen.preview.server import bind_warning  # lazy: +57 ms of imports here (measured)

    if not (game_dir / "game.yaml").is_file():
        raise UsageError(Problem(str(game_dir), None, "", "is not a game folder (no game.yaml)",
                                 "name a game folder, e.g. cardgen serve card_data/tenjanpai"))
    warning = bind_warning(host)
    if warning:
        echo(warning, err=True)
    run(game_dir, host, port, budget=budget_of(click.get_current_context()),
        on_ready=lambda url: echo(f"preview of {game_dir} at {url} (Ctrl-C to stop)"))


@click.command("diff", short_help="What changed between two drafts: cards, faces, rules.")
@click.argument("old", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("new", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--rev", metavar="REV", help="Compare OLD as committed at this git revision (HEAD~3, a tag…) "
              "with OLD as it is now; read with git, nothing is checked out.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Terminal summary, or the whole report as JSON.")
@click.option("--no-pdf", is_flag=True, help="Do not write OUT/<game>/diff.pdf.")
@out_option
@budget_options
def diff(old: Path, new: Path | None, rev: str | None, fmt: str, no_pdf: bool, out: Path) -> None:
    """Say what changed from one draft of a game to the next: cards added, removed, renamed and
    changed field by field, which faces look different (and which boxes), deck math per player
    count, validation findings, design constants, open questions and rules text; and write
    OUT/<game>/diff.pdf showing each changed face old beside new at real size."""
    from cardgen.api import diff_drafts  # lazy: +407 ms of imports here (measured)

    res = limited(diff_drafts, old, new, rev, out, pdf=not no_pdf, game=new or old)
    if fmt == "json":
        echo(json.dumps(res.data, ensure_ascii=False, indent=2))
        return
    from cardgen.cli.diff_output import print_diff  # lazy: +42 ms of imports here (measured)
    print_diff(res.data)
    print_files(res.files)


@click.command(short_help="Check a PDF against the PDF/X rules a program can check.")
@click.argument("pdf_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--standard", type=click.Choice(["PDF/X-4", "PDF/X-1a"]), default=None,
              help="Check as this standard [default: what the file says it is].")
@click.option("--tac", type=click.FloatRange(min=1, max=400), default=None, metavar="PERCENT",
              help="Also check the total ink of every CMYK colour and image against this limit.")
def preflight(pdf_file: Path, standard: str | None, tac: float | None) -> None:
    """Check PDF_FILE (any PDF, a shop file or a designer's own) against the rules of PDF/X-4 /
    PDF/X-1a that are questions about the file's objects: version, output intent, boxes, fonts,
    colour spaces, transparency, metadata. Not a certified validator (docs/printing-shops.md)."""
    from cardgen.api import preflight_file  # lazy: +469 ms of imports here (measured)

    problems = preflight_file(pdf_file, standard, tac)
    for p in problems:
        echo(p.format())
    echo(f"{pdf_file}: {len(problems)} finding(s)" if problems else f"{pdf_file}: no findings")
    click.get_current_context().exit(1 if problems else 0)


def register(group: click.Group) -> None:
    """Add ``validate``, ``serve``, ``diff`` and ``preflight`` to the ``cardgen`` group."""
    group.add_command(preflight)
    group.add_command(validate)
    group.add_command(serve)
    group.add_command(diff)
