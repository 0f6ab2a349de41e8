"""Crop marks (トンボ) around a block of cards: pure geometry in pt, page origin bottom-left.

Marks lie outside the block's bounding box only, so none crosses a card's bleed box: each cut
line (a trim line; for Japanese marks also the bleed lines of the corner トンボ) is marked at both
of its ends, running outward from ``offset`` past the block's bleed edge, ``length_x`` long for
the horizontal marks left and right of the block and ``length_y`` for the vertical marks above and
below it (the grid gives as much as the sheet has room for, :mod:`cardgen.layout.grid`). Japanese
marks add a centre トンボ (a line along the centre axis and a short cross bar) at the middle of
each side of the block.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from cardgen.core.units import MM
from cardgen.layout.ops import Line

CROSS_HALF = 4 * MM  #: half-length of a centre トンボ's cross bar, where the neighbouring marks leave room
WIDTH = 0.25  #: pt, the mark stroke


class Placed(Protocol):
    """A card placed on a page: its trim rectangle and the bleed box it is printed in."""

    x: float
    y: float
    w: float
    h: float
    box: tuple[float, float, float, float]


def _distinct(values: Sequence[float]) -> list[float]:
    """``values`` sorted, those closer than 1e-4 pt to the previous one left out (the abutting bleed
    lines of two neighbours are one line)."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-4:
            out.append(v)
    return out


def cut_lines(slots: Sequence[Placed], japanese: bool) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal line to mark: trim lines, and for
    Japanese marks the bleed lines (each card's bleed box edge) too."""
    xs = [v for s in slots for v in (s.x, s.x + s.w)]
    ys = [v for s in slots for v in (s.y, s.y + s.h)]
    if japanese:
        xs += [v for s in slots for v in (s.box[0], s.box[2])]
        ys += [v for s in slots for v in (s.box[1], s.box[3])]
    return _distinct(xs), _distinct(ys)


SIDES = ("left", "right", "top", "bottom")


def crop_marks(slots: Sequence[Placed], style: str, length_x: float, length_y: float, offset: float,
               width: float = WIDTH, color: str = "#000000", sides: Sequence[str] = SIDES) -> list[Line]:
    """The crop mark lines of a page whose cards are ``slots`` (see the module doc), on the
    ``sides`` of the block named (a fold-over sheet leaves the fold side out); none for ``style``
    ``none``, no slots, or a zero length."""
    if style == "none" or not slots:
        return []
    bx0 = min(s.box[0] for s in slots)
    by0 = min(s.box[1] for s in slots)
    bx1 = max(s.box[2] for s in slots)
    by1 = max(s.box[3] for s in slots)
    japanese = style == "japanese"
    xs, ys = cut_lines(slots, japanese)
    lines: list[Line] = []
    if length_y > 0:
        for x in xs:
            if "top" in sides:
                lines.append(Line(x, by1 + offset, x, by1 + offset + length_y, width, color))
            if "bottom" in sides:
                lines.append(Line(x, by0 - offset, x, by0 - offset - length_y, width, color))
    if length_x > 0:
        for y in ys:
            if "left" in sides:
                lines.append(Line(bx0 - offset, y, bx0 - offset - length_x, y, width, color))
            if "right" in sides:
                lines.append(Line(bx1 + offset, y, bx1 + offset + length_x, y, width, color))
    if japanese:
        lines += _centre_marks((bx0, by0, bx1, by1), xs, ys, length_x, length_y, offset, width, color, sides)
    return lines


def fold_mark(x0: float, y0: float, x1: float, y1: float, width: float = WIDTH, color: str = "#000000") -> list[Line]:
    """A fold mark (折りトンボ) from ``(x0, y0)`` to ``(x1, y1)``: a dashed line (1.5 mm dashes,
    1 mm gaps), so it does not read as a cut mark."""
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= 0:
        return []
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    out, t = [], 0.0
    while t < length - 1e-6:
        e = min(length, t + 1.5 * MM)
        out.append(Line(x0 + ux * t, y0 + uy * t, x0 + ux * e, y0 + uy * e, width, color))
        t = e + 1 * MM
    return out


def _centre_marks(bbox, xs, ys, length_x, length_y, offset, width, color, sides=SIDES) -> list[Line]:
    """The centre トンボ of each side of the block ``bbox``: a line on the centre axis and a cross
    bar through its middle, kept 1 mm clear of the cut-line marks beside it."""
    bx0, by0, bx1, by1 = bbox
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    out: list[Line] = []
    if length_y > 0:
        half = min([CROSS_HALF] + [abs(x - cx) - 1 * MM for x in xs if abs(x - cx) > 1e-4])
        for y0, sign in [e for e, side in (((by1 + offset, 1), "top"), ((by0 - offset, -1), "bottom")) if side in sides]:
            if all(abs(x - cx) > 1e-4 for x in xs):
                out.append(Line(cx, y0, cx, y0 + sign * length_y, width, color))
            if half >= 1 * MM:
                ym = y0 + sign * length_y / 2
                out.append(Line(cx - half, ym, cx + half, ym, width, color))
    if length_x > 0:
        half = min([CROSS_HALF] + [abs(y - cy) - 1 * MM for y in ys if abs(y - cy) > 1e-4])
        for x0, sign in [e for e, side in (((bx0 - offset, -1), "left"), ((bx1 + offset, 1), "right")) if side in sides]:
            if all(abs(y - cy) > 1e-4 for y in ys):
                out.append(Line(x0, cy, x0 + sign * length_x, cy, width, color))
            if half >= 1 * MM:
                xm = x0 + sign * length_x / 2
                out.append(Line(xm, cy - half, xm, cy + half, width, color))
    return out
