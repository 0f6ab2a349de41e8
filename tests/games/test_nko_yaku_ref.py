"""NKO's 役一覧 reference card states the shapes as the designer's draft (seed 002) does — the
pair and the single tile of CHINCHIN, OMANKO and OCHINCHIN are 「ん」以外 — and sets the points
as a right-aligned column. Read back from the card's shop PDF."""
from __future__ import annotations

import pdfplumber

from cardgen.api import build_game
from cardgen.core.units import MM
from cardgen.steps.exports import ExportOptions
from tests.conftest import ROOT, needs_fonts

pytestmark = needs_fonts


def test_yaku_reference_card_states_every_shape_and_aligns_the_points(tmp_path):
    res = build_game(ROOT / "card_data" / "nko_mahjong", tmp_path, force=True, steps=("shop",),
                     exports=ExportOptions(jobs=1, sides="front"))
    with pdfplumber.open(res.out_dir / "shop" / "yaku_ref.pdf") as doc:
        page = doc.pages[0]
        text = page.extract_text()
        chars = page.chars
    flat = text.replace("\n", "")
    for shape in ("違う3文字ワード×2", "ちちんん＋「ん」以外の同じ牌2枚", "おまんこ＋「ん」以外の同じ牌2枚",
                  "おちちんん＋「ん」以外の1枚"):
        assert shape in flat, (shape, text)
    points = [c for c in chars if c["text"] == "点" and abs(c["size"] - 7.5) < 0.01]
    rights = [c["x1"] for c in points]
    assert len(rights) == 4, rights  # Standard, CHINCHIN, OMANKO, OCHINCHIN
    assert max(rights) - min(rights) <= 0.2 * MM, rights
