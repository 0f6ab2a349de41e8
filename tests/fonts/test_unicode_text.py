"""Unicode as people type it, read back from the built card PDFs: decomposed kana print as one
glyph, invisible characters print nothing and stop nothing, ideographic variation sequences
the font has print their variant glyph, a file name saved decomposed (as macOS does) is found."""
from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cardgen.api import build_game
from cardgen.core.unicode_text import forms, nfc, shown
from cardgen.steps.exports import ExportOptions

from tests.conftest import needs_fonts
from tests.pdfread import open_pdf

BASE = Path(__file__).parents[1] / "fixtures" / "bad" / "_base"

ROWS = {  # id → card text as typed (each card is one shop page, in this order)
    "dakuten": "ト\u3099ラ",                 # ト + combining dakuten: ド
    "shy": "ポン\u00adチー",                  # a soft hyphen between two words
    "zwsp-vs16": "ポン\u200bチー☆\ufe0f",     # zero-width space, emoji presentation selector
    "ivs": "辻辻\U000E0100",                  # 辻, then 辻 + VS17 (IPAex: the one-dot glyph aj3056)
    "ivs-absent": "あ\U000E0100",             # a sequence the font does not have
    "art": "絵",                              # art/ポ.png saved decomposed, named composed
}


@pytest.fixture(scope="module")
def shop_pdf(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("unicode")
    game = tmp / "g"
    shutil.copytree(BASE, game)
    lines = ["id,number,text,count,art"] + [f"{rid},{i},{text},1,{'art/ポ.png' if rid == 'art' else ''}"
                                              for i, (rid, text) in enumerate(ROWS.items(), 1)]
    (game / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    card = game / "templates" / "cards" / "card.yaml"
    card.write_text(card.read_text(encoding="utf-8") + '  - {kind: image, name: art, box: [30, 6, 27, 20], '
                    'file: "{{ card.art }}", if: "card.art"}\n', encoding="utf-8")
    (game / "art").mkdir()
    Image.new("RGB", (400, 300), (255, 0, 0)).save(game / "art" / unicodedata.normalize("NFD", "ポ.png"))
    assert unicodedata.normalize("NFD", "ポ.png") != "ポ.png"
    res = build_game(game, tmp / "out", steps=("shop",), exports=ExportOptions(jobs=1, sides="front"))
    assert not [p for p in res.layout if p.severity == "error"]  # build_game raises on errors too
    return res.out_dir / "shop" / "cards.pdf"


def _body_chars(pdf: Path) -> list[list[dict]]:
    """Per card (page): the characters of the 10 pt text box, in reading order."""
    with open_pdf(str(pdf)) as doc:
        return [[c for c in page.chars if round(c["size"]) == 10] for page in doc.pages]


@needs_fonts
def test_decomposed_kana_prints_one_glyph(shop_pdf):
    assert "".join(c["text"] for c in _body_chars(shop_pdf)[0]) == "ドラ"


@needs_fonts
def test_soft_hyphen_prints_nothing(shop_pdf):
    assert "".join(c["text"] for c in _body_chars(shop_pdf)[1]) == "ポンチー"


@needs_fonts
def test_zero_width_space_and_vs16_do_not_stop_the_build(shop_pdf):
    assert "".join(c["text"] for c in _body_chars(shop_pdf)[2]) == "ポンチー☆"


@needs_fonts
def test_ivs_the_font_has_prints_its_variant_glyph(shop_pdf):
    """The two 辻 are different glyphs: rasterised, their pixels differ (the shinnyō's dots)."""
    import pypdfium2

    chars = _body_chars(shop_pdf)[3]
    assert len(chars) == 2 and chars[0]["text"] == "辻" and chars[1]["text"] != "辻"
    doc = pypdfium2.PdfDocument(str(shop_pdf))
    scale = 600 / 72
    page = doc[3].render(scale=scale).to_pil().convert("L")
    crops = [page.crop(tuple(round(v * scale) for v in (c["x0"], c["top"], c["x0"] + 10, c["top"] + 10)))
             for c in chars]
    assert crops[0].size == crops[1].size
    differing = int((np.asarray(crops[0]) != np.asarray(crops[1])).sum())
    assert differing > 50, differing


@needs_fonts
def test_ivs_the_font_lacks_keeps_its_base_character(shop_pdf):
    assert "".join(c["text"] for c in _body_chars(shop_pdf)[4]) == "あ"


@needs_fonts
def test_decomposed_file_name_is_found(shop_pdf):
    """art/ポ.png is on disk as ホ + U+309A; the card names it composed: the art is drawn."""
    with open_pdf(str(shop_pdf)) as doc:
        assert len(doc.pages[5].images) == 1
        assert all(len(p.images) == 0 for p in doc.pages[:5])


def test_messages_show_invisible_characters_and_both_forms():
    assert shown("a\u200bb\u00adc\ufe0f\U000E0100") == "aU+200BbU+00ADcU+FE0FU+E0100"
    assert shown("改行\nタブ\t") == "改行\nタブ\t"
    nfd = unicodedata.normalize("NFD", "art/ポ.png")
    assert forms("art/ポ.png") == ""
    assert forms(nfd) == " (written in decomposed Unicode: U+30DB U+309A; composed (NFC) it is 'art/ポ.png')"
    assert nfc("神\ufa19") == "神\ufa19"  # a CJK compatibility ideograph keeps the glyph the designer chose


@needs_fonts
def test_rules_text_is_nfc_without_invisible_characters(tmp_path):
    """The rulebook gets the same treatment (NFC, invisible characters dropped; a rulebook mixes
    fonts, so variation sequences are dropped there too)."""
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    (game / "rules").mkdir()
    (game / "rules" / "01.md").write_text("# 遊び方\n\nト\u3099ラを引く。ポン\u00adチー\u200bと☆\ufe0f。\n", encoding="utf-8")
    res = build_game(game, tmp_path / "out", steps=("rulebook",))
    with open_pdf(str(res.out_dir / "rulebook.pdf")) as doc:
        assert "ドラを引く。ポンチーと☆。" in doc.pages[-1].extract_text()
