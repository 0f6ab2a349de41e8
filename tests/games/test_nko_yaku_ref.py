"""NKO's 役一覧 reference card states the shapes as the designer's draft (seed 002) does — the
pair and the single tile of CHINCHIN, OMANKO and OCHINCHIN are 「ん」以外 — and sets the points
as a right-aligned column. Read back from the card's shop PDF."""
from __future__ import annotations


from cardgen.api import build_game
from cardgen.core.units import MM
from cardgen.steps.exports import ExportOptions
from tests.conftest import ROOT, needs_fonts
from tests.pdfread import open_pdf

pytestmark = needs_fonts


def test_yaku_reference_card_states_every_shape_and_aligns_the_points(tmp_path):
    res = build_game(ROOT / "card_data" / "nko_mahjong", tmp_path, force=True, steps=("shop",),
                     exports=ExportOptions(jobs=1, sides="front"))
    with open_pdf(res.out_dir / "shop" / "yaku_ref.pdf") as doc:
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


def test_words_show_kana_beside_romaji_and_no_bonus_line_is_only_points(tmp_path):
    """Every word of the game's vocabulary (design.words) prints as romaji spelt from the tiles
    table with its kana beside it (UNKO（うんこ）); no line of the bonus box holds only 「+1,000）」."""
    import csv
    import re
    from cardgen.data.game import load_game

    game = load_game(ROOT / "card_data" / "nko_mahjong")
    with open(ROOT / "card_data" / "nko_mahjong" / "tiles.csv", encoding="utf-8") as f:
        romaji = {r["kana"]: r["romaji"] for r in csv.DictReader(f)}
    words = [w for ws in game.manifest.design["words"].values() for w in ws]
    assert len(words) == 7
    res = build_game(ROOT / "card_data" / "nko_mahjong", tmp_path, force=True, steps=("shop",),
                     exports=ExportOptions(jobs=1, sides="front"))
    with open_pdf(res.out_dir / "shop" / "yaku_ref.pdf") as doc:
        lines = [ln["text"] for ln in doc.pages[0].extract_text_lines()]
    flat = "".join(lines).replace(" ", "")
    for w in words:
        assert "".join(romaji[ch] for ch in w) + f"（{w}）" in flat, (w, lines)
    assert "UNKO（うんこ）" in flat and "OCHINCHIN（おちんちん）" in flat
    assert any("+1,000）" in ln for ln in lines)
    assert not [ln for ln in lines if re.fullmatch(r"[+＋][\d,]+点?）?", ln.replace(" ", ""))], lines
