"""cardgen.layout.sheet: pages of slots, crop marks and label bands; imposition properties for any sizes."""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from cardgen.core.units import MM
from cardgen.layout.grid import SheetSpec, choose_grid
from cardgen.layout.sheet import impose

A4_POKER = SheetSpec(210 * MM, 297 * MM, 63 * MM, 88 * MM)


def test_pages_alternate_front_back_and_cover_every_card():
    _, pages = impose(42, A4_POKER)
    assert [p.side for p in pages[:4]] == ["front", "back", "front", "back"]
    assert len(pages) == 12
    fronts = [i for p in pages if p.side == "front" for i in p.card_indexes]
    assert fronts == list(range(42))
    _, pages = impose(42, A4_POKER, backs=False)
    assert len(pages) == 6 and {p.side for p in pages} == {"front"}


def _inside(box, outer, eps=1e-6):
    return outer[0] - eps <= box[0] and box[2] <= outer[2] + eps and outer[1] - eps <= box[1] and box[3] <= outer[3] + eps


def _overlap(a, b, eps=1e-6):
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def _segment_hits_box(ln, box, eps=1e-6):
    """An axis-aligned segment passes through the open interior of ``box``."""
    x0, x1 = sorted((ln.x1, ln.x2))
    y0, y1 = sorted((ln.y1, ln.y2))
    return x0 < box[2] - eps and box[0] + eps < x1 if y0 == y1 and box[1] + eps < y0 < box[3] - eps else \
        (y0 < box[3] - eps and box[1] + eps < y1 if x0 == x1 and box[0] + eps < x0 < box[2] - eps else False)




@settings(max_examples=250, deadline=None)
@given(paper_w=st.floats(90, 500), paper_h=st.floats(90, 500), card_w=st.floats(15, 150), card_h=st.floats(15, 150),
       bleed=st.floats(0, 5), margin=st.floats(0, 15), marks=st.sampled_from(["japanese", "western", "none"]),
       duplex=st.sampled_from(["long-edge", "short-edge"]), fill=st.floats(0.1, 1))
def test_imposition_properties(paper_w, paper_h, card_w, card_h, bleed, margin, marks, duplex, fill):
    pw, ph = sorted((paper_w, paper_h))  # portrait paper
    s = SheetSpec(pw * MM, ph * MM, card_w * MM, card_h * MM, bleed=bleed * MM, margin=margin * MM, marks=marks)
    _check_imposition(s, pw, ph, card_w, card_h, bleed, margin, marks, duplex, fill)


def _check_imposition(s, pw, ph, card_w, card_h, bleed, margin, marks, duplex, fill):
    try:
        grid = choose_grid(s)
    except ValueError:
        # then not one bleed box (with its marks) fits either way round, label band below or beside
        need_w = (card_w + 2 * bleed) + (0 if marks == "none" else 2 * 3.5)
        need_h = (card_h + 2 * bleed) + (0 if marks == "none" else 2 * 3.5)
        for w, h in ((pw, ph), (ph, pw)):
            assert need_w > w - 2 * margin - 1e-6 or need_h > h - 2 * margin - 4 - 1e-6
            assert need_w > w - 2 * margin - 4 - 1e-6 or need_h > h - 2 * margin - 1e-6
        return
    count = max(1, int(grid.per_sheet * fill))
    _, pages = impose(count, s, backs=True, duplex=duplex)
    assume(pages)
    front, back = pages[0], pages[1]
    W, H = front.width, front.height
    printable = (s.margin, s.margin, W - s.margin, H - s.margin)
    for page in (front, back):
        boxes = [(sl.x - s.bleed, sl.y - s.bleed, sl.x + sl.w + s.bleed, sl.y + sl.h + s.bleed) for sl in page.slots]
        assert [v for sl in page.slots for v in sl.box] == pytest.approx([v for b in boxes for v in b])
        for i, b in enumerate(boxes):
            assert _inside(b, printable)
            for other in boxes[i + 1:]:
                assert not _overlap(b, other)
        block = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        for ln in page.marks:
            assert ln.x1 == ln.x2 or ln.y1 == ln.y2
            seg = (min(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.x1, ln.x2), max(ln.y1, ln.y2))
            # never between two cards: wholly beside or above/below the block of cards
            assert seg[2] <= block[0] + 1e-6 or seg[0] >= block[2] - 1e-6 or seg[3] <= block[1] + 1e-6 \
                or seg[1] >= block[3] - 1e-6
            assert _inside((min(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.x1, ln.x2), max(ln.y1, ln.y2)), printable)
            for b in boxes:
                assert not _segment_hits_box(ln, b)
        lx, ly, lw, lh = page.label_box
        label = (lx, ly, lx + lw, ly + lh)
        assert _inside(label, printable)
        for b in boxes:
            assert not _overlap(label, b)
    # backs: the exact mirror of the fronts, slot by slot
    mirror_x = (duplex == "long-edge") != (W > H)
    assert back.card_indexes == front.card_indexes
    for f, b in zip(front.slots, back.slots):
        assert (b.w, b.h, b.index) == (f.w, f.h, f.index)
        if mirror_x:
            assert b.x == pytest.approx(W - f.x - f.w, abs=1e-6) and b.y == pytest.approx(f.y, abs=1e-6)
        else:
            assert b.y == pytest.approx(H - f.y - f.h, abs=1e-6) and b.x == pytest.approx(f.x, abs=1e-6)
    if marks == "none":
        assert front.marks == []
