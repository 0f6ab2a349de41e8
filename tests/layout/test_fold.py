"""cardgen.layout.fold for any sizes (hypothesis): every back slot is its front mirrored about the
fold line (exactly), the halves stay on their side of the fold with the gap between them, every
box and mark inside the printable area, no mark crosses a bleed box."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cardgen.core.units import MM
from cardgen.layout.fold import FOLD_GAP, choose_fold_grid, fold_pages
from cardgen.layout.grid import SheetSpec
from tests.sheet_geometry import crosses


def test_poker_on_a4_is_two_by_two_folded_down_the_middle():
    fg = choose_fold_grid(SheetSpec(210 * MM, 297 * MM, 63 * MM, 88 * MM))
    assert (fg.grid.cols, fg.grid.rows, fg.grid.landscape, fg.axis) == (2, 2, True, "x")


@settings(max_examples=150, deadline=None)
@given(pw=st.floats(150, 450), ph=st.floats(150, 450), cw=st.floats(15, 120), ch=st.floats(15, 120),
       bleed=st.floats(0, 4), margin=st.floats(0, 10), marks=st.sampled_from(["japanese", "western", "none"]),
       cut=st.sampled_from(["separate", "shared"]), fill=st.floats(0.1, 1))
def test_fold_properties(pw, ph, cw, ch, bleed, margin, marks, cut, fill):
    w, h = sorted((pw, ph))
    spec = SheetSpec(w * MM, h * MM, cw * MM, ch * MM, bleed=bleed * MM, margin=margin * MM, marks=marks, cut=cut)
    try:
        fg = choose_fold_grid(spec)
    except ValueError:
        return
    n = max(1, int(fg.per_sheet * fill))
    _, pages = fold_pages(n, spec, fg)
    page = pages[0]
    W, H, F = page.width, page.height, fg.fold
    assert len(page.slots) == len(page.fold_backs) == n
    for f, b in zip(page.slots, page.fold_backs):
        if fg.axis == "x":
            assert (b.x, b.y) == pytest.approx((W - f.x - f.w, f.y), abs=1e-6)
            assert f.box[2] <= F - FOLD_GAP / 2 + 1e-6 and b.box[0] >= F + FOLD_GAP / 2 - 1e-6
        else:
            assert (b.x, b.y) == pytest.approx((f.x, H - f.y - f.h), abs=1e-6)
            assert f.box[1] >= F + FOLD_GAP / 2 - 1e-6 and b.box[3] <= F - FOLD_GAP / 2 + 1e-6
    m = spec.margin
    boxes = [s.box for s in page.slots + page.fold_backs]
    for box in boxes:
        assert m - 1e-6 <= box[0] and box[2] <= W - m + 1e-6 and m - 1e-6 <= box[1] and box[3] <= H - m + 1e-6
    for ln in page.marks:
        seg = (ln.x1, ln.y1, ln.x2, ln.y2)
        assert all(not crosses(seg, box) for box in boxes)
        assert m - 1e-6 <= min(ln.x1, ln.x2) and max(ln.x1, ln.x2) <= W - m + 1e-6
        assert m - 1e-6 <= min(ln.y1, ln.y2) and max(ln.y1, ln.y2) <= H - m + 1e-6
