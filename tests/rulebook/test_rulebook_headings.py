"""Headings read back from the bundled rulebooks: the rule under a heading belongs to it (closer
to the heading than to the text, and the space above the heading larger than the space under
its rule); the table of contents prints the headings' own numbers; a number typed as a label
(``### 1. ツモ``) keeps its space."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.layout.jlreq import absorb_spaces
from cardgen.rulebook.blocks import Heading, Span
from cardgen.rulebook.story import toc_text
from cardgen.core.units import MM
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")
H1, H2 = 13.5, 10.5  # heading sizes of templates/rulebook/default.yaml (pt)
GRID = 9 * 1.65  # its body leading: the baseline grid (pt)
RULE_COLOUR = (0.478431, 0.121569, 0.121569)  # #7a1f1f


@pytest.fixture(scope="module")
def tenjanpai(built_games):
    return built_games("tenjanpai", force=True, steps=("rulebook",)).out_dir / "rulebook.pdf"


def _lines(page) -> list[dict]:
    return [ln for ln in page.extract_text_lines(return_chars=True)
            if ln["top"] > 17 * MM - 1 and ln["bottom"] < page.height - 15 * MM + 1]


def test_the_rule_belongs_to_its_heading(tenjanpai):
    measured = 0
    with open_pdf(tenjanpai) as pdf:
        for page in pdf.pages[2:]:  # after the cover (rules/01_intro.md) and the table of contents
            lines = _lines(page)
            rules = sorted(ln["top"] for ln in page.lines
                           if tuple(round(v, 6) for v in ln["stroking_color"]) == RULE_COLOUR
                           and ln["x1"] - ln["x0"] > 100 * MM)
            for k, ln in enumerate(lines):
                if round(ln["chars"][0]["size"], 1) != H1:
                    continue
                rule = next(r for r in rules if r > ln["bottom"])
                nxt = next(x for x in lines[k + 1:] if x["top"] > rule)
                above_rule = rule - ln["bottom"]
                below_rule = nxt["top"] - rule
                assert above_rule == pytest.approx(2.20 * MM, abs=0.05 * MM), ln["text"]
                if round(nxt["chars"][0]["size"], 1) == 9.0:  # body text (a table's first row sits lower)
                    # the design's space (4.78 mm to the text's top), and on the baseline grid at most
                    # half a grid line more (the heading is centred in the whole lines it takes)
                    assert 4.78 * MM - 0.1 * MM <= below_rule <= 4.78 * MM + GRID / 2 + 0.1 * MM, ln["text"]
                assert below_rule > above_rule + 2 * MM, ln["text"]
                if k > 0:  # the space above the heading is larger than the space under its rule
                    above = ln["top"] - lines[k - 1]["bottom"]
                    assert above > below_rule + 2 * MM, (ln["text"], above / MM, below_rule / MM)
                measured += 1
    assert measured == 11  # 概要 … 終了と勝敗, the two appendices


def test_toc_numbers_are_the_headings_numbers(tenjanpai):
    with open_pdf(tenjanpai) as pdf:
        toc = [re.sub(r"[ .]+\d+$", "", ln["text"]) for ln in _lines(pdf.pages[1])  # page 1: the cover
               if re.search(r"( \.){3,} ?\d+$", ln["text"])]
        heads = [ln["text"] for page in pdf.pages[2:] for ln in _lines(page)
                 if round(ln["chars"][0]["size"], 1) in (H1, H2)]
    assert toc == ["1. 概要", "2. 内容物", "3. 準備", "4. 手番の流れ", "1. ツモ", "2. 和了判定", "3. 打牌",
                   "4. ロン判定", "5. ポン／チー", "5. スキル", "6. 流局", "7. 得点", "8. 脱衣と奥義",
                   "9. 終了と勝敗", "付録 用語と読み", "付録 未確定事項の一覧"]
    assert toc == heads


def test_toc_text_separates_number_as_the_heading_does():
    assert toc_text(Heading(2, [Span("概要")], "1.")) == "1. 概要"
    assert toc_text(Heading(3, [Span("ツモ")], "1.2")) == "1.2 ツモ"
    assert toc_text(Heading(2, [Span("総則")], "第1章")) == "第1章\u3000総則"
    assert toc_text(Heading(4, [Span("宣言")], "①")) == "①\u3000宣言"
    assert toc_text(Heading(2, [Span("概要")])) == "概要"


def test_a_typed_label_number_keeps_its_space():
    assert absorb_spaces("1. ツモ") == "1. ツモ"
    assert absorb_spaces("12)  打牌 する") == "12) 打牌する"
    assert absorb_spaces("1.2. 和了 判定") == "1.2. 和了判定"
    assert absorb_spaces("カード 1. を") == "カード 1. を"  # only a label at the start; typed spaces beside Latin stay
