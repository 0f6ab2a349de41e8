"""The DRAFT mark of a forced build of a game that fails validation.

One small mark, the same on every face (front and back alike), inside the safe area: centred near
its bottom edge. It is part of each face's plan, so every output drawn from the plans — print
sheets, shop PDFs, card PNGs, TTS sheets — carries it, and cut cards stay unmarked from one
another (a page-wide watermark would put a different fragment on each card back: marked cards).
"""
from __future__ import annotations

from cardgen.core.units import MM
from cardgen.layout.ops import Rect, Text
from cardgen.layout.text import Measure

DRAFT_TEXT = "DRAFT"
DRAFT_COLOR = "#d0021b"
DRAFT_SIZE = 6.0  #: pt — the smallest size the legibility check allows on a card
_PAD = 0.6 * MM


def draft_mark(width: float, height: float, safe: float, measure: Measure, font: str = "heading") -> list:
    """Ops (pt, trim-relative, y up) for a card face ``width`` × ``height`` pt with the safe inset
    ``safe`` pt: a white rounded box with a red outline and 「DRAFT」 in red at 6 pt, its bottom
    0.8 mm above the safe area's bottom edge (clear of a frame drawn on that edge), centred. Never wider than the safe area (the text shrinks,
    for pieces narrower than about 12 mm)."""
    size = DRAFT_SIZE
    inner = max(width - 2 * safe, 1.0)
    tw = measure(DRAFT_TEXT, font, size)
    if tw + 2 * _PAD > inner:
        size *= (inner - 2 * _PAD) / tw if inner > 2 * _PAD else 0.5
        tw = measure(DRAFT_TEXT, font, size)
    w, h = tw + 2 * _PAD, size * 0.9 + 2 * _PAD * 0.6
    x, y = (width - w) / 2, safe + 0.8 * MM
    return [Rect(x, y, w, h, fill="#ffffff", stroke=DRAFT_COLOR, stroke_width=0.6, radius=0.6 * MM),
            Text(x + _PAD, y + _PAD * 0.6 + size * 0.12, DRAFT_TEXT, font, size, DRAFT_COLOR)]
