"""Command line: a thin click layer over :mod:`cardgen.api`.

Heavy libraries are imported inside the commands, so ``cardgen --help`` starts fast.
Expected failures print one message block per problem and exit 1 (usage errors 2).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from cardgen.cli.options import (budget_of, budget_options, calibration_options, export_options, exports_of, limited,
                                 out_option, out_options, quiet_option, sheet_options, sheet_options_of)
from cardgen.cli.output import clean, echo, fail, print_files, print_preflight, print_report, report_lines
from cardgen.cli.insight import register as register_insight
from cardgen.core.errors import CardgenError



def _quiet() -> bool:
    return click.get_current_context().meta.get("cardgen.quiet", False)


_limited = limited  # fn(*args) in a child process under the command's budget (:mod:`cardgen.core.budget`)


def _build_one(game_dir: Path, out: Path, **build):
    """One game of ``cardgen build`` (:func:`cardgen.api.build_games`' ``run``): under the budget."""
    return _limited(_build_with_bars, game_dir, out, _quiet(), game=game_dir, **build)


def _build_with_bars(game_dir: Path, out: Path, quiet: bool, **build):
    """:func:`cardgen.api.build_game` with progress bars (runs in the budgeted child)."""
    from cardgen.api import build_game
    from cardgen.cli.progress import bars

    with bars(quiet) as progress:
        return build_game(game_dir, out, progress=progress, **build)


def _print_findings(res) -> None:
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


def _run(game_dir: Path, out: Path, **build) -> None:
    """Build some steps of one game (``build`` goes to :func:`cardgen.api.build_game`) and list
    what was written. A CardgenError reaches :class:`_Group`, which prints it."""
    res = _limited(_build_with_bars, game_dir, out, _quiet(), game=game_dir, **build)
    _print_findings(res)
    print_files(res.files, res.removed, res.out_dir)
    for note in res.notes:
        echo(f"note: {note}")


class _Group(click.Group):
    """Runs a command; expected failures print their message blocks, never a traceback.

    A :class:`CardgenError` escaping a command prints its blocks (exit 1, usage 2). An
    ``OSError`` (disk full, permission denied) is reported as one block (exit 1). Anything else
    is a bug: a short "internal error, please report" line (exit 3); ``CARDGEN_DEBUG=1`` shows
    the traceback instead.
    """

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CardgenError as exc:
            fail(exc)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except KeyboardInterrupt:
            echo("cardgen: interrupted; output folders keep their previous files", err=True)
            sys.exit(130)
        except OSError as exc:
            if os.environ.get("CARDGEN_DEBUG") == "1":
                raise
            if exc.filename:
                echo(f"{exc.filename}: error: {exc.strerror or exc}\n"
                     "    hint: check that the folder exists, is writable and the disk is not full", err=True)
            else:  # not a file cardgen writes: no guess about disks
                echo(f"cardgen: error: {exc.strerror or exc}\n"
                     "    hint: CARDGEN_DEBUG=1 shows where it happened", err=True)
            sys.exit(1)
        except Exception as exc:
            if os.environ.get("CARDGEN_DEBUG") == "1":
                raise
            echo(f"cardgen: internal error: {type(exc).__name__}: {exc}\n"
                       "    hint: this is a bug in cardgen, please report it with the command you ran "
                       "(CARDGEN_DEBUG=1 shows the traceback)", err=True)
            sys.exit(3)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardgen")
@click.option("--project", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="The project root whose templates/ and fonts/ games may use [default: the folder cardgen "
                   "runs in, or the cardgen checkout].")
def cli(project: Path | None) -> None:
    """cardgen — print sheets, rulebooks and validation for card games kept as data.

    A game is a folder (card_data/<game>/) with game.yaml and its card tables.
    """
    from cardgen.core.boundary import set_project
    set_project(project)


@cli.command(short_help="Every check a build makes, short of drawing.")
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Report format.")
@click.option("--no-cache", is_flag=True,
              help="Check everything again even when the result for exactly these files is stored "
                   "(also CARDGEN_NO_CACHE=1).")
def validate(game_dir: Path, fmt: str, no_cache: bool) -> None:
    """Check a game as a build would, short of drawing: schema, deck math per player count,
    design rules, counts, templates and their fields, fonts and glyphs, text fit, art (present,
    resolution), print geometry and the rules text — the same problems, at the same file:line.

    The result is stored, keyed by every file it could read (README → Validate cache); a run
    with exactly the same inputs prints it without checking again."""
    from cardgen.steps import check_cache
    from cardgen.steps.game_check import check_game  # no PDF drawing

    key = check_cache.inputs_key(game_dir) if not no_cache and check_cache.enabled() else None
    report = _limited(lambda d: check_game(d).merged_report(), game_dir, game=game_dir)
    code = 0 if report.ok else 1
    lines, json_text = report_lines(report), clean(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    check_cache.store(game_dir, key, lines, json_text, code)
    for err, text in [(False, json_text)] if fmt == "json" else lines:
        click.echo(text, err=err)
    click.get_current_context().exit(code)


@cli.command(short_help="Print sheets PDF: imposed cards, bleed, crop marks, backs.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@sheet_options
@click.option("--force", is_flag=True, help="Write even when validation fails (every card face is marked DRAFT).")
@click.option("--only-changed-since", "since", metavar="REV_OR_DIR",
              help="Reprint: only the cards whose face changed (or that are new) since this git revision or "
                   "older game folder, into OUT/<game>/reprint-sheets.pdf.")
@click.option("--cards", metavar="ID,ID,…", help="Reprint: only these cards (every copy), into OUT/<game>/reprint-sheets.pdf.")
@click.option("--final", is_flag=True, help="Release build: refuse while the manifest has open questions (game.choices not decided).")
def sheets(game_dir: Path, out: Path, force: bool, since: str | None, cards: str | None, final: bool, **kw) -> None:
    """Write OUT/<game>/print-sheets.pdf: imposed cards with bleed, crop marks and duplex backs.
    With --only-changed-since or --cards, write OUT/<game>/reprint-sheets.pdf with only those cards."""
    if since is None and cards is None:
        _run(game_dir, out, options=sheet_options_of(**kw), force=force, steps=("sheets",), final=final)
        return
    from cardgen.api import reprint_sheets

    ids = [c.strip() for c in (cards or "").split(",") if c.strip()] or None
    if final:
        from cardgen.api import refuse_open_questions

        refuse_open_questions(game_dir)
    res = _limited(reprint_sheets, game_dir, out, sheet_options_of(**kw), since=since, cards=ids, force=force,
                   game=game_dir)
    if res.cards:
        shown = ", ".join(f"{cid} {rid}" + (f" ×{n}" if n > 1 else "") for cid, rid, n in res.cards)
        echo(f"reprint: {sum(n for *_, n in res.cards)} cards ({shown}) on {res.pages} pages")
    print_files(res.files)
    for note in res.notes:
        echo(f"note: {note}")


@cli.command(short_help="Duplex test sheet: measure how far the backs shift.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@calibration_options
def calibration(game_dir: Path, out: Path, **kw) -> None:
    """Write OUT/<game>/duplex-calibration.pdf: print it double-sided to measure --back-offset."""
    _run(game_dir, out, options=sheet_options_of(**kw), force=True, steps=("calibration",))


@cli.command(short_help="One PNG per physical card (300 dpi).")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@out_options
@export_options
@click.option("--sides", type=click.Choice(["front", "back", "both"]), default="front", show_default=True,
              help="Faces written: `front` (one PNG per physical card), `back` (backs only, "
                   "…-back.png), or `both`. Components without a back are named in a note.")
def png(game_dir: Path, out: Path, force: bool, dpi: float, no_bleed: bool, jobs: int | None, sides: str) -> None:
    """Write one PNG per physical card to OUT/<game>/cards/ (rasterised from the print PDF drawing)."""
    _run(game_dir, out, force=force, steps=("png",), exports=exports_of(dpi, no_bleed, jobs, png_sides=sides))


@cli.command(short_help="Tabletop Simulator deck sheets and decks.json.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@out_options
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes [default: all cores].")
def tts(game_dir: Path, out: Path, force: bool, jobs: int | None) -> None:
    """Write Tabletop Simulator deck sheets (10 across, up to 7 down, last slot = hidden card), backs and tts/decks.json."""
    _run(game_dir, out, force=force, steps=("tts",), exports=exports_of(jobs=jobs))


@cli.command(short_help="Print-shop PDFs: one card per page with TrimBox/BleedBox.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@out_options
@click.option("--sides", type=click.Choice(["front", "back", "both"]), default="both", show_default=True,
              help="Faces in the PDF: fronts only, backs only, or both (front 1, back 1, front 2…).")
def shop(game_dir: Path, out: Path, force: bool, sides: str) -> None:
    """Write print-shop PDFs (OUT/<game>/shop/<component>.pdf): one face per page, TrimBox and BleedBox set."""
    _run(game_dir, out, force=force, steps=("shop",), exports=exports_of(sides=sides))


@cli.command(short_help="Rulebook PDF from the rules Markdown and the data.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--paper", type=click.Choice(["a5", "a4", "b5", "letter"], case_sensitive=False), default=None,
              help="Rulebook paper (default: the manifest's rulebook.paper, A5).")
@out_option
@click.option("--force", is_flag=True, help="Write even when validation fails.")
@click.option("--final", is_flag=True, help="Release build: refuse while the manifest has open questions (game.choices not decided).")
@click.option("--booklet", is_flag=True, help="Also write rulebook-booklet.pdf: the pages two-up on sheets twice "
              "their size (A5 on A4, B5 on B4) in saddle-stitch order, for short-edge duplex and folding.")
def rulebook(game_dir: Path, paper: str | None, out: Path, force: bool, final: bool, booklet: bool) -> None:
    """Write OUT/<game>/rulebook.pdf from card_data/<game>/rules/*.md and the game's data."""
    _run(game_dir, out, force=force, steps=("rulebook",), rulebook_paper=paper, final=final, rulebook_booklet=booklet)


@cli.command(short_help="Validate and build every output (all games by default).")
@quiet_option
@budget_options
@click.argument("game_dirs", nargs=-1, type=click.Path(exists=True, file_okay=False, path_type=Path))
@sheet_options
@export_options
@click.option("--force", is_flag=True, help="Write even when validation fails (every card face is marked DRAFT).")
@click.option("--card-data", type=click.Path(path_type=Path), default=Path("card_data"), show_default=True,
              help="Where games are looked for when no GAME_DIR is given.")
@click.option("--strict", is_flag=True, help="Preflight warnings (shrunk text, missing glyphs, low-resolution art…) fail the build.")
@click.option("--final", is_flag=True, help="Release build: refuse while the manifest has open questions (game.choices not decided).")
def build(game_dirs: tuple[Path, ...], out: Path, force: bool, card_data: Path, dpi: float, no_bleed: bool,
          jobs: int | None, strict: bool, final: bool, **kw) -> None:
    """Validate and build every output of each game (all games in card_data/ by default):
    print sheets, exports, and the rulebook where the game has a rules/ folder."""
    from cardgen.api import build_games, games_to_build
    from cardgen.steps.registry import STEPS
    from cardgen.core.errors import UsageError

    failed = 0
    for _game, res in build_games(games_to_build(game_dirs, card_data), out, run=_build_one,
                                  options=sheet_options_of(**kw), force=force, steps=tuple(STEPS), strict=strict, final=final,
                                  exports=exports_of(dpi, no_bleed, jobs, sides=kw.get("sides", "both"))):
        if isinstance(res, UsageError):  # e.g. --out inside the game folder: the same for every game
            raise res
        if isinstance(res, CardgenError):
            echo(res.format(), err=True)
            failed += 1
            continue
        _print_findings(res)
        print_files(res.files, res.removed, res.out_dir)
        if res.preflight is not None:
            print_preflight(res.preflight)
    click.get_current_context().exit(1 if failed else 0)


@cli.command(short_help="Rebuild on every save and show the validator's findings.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@sheet_options
@export_options
@click.option("--rulebook-paper", type=click.Choice(["a5", "a4", "b5", "letter"], case_sensitive=False), default=None,
              help="Rulebook paper (default: the manifest's rulebook.paper, A5).")
@click.option("--force", is_flag=True, help="Rebuild even when validation fails (outputs marked DRAFT).")
def watch(game_dir: Path, out: Path, force: bool, dpi: float, no_bleed: bool, jobs: int | None,
          rulebook_paper: str | None, **kw) -> None:
    """Rebuild on every save of the manifest, a card table, a template, the rules or a font
    (only the outputs the change affects), printing the validator's findings and one summary
    line per rebuild. Every rebuild uses the options the watch was started with. Ctrl-C stops."""
    from cardgen.cli.watch import watch as run_watch

    def show(kind, payload):
        if kind == "changed":
            echo("changed: " + ", ".join(p.name for p in payload))
        elif kind == "report":
            print_report(payload)
        elif kind == "built":
            for name in payload.notes:
                echo(f"note: {name}", err=True)
        elif kind == "summary":
            echo(payload)
        elif kind == "error":
            echo(payload.format(), err=True)

    from cardgen.api import validate_game

    quiet = _quiet()

    def validate(d):
        return _limited(validate_game, d, game=game_dir)

    def build(d, out_root, steps, progress=None, **options):
        return _limited(_build_with_bars, d, out_root, quiet, game=game_dir, steps=steps, **options)

    options = {"options": sheet_options_of(**kw), "rulebook_paper": rulebook_paper,
               "exports": exports_of(dpi, no_bleed, jobs, sides=kw.get("sides", "both"))}
    echo(f"watching {game_dir} (Ctrl-C to stop)")
    run_watch(game_dir, out, show, validate=validate, build=build, force=force, build_options=options)


@cli.command(short_help="A live preview page of a game in the browser.")
@budget_options
@click.argument("game_dir", required=False, default=".", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default is this machine only (a warning is printed otherwise).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
def serve(game_dir: Path, host: str, port: int) -> None:
    """Serve a live preview of GAME_DIR (default: the current folder): every card face with its id
    and count, the deck math, the problems, the rulebook and print-sheet pages. The page updates
    itself after each save; only the faces a change touches are laid out and drawn again. Ctrl-C stops."""
    from cardgen.core.errors import Problem, UsageError
    from cardgen.preview.app import serve as run
    from cardgen.preview.server import bind_warning

    if not (game_dir / "game.yaml").is_file():
        raise UsageError(Problem(str(game_dir), None, "", "is not a game folder (no game.yaml)",
                                 "name a game folder, e.g. cardgen serve card_data/tenjanpai"))
    warning = bind_warning(host)
    if warning:
        echo(warning, err=True)
    run(game_dir, host, port, budget=budget_of(click.get_current_context()),
        on_ready=lambda url: echo(f"preview of {game_dir} at {url} (Ctrl-C to stop)"))


@cli.command("diff", short_help="What changed between two drafts: cards, faces, rules.")
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
    from cardgen.api import diff_drafts

    res = _limited(diff_drafts, old, new, rev, out, pdf=not no_pdf, game=new or old)
    if fmt == "json":
        echo(json.dumps(res.data, ensure_ascii=False, indent=2))
        return
    from cardgen.cli.diff_output import print_diff
    print_diff(res.data)
    print_files(res.files)


@cli.command("new", short_help="Start a new game folder that builds as it stands.")
@click.argument("game_dir", type=click.Path(path_type=Path))
@click.option("--title", help="Title as printed (default: the folder name).")
def new(game_dir: Path, title: str | None) -> None:
    """Start a game: GAME_DIR/game.yaml, a card table, templates and a rules page that build as they stand."""
    from cardgen.data.new_game import game_id, new_game

    files = new_game(game_dir, title)  # a CardgenError goes to the group's handler
    for f in files:
        echo(f"wrote {f}")
    echo(f"game id: {game_id(game_dir.resolve().name)} (from the folder name; it names the output folder — "
         "change game.id in game.yaml to rename it)")
    echo(f"next: cardgen build {game_dir}")


@cli.command("docs", short_help="Regenerate the manifest and template references in docs/.")
@click.option("--check", is_flag=True, help="Exit 1 when a generated file in docs/ is not up to date (CI).")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("docs"),
              show_default=True, help="Folder the references are written to.")
def docs(check: bool, out: Path) -> None:
    """Write docs/manifest.md (manifest keys, design-rule helpers) and docs/templates.md (card
    templates), generated from the models' field descriptions and the helpers' docstrings."""
    from cardgen.refdocs.manifest_docs import stale_docs, write_docs

    if check:
        stale = stale_docs(out)
        for path, up_to_date in stale.items():
            echo(f"{path} is {'up to date' if up_to_date else 'out of date: run `cardgen docs`'}")
        click.get_current_context().exit(0 if all(stale.values()) else 1)
    for path in write_docs(out):
        echo(f"wrote {path}")


register_insight(cli)  # cardgen odds, cardgen simulate (cardgen/cli/insight.py)


def main() -> None:
    """Console entry point. Ctrl-C at any moment (also while click reads the arguments) ends
    with one line and exit 130; the build's child process and workers are stopped first
    (:func:`cardgen.core.budget.run_limited`)."""
    try:
        try:
            code = cli.main(prog_name="cardgen", standalone_mode=False)
            if isinstance(code, int):  # ctx.exit(code): without standalone mode click returns the code
                sys.exit(code)
        except click.exceptions.Abort:
            raise KeyboardInterrupt from None
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        echo("cardgen: interrupted; output folders keep their previous files", err=True)
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
