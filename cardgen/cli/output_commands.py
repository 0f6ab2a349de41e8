"""Click commands that write one output of one game: ``sheets`` (and its reprint), ``calibration``,
``png``, ``tts``, ``shop``, ``rulebook`` (added to the main group by :func:`register`).

Each parses its options and runs the output's build step through :func:`cardgen.cli.build_run.run_steps`.
"""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.build_run import run_steps
from cardgen.cli.options import (
    budget_options,
    calibration_options,
    export_options,
    exports_of,
    limited,
    out_option,
    out_options,
    quiet_option,
    sheet_options,
    sheet_options_of,
)
from cardgen.cli.output import echo, print_files


@click.command(short_help="Print sheets PDF: imposed cards, bleed, crop marks, backs.")
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
        run_steps(game_dir, out, options=sheet_options_of(**kw), force=force, steps=("sheets",), final=final)
        return
    from cardgen.api import reprint_sheets  # lazy: +325 ms of imports here (measured)

    ids = [c.strip() for c in (cards or "").split(",") if c.strip()] or None
    if final:
        from cardgen.api import refuse_open_questions

        refuse_open_questions(game_dir)
    res = limited(reprint_sheets, game_dir, out, sheet_options_of(**kw), since=since, cards=ids, force=force,
                   game=game_dir)
    if res.cards:
        shown = ", ".join(f"{cid} {rid}" + (f" ×{n}" if n > 1 else "") for cid, rid, n in res.cards)
        echo(f"reprint: {sum(n for *_, n in res.cards)} cards ({shown}) on {res.pages} pages")
    print_files(res.files)
    for note in res.notes:
        echo(f"note: {note}")


@click.command(short_help="Duplex test sheet: measure how far the backs shift.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@calibration_options
def calibration(game_dir: Path, out: Path, **kw) -> None:
    """Write OUT/<game>/duplex-calibration.pdf: print it double-sided to measure --back-offset."""
    run_steps(game_dir, out, options=sheet_options_of(**kw), force=True, steps=("calibration",))


@click.command(short_help="One PNG per physical card (300 dpi).")
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
    run_steps(game_dir, out, force=force, steps=("png",), exports=exports_of(dpi, no_bleed, jobs, png_sides=sides))


@click.command(short_help="Tabletop Simulator saved object and deck sheets.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@out_options
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes [default: all cores; none for 8 faces or fewer].")
@click.option("--tts-base-url", metavar="URL", default=None,
              help="Where you host the tts/*.png images (e.g. https://example.com/game/tts): the saved object "
                   "refers to URL/<file>. Default: their file:// paths on this computer.")
def tts(game_dir: Path, out: Path, force: bool, jobs: int | None, tts_base_url: str | None) -> None:
    """Write OUT/<game>/tts/<game>.json, a Tabletop Simulator saved object (copy it to TTS's Saved
    Objects folder), with its deck sheets (10 across, up to 7 down, last slot = hidden card) and backs."""
    run_steps(game_dir, out, force=force, steps=("tts",), exports=exports_of(jobs=jobs, tts_base_url=tts_base_url))


@click.command(short_help="Print-shop PDFs: one card per page with TrimBox/BleedBox.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@out_options
@click.option("--sides", type=click.Choice(["front", "back", "both"]), default="both", show_default=True,
              help="Faces in the PDF: fronts only, backs only, or both (front 1, back 1, front 2…).")
@click.option("--preset", metavar="SHOP", default=None,
              help="Print-shop preset (popls, jelly2print, printry, drivethrucards, thegamecrafter): the files, "
                   "colours (CMYK, PDF/X) and order that shop asks for [default: print.shop of game.yaml].")
def shop(game_dir: Path, out: Path, force: bool, sides: str, preset: str | None) -> None:
    """Write print-shop PDFs (OUT/<game>/shop/<component>.pdf): one face per page, TrimBox and BleedBox set.
    With a preset, the files that shop asks for (docs/printing-shops.md), checked as PDF/X."""
    run_steps(game_dir, out, force=force, steps=("shop",), exports=exports_of(sides=sides, preset=preset))


@click.command(short_help="Rulebook PDF from the rules Markdown and the data.")
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
    run_steps(game_dir, out, force=force, steps=("rulebook",), rulebook_paper=paper, final=final, rulebook_booklet=booklet)


def register(group: click.Group) -> None:
    """Add the one-output commands to the ``cardgen`` group."""
    group.add_command(sheets)
    group.add_command(calibration)
    group.add_command(png)
    group.add_command(tts)
    group.add_command(shop)
    group.add_command(rulebook)
