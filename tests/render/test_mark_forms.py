"""Crop marks are drawn once per page layout as a form XObject, and lie exactly where they lay
when every page drew its own: the marks read back from the PDF (in mm) are those of the page
plans, and their digest per file equals the one recorded from the page-drawn marks before the
change (tests/golden/crop-marks-mm.json, made from the 317-file build of 3d73644)."""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from cardgen.api import build_game
from cardgen.steps.sheets import SheetOptions
from tests.conftest import needs_fonts
from tests.pdfread import CARD_DATA, ROOT

pytestmark = needs_fonts

MM = 72 / 25.4
GOLDEN = json.loads((ROOT / "tests" / "golden" / "crop-marks-mm.json").read_text(encoding="utf-8"))


def marks_mm(pdf: Path) -> list[list[list[float]]]:
    """Per page, the crop-mark lines (black, 0.25 pt, 2 mm) as [x0, y0, x1, y1] mm from the top
    left, rounded to 0.01 mm, sorted — form XObjects resolved by pdfplumber."""
    pages = []
    with pdfplumber.open(pdf) as doc:
        for p in doc.pages:
            H, found = float(p.height), []
            for ln in p.lines:
                (xa, ya), (xb, yb) = ln["pts"][0], ln["pts"][-1]
                black = tuple(ln.get("stroking_color") or ()) in ((0, 0, 0), (0,))
                if black and abs(ln["linewidth"] - 0.25) < 1e-3 and abs(math.hypot(xb - xa, yb - ya) - 2 * MM) < 0.05:
                    a, b = sorted(((xa / MM, (H - ya) / MM), (xb / MM, (H - yb) / MM)))
                    found.append([round(a[0], 2), round(a[1], 2), round(b[0], 2), round(b[1], 2)])
            pages.append(sorted(found))
    return pages


@pytest.mark.parametrize("game", ["tenjanpai", "nko_mahjong"])
def test_crop_marks_are_page_layout_forms_in_the_same_places(tmp_path, game):
    res = build_game(CARD_DATA / game, tmp_path, SheetOptions(), force=True, steps=("sheets",))
    pdf = res.out_dir / "print-sheets.pdf"
    got = marks_mm(pdf)
    want = GOLDEN[f"{game}/print-sheets.pdf"]
    assert (len(got), sum(map(len, got))) == (want["pages"], want["marks"])
    assert hashlib.sha256(json.dumps(got, separators=(",", ":")).encode()).hexdigest() == want["sha256"]

    reader = pypdf.PdfReader(pdf)
    used = []
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        names = [n for n in xobjects if str(n).startswith("/FormXob.") and "marks" in str(n)]
        # the page's own content draws no 0.25 pt line: its marks come from the one form
        assert b" .25 w" not in page.get_contents().get_data()
        used.append(names)
    with_marks = [n for n, page_marks in zip(used, got) if page_marks]
    assert all(len(n) == 1 for n in with_marks)
    layouts = {json.dumps(m) for m in got if m}
    assert len({n[0] for n in with_marks}) == len(layouts)  # one form per distinct page layout
