"""Rulebook blocks set vertically (``<!-- vertical -->`` before them): the book title as a cover
page of its own, a paragraph in columns; read back from the mini game's rulebook PDF."""
from __future__ import annotations

import pypdf
import pytest

from cardgen.api import build_game
from cardgen.rulebook.blocks import Heading, Para
from cardgen.rulebook.markdown import parse_blocks
from tests.conftest import needs_fonts
from tests.minigame import write_game
from tests.pdfread import open_pdf, unembedded_fonts, vertical_columns

PARA = "手番では、山から1枚引いて「ロン」を宣言できる。:power:を1個得る。"
RULES = {"01_rules.md": "<!-- vertical -->\n# ミニ ルール\n\n## 内容物\n\n{{ component_table }}\n\n"
                        f"<!-- vertical -->\n{PARA}\n\n## 準備\n\nふつうの段落。\n"}


def test_the_marker_sets_the_next_heading_or_paragraph_vertically():
    blocks = parse_blocks("<!-- vertical -->\n# 題\n\n本文。\n\n<!-- vertical -->\n縦の段。\n\n横の段。\n")
    assert [(type(b), b.vertical) for b in blocks] == [(Heading, True), (Para, False), (Para, True), (Para, False)]


@pytest.fixture(scope="module")
def rulebook(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("vertical-rulebook")
    game = write_game(tmp, rules=RULES)
    build_game(game, tmp / "out", steps=("rulebook",))
    return tmp / "out" / "mini" / "rulebook.pdf"


@needs_fonts
def test_vertical_cover_and_column(rulebook):
    assert unembedded_fonts(rulebook) == {}
    with open_pdf(rulebook) as pdf:
        cover, toc, body = pdf.pages[:3]
        assert "ミニルール" in vertical_columns(cover)  # the title, one column (the typed space absorbed)
        title = [c for c in cover.chars if c["text"] in "ミニルール"]
        assert min(c["size"] for c in title) >= 30  # twice the design's title size (20 pt), shrunk at most to it
        assert "目次" not in (cover.extract_text() or "") and "目次" in toc.extract_text()  # the cover is a page
        # a cover prints no folio, the page after it does (its number counts the cover)
        bottom = lambda page: "".join(c["text"] for c in page.chars if c["top"] > page.height * 0.9)
        assert bottom(cover) == "" and bottom(toc) == "2"
        column = [c for c in body.chars if c["text"] in PARA and c["size"] == pytest.approx(9, abs=0.01)]
        assert column and all(c["upright"] for c in column)
        xs = sorted({round(c["x0"]) for c in column if c["text"] != "1"})
        assert len(xs) >= 2  # more than one column: right to left
        first = [c for c in column if round(c["x0"]) == xs[-1]]
        assert "".join(c["text"] for c in sorted(first, key=lambda c: c["top"])).startswith("手番では、")
        assert "ふつうの段落。" in body.extract_text()  # a paragraph without the marker stays horizontal
    text = "".join(pypdf.PdfReader(rulebook).pages[2].extract_text().split())
    assert PARA.replace(":power:", "") in text  # searchable, in reading order
