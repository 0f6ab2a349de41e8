"""`cardgen rulebook card_data/tenjanpai --booklet` read back: A4 landscape sheets, a multiple of
4 pages, each A5 page (identified by its printed page number) where saddle stitching puts it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.core.units import MM
from cardgen.layout.booklet import padded, saddle_stitch, sheet_for
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")


@pytest.fixture(scope="module")
def booklet(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    res = subprocess.run([sys.executable, "-m", "cardgen", "rulebook", str(ROOT / "card_data" / "tenjanpai"),
                          "--booklet", "--out", str(out), "--quiet"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    assert "rulebook-booklet.pdf" in res.stdout and "flip on the short edge" in res.stdout
    return out / "tenjanpai" / "rulebook.pdf", out / "tenjanpai" / "rulebook-booklet.pdf"


def _folio(page, x0: float, x1: float) -> str:
    """The page number printed in the footer band of the half ``x0 … x1`` (pt), "" for a blank half."""
    chars = [c for c in page.chars if x0 <= c["x0"] < x1 and c["top"] > page.height - 12 * MM]
    return "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"]))


def test_booklet_is_saddle_stitched(booklet):
    book, pdf = booklet
    n = len(PdfReader(str(book)).pages)
    with open_pdf(pdf) as doc:
        sides = []
        for page in doc.pages:
            assert (round(page.width / MM, 1), round(page.height / MM, 1)) == (297.0, 210.0)  # A4 landscape
            mid = page.width / 2
            left, right = _folio(page, 0, mid), _folio(page, mid, page.width)
            if not sides and not right:  # the cover (page 1) prints no folio: known by its title there
                assert any(c["x0"] >= mid for c in page.chars)
                right = "1"
            sides.append((int(left) if left else None, int(right) if right else None))
            # every mark of the left page lies left of the fold (A5 = 148 mm, 0.5 mm from the sheet edge)
            assert all(c["x1"] <= mid + 0.1 for c in page.chars if c["x0"] < mid - 1)
    total = len(sides) * 2
    assert total % 4 == 0 and total == padded(n) and total - n < 4
    printed = [p for side in sides for p in side if p is not None]
    assert sorted(printed) == list(range(1, n + 1))  # every page once, the rest blank
    for s in range(len(sides) // 2):
        front, back = sides[2 * s], sides[2 * s + 1]
        # the sheet s from the outside carries pages 2s+1 (front, right of the fold) and 2s+2 (back, left),
        # and facing them across the fold the pages that add up to total + 1
        assert front[1] == 2 * s + 1 and back[0] == 2 * s + 2
        assert front[0] in (total - 2 * s, None) and back[1] in (total - 2 * s - 1, None)
    ask = PdfReader(str(pdf)).trailer["/Root"]["/ViewerPreferences"]
    assert ask["/Duplex"] == "/DuplexFlipShortEdge" and ask["/PrintScaling"] == "/None"


def test_saddle_stitch_order_of_13_pages():
    assert saddle_stitch(13) == [(None, 1), (2, None), (None, 3), (4, 13), (12, 5), (6, 11), (10, 7), (8, 9)]
    assert saddle_stitch(4) == [(4, 1), (2, 3)]
    assert saddle_stitch(1) == [(None, 1), (None, None)]
    assert [padded(n) for n in (1, 4, 5, 8, 9)] == [4, 4, 8, 8, 12]


def test_sheet_is_twice_the_page():
    assert sheet_for("A5") == ("A4", 297.0, 210.0)
    assert sheet_for("b5") == ("B4", 364.0, 257.0)
    assert sheet_for("a4") == ("A3", 420.0, 297.0)
