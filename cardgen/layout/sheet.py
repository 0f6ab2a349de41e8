"""Imposition (面付け): placing cards on sheets, with bleed, crop marks and duplex backs.

All geometry in pt, page origin bottom-left. A slot is a card's *trim* rectangle. The grid
(:mod:`cardgen.layout.grid`) puts the cards' bleed boxes side by side (``cut: separate``) or the
cards trim to trim with one bleed around the block (``cut: shared``).

Crop marks (トンボ) lie around the outside of the block only — a mark for every cut line at both
of its ends, none between two cards — so every mark lies outside every card's bleed box:
- ``japanese``: at each cut line a line on the trim line, and on the block's corners a second
  line on the bleed line (the corner トンボ's inner and outer lines; with separate bleeds every
  card's bleed line is marked), running outward from the block; a centre トンボ (a cross) at the
  middle of each side of the block.
- ``western``: one line on each trim line, at both ends, outside the block.
- ``none``.

Page label: a band inside the printer margin, at the bottom or up the left side of the page, as
the grid chose (:mod:`cardgen.layout.grid`).

Duplex: every front page is followed by its back page (same size and orientation), so a
double-sided print pairs them; a component without a back gets a blank back page
(:func:`impose` with ``blank_backs``). The back page is the front page seen through the paper. Flipping on the long edge
mirrors across the axis parallel to the long edge: a portrait page mirrors x
(``x' = W − x − w``), a landscape page mirrors y. Short-edge flip mirrors the other axis.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cardgen.layout.grid import Grid, SheetSpec, choose_grid
from cardgen.layout.marks import crop_marks
from cardgen.layout.ops import Line

Duplex = Literal["long-edge", "short-edge"]


@dataclass(frozen=True)
class Slot:
    """One card position on a page: trim rectangle (pt), the index of the card in the run, and
    ``box``: the rectangle ``(x0, y0, x1, y1)`` the card is printed in — its bleed box, or on a
    shared-cut sheet its trim, grown by the bleed only on the sides with no neighbour."""

    x: float
    y: float
    w: float
    h: float
    index: int  #: position in the page's card list (0-based, reading order of the front)
    col: int
    row: int
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    turned: bool = False  #: the face is printed turned 180° (a back folded over a horizontal line)


@dataclass
class PagePlan:
    """One page: its slots, marks and label."""

    side: Literal["front", "back"]
    number: int  #: 1-based sheet number
    width: float
    height: float
    slots: list[Slot] = field(default_factory=list)
    marks: list[Line] = field(default_factory=list)
    card_indexes: list[int] = field(default_factory=list)  #: deck positions of the cards, per slot
    label_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  #: x, y, w, h of the page label band
    label_vertical: bool = False  #: the band runs up the page side: the label reads bottom to top
    blank: bool = False  #: a back page left blank (the component has no back): no slots, no marks
    shared_cut: bool = False  #: cards touch at their trims: each is printed cut to its slot's ``box``
    fold_backs: list[Slot] = field(default_factory=list)  #: a fold-over sheet: the backs on this page, per card


def label_band(grid: Grid, spec: SheetSpec, mirror: Literal["x", "y"] | None = None) -> tuple[float, float, float, float]:
    """The page label band ``(x, y, w, h)`` in pt: the strip the grid leaves free inside the
    printer margin — at the bottom (or the left side, ``grid.label_side``) of a front page. On a
    back page whose slots are mirrored (``mirror`` = the axis flipped) the band is mirrored with
    them, so it never meets a card."""
    m, band = spec.margin, spec.label_height
    if grid.label_side == "left":
        x = grid.page_w - m - band if mirror == "x" else m
        return (x, m, band, grid.page_h - 2 * m)
    y = grid.page_h - m - band if mirror == "y" else m
    return (m, y, grid.page_w - 2 * m, band)


def mirrors_x(grid: Grid, duplex: Duplex) -> bool:
    """True when back pages mirror x (long-edge flip of a portrait page, short-edge of a landscape one)."""
    return (duplex == "long-edge") != grid.landscape



def front_slots(grid: Grid, spec: SheetSpec, count: int) -> list[Slot]:
    """Trim rectangles for ``count`` cards (≤ per sheet), reading order: left→right, top→bottom."""
    px, py = spec.pitch
    b = spec.bleed
    shared = spec.cut == "shared"
    cells = {divmod(i, grid.cols) for i in range(count)}
    slots = []
    for i in range(count):
        r, c = divmod(i, grid.cols)
        x = grid.origin_x + c * (px + grid.gutter_x)
        y = grid.origin_y + (grid.rows - 1 - r) * (py + grid.gutter_y)
        if shared:  # the bleed only where no neighbour's trim is
            left, right = (r, c - 1) not in cells, (r, c + 1) not in cells
            top, bottom = (r - 1, c) not in cells, (r + 1, c) not in cells
            box = (x - b * left, y - b * bottom, x + spec.card_w + b * right, y + spec.card_h + b * top)
        else:
            box = (x - b, y - b, x + spec.card_w + b, y + spec.card_h + b)
        slots.append(Slot(x, y, spec.card_w, spec.card_h, i, c, r, box))
    return slots


def mirror_slots(slots: list[Slot], grid: Grid, duplex: Duplex,
                 offset: tuple[float, float] = (0.0, 0.0)) -> list[Slot]:
    """Back positions: each front slot mirrored so the back prints behind its front.

    Long-edge flip mirrors across the long axis of the page (x on portrait, y on landscape);
    short-edge flip mirrors the other axis. ``offset`` (pt, x right, y up, in the back page's
    own coordinates) is then added to every slot, to cancel a printer's duplex shift measured
    with the calibration sheet (:mod:`cardgen.layout.calibration`).
    """
    return mirror_about(slots, grid.page_w, grid.page_h, mirrors_x(grid, duplex), offset)


def mirror_about(slots: list[Slot], W: float, H: float, mirror_x: bool,
                 offset: tuple[float, float] = (0.0, 0.0)) -> list[Slot]:
    """``slots`` mirrored about the page's vertical centre line (``mirror_x``) or its horizontal
    one, then moved by ``offset`` (pt): a duplex back, or the other half of a fold-over sheet."""
    dx, dy = offset
    out = []
    for s in slots:
        x0, y0, x1, y1 = s.box
        if mirror_x:
            box = (W - x1 + dx, y0 + dy, W - x0 + dx, y1 + dy)
            out.append(Slot(W - s.x - s.w + dx, s.y + dy, s.w, s.h, s.index, s.col, s.row, box))
        else:
            box = (x0 + dx, H - y1 + dy, x1 + dx, H - y0 + dy)
            out.append(Slot(s.x + dx, H - s.y - s.h + dy, s.w, s.h, s.index, s.col, s.row, box))
    return out


def page_marks(slots: list[Slot], spec: SheetSpec, grid: Grid) -> list[Line]:
    """The crop marks of a page holding ``slots`` (:func:`cardgen.layout.marks.crop_marks`), as
    long as ``grid`` leaves room for."""
    return crop_marks(slots, spec.marks, grid.mark_x, grid.mark_y, spec.mark_offset)


def impose(count: int, spec: SheetSpec, backs: bool = True, duplex: Duplex = "long-edge",
           back_offset: tuple[float, float] = (0.0, 0.0), grid: Grid | None = None,
           blank_backs: bool = False) -> tuple[Grid, list[PagePlan]]:
    """Pages for ``count`` cards: each front page followed by its back page when ``backs``, or
    by a blank back page when ``blank_backs`` (a one-sided component in a file printed
    double-sided: the next front must not land on this front's back).
    ``back_offset`` (pt, x right, y up) shifts back slots and their crop marks. ``grid``: the
    arrangement to use (default :func:`choose_grid`).

    Returns:
        ``(grid, pages)``; ``page.card_indexes`` gives the deck position of each slot's card.
    """
    grid = grid or choose_grid(spec)
    pages: list[PagePlan] = []
    n = grid.per_sheet
    mirror = "x" if mirrors_x(grid, duplex) else "y"
    # Every full sheet has the same slots and marks: they are computed once per card count and
    # shared (read-only) by the pages, so a 4,000-card deck does not hold 4,000 cards' marks.
    shared: dict[int, tuple] = {}
    for sheet, start in enumerate(range(0, count, n), 1):
        k = min(n, count - start)
        if k not in shared:
            fronts = front_slots(grid, spec, k)
            back_slots = mirror_slots(fronts, grid, duplex, back_offset) if backs else []
            shared[k] = (fronts, page_marks(fronts, spec, grid), back_slots,
                         page_marks(back_slots, spec, grid) if backs else [])
        fronts, front_marks, back_slots, back_marks = shared[k]
        indexes = list(range(start, start + k))
        vertical = grid.label_side == "left"
        cut = spec.cut == "shared"
        pages.append(PagePlan("front", sheet, grid.page_w, grid.page_h, fronts, front_marks, indexes,
                              label_band(grid, spec), vertical, shared_cut=cut))
        if backs:
            pages.append(PagePlan("back", sheet, grid.page_w, grid.page_h, back_slots, back_marks, indexes,
                                  label_band(grid, spec, mirror), vertical, shared_cut=cut))  # type: ignore[arg-type]
        elif blank_backs:
            pages.append(PagePlan("back", sheet, grid.page_w, grid.page_h, [], [], [],
                                  label_band(grid, spec, mirror), vertical, blank=True))  # type: ignore[arg-type]
    return grid, pages

