"""The print-sheets step: component plans imposed on paper and drawn into one PDF."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from cardgen.check.print_setup import MAX_BLEED_MM
from cardgen.core.errors import CardgenError, Problem
from cardgen.core.units import MM
from cardgen.data.game import Game
from cardgen.fonts.fontset import FontSet
from cardgen.layout.grid import SheetSpec, choose_grid, common_orientation
from cardgen.layout.fold import fold_pages
from cardgen.layout.sheet import impose
from cardgen.presets import SHEET_PAPERS, paper_mm
from cardgen.data.editions import is_latin
from cardgen.layout.scale_bar import NOTE_EN
from cardgen.steps.component_plans import ComponentPlans


@dataclass
class SheetOptions:
    """Print sheet settings (``cardgen sheets`` options). Lengths in mm."""

    paper: str = "a4"
    marks: str = "japanese"
    backs: bool = True
    duplex: str = "long-edge"
    margin: float = 5.0
    draft: bool = False  #: print the "DRAFT – validation failed" mark
    sides: str = "both"  #: pages written: ``front`` | ``back`` | ``both`` (``backs=False`` means front)
    back_offset: tuple[float, float] = (0.0, 0.0)  #: mm, added to back pages (x right, y down), see duplex calibration
    one_sided: str = "blank"  #: components without a back: ``blank`` back pages, or a ``separate`` file
    label_note: str = ""  #: said on every page label after the draft, e.g. "reprint 再印刷 · changed since HEAD~1"
    layout: str = "duplex"  #: ``duplex`` (front pages, then their backs) or ``fold`` (fronts and backs on one page, folded)


def sheet_spec(options: SheetOptions, size_mm: tuple[float, float], bleed_pt: float, cut: str = "separate") -> SheetSpec:
    """The imposition spec (pt) for cards of trim ``size_mm`` (w, h mm) with ``bleed_pt`` on
    ``options.paper`` (sizes from cardgen/presets/sizes.yaml), cut ``separate`` or ``shared`` (the
    component's ``cut:``). Raises CardgenError: unknown paper."""
    try:
        pw, ph = paper_mm(options.paper)
    except KeyError:
        raise CardgenError(Problem("", None, "--paper", f"unknown paper {options.paper!r}", "use a4, letter or b5",
                                   code="unknown-paper"))
    return SheetSpec(pw * MM, ph * MM, size_mm[0] * MM, size_mm[1] * MM, bleed=bleed_pt,
                     margin=options.margin * MM, marks=options.marks, cut=cut)  # type: ignore[arg-type]


def _fits(options: SheetOptions, size_mm: tuple[float, float], bleed_pt: float, cut: str = "separate") -> bool:
    try:
        choose_grid(sheet_spec(options, size_mm, bleed_pt, cut))
    except ValueError:
        return False
    return True


def paper_fit_problems(game: Game, plans: Sequence[ComponentPlans], options: SheetOptions) -> list[Problem]:
    """One error per component of ``plans`` whose card (trim + bleed + crop-mark space) does not
    fit once on ``options.paper`` inside the printer margin (:func:`cardgen.layout.grid.choose_grid`),
    at the component's ``size:`` line of game.yaml (or ``print.card_size`` when it has none);
    nothing while ``print.bleed`` is out of range (an error of its own). The
    hint names the sheet papers (:data:`SHEET_PAPERS`) it would fit on, or ``--margin 0`` when
    only a smaller margin helps, else a smaller size. Raises CardgenError: unknown paper."""
    bleed = game.manifest.print.bleed
    if not 0 <= bleed / MM <= MAX_BLEED_MM:  # already an error of its own (print_settings_problems)
        return []
    comps = {c.id: (i, c) for i, c in enumerate(game.manifest.components)}
    out = []
    for p in plans:
        cut = comps[p.component][1].cut if p.component in comps else "separate"  # a reprint's merged plans: separate
        if _fits(options, p.size_mm, bleed, cut):
            continue
        i, comp = comps[p.component]
        where = ("components", i, "size") if comp.size is not None else ("print", "card_size")
        papers = [name for name in SHEET_PAPERS
                  if name != options.paper and _fits(replace(options, paper=name), p.size_mm, bleed, cut)]
        size = f"{p.size_mm[0]:g} × {p.size_mm[1]:g} mm"
        if papers:
            hint = f"print on larger paper (--paper {' or --paper '.join(papers)}) or give {p.component} a smaller size"
        elif options.margin > 0 and _fits(replace(options, margin=0.0), p.size_mm, bleed, cut):
            hint = f"print with a smaller printer margin (--margin 0, if your printer reaches the edge) or give {p.component} a smaller size"
        else:
            hint = (f"give {p.component} a smaller size: {size} fits on none of the papers cardgen prints on "
                    f"({', '.join(SHEET_PAPERS)}) with bleed and crop marks")
        out.append(game.problem(where, "not one card fits on the paper inside the printer margin "
                                f"({size} on {options.paper})", hint, code="no-fit"))
    return out


def one_sided(plans: Sequence[ComponentPlans]) -> list[ComponentPlans]:
    """The components of ``plans`` without a back template (they print on one side only)."""
    return [p for p in plans if p.cards and all(b is None for b in p.backs)]


def write_sheets(game: Game, fonts: FontSet, plans: list[ComponentPlans], options: SheetOptions, path: Path,
                 on_page: Callable[[], None] | None = None,
                 progress: Callable[[str, int], Callable[[], None]] | None = None) -> int:
    """Impose and render the print sheets of ``plans`` into ``path``. Returns the page count.

    Duplex pairing: with backs (the default), every front page is followed by its back page of
    the same size and orientation; a component without a back gets blank back pages (labelled
    so), so a double-sided print of the whole file pairs every front with its own back. Without
    backs (``--no-backs``, ``--sides front``) only fronts are written; ``--sides back`` writes
    the back pages of components that have backs. One orientation for the file when every
    component can take it without needing more sheets (:func:`common_orientation`); otherwise
    each page label says how to feed the page.

    ``on_page`` is called after each page; or ``progress("sheets", pages)`` gives that callable
    once the page count is known.

    Raises:
        CardgenError: unknown paper; a component whose card does not fit on the paper.
    """
    from cardgen.render.images import ImageCache  # lazy: +7 ms of imports here (measured)
    from cardgen.render.pdf_sheets import SheetRun, render_sheets  # lazy: +13 ms of imports here (measured)

    m = game.manifest
    bleed = m.print.bleed
    no_fit = paper_fit_problems(game, plans, options)
    if no_fit:
        raise CardgenError(no_fit)
    cuts = {c.id: c.cut for c in m.components}
    specs = [sheet_spec(options, p.size_mm, bleed, cuts.get(p.component, "separate")) for p in plans]
    landscape = common_orientation([(s, len(p.fronts)) for s, p in zip(specs, plans)])
    want_backs = options.backs and options.sides != "front"
    fold = options.layout == "fold"
    runs = []
    for p, spec in zip(plans, specs):
        has_back = any(b is not None for b in p.backs)
        if fold and has_back:  # a fold-over sheet: fronts and backs on one page
            try:
                _fg, pages = fold_pages(len(p.fronts), spec)
            except ValueError:
                raise CardgenError(Problem("", None, "--layout fold", f"{p.name}: a card and its back do not fit side "
                                           f"by side on {options.paper}", "use --layout duplex or a larger --paper",
                                           code="no-fit")) from None
            runs.append(SheetRun(f"{p.name}", pages, p.fronts, p.backs))
            continue
        if fold:  # one-sided pieces on a one-sided print: no blank backs
            _grid, pages = impose(len(p.fronts), spec, backs=False, grid=choose_grid(spec, landscape))
            runs.append(SheetRun(f"{p.name}", pages, p.fronts, p.backs))
            continue
        grid = choose_grid(spec, landscape)
        _grid, pages = impose(len(p.fronts), spec, backs=want_backs and has_back,
                              duplex=options.duplex,  # type: ignore[arg-type]
                              back_offset=(options.back_offset[0] * MM, -options.back_offset[1] * MM), grid=grid,
                              blank_backs=want_backs and not has_back and options.sides == "both"
                              and options.one_sided != "separate")
        if options.sides == "back" and options.backs:
            pages = [pg for pg in pages if pg.side == "back"]
        if pages:
            runs.append(SheetRun(f"{p.name}", pages, p.fronts, p.backs))
    paper = options.paper.upper()

    western = is_latin(game.language)

    def label(run, page, sheets):
        # the back label says how to flip the sheet (the backs are mirrored for that flip)
        if western:  # a Western edition's fonts may have no kana: its labels are English only
            side = ("back · blank: one-sided" if page.blank else "front" if page.side == "front"
                    else f"back · {options.duplex} flip")
            feed = "" if landscape is not None else f" · {paper} landscape" if page.width > page.height \
                else f" · {paper} portrait"
            note = f" · {options.label_note}" if options.label_note else ""
            return (f"{m.game.title} {m.game.version}{note} · {run.title} · {side} · sheet {page.number}/{sheets}{feed}"
                    + (" · DRAFT – validation failed" if options.draft else ""))
        if page.blank:
            side = f"裏 back · 白紙 blank: {run.title}は片面（裏なし）"
        elif page.fold_backs:
            side = "表 front + 裏 back · 片面印刷、中央の線で折って貼る fold, glue, then cut"
        elif page.side == "front":
            side = "表 front"
        else:
            side = f"裏 back · {options.duplex} flip"
        feed = ""
        if landscape is None:  # the file mixes orientations: say how to feed this page
            feed = f" · {paper} 横 landscape" if page.width > page.height else f" · {paper} 縦 portrait"
        note = f" · {options.label_note}" if options.label_note else ""
        return (f"{m.game.title} {m.game.version}{note} · {run.title} · {side} · sheet {page.number}/{sheets}{feed}"
                + (" · DRAFT – validation failed" if options.draft else ""))

    if progress is not None and on_page is None:
        on_page = progress("sheets", sum(len(r.pages) for r in runs))
    return render_sheets(path, runs, fonts, label, draft=options.draft,
                         images=ImageCache(), metadata={"title": f"{m.game.title} {m.game.version} print sheets",
                                                        "author": "cardgen", "subject": m.game.source},
                         on_page=on_page, paper=options.paper,
                         duplex=options.duplex if not fold and want_backs and any(pg.side == "back" for r in runs for pg in r.pages)
                         else "simplex", scale_note=NOTE_EN if western else None)
