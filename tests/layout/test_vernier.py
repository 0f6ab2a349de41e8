"""The calibration sheet's vernier rulers: with the back moved by any quarter millimetre from −4 to
+4 mm, the reading a designer makes (the last front number before the back's zero, plus the
quarters up to the back line that lines up with a front line) is the correction to give — X the
opposite of the shift right, Y the shift up (y counts down in --back-offset) — and the front's
ruler is printed exactly behind the back's place on the calibration sheet."""
from __future__ import annotations

import pytest

from cardgen.core.units import MM
from cardgen.layout.calibration import VERNIER_X, VERNIER_Y, calibration_pages, mirror
from cardgen.layout.ops import Line
from cardgen.layout.vernier import reading, vernier

A4 = (210 * MM, 297 * MM)


def _ticks(ops, axis):
    """Places (pt) of the ticks along the ruler: x of vertical lines (X ruler), y of horizontal ones."""
    if axis == "x":
        return [op for op in ops if isinstance(op, Line) and abs(op.x1 - op.x2) < 1e-9 and op.y1 != op.y2]
    return [op for op in ops if isinstance(op, Line) and abs(op.y1 - op.y2) < 1e-9 and op.x1 != op.x2]


@pytest.mark.parametrize("axis", ["x", "y"])
def test_reading_is_the_correction_in_quarter_millimetres(axis):
    bx, by = 100 * MM, 100 * MM
    front, back = vernier(bx, by, axis)
    sign = -1 if axis == "x" else 1  # the numbers grow towards −x (X) and +y (Y)
    main_ticks = _ticks(front, axis)
    along = (lambda ln: sign * (ln.x1 - bx)) if axis == "x" else (lambda ln: sign * (ln.y1 - by))
    main = sorted(along(t) for t in main_ticks)
    numbers = [(round(u / MM), u) for u in main]  # main ticks sit at their number (mm) from the zero
    assert [v for v, _ in numbers] == list(range(-4, 19, 2))
    for q in range(-16, 17):
        s = q * 0.25 * MM  # the printer moves the back by s (pt, along +x or +y)
        moved = sorted(along(t) + sign * s for t in _ticks(back, axis))
        got = reading(numbers, moved)
        want = -q * 0.25 if axis == "x" else q * 0.25
        assert got == pytest.approx(want), (axis, q * 0.25, got)


@pytest.mark.parametrize("page", [A4, A4[::-1]], ids=["portrait", "landscape"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_front_ruler_lies_behind_the_back_ruler(page, duplex):
    front, back = calibration_pages(*page, duplex=duplex)
    W, H = page
    for axis, (ax, ay) in (("x", VERNIER_X), ("y", VERNIER_Y)):
        vx, vy = mirror((W / 2 + ax, H / 2 + ay), W, H, duplex)
        f_ops, b_ops = vernier(vx, vy, axis)
        for op in _ticks(f_ops, axis):  # each main tick, mirrored onto the front, is a line there
            (x1, y1), (x2, y2) = mirror((op.x1, op.y1), W, H, duplex), mirror((op.x2, op.y2), W, H, duplex)
            assert any(isinstance(o, Line) and max(abs(o.x1 - x1), abs(o.y1 - y1), abs(o.x2 - x2), abs(o.y2 - y2)) < 1e-6
                       for o in front.ops)
        for op in _ticks(b_ops, axis):
            assert op in back.ops
