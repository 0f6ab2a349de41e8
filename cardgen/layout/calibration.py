"""Duplex calibration sheet: measure how far a printer shifts the backs (pure geometry, pt).

Printed double-sided, the front carries thin crosshairs at five targets (centre and four
points 30 mm in from the corners); the back carries, behind each target, a horizontal and a
vertical millimetre scale. Held against the light, each front line crosses its scale at a
number: read X on the horizontal scale and Y on the vertical one and pass them as
``--back-offset X,Y`` (mm, x right and y down as seen on the back). With a perfect printer both
read 0. Why the number is the correction: if the printer moves the back by +d, the scale mark
labelled −d lands on the front line, and moving the back by −d cancels the shift.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.layout.ops import Line, Rect, Text
from cardgen.core.units import MM

SCALE_MM = 10  #: each scale runs −10 … +10 mm
GAP = 13 * MM  #: distance of a scale from its target: past the other scale, so they never overlap


@dataclass
class CalibrationPage:
    """One side ("front" or "back") of the duplex calibration sheet: page size and ops in pt."""
    side: str
    width: float
    height: float
    ops: list = field(default_factory=list)


def targets(width: float, height: float, inset: float = 30 * MM) -> list[tuple[float, float]]:
    """Target points on the front page (pt, y up): centre, then the four inset corners."""
    return [(width / 2, height / 2), (inset, height - inset), (width - inset, height - inset),
            (inset, inset), (width - inset, inset)]


def mirror(point: tuple[float, float], width: float, height: float, duplex: str) -> tuple[float, float]:
    """Where a front point lies on the back page. A long-edge flip mirrors across the long edge's
    axis: x on a portrait page, y on a landscape one (``width > height``); short-edge the other."""
    x, y = point
    mirrors_x = (duplex == "long-edge") != (width > height)
    return (width - x, y) if mirrors_x else (x, height - y)


def calibration_pages(width: float, height: float, duplex: str = "long-edge", font: str = "body",
                      back_offset: tuple[float, float] = (0.0, 0.0), note: str = "") -> list[CalibrationPage]:
    """Front and back page of the calibration sheet for paper ``width × height`` (pt; landscape
    when ``width > height``, which both pages then say). ``back_offset`` (mm, x right, y down)
    shifts the back like ``--back-offset`` would, so a corrected printer can be checked with a
    second print. ``note``: a line under the heading, e.g. which print sheets share the orientation."""
    way = "LANDSCAPE" if width > height else "PORTRAIT"
    dx, dy = back_offset[0] * MM, -back_offset[1] * MM
    front = CalibrationPage("front", width, height)
    back = CalibrationPage("back", width, height)
    # The front lines reach the scales even when the back is shifted the full ±SCALE_MM along the
    # line (the scale then sits GAP + SCALE_MM from the target); they end 5 mm from the paper edge.
    arm = GAP + (SCALE_MM + 2) * MM
    for tx, ty in targets(width, height):
        front.ops += [Line(tx - arm, ty, tx + arm, ty, 0.3), Line(tx, ty - arm, tx, ty + arm, 0.3)]
        front.ops += [Rect(tx - 0.6 * MM, ty - 0.6 * MM, 1.2 * MM, 1.2 * MM, stroke="#000000", stroke_width=0.3)]
        bx, by = mirror((tx, ty), width, height, duplex)
        back.ops += _scales(bx + dx, by + dy, font)
    front.ops += _notes(height, font, [
        f"cardgen duplex calibration — FRONT — {way} page",
        *([note] if note else []),
        "Print this PDF double-sided at 100 % (actual size), with the same duplex setting you use for the print sheets.",
        "Then look at the back against a light.",
    ])
    back.ops += _notes(height, font, [
        f"cardgen duplex calibration — BACK — {way} page",
        *([note] if note else []),
        "Against the light, each front line crosses a scale: read X on the horizontal scales, Y on the vertical ones.",
        "Build with --back-offset X,Y (mm; x right, y down as seen here). Both 0: your printer needs no correction.",
    ])
    return [front, back]


def _scales(cx: float, cy: float, font: str) -> list:
    ops: list = []
    hy = cy + GAP  # horizontal scale above the target: the front's vertical line crosses it
    vx = cx - GAP  # vertical scale left of the target: the front's horizontal line crosses it
    ops.append(Line(cx - SCALE_MM * MM, hy, cx + SCALE_MM * MM, hy, 0.3))
    ops.append(Line(vx, cy - SCALE_MM * MM, vx, cy + SCALE_MM * MM, 0.3))
    for v in range(-SCALE_MM, SCALE_MM + 1):
        t = (3.0 if v == 0 else 2.0 if v % 5 == 0 else 1.2) * MM
        w = 0.4 if v == 0 else 0.2
        x = cx + v * MM
        ops.append(Line(x, hy, x, hy + t, w))
        y = cy - v * MM  # y down: +v is below the target
        ops.append(Line(vx, y, vx - t, y, w))
        if v % 5 == 0:
            label = f"{v:+d}" if v else "0"
            ops.append(Text(x - len(label) * 1.1, hy + t + 0.8 * MM, label, font, 5))
            ops.append(Text(vx - t - 1 * MM - len(label) * 2.2, y - 1.6, label, font, 5))
    ops.append(Text(cx + SCALE_MM * MM + 1 * MM, hy - 1.6, "X", font, 6))
    ops.append(Text(vx - 1.5, cy - SCALE_MM * MM - 3 * MM, "Y", font, 6))
    return ops


def _notes(height: float, font: str, lines: list[str]) -> list:
    """The instruction lines as Text ops (pt), from 20 mm in, the first one larger."""
    y0 = height / 2 - 22 * MM
    return [Text(20 * MM, y0 - i * 4.5 * MM, s, font, 8 if i == 0 else 6.5) for i, s in enumerate(lines)]
