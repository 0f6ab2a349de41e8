"""Text boxes whose printed text runs into another's (``text-overlap``): the ink of each text
element on a face — every run, inline icon and column it drew, as a rectangle — against every
other text element's. A box may be generous and overlap its neighbour's box; only text that is
really printed on top of other text is reported (a mirrored corner index landing on the name
line, a skill box drawn over the number)."""
from __future__ import annotations

from cardgen.core.units import MM
from cardgen.layout.ops import GameIcon, Icon, Text, TurnedIcon, TurnedText, VerticalText
from cardgen.layout.text import Measure

DESCENT = 0.12  #: how far below the baseline glyphs reach, as a fraction of the size
TOUCH = 0.5  #: pt of overlap both ways that still counts as touching, not overlapping

Box = tuple[float, float, float, float]  #: left, bottom, right, top (pt, y up)


def ink_boxes(ops: list, measure: Measure, ascent: float) -> list[Box]:
    """The rectangles the text ops among ``ops`` print on (runs, inline icons, vertical columns)."""
    boxes: list[Box] = []
    for op in ops:
        if isinstance(op, Text):
            boxes.append((op.x, op.y - DESCENT * op.size, op.x + measure(op.text, op.font, op.size),
                          op.y + ascent * op.size))
        elif isinstance(op, TurnedText):  # turned 180° about the baseline's start: it reaches left and down
            boxes.append((op.x - measure(op.text, op.font, op.size), op.y - ascent * op.size, op.x,
                          op.y + DESCENT * op.size))
        elif isinstance(op, (Icon, TurnedIcon, GameIcon)):
            boxes.append((op.x, op.y, op.x + op.size, op.y + op.size))
        elif isinstance(op, VerticalText) and op.items:
            depth = max(offset for _mode, _text, offset in op.items) + op.size
            boxes.append((op.x - op.size / 2, op.y - depth, op.x + op.size / 2, op.y))
    return boxes


def _meet(a: Box, b: Box) -> tuple[float, float] | None:
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return (w, h) if w > TOUCH and h > TOUCH else None


def _union(boxes: list[Box]) -> Box | None:
    if not boxes:
        return None
    left, bottom, right, top = zip(*boxes)
    return min(left), min(bottom), max(right), max(top)


def overlaps(inks: list[tuple[str, list[Box]]]) -> list[tuple[str, str, Box]]:
    """Pairs of text elements (``(name, ink boxes)`` in template order) whose ink meets, each
    pair once, with the first place where they meet (left, bottom, right, top). Only the pairs
    whose whole extents meet are compared run by run."""
    found = []
    extents = [_union(boxes) for _name, boxes in inks]
    for i, (name_a, boxes_a) in enumerate(inks):
        for j in range(i + 1, len(inks)):
            name_b, boxes_b = inks[j]
            if name_a == name_b or extents[i] is None or extents[j] is None or not _meet(extents[i], extents[j]):
                continue
            near_a = [a for a in boxes_a if _meet(a, extents[j])]  # a mirrored index spans the card: its
            near_b = [b for b in boxes_b if _meet(b, extents[i])] if near_a else []  # far runs drop out
            hit = next(((a, b) for a in near_a for b in near_b if _meet(a, b)), None)
            if hit:
                a, b = hit
                found.append((name_a, name_b, (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))))
    return found


def overlap_message(name_a: str, name_b: str, where: Box, height: float) -> str:
    """``the text of 'corner' is printed over the text of 'name' (at 41.2, 60.3 mm from the top-left)``."""
    x, top = where[0] / MM, (height - where[3]) / MM
    return (f"the text of {name_a!r} is printed over the text of {name_b!r} "
            f"(at {x:.1f}, {top:.1f} mm from the trim's top-left corner)")
