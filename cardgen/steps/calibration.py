"""The duplex calibration step: a calibration sheet turned the way the game's print sheets are.

A printer's duplex shift depends on how the sheet travels through it (which edge leads, which
edge it flips on), so the calibration page takes the orientation that imposition chose for the
game's first printed deck on the same paper (:func:`cardgen.layout.grid.choose_grid`), and
says so on the page.
"""
from __future__ import annotations

from pathlib import Path

from cardgen.check.print_setup import piece_size_mm
from cardgen.core.errors import CardgenError, Problem
from cardgen.core.units import MM
from cardgen.data.expand import expand, printable_components
from cardgen.data.game import Game
from cardgen.layout.calibration import calibration_pages
from cardgen.layout.grid import choose_grid, common_orientation
from cardgen.layout.jlreq import is_japanese
from cardgen.presets import paper_mm
from cardgen.steps.sheets import SheetOptions, sheet_spec


def game_language(game: Game) -> str:
    """``"ja"`` when the game's title or subtitle holds Japanese letters (the manifest has no
    language field; :func:`cardgen.layout.jlreq.is_japanese`), else ``"en"``: the language of the
    sheets cardgen writes its own words on (the calibration sheet)."""
    info = game.manifest.game
    return "ja" if is_japanese(info.title + info.subtitle) else "en"


def sheet_orientation(game: Game, options: SheetOptions, language: str = "en") -> tuple[bool, str]:
    """``(landscape, note)``: the page orientation of the game's print sheets on ``options.paper``
    — the one orientation of the whole file when it has one (:func:`common_orientation`), else
    that of its first printed deck with backs (else its first printed component) — and a sentence
    naming it, in ``language`` (``"ja"`` or ``"en"``). Portrait when the game prints no card or the card does not fit (the sheets step
    reports that).

    Raises:
        CardgenError: unknown paper or card size.
    """
    paper = options.paper.upper()
    comps = {c.id: c for c in game.manifest.components}
    printed = printable_components(game)
    bleed = game.manifest.print.bleed
    specs = {cid: sheet_spec(options, piece_size_mm(game, comps[cid].size), bleed) for cid in printed}
    two_sided = [cid for cid in printed if comps[cid].back]  # duplex matters only where there are backs
    try:
        common = common_orientation([(specs[cid], len(expand(game, cid))) for cid in printed])
    except ValueError:
        common = None
    for cid in (two_sided or printed)[:1]:
        comp = comps[cid]
        w, h = piece_size_mm(game, comp.size)
        try:
            grid = choose_grid(specs[cid], common)
        except ValueError:
            break
        if language == "ja":
            way = "横向き" if grid.landscape else "縦向き"
            return grid.landscape, (f"{paper} {way}：{comp.name}の印刷シート（{w:g} × {h:g} mm、{grid.cols} × {grid.rows}）"
                                    "と同じ向きで給紙します。")
        way = "landscape" if grid.landscape else "portrait"
        return grid.landscape, (f"{way.capitalize()} {paper}, like the print sheets of {comp.name} "
                                f"({w:g} × {h:g} mm, {grid.cols} × {grid.rows}): feed it the same way.")
    if language == "ja":
        return False, f"{paper} 縦向き：印刷シートと同じ向きで給紙します。"
    return False, f"Portrait {paper}: feed it the way you feed the print sheets."


def write_calibration(game: Game, fonts, options: SheetOptions, path: Path) -> int:
    """The duplex calibration sheet (front + back page) in the game's language
    (:func:`game_language`) on ``options.paper`` in the orientation of the game's print sheets, flipped like ``options.duplex``, backs shifted by
    ``options.back_offset`` (to check a correction). Returns the page count.

    Raises:
        CardgenError: unknown paper.
    """
    from cardgen.render.calibration_pdf import render_calibration  # lazy: +19 ms of imports here (measured)

    try:
        w, h = paper_mm(options.paper)
    except KeyError:
        raise CardgenError(Problem("", None, "--paper", f"unknown paper {options.paper!r}", "use a4, letter or b5",
                                   code="unknown-paper"))
    language = game_language(game)
    landscape, note = sheet_orientation(game, options, language)
    if landscape:
        w, h = max(w, h), min(w, h)
    pages = calibration_pages(w * MM, h * MM, options.duplex, back_offset=options.back_offset, note=note,
                              language=language)
    return render_calibration(path, pages, fonts, options.duplex)
