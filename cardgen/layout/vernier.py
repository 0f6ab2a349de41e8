"""A vernier pair for the duplex calibration sheet: read the back's shift to 0.25 mm against the
light. Pure geometry in pt (y up), in the back page's coordinates; the caller draws the front's
part at the same place of the front page (:func:`cardgen.layout.calibration.mirror`).

The front carries the main ruler: ticks 2 mm apart, the numbers (mm) growing towards −x for the X
ruler (x right as seen on the back is the correction's sign, so they run right to left) and
towards +y for the Y ruler (its correction counts downwards). The back carries the vernier: 9
ticks 1.75 mm apart from its zero index, numbered 0, .5, 1, 1.5, 2 every other tick, on the other
side of the shared baseline. A printer that moves the back by ``s`` moves the vernier by ``s``: its
zero index then sits at main-ruler value ``d`` — the correction — and vernier tick ``k`` lines up
with a main tick exactly when ``d = M + k/4`` (``M``, the last main number before the zero index):
a caliper's reading, in quarter millimetres.
"""
from __future__ import annotations

from cardgen.layout.ops import Line, Text
from cardgen.core.units import MM

MAIN_PITCH = 2 * MM  #: main ruler tick distance
PITCH = 1.75 * MM  #: vernier tick distance: 8 ticks in 14 mm, so each reads 0.25 mm
STEPS = 9  #: vernier ticks 0 … 8 (the last meets the next main tick: + 2 mm)
MAIN = range(-2, 10)  #: main ticks i at i × 2 mm: −4 … +18 mm, so the vernier meets one for d in −4 … +4
LABELLED = range(-2, 3)  #: main ticks numbered: −4 … +4 mm
TICK = 3 * MM


def vernier(bx: float, by: float, axis: str, font: str = "body") -> tuple[list, list]:
    """``(front_ops, back_ops)`` of the ruler pair for ``axis`` (``x`` or ``y``) whose zeros are at
    the back-page point ``(bx, by)``; ops in back-page coordinates."""
    sign = -1.0 if axis == "x" else 1.0  # where the numbers grow: −x for X, +y for Y

    def at(u: float) -> float:
        return (bx if axis == "x" else by) + sign * u

    def tick(u: float, length: float, width: float) -> Line:  # from the baseline; + is the front's side
        if axis == "x":
            return Line(at(u), by, at(u), by + length, width)
        return Line(bx, at(u), bx - length, at(u), width)

    def label(u: float, off: float, text: str, size: float = 5.0) -> Text:
        w = len(text) * size * 0.3  # about half the text's width
        if axis == "x":
            return Text(at(u) - w, by + off, text, font, size)
        return Text(bx - off - (2 * w if off > 0 else 0), at(u) - size * 0.35, text, font, size)

    front: list = []
    back: list = []
    lo, hi = MAIN[0] * MAIN_PITCH, MAIN[-1] * MAIN_PITCH
    front.append(Line(at(lo), by, at(hi), by, 0.3) if axis == "x" else Line(bx, at(lo), bx, at(hi), 0.3))
    for i in MAIN:
        front.append(tick(i * MAIN_PITCH, TICK + (1 * MM if i == 0 else 0), 0.4 if i == 0 else 0.25))
        if i in LABELLED:
            v = 2 * i
            front.append(label(i * MAIN_PITCH, TICK + 1.6 * MM, f"{v:+d}" if v else "0"))
    for k in range(STEPS):
        back.append(tick(k * PITCH, -(TICK + (1 * MM if k == 0 else 0)), 0.4 if k == 0 else 0.25))
        if k % 2 == 0:
            text = ("0", ".5", "1", "1.5", "2")[k // 2]
            back.append(label(k * PITCH, -(TICK + 3.4 * MM) if axis == "x" else -(TICK + 1.6 * MM), text))
    name = "X" if axis == "x" else "Y"
    if axis == "x":
        back.append(Text(at(-2.5 * MM) - 2, by - TICK - 3.4 * MM, name, font, 6))
    else:
        back.append(Text(bx + TICK + 1.6 * MM, at(-2.5 * MM), name, font, 6))
    return front, back


def reading(main: list[tuple[float, float]], vernier_ticks: list[float], tol: float = 0.05 * MM) -> float | None:
    """What a designer reads (mm), from the ticks' places along the ruler in the direction the
    numbers grow (pt): ``main`` as ``(number in mm, place)``, ``vernier_ticks`` from the zero index.
    The last main number at or before the zero index, plus a quarter for each vernier tick up to
    the one that lines up with a main tick; None when none lines up."""
    zero = vernier_ticks[0]
    before = [(u, v) for v, u in main if u <= zero + tol]
    if not before:
        return None
    whole = max(before)[1]
    for k, t in enumerate(vernier_ticks):
        if any(abs(t - u) <= tol for _, u in main):
            return whole + k * 0.25
    return None
