"""Fold-over sheets (``--layout fold``) of 天雀牌 on A4 and Letter, read back from the PDF: on every
page each front's printed box has a back at its mirror image about the fold line (the page's
centre line) within 0.05 mm, the backs are the back faces (the battle back's red, read from a
pdfium render), no crop mark crosses a bleed box and none lies between two cards of a half, the
fold line gets its dashed mark at both ends, and the file is one-sided (/Duplex /Simplex)."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from cardgen.api import build_game
from cardgen.steps.sheets import SheetOptions
from tests.conftest import TENJANPAI, needs_fonts
from tests.pdfread import viewer_preferences
from tests.sheet_geometry import crosses, read_sheets

pytestmark = needs_fonts
MM = 72 / 25.4
TOL = 0.05 * MM
BACK_RED = (0x8C, 0x1C, 0x13)


@pytest.fixture(scope="module", params=["a4", "letter"])
def folded(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"fold-{request.param}")
    res = build_game(TENJANPAI, out, SheetOptions(paper=request.param, layout="fold"), steps=("sheets",))
    pdf = res.out_dir / "print-sheets.pdf"
    return pdf, read_sheets(pdf)


def _halves(page):
    """(fronts, backs, axis): the boxes on each side of the fold (vertical line: left/right)."""
    W, H = page.width, page.height
    left = [b for b in page.boxes if b[2] <= W / 2 + 0.01]
    right = [b for b in page.boxes if b[0] >= W / 2 - 0.01]
    if len(left) + len(right) == len(page.boxes) and len(left) == len(right):
        return left, right, "x"
    top = [b for b in page.boxes if b[1] >= H / 2 - 0.01]
    bottom = [b for b in page.boxes if b[3] <= H / 2 + 0.01]
    assert len(top) == len(bottom) and len(top) + len(bottom) == len(page.boxes)
    return top, bottom, "y"


def test_every_back_is_the_mirror_of_its_front(folded):
    pdf, pages = folded
    folded_pages = [p for p in pages if len(p.boxes) in range(2, 20)]  # the battle and character sheets
    assert folded_pages
    doc = pdfium.PdfDocument(str(pdf))
    cards = 0
    for n, page in enumerate(pages):
        if page not in folded_pages:
            continue
        fronts, backs, axis = _halves(page)
        W, H = page.width, page.height
        for f in fronts:
            want = (W - f[2], f[1], W - f[0], f[3]) if axis == "x" else (f[0], H - f[3], f[2], H - f[1])
            assert min(max(abs(a - b) for a, b in zip(want, bk)) for bk in backs) <= TOL
            cards += 1
        img = doc[n].render(scale=100 / 72).to_pil().convert("RGB")
        battle = n < 11  # 42 battle cards, 4 a sheet: pages 1–11
        if battle:
            for b in backs:  # 1.5 mm inside the trim's corner: the back's red
                x, y = b[0] + 4.5 * MM, b[3] - 4.5 * MM
                assert img.getpixel((int(x * 100 / 72), int((H - y) * 100 / 72))) == BACK_RED
    assert cards == 42 + 15


def test_no_mark_crosses_a_card(folded):
    pdf, pages = folded
    assert viewer_preferences(pdf)["/Duplex"] == "/Simplex"
    for page in pages:
        if not page.boxes:
            continue
        fronts, backs, axis = _halves(page) if len(page.boxes) < 20 else (page.boxes, [], None)
        for ln in page.marks:
            for box in page.boxes:
                assert not crosses(ln, box)
            for half in (fronts, backs):
                if not half:
                    continue
                bx0, by0 = min(b[0] for b in half), min(b[1] for b in half)
                bx1, by1 = max(b[2] for b in half), max(b[3] for b in half)
                xs, ys = sorted((ln[0], ln[2])), sorted((ln[1], ln[3]))
                assert xs[1] <= bx0 + 0.01 or xs[0] >= bx1 - 0.01 or ys[1] <= by0 + 0.01 or ys[0] >= by1 - 0.01
        if axis == "x":
            on_fold = [m for m in page.marks if abs(m[0] - page.width / 2) < 0.01 and abs(m[2] - page.width / 2) < 0.01]
            assert len({m[1] > page.height / 2 for m in on_fold}) == 2  # dashes above and below
        elif axis == "y":
            on_fold = [m for m in page.marks if abs(m[1] - page.height / 2) < 0.01 and abs(m[3] - page.height / 2) < 0.01]
            assert len({m[0] > page.width / 2 for m in on_fold}) == 2
