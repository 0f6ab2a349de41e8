"""The imposition grid (面付け): how many cards fit a sheet, and where.

All geometry in pt, page origin bottom-left. Cards keep their own bleed and are separated by a
gutter that holds the crop marks (:mod:`cardgen.layout.sheet`), so the grid leaves the mark space
between bleed boxes and around the outside, all inside the printer margin. The page label takes a
4 mm band along the bottom of the page, or along the left side when that holds more cards (NKO's
44 × 63 mm cards: 3 × 4 on portrait A4 with the band at the side, 3 × 3 with it at the bottom).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from cardgen.core.units import MM

Marks = Literal["japanese", "western", "none"]
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
