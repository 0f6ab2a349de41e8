"""Crop marks are drawn once per page layout as a form XObject, and lie exactly where the
recorded layout put them: the marks read back from the PDF (in mm) have the digest per file
recorded in tests/golden/crop-marks-mm.json (made when the marks moved outside the block of cards,
issue 29's "marks as print shops draw them"; after an intended change of the marks, regenerate it
with ``CARDGEN_UPDATE_GOLDEN=1 python -m pytest tests/render/test_mark_forms.py`` and review the
pictures)."""
from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

import pypdf
import pytest

from cardgen.steps.sheets import SheetOptions
from tests.conftest import needs_fonts
from tests.pdfread import ROOT, open_pdf

pytestmark = needs_fonts

MM = 72 / 25.4
GOLDEN_FILE = ROOT / "tests" / "golden" / "crop-marks-mm.json"
GOLDEN = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))


def marks_mm(pdf: Path) -> list[list[list[float]]]:
    """Per page, the crop-mark lines (black, 0.25 pt, at least 1.9 mm) as [x0, y0, x1, y1] mm
    from the top left, rounded to 0.01 mm, sorted — form XObjects resolved by pdfplumber."""
    pages = []
    with open_pdf(pdf) as doc:
        for p in doc.pages:
            H, found = float(p.height), []
            for ln in p.lines:
                (xa, ya), (xb, yb) = ln["pts"][0], ln["pts"][-1]
                black = tuple(ln.get("stroking_color") or ()) in ((0, 0, 0), (0,))
                if black and abs(ln["linewidth"] - 0.25) < 1e-3 and math.hypot(xb - xa, yb - ya) >= 1.9 * MM:
                    a, b = sorted(((xa / MM, (H - ya) / MM), (xb / MM, (H - yb) / MM)))
                    found.append([round(a[0], 2), round(a[1], 2), round(b[0], 2), round(b[1], 2)])
            pages.append(sorted(found))
    return pages


@pytest.mark.parametrize("game", ["tenjanpai", "nko_mahjong"])
def test_crop_marks_are_page_layout_forms_in_the_same_places(built_games, game):
    res = built_games(game, options=SheetOptions(), force=True, steps=("sheets",))
    pdf = res.out_dir / "print-sheets.pdf"
    got = marks_mm(pdf)
    if os.environ.get("CARDGEN_UPDATE_GOLDEN"):
        GOLDEN[f"{game}/print-sheets.pdf"] = {
            "pages": len(got), "marks": sum(map(len, got)),
            "sha256": hashlib.sha256(json.dumps(got, separators=(",", ":")).encode()).hexdigest()}
        GOLDEN_FILE.write_text(json.dumps(GOLDEN, indent=1, sort_keys=True) + "\n", encoding="utf-8")
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
