"""cardgen.layout.grid: the most cards per sheet for common papers and every bundled card size
(against a brute force, separate and shared cuts), the label band at the side when that holds
more, marks as long as the room allows (10 mm JIS, 5 mm Western, at least 3 mm)."""
from __future__ import annotations

import pytest

from cardgen.core.units import MM
from cardgen.layout.grid import SheetSpec, choose_grid

PAPER = {"a4": (210, 297), "letter": (215.9, 279.4), "b5": (182, 257)}


def spec(paper: str, card=(63, 88), **kw) -> SheetSpec:
    w, h = PAPER[paper]
    return SheetSpec(w * MM, h * MM, card[0] * MM, card[1] * MM, **kw)


@pytest.mark.parametrize("paper, cols, rows, landscape", [
    ("a4", 4, 2, True), ("letter", 3, 2, True), ("b5", 2, 2, False)])
def test_poker_cards_per_sheet(paper, cols, rows, landscape):
    g = choose_grid(spec(paper))
    assert (g.cols, g.rows, g.landscape) == (cols, rows, landscape)
    assert g.per_sheet == {"a4": 8, "letter": 6, "b5": 4}[paper]


def test_nothing_fits_is_a_value_error():
    with pytest.raises(ValueError):
        choose_grid(spec("b5", card=(200, 300)))


SIZES = {"poker": (63, 88), "bridge": (58, 89), "mini": (44, 63), "tarot": (70, 120), "mahjong": (20, 27),
         "token": (16, 16), "stick": (90, 12)}


def brute_force(paper: str, card: tuple[float, float], margin=5.0, bleed=3.0, mark=3.5, band=4.0,
                shared=False) -> int:
    """Most cards per sheet by trying every orientation, label band place (bottom or side) and
    rows × columns: bleed boxes side by side (or, ``shared``, cards trim to trim with the bleed
    around the block) with at least the mark space (0.5 mm offset + 3 mm) around the block,
    inside the printer margin and beside the label band (all mm)."""
    best = 0
    w, h = PAPER[paper]

    def block(n, c):
        return n * c + 2 * bleed if shared else n * (c + 2 * bleed)

    for pw, ph in ((w, h), (h, w)):
        for bw, bh in ((0, band), (band, 0)):
            for cols in range(1, 60):
                for rows in range(1, 60):
                    if (block(cols, card[0]) + 2 * mark <= pw - 2 * margin - bw + 1e-9
                            and block(rows, card[1]) + 2 * mark <= ph - 2 * margin - bh + 1e-9):
                        best = max(best, cols * rows)
    return best


@pytest.mark.parametrize("paper", ["a4", "letter", "b5"])
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("cut", ["separate", "shared"])
def test_imposition_is_the_maximum(paper, size, cut):
    """Every bundled card size (presets, the tokens and NKO's point sticks) on every paper."""
    g = choose_grid(spec(paper, card=SIZES[size], cut=cut))
    assert g.per_sheet == brute_force(paper, SIZES[size], shared=cut == "shared")
    assert g.gutter_x == g.gutter_y == 0.0


@pytest.mark.parametrize("marks, full", [("japanese", 10.0), ("western", 5.0)])
def test_marks_as_long_as_the_room_allows(marks, full):
    """Poker on landscape A4 (5 mm printer margin, 4 mm label band): 4 × 2 cards leave 5.5 mm
    beside the block and 4 mm above and below it: marks of 5 mm (Western) or 5.0 (JIS) beside,
    3.5 mm above and below; the tokens' sheet has room for the full length on one axis at least."""
    g = choose_grid(spec("a4", marks=marks))
    assert (g.cols, g.rows) == (4, 2)
    assert g.mark_x / MM == pytest.approx(min(full, 5.0), abs=1e-6)
    assert g.mark_y / MM == pytest.approx(3.5, abs=1e-6)
    tokens = choose_grid(spec("a4", card=(16, 16), marks=marks))
    assert max(tokens.mark_x, tokens.mark_y) / MM == pytest.approx(full)
    assert min(tokens.mark_x, tokens.mark_y) / MM >= 3.0 - 1e-9


def test_nko_mini_cards_twelve_on_portrait_a4():
    g = choose_grid(spec("a4", card=(44, 63)))
    assert (g.cols, g.rows, g.landscape, g.label_side) == (3, 4, False, "left")
