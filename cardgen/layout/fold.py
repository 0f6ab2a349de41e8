"""Fold-over sheets (``--layout fold``): fronts and their backs on one page, mirrored about a fold
line — for a one-sided printer. Printed, folded along the line and glued, every back lies behind
its front by construction (no duplex registration). Pure geometry in pt, page origin bottom-left.

The fold line is the page's vertical centre line (fronts on the left half) or its horizontal one
(fronts on the top half), whichever holds more cards. Between the fold line and the nearest bleed
box is half of :data:`FOLD_GAP` on each side. Backs folded over a horizontal line are printed turned
180°, so a card turned over sideways (as cards are) shows its back upright — as over a vertical fold. Crop marks lie around each half's block of cards on
its three outer sides (:func:`cardgen.layout.marks.crop_marks`), outside every card; the fold line
gets a dashed fold mark (折りトンボ) at both ends. The page label takes its band at the bottom.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from cardgen.layout.grid import Grid, SheetSpec, block_size
from cardgen.layout.marks import crop_marks, fold_mark
from cardgen.layout.sheet import PagePlan, Slot, front_slots, mirror_about
from cardgen.core.units import MM

FOLD_GAP = 2 * MM  #: between the two halves' bleed boxes, the fold line in its middle
Axis = Literal["x", "y"]  #: ``x``: a vertical fold line (the halves side by side); ``y``: a horizontal one


@dataclass(frozen=True)
class FoldGrid:
    """The front half's grid (:class:`Grid`, on the whole page) and where the fold line is."""

    grid: Grid
    axis: Axis
    fold: float  #: x (axis ``x``) or y (axis ``y``) of the fold line, pt

    @property
    def per_sheet(self) -> int:
        """Cards (front and back each) one sheet holds."""
        return self.grid.per_sheet


def _fit(avail: float, card: float, spec: SheetSpec) -> int:
    shared = spec.cut == "shared"
    pitch = card if shared else card + 2 * spec.bleed
    room = avail - (2 * spec.bleed if shared else 0.0)
    return max(int(room / pitch + 1e-9), 0)


def _fold_grid(spec: SheetSpec, landscape: bool, axis: Axis, gap: float) -> FoldGrid | None:
    W, H = (spec.paper_h, spec.paper_w) if landscape else (spec.paper_w, spec.paper_h)
    m, band, off = spec.margin, spec.label_height, spec.mark_offset
    least = 0.0 if spec.marks == "none" else off + min(spec.mark_min, spec.full_mark)
    full = spec.full_mark
    shared = spec.cut == "shared"
    if axis == "x":  # fronts on the left half: marks left, above and below
        avail_w = W / 2 - gap / 2 - m - least
        avail_h = H - 2 * m - band - 2 * least
    else:  # fronts on the top half; the bottom half (the backs) also holds the label band
        avail_w = W - 2 * m - 2 * least
        avail_h = H / 2 - gap / 2 - m - band - least
    cols, rows = _fit(avail_w, spec.card_w, spec), _fit(avail_h, spec.card_h, spec)
    if cols * rows == 0:
        return None
    bw = block_size(cols, spec.card_w, spec.bleed, shared)
    bh = block_size(rows, spec.card_h, spec.bleed, shared)

    def mark(space: float) -> float:
        return 0.0 if spec.marks == "none" else max(0.0, min(full, space - off))

    if axis == "x":
        x0 = W / 2 - gap / 2 - bw
        y0 = m + band + (H - 2 * m - band - bh) / 2
        mark_x, mark_y = mark(x0 - m), mark((H - 2 * m - band - bh) / 2)
        fold = W / 2
    else:
        x0 = (W - bw) / 2
        y0 = H / 2 + gap / 2
        mark_x, mark_y = mark((W - 2 * m - bw) / 2), mark(min(H - m - (y0 + bh), H / 2 - gap / 2 - bh - m - band))
        fold = H / 2
    grid = Grid(cols, rows, landscape, W, H, 0.0, 0.0, x0 + spec.bleed, y0 + spec.bleed, "bottom", mark_x, mark_y)
    return FoldGrid(grid, axis, fold)


def choose_fold_grid(spec: SheetSpec, gap: float = FOLD_GAP) -> FoldGrid:
    """The fold-over arrangement with the most cards per sheet (both orientations, both fold
    axes); on a tie the longer marks, then portrait.

    Raises:
        ValueError: not one card and its back fit the page.
    """
    best: FoldGrid | None = None
    for landscape in (False, True):
        for axis in ("x", "y"):
            g = _fold_grid(spec, landscape, axis, gap)  # type: ignore[arg-type]
            if g is None:
                continue
            key = (g.per_sheet, min(g.grid.mark_x, g.grid.mark_y))
            if best is None or key > (best.per_sheet, min(best.grid.mark_x, best.grid.mark_y) + 1e-6):
                best = g
    if best is None:
        raise ValueError("not one card and its back fit on the paper inside the printer margin")
    return best


def _marks(fronts: list[Slot], backs: list[Slot], spec: SheetSpec, fg: FoldGrid) -> list:
    g, off = fg.grid, spec.mark_offset
    if spec.marks == "none":
        return []
    if fg.axis == "x":
        front_sides, back_sides = ("left", "top", "bottom"), ("right", "top", "bottom")
    else:
        front_sides, back_sides = ("top", "left", "right"), ("bottom", "left", "right")
    out = crop_marks(fronts, spec.marks, g.mark_x, g.mark_y, off, sides=front_sides)
    out += crop_marks(backs, spec.marks, g.mark_x, g.mark_y, off, sides=back_sides)
    boxes = [s.box for s in fronts + backs]
    if fg.axis == "x" and g.mark_y > 0:
        top, bottom = max(b[3] for b in boxes) + off, min(b[1] for b in boxes) - off
        out += fold_mark(fg.fold, top, fg.fold, top + g.mark_y) + fold_mark(fg.fold, bottom, fg.fold, bottom - g.mark_y)
    elif fg.axis == "y" and g.mark_x > 0:
        left, right = min(b[0] for b in boxes) - off, max(b[2] for b in boxes) + off
        out += fold_mark(left, fg.fold, left - g.mark_x, fg.fold) + fold_mark(right, fg.fold, right + g.mark_x, fg.fold)
    return out


def fold_pages(count: int, spec: SheetSpec, grid: FoldGrid | None = None) -> tuple[FoldGrid, list[PagePlan]]:
    """One page per sheet for ``count`` cards: ``slots`` the fronts, ``fold_backs`` their backs
    mirrored about the fold line, the marks of both halves and the fold marks."""
    fg = grid or choose_fold_grid(spec)
    g = fg.grid
    n = g.per_sheet
    pages: list[PagePlan] = []
    shared: dict[int, tuple] = {}
    for sheet, start in enumerate(range(0, count, n), 1):
        k = min(n, count - start)
        if k not in shared:
            fronts = front_slots(g, spec, k)
            backs = mirror_about(fronts, g.page_w, g.page_h, fg.axis == "x")
            if fg.axis == "y":  # folded over a horizontal line: turned, so a card turned sideways shows its back upright
                backs = [replace(b, turned=True) for b in backs]
            shared[k] = (fronts, backs, _marks(fronts, backs, spec, fg))
        fronts, backs, marks = shared[k]
        band = (spec.margin, spec.margin, g.page_w - 2 * spec.margin, spec.label_height)
        pages.append(PagePlan("front", sheet, g.page_w, g.page_h, fronts, marks, list(range(start, start + k)),
                              band, False, shared_cut=spec.cut == "shared", fold_backs=backs))
    return fg, pages
