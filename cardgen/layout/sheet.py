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

Page label: a 4 mm band inside the printer margin, along the bottom of the page, or along the
left side (text reading upwards) when that holds more cards (NKO's 44 × 63 mm cards: 3 × 4 on
portrait A4 with the band at the side, 3 × 3 with it at the bottom).

Duplex: every front page is followed by its back page (same size and orientation), so a
double-sided print pairs them; a component without a back gets a blank back page
(:func:`impose` with ``blank_backs``). The back page is the front page seen through the paper. Flipping on the long edge
mirrors across the axis parallel to the long edge: a portrait page mirrors x
(``x' = W − x − w``), a landscape page mirrors y. Short-edge flip mirrors the other axis.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from cardgen.layout.ops import Line
from cardgen.core.units import MM

Marks = Literal["japanese", "western", "none"]
Duplex = Literal["long-edge", "short-edge"]
LabelSide = Literal["bottom", "left"]


@dataclass(frozen=True)
class SheetSpec:
    """What an imposition needs. Lengths in pt.

    Attributes:
        paper_w, paper_h: portrait paper size.
        card_w, card_h: trim size.
        bleed: bleed on each side.
        margin: printer margin (area a home printer cannot reach).
        mark_length: length of a crop mark line (also the minimum gutter).
        mark_offset: gap between the bleed edge and where a mark starts.
        label_height: band at the bottom of the printable area for the page label.
        marks: crop mark style.
    """

    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    bleed: float = 3 * MM
    margin: float = 5 * MM
    mark_length: float = 2.0 * MM
    mark_offset: float = 0.0
    label_height: float = 4 * MM
    marks: Marks = "japanese"


@dataclass(frozen=True)
class Grid:
    """The chosen arrangement: columns × rows on a portrait or landscape page."""

    cols: int
    rows: int
    landscape: bool
    page_w: float
    page_h: float
    gutter_x: float  #: space between neighbouring bleed boxes, horizontally
    gutter_y: float
    origin_x: float  #: trim left of column 0
    origin_y: float  #: trim bottom of the top row... see slots()
    label_side: LabelSide = "bottom"  #: where the page label band lies on a front page

    @property
    def per_sheet(self) -> int:
        """Cards one sheet holds: columns × rows."""
        return self.cols * self.rows


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


def _fit(avail_w: float, avail_h: float, spec: SheetSpec) -> tuple[int, int]:
    """Most columns × rows of bleed boxes that fit, with a gutter ≥ mark space between them and
    mark space around the outside."""
    cell_w = spec.card_w + 2 * spec.bleed
    cell_h = spec.card_h + 2 * spec.bleed
    m = _mark_space(spec)
    # n cells need n × cell + (n + 1) × m; the tolerance is a ratio, kept far below 1e-6 pt overflow
    cols = int(math.floor((avail_w - m) / (cell_w + m) + 1e-9))
    rows = int(math.floor((avail_h - m) / (cell_h + m) + 1e-9))
    return max(cols, 0), max(rows, 0)


def _mark_space(spec: SheetSpec) -> float:
    return 0.0 if spec.marks == "none" else spec.mark_offset + spec.mark_length


def choose_grid(spec: SheetSpec, landscape: bool | None = None) -> Grid:
    """The arrangement with the most cards per sheet over both orientations (or only
    ``landscape`` when given) and both places for the label band (bottom, left side); on a tie
    the bottom band, then portrait. Bleed boxes keep the mark space between them and around the
    outside, all inside the printer margin.

    Raises:
        ValueError: when not even one card fits inside the printer margin.
    """
    best: Grid | None = None
    for side in ("bottom", "left"):
        for land in (False, True):
            if landscape is not None and land != landscape:
                continue
            g = _grid(spec, land, side)  # type: ignore[arg-type]
            if g is not None and (best is None or g.per_sheet > best.per_sheet):
                best = g
    if best is None:
        raise ValueError("not one card fits on the paper inside the printer margin")
    return best


def _grid(spec: SheetSpec, landscape: bool, side: LabelSide) -> Grid | None:
    """The grid for one orientation and label side, or None when no card fits."""
    pw, ph = (spec.paper_h, spec.paper_w) if landscape else (spec.paper_w, spec.paper_h)
    band_w, band_h = (spec.label_height, 0.0) if side == "left" else (0.0, spec.label_height)
    avail_w = pw - 2 * spec.margin - band_w
    avail_h = ph - 2 * spec.margin - band_h
    cols, rows = _fit(avail_w, avail_h, spec)
    if cols * rows == 0:
        return None
    cell_w = spec.card_w + 2 * spec.bleed
    cell_h = spec.card_h + 2 * spec.bleed
    m = _mark_space(spec)
    # Share the leftover space: gutters grow up to 3 × the mark space, the rest centres the grid.
    spare_w = avail_w - cols * cell_w
    spare_h = avail_h - rows * cell_h
    gx = min(spare_w / (cols + 1), 3 * m) if cols > 1 else 0.0
    gy = min(spare_h / (rows + 1), 3 * m) if rows > 1 else 0.0
    gx, gy = max(gx, m if cols > 1 else 0.0), max(gy, m if rows > 1 else 0.0)
    block_w = cols * cell_w + (cols - 1) * gx
    block_h = rows * cell_h + (rows - 1) * gy
    ox = spec.margin + band_w + (avail_w - block_w) / 2 + spec.bleed
    oy = spec.margin + band_h + (avail_h - block_h) / 2 + spec.bleed
    return Grid(cols, rows, landscape, pw, ph, gx, gy, ox, oy, side)


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


def sheet_count(count: int, grid: Grid) -> int:
    """Sheets needed for ``count`` cards on ``grid``."""
    return -(-count // grid.per_sheet)


def common_orientation(runs: list[tuple[SheetSpec, int]]) -> bool | None:
    """One orientation for a whole file of components: ``runs`` is ``(spec, card count)`` per
    component. Returns ``landscape`` (True/False) when that orientation costs no component a
    sheet more than its own best grid — preferring the first component's own orientation — or
    None when the components need different orientations (the page labels then say how to feed
    each page).

    Raises:
        ValueError: a component that fits in neither orientation (as :func:`choose_grid`).
    """
    if not runs:
        return None
    best = [choose_grid(spec) for spec, _ in runs]
    need = [sheet_count(n, g) for (_, n), g in zip(runs, best)]
    first = best[0].landscape
    for land in (first, not first):
        ok = True
        for (spec, n), sheets in zip(runs, need):
            try:
                ok = sheet_count(n, choose_grid(spec, land)) == sheets
            except ValueError:
                ok = False
            if not ok:
                break
        if ok:
            return land
    return None
