"""The glossary of ruby terms at the back of 天雀牌's rulebook (``rulebook.glossary: true``), read
back from the PDF; the order of the readings (五十音順)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.api import build_game
from cardgen.rulebook.blocks import Para, Span, Table
from cardgen.rulebook.glossary import GLOSSARY_TITLE, glossary_blocks, kana_key, ruby_terms
from tests.minigame import write_game
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")


def _glossary_rows(pdf_path: Path) -> list[list[str]]:
    with open_pdf(pdf_path) as pdf:
        pages = [p for p in pdf.pages if "付録 用語と読み" in (p.extract_text() or "")
                 and "用語と読み . ." not in (p.extract_text() or "")]
        assert len(pages) == 1
        tables = pages[0].extract_tables()
    return tables[-1]


def test_tenjanpai_glossary_lists_every_ruby_term_in_reading_order(built_games):
    rows = _glossary_rows(built_games("tenjanpai", force=True, steps=("rulebook",)).out_dir / "rulebook.pdf")
    assert rows == [["用語", "読み"], ["起家", "チーチャ"], ["聴牌", "テンパイ"], ["和了", "ホーラ"], ["王牌", "ワンパイ"]]


def test_no_glossary_unless_asked(tmp_path):
    rules = {"01.md": "# ミニ\n\n## 準備\n\n｜聴牌《テンパイ》の説明です。{和了|ホーラ}もあります。\n"}
    plain = write_game(tmp_path / "a", rules=rules)
    build_game(plain, tmp_path / "out-a", steps=("rulebook",))
    with open_pdf(tmp_path / "out-a" / "mini" / "rulebook.pdf") as pdf:
        assert all("用語と読み" not in (p.extract_text() or "") for p in pdf.pages)
    asked = write_game(tmp_path / "b", rules=rules, manifest={"rulebook": {"glossary": True}})
    build_game(asked, tmp_path / "out-b", steps=("rulebook",))
    assert _glossary_rows(tmp_path / "out-b" / "mini" / "rulebook.pdf") == [["用語", "読み"], ["聴牌", "テンパイ"],
                                                                           ["和了", "ホーラ"]]


def test_ruby_terms_once_in_kana_order():
    blocks = [Para([Span("和了", ruby="ホーラ"), Span("と"), Span("聴牌", ruby="てんぱい")]),
              Table([[Span("a")]], [[[Span("起家", ruby="チーチャ")]]], ["left"]),
              Para([Span("和了", ruby="ホーラ")])]
    assert ruby_terms(blocks) == [("起家", "チーチャ"), ("聴牌", "てんぱい"), ("和了", "ホーラ")]
    assert kana_key("テンパイ") == "てんぱい"
    head, table = glossary_blocks(blocks)
    assert head.text == GLOSSARY_TITLE and head.toc_level == 0 and len(table.rows) == 3
    assert glossary_blocks([Para([Span("なし")])]) == []
