"""Imposition (面付け): placing cards on sheets, with bleed, crop marks and duplex backs.

All geometry in pt, page origin bottom-left. A slot is a card's *trim* rectangle; every card
keeps its own bleed, and cards are separated by a gutter that holds the crop marks, so marks
never fall on a neighbouring card's bleed.

Crop marks (トンボ):
- ``japanese``: at each corner a double mark — one line on the trim line and one on the bleed
  line, both running outward from the bleed edge — plus a centre mark at the middle of each
  side (JIS Z 8306 style "trim marks and register marks", simplified for small pieces).
- ``western``: one line on each trim line at every corner, starting outside the bleed.
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
from cardgen.layout.ops import Line

Duplex = Literal["long-edge", "short-edge"]


@dataclass(frozen=True)
class Slot:
    """One card position on a page: trim rectangle (pt) and the index of the card in the run."""

    x: float
    y: float
    w: float
    h: float
    index: int  #: position in the page's card list (0-based, reading order of the front)
    col: int
    row: int


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
    slots = []
    cell_w = spec.card_w + 2 * spec.bleed
    cell_h = spec.card_h + 2 * spec.bleed
    for i in range(count):
        r, c = divmod(i, grid.cols)
        x = grid.origin_x + c * (cell_w + grid.gutter_x)
        y = grid.origin_y + (grid.rows - 1 - r) * (cell_h + grid.gutter_y)
        slots.append(Slot(x, y, spec.card_w, spec.card_h, i, c, r))
    return slots


def mirror_slots(slots: list[Slot], grid: Grid, duplex: Duplex,
                 offset: tuple[float, float] = (0.0, 0.0)) -> list[Slot]:
    """Back positions: each front slot mirrored so the back prints behind its front.

    Long-edge flip mirrors across the long axis of the page (x on portrait, y on landscape);
    short-edge flip mirrors the other axis. ``offset`` (pt, x right, y up, in the back page's
    own coordinates) is then added to every slot, to cancel a printer's duplex shift measured
    with the calibration sheet (:mod:`cardgen.layout.calibration`).
    """
    mirror_x = mirrors_x(grid, duplex)
    dx, dy = offset
    out = []
    for s in slots:
        if mirror_x:
            out.append(Slot(grid.page_w - s.x - s.w + dx, s.y + dy, s.w, s.h, s.index, s.col, s.row))
        else:
            out.append(Slot(s.x + dx, grid.page_h - s.y - s.h + dy, s.w, s.h, s.index, s.col, s.row))
    return out


def crop_marks(slots: list[Slot], spec: SheetSpec, width: float = 0.25, color: str = "#000000") -> list[Line]:
    """Crop mark lines for every slot (see module doc). Each line lies outside every bleed box."""
    if spec.marks == "none":
        return []
    b, L, off = spec.bleed, spec.mark_length, spec.mark_offset
    lines: list[Line] = []
    for s in slots:
        x0, y0, x1, y1 = s.x, s.y, s.x + s.w, s.y + s.h
        bx0, by0, bx1, by1 = x0 - b, y0 - b, x1 + b, y1 + b
        verticals = [x0, x1] if spec.marks == "western" else [x0, x1, bx0, bx1]
        horizontals = [y0, y1] if spec.marks == "western" else [y0, y1, by0, by1]
        # Vertical lines (x = trim/bleed x), running outward from the bleed box, top and bottom.
        for x in verticals:
            lines.append(Line(x, by1 + off, x, by1 + off + L, width, color))
            lines.append(Line(x, by0 - off, x, by0 - off - L, width, color))
        for y in horizontals:
            lines.append(Line(bx0 - off, y, bx0 - off - L, y, width, color))
            lines.append(Line(bx1 + off, y, bx1 + off + L, y, width, color))
        if spec.marks == "japanese":
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            lines.append(Line(cx, by1 + off, cx, by1 + off + L, width, color))
            lines.append(Line(cx, by0 - off, cx, by0 - off - L, width, color))
            lines.append(Line(bx0 - off, cy, bx0 - off - L, cy, width, color))
            lines.append(Line(bx1 + off, cy, bx1 + off + L, cy, width, color))
    return lines


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
            shared[k] = (fronts, crop_marks(fronts, spec), back_slots, crop_marks(back_slots, spec) if backs else [])
        fronts, front_marks, back_slots, back_marks = shared[k]
        indexes = list(range(start, start + k))
        vertical = grid.label_side == "left"
        pages.append(PagePlan("front", sheet, grid.page_w, grid.page_h, fronts, front_marks, indexes,
                              label_band(grid, spec), vertical))
        if backs:
            pages.append(PagePlan("back", sheet, grid.page_w, grid.page_h, back_slots, back_marks, indexes,
                                  label_band(grid, spec, mirror), vertical))  # type: ignore[arg-type]
        elif blank_backs:
            pages.append(PagePlan("back", sheet, grid.page_w, grid.page_h, [], [], [],
                                  label_band(grid, spec, mirror), vertical, blank=True))  # type: ignore[arg-type]
    return grid, pages

