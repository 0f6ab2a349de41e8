"""The imposition grid (面付け): how many cards fit a sheet, and where.

All geometry in pt, page origin bottom-left. Crop marks (:mod:`cardgen.layout.sheet`) lie only
around the outside of the block of cards, never between two cards, so every mark lies outside
every card's bleed box; the space between the cards' bleed boxes (the gutter) is then zero:

- ``cut: separate`` (the default): every card keeps its own bleed; neighbouring bleed boxes touch,
  and each card is cut on its own four trim lines (two cuts between neighbours, 2 × bleed apart).
- ``cut: shared``: the cards touch at their trim lines (one cut between neighbours) and the block
  has the bleed only around its outside — for pieces with a flat background to the edge.

The imposition search keeps the most cards per sheet with a mark space of at least
:data:`MARK_MIN` (plus :data:`MARK_OFFSET` from the bleed) on every side, then lets the marks
grow to their full length (:data:`MARK_LENGTH`: JIS トンボ arms 10 mm, Western marks 5 mm) in the
space left; on a tie, the longer marks win. All of it inside the printer margin, beside the page
label's 4 mm band (bottom, or up the left side when that holds more cards: NKO's 44 × 63 mm cards
are 3 × 4 on portrait A4 with the band at the side).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from cardgen.core.units import MM

Marks = Literal["japanese", "western", "none"]
LabelSide = Literal["bottom", "left"]
Cut = Literal["separate", "shared"]

#: Full mark length per style: JIS corner トンボ arms of about 10 mm; Western marks ≥ 5 mm.
MARK_LENGTH = {"japanese": 10 * MM, "western": 5 * MM, "none": 0.0}
#: The shortest mark the search accepts: long enough to lay a ruler on (a 5 mm printer margin
#: leaves 4 mm above and below two rows of poker cards on landscape A4).
MARK_MIN = 3 * MM
#: Gap between the block's bleed edge and where a mark starts: a 0.5 mm misprint never puts a
#: mark on the art.
MARK_OFFSET = 0.5 * MM


@dataclass(frozen=True)
class SheetSpec:
    """What an imposition needs. Lengths in pt.

    Attributes:
        paper_w, paper_h: portrait paper size.
        card_w, card_h: trim size.
        bleed: bleed on each side.
        margin: printer margin (area a home printer cannot reach).
        mark_length: full length of a crop mark line (None: the style's, :data:`MARK_LENGTH`);
            marks are shorter where the sheet leaves less room, never below ``mark_min``.
        mark_min: the shortest crop mark the imposition search accepts.
        mark_offset: gap between the block's bleed edge and where a mark starts.
        label_height: band at the bottom of the printable area for the page label.
        marks: crop mark style.
        cut: ``separate`` (each card its own bleed) or ``shared`` (cards touch at the trim).
    """

    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    bleed: float = 3 * MM
    margin: float = 5 * MM
    mark_length: float | None = None
    mark_min: float = MARK_MIN
    mark_offset: float = MARK_OFFSET
    label_height: float = 4 * MM
    marks: Marks = "japanese"
    cut: Cut = "separate"

    @property
    def full_mark(self) -> float:
        """The crop mark length wanted when the sheet has room for it (0 without marks)."""
        if self.marks == "none":
            return 0.0
        return MARK_LENGTH[self.marks] if self.mark_length is None else self.mark_length

    @property
    def pitch(self) -> tuple[float, float]:
        """Distance from one card's trim to its neighbour's, across and down."""
        if self.cut == "shared":
            return self.card_w, self.card_h
        return self.card_w + 2 * self.bleed, self.card_h + 2 * self.bleed


@dataclass(frozen=True)
class Grid:
    """The chosen arrangement: columns × rows on a portrait or landscape page."""

    cols: int
    rows: int
    landscape: bool
    page_w: float
    page_h: float
    gutter_x: float  #: space between neighbouring bleed boxes, horizontally (0: marks lie outside the block)
    gutter_y: float
    origin_x: float  #: trim left of column 0
    origin_y: float  #: trim bottom of the bottom row
    label_side: LabelSide = "bottom"  #: where the page label band lies on a front page
    mark_x: float = 0.0  #: length of the horizontal marks left and right of the block
    mark_y: float = 0.0  #: length of the vertical marks above and below the block

    @property
    def per_sheet(self) -> int:
        """Cards one sheet holds: columns × rows."""
        return self.cols * self.rows


def block_size(n: int, card: float, bleed: float, shared: bool) -> float:
    """Length of ``n`` cards of trim ``card`` in a row with their bleed (pt): touching bleed
    boxes, or (``shared``) touching trims with the bleed around the outside only."""
    return n * card + 2 * bleed if shared else n * (card + 2 * bleed)


def _mark_space(spec: SheetSpec) -> float:
    """The least space a side of the block needs for its marks."""
    return 0.0 if spec.marks == "none" else spec.mark_offset + min(spec.mark_min, spec.full_mark)


def _fit(avail: float, card: float, spec: SheetSpec) -> int:
    """Most cards in a row of ``avail`` pt, with the least mark space on both ends."""
    shared = spec.cut == "shared"
    room = avail - 2 * _mark_space(spec) - (2 * spec.bleed if shared else 0.0)
    pitch = card if shared else card + 2 * spec.bleed
    return max(int(math.floor(room / pitch + 1e-9)), 0)  # the tolerance: far below 1e-6 pt of overflow


def choose_grid(spec: SheetSpec, landscape: bool | None = None) -> Grid:
    """The arrangement with the most cards per sheet over both orientations (or only
    ``landscape`` when given) and both places for the label band (bottom, left side); on a tie
    the one with the longer marks, then the bottom band, then portrait.

    Raises:
        ValueError: when not even one card fits inside the printer margin.
    """
    best: Grid | None = None
    for side in ("bottom", "left"):
        for land in (False, True):
            if landscape is not None and land != landscape:
                continue
            g = _grid(spec, land, side)  # type: ignore[arg-type]
            if g is None:
                continue
            if best is None or (g.per_sheet, min(g.mark_x, g.mark_y)) > (best.per_sheet, min(best.mark_x, best.mark_y) + 1e-6):
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
    cols, rows = _fit(avail_w, spec.card_w, spec), _fit(avail_h, spec.card_h, spec)
    if cols * rows == 0:
        return None
    shared = spec.cut == "shared"
    block_w = block_size(cols, spec.card_w, spec.bleed, shared)
    block_h = block_size(rows, spec.card_h, spec.bleed, shared)
    off = spec.mark_offset

    def mark(spare: float) -> float:  # the longest mark the spare space takes, up to the full length
        return 0.0 if spec.marks == "none" else max(0.0, min(spec.full_mark, spare / 2 - off))

    ox = spec.margin + band_w + (avail_w - block_w) / 2 + spec.bleed
    oy = spec.margin + band_h + (avail_h - block_h) / 2 + spec.bleed
    return Grid(cols, rows, landscape, pw, ph, 0.0, 0.0, ox, oy, side,
                mark(avail_w - block_w), mark(avail_h - block_h))


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
