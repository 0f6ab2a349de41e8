"""Print checks of a laid-out element that need no drawing (pure, pt): how close a frame or text
box comes to the trim (cut tolerance), and text set below the legible size.

Cut tolerance: home duplex printing shifts backs by about ±1 mm and hand cutting adds as much
again, so a frame or a text box that stops a little inside the trim comes out visibly
off-centre. An element either runs into the bleed (reaches the trim edge: the cut goes through
it) or keeps at least ``cut_tolerance`` (3 mm by default, ``print.cut_tolerance``) from every
trim edge, measured from the outer edge of its stroke.

Legibility: 6 pt is the smallest size card text may print at (about 2.1 mm: the x-height of a
6 pt Gothic is near the 1 mm usually given as the smallest legible lowercase in print); a
template that means smaller sets ``min_size`` below 6 on that element.
"""
from __future__ import annotations

from cardgen.core.units import MM

EPS = 1e-6
MIN_TEXT_PT = 6.0  #: smallest text size on a card unless the template's min_size says lower


def trim_gap(box: tuple[float, float, float, float], width: float, height: float, stroke: float = 0.0) -> float:
    """Smallest distance (pt) from the box ``(x, y, w, h)`` (pt, trim-relative, y up) — grown by
    half its ``stroke`` — to the trim edges of a ``width`` × ``height`` pt card; ≤ 0 when it
    reaches or crosses the trim (runs into the bleed)."""
    x, y, w, h = box
    half = stroke / 2
    return min(x, y, width - (x + w), height - (y + h)) - half


def cut_tolerance_message(box: tuple[float, float, float, float], width: float, height: float, stroke: float,
                          tolerance: float) -> str | None:
    """The warning for an element whose box (stroke included) stops closer than ``tolerance`` pt to
    the trim without reaching it, else None."""
    gap = trim_gap(box, width, height, stroke)
    if EPS < gap < tolerance - EPS:
        return (f"comes {gap / MM:.1f} mm from the trim: a cut or duplex shift of about 1 mm shows it off-centre; "
                f"keep it at least {tolerance / MM:g} mm inside the trim, or run it into the bleed")
    return None


def past_trim(ink: tuple[float, float, float, float], box: tuple[float, float, float, float],
              width: float, height: float) -> tuple[list[str], str]:
    """Where text crosses the trim of a ``width`` × ``height`` pt card: the edges its ``ink``
    (``left, right, bottom, top``, pt, trim-relative, y up) runs past — the cut goes through it —
    and the words for how far the element's ``box`` (``x, y, w, h``, pt, y up) reaches past each
    edge it crosses (``"12.0 mm past the right edge and 9.0 mm past the bottom edge"``; "" when
    it crosses none): the template's numbers, the same on every card."""
    left, right, bottom, top = ink
    x, y, w, h = box
    sides = (("top", top > height + EPS, y + h - height), ("right", right > width + EPS, x + w - width),
             ("bottom", bottom < -EPS, -y), ("left", left < -EPS, -x))
    reach = " and ".join(f"{over / MM:.1f} mm past the {name} edge" for name, _crossed, over in sides if over > EPS)
    return [name for name, crossed, _over in sides if crossed], reach


def small_text_message(size: float, declared_min: float | None) -> str | None:
    """The warning for text set at ``size`` pt below :data:`MIN_TEXT_PT`, unless the template's
    ``min_size`` (``declared_min``) is below 6 pt on purpose."""
    if size < MIN_TEXT_PT - EPS and not (declared_min is not None and declared_min < MIN_TEXT_PT - EPS):
        return (f"the text prints at {size:g} pt, below the {MIN_TEXT_PT:g} pt that reads at arm's length; "
                f"make it {MIN_TEXT_PT:g} pt or more, or set min_size below {MIN_TEXT_PT:g} to mean it")
    return None
