"""JLREQ composition of the rulebook (and the kinsoku classes card text shares), read back from the
PDFs: line-start/line-end prohibition, punctuation compression, the Japanese–Latin quarter em,
no last line of one or two characters, ruby, CJK-friendly emphasis, 字下げ."""
from __future__ import annotations

from pathlib import Path

from xml.sax.saxutils import escape

import pytest
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.styles import ParagraphStyle

from cardgen.check.print_setup import load_and_validate
from cardgen.core.units import MM
from cardgen.fonts.fontset import fonts_for
from cardgen.layout import jlreq
from cardgen.layout.text import NO_END, NO_START, break_lines, line_text
from cardgen.rulebook.markdown import parse_blocks
from cardgen.rulebook.design import load_design
from cardgen.rulebook.pdf import page_margins
from cardgen.rulebook.kinsoku import KinsokuParagraph
from cardgen.steps.rulebook import write_rulebook
from tests.rulebook.rules_game import rules_game
from typeset_read import bad_line_starts, punctuation_advances, read_lines, short_last_lines
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["tenjanpai", "yajanki", "majan", "nko_mahjong"]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")
DESIGN, _ = load_design([ROOT / "templates" / "rulebook"], "default")
BODY = DESIGN.body.size
RIGHT = 148 * MM - page_margins(DESIGN, (148, 210))["right"]  #: the text frame's right edge on A5 (38 em), pt


@pytest.fixture(scope="module")
def books(written_rulebooks):
    return {name: read_lines(written_rulebooks(name)) for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
def test_bundled_rulebook_reads_as_jlreq(books, name):
    lines = books[name]
    assert len(lines) > 50
    assert bad_line_starts(lines) == []
    assert short_last_lines(lines, BODY, RIGHT, BODY * DESIGN.body.leading) == []
    text = "".join(ln.text for ln in lines)
    assert "*" not in text and "|" not in text  # no markup left as glyphs
    advances = punctuation_advances(lines)
    assert advances, "every bundled book has compressible pairs"
    assert all(a <= 0.5 + 0.01 for _pair, a in advances), [p for p in advances if p[1] > 0.51]


def test_short_last_line_check_finds_one():
    """The read-back check is not blind: a paragraph set without the rule shows its widow."""
    class L:  # minimal Line stand-ins
        def __init__(self, text, x0, x1, baseline):
            self.page, self.text, self.x0, self.x1, self.baseline, self.size = 1, text, x0, x1, baseline, BODY
    lines = [L("ああああ", 40, RIGHT, 100), L("す。", 40, 60, 100 + BODY * 1.65)]
    assert len(short_last_lines(lines, BODY, RIGHT, BODY * 1.65)) == 1


# ------------------------------------------------------------------ classes (cards and rulebook)

NOT_AT_START = "‐〟｠゠–‼⁇⁈⁉｡､｣ｧｰ"
NOT_AT_END = "〝｟"


def test_prohibition_classes_include_the_half_width_forms():
    assert set(NOT_AT_START) <= NO_START
    assert set(NOT_AT_END) <= NO_END
    assert not (set(NOT_AT_START) & NO_END) and not (set(NOT_AT_END) & NO_START)


def _fixed(text, font, size):
    return sum(size if ord(c) > 0x2000 else size * 0.5 for c in text)


@pytest.mark.parametrize("ch", list(NOT_AT_START))
def test_card_text_never_starts_a_line_with(ch):
    lines = break_lines("あいうえ" + ch + "かき", 4 * 10, "body", 10, _fixed)
    assert all(line_text(ln)[:1] != ch for ln in lines), [line_text(ln) for ln in lines]


@pytest.mark.parametrize("ch", list(NOT_AT_END))
def test_card_text_never_ends_a_line_with(ch):
    lines = break_lines("あいう" + ch + "かき", 4 * 10, "body", 10, _fixed)
    assert all(line_text(ln)[-1:] != ch for ln in lines), [line_text(ln) for ln in lines]


def _para_lines(markup: str, width: float, size: float = 10) -> list[str]:
    style = ParagraphStyle("t", fontName="IPAexMincho", fontSize=size, leading=size * 1.5, wordWrap="CJK",
                           alignment=TA_JUSTIFY)
    para = KinsokuParagraph(markup, style)
    para.wrap(width, 1000)
    return ["".join(w.text for w in ln.words) for ln in para.blPara.lines]


@pytest.fixture(scope="module")
def mincho():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("IPAexMincho", "/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf"))


@pytest.mark.parametrize("ch", list(NOT_AT_START))
def test_rulebook_never_starts_a_line_with(mincho, ch):
    lines = _para_lines("あいうえ" + ch + "かきくけこ", 45)
    assert len(lines) > 1 and all(ln[:1] != ch for ln in lines), lines


@pytest.mark.parametrize("ch", list(NOT_AT_END))
def test_rulebook_never_ends_a_line_with(mincho, ch):
    lines = _para_lines("あいう" + ch + "かきくけこ", 45)
    assert all(ln[-1:] != ch for ln in lines), lines


@pytest.mark.parametrize("word", ["abc<def", "abc_def", "abc=def", "32,000"])
def test_latin_words_are_never_broken_after_a_symbol(mincho, word):
    card = break_lines("ああ" + word + "です", 50, "body", 10, _fixed)
    assert any(word in line_text(ln) for ln in card), [line_text(ln) for ln in card]
    book = _para_lines("ああああ" + escape(word) + "です", 75)
    assert any(word in ln for ln in book), book


# ------------------------------------------------------------------ compression, spacing, widows

def test_squeeze_pairs():
    assert jlreq.squeeze("」", "「") == 0.5 and jlreq.squeeze("。", "」") == 0.5
    assert jlreq.squeeze("（", "「") == 0.5 and jlreq.squeeze("）", "：") == 0.5
    assert jlreq.squeeze("あ", "「") == 0 and jlreq.squeeze("「", "あ") == 0
    assert jlreq.latin_gap("枚", "4") == 0.25 == jlreq.latin_gap("A", "を")
    assert jlreq.latin_gap("（", "4") == 0 and jlreq.latin_gap("4", "2") == 0
    assert jlreq.absorb_spaces("ABC と日本語 と 123 の") == "ABC と日本語と 123 の"  # typed beside Latin: kept


def _game(tmp_path, md: str) -> Path:
    return rules_game(tmp_path, md, settle=True)  # these rules mark no open question: no appendix


def _build(tmp_path, md: str) -> Path:
    game = _game(tmp_path, md)
    g, report = load_and_validate(game)
    pdf = tmp_path / "book.pdf"
    write_rulebook(g, report, fonts_for(g), pdf)
    return pdf


def _chars(pdf: Path, page: int = 0) -> list:
    with open_pdf(pdf) as doc:
        return [c for c in doc.pages[page].chars if abs(c["matrix"][1]) < 1e-6]


def _find(chars, text: str, size: float = BODY) -> list:
    body = [c for c in chars if abs(c["size"] - size) < 0.01]
    s = "".join(c["text"] for c in body)
    at = s.index(text)
    return body[at:at + len(text)]


def test_consecutive_punctuation_is_half_an_em(tmp_path):
    pdf = _build(tmp_path, "# 題\n\n山札（42枚）：「流局」「ます。【河】」と書く。\n")
    chars = _chars(pdf)
    for pair in ("）：", "」「", "。【", "】」"):
        a, b = _find(chars, pair)
        assert abs((b["x0"] - a["x0"]) - BODY / 2) < 0.01, pair  # one line, last line: no justification
    four, mai = _find(chars, "2枚")
    assert abs(mai["x0"] - four["x1"] - BODY / 4) < 0.01  # the Japanese–Latin quarter em


def test_typed_spaces_are_the_designers(tmp_path):
    """Where nothing was typed the typesetter puts a quarter em between Japanese and Latin; a space
    typed there stays (one space glyph, wider than a quarter em); between two Japanese characters a
    typed space is taken out (issue 30)."""
    pdf = _build(tmp_path, "# 題\n\n数字123の前後とABCの前後。数字 123 の前後と ABC の前後。打牌 する。\n")
    chars = _chars(pdf)
    auto = _find(chars, "数字123の前後とABCの前後。")
    gaps = [round(b["x0"] - a["x1"], 2) for a, b in zip(auto, auto[1:])]
    assert gaps == [0, 2.25, 0, 0, 2.25, 0, 0, 0, 2.25, 0, 0, 2.25, 0, 0, 0]
    typed = _find(chars, "数字 123 の前後と ABC の前後。")
    gaps = [round(b["x0"] - a["x1"], 2) for a, b in zip(typed, typed[1:]) if a["text"] != " " and b["text"] != " "]
    assert all(g == 0 for g in gaps)  # the space glyphs themselves make the room: nothing added
    assert all(b["x0"] - a["x0"] >= 2.25 for a, b in zip(typed, typed[1:]) if a["text"] == " ")
    assert _find(chars, "打牌する。")


def test_no_paragraph_ends_in_a_line_of_two_characters(mincho):
    # 10 characters a line: 「さす。」 would be left alone on the second line
    lines = _para_lines("あいうえおかきくけこさす。", 100)
    assert lines == ["あいうえおかきくけ", "こさす。"]  # one character pushed down (追い出し)


# ------------------------------------------------------------------ Markdown that Japanese authors write

def test_cjk_friendly_emphasis(tmp_path):
    pdf = _build(tmp_path, "# 題\n\nこの効果は**「ポン」**を宣言したときに発動する。\n\n攻撃力**+2**を得る。\n")
    chars = _chars(pdf)
    assert "*" not in "".join(c["text"] for c in chars)
    for word in ("「ポン」", "+2"):
        assert {c["fontname"].split("+")[-1] for c in _find(chars, word)} == {"IPAexGothic"}, word
    assert {c["fontname"].split("+")[-1] for c in _find(chars, "を宣言")} == {"IPAexMincho"}
    assert parse_blocks("攻撃力**+2**を得る。")[0].runs[1].bold


def test_ideographic_space_at_a_paragraph_start_is_an_indent(tmp_path):
    pdf = _build(tmp_path, "# 題\n\n\u3000字下げの段落です。\n\n字下げのない段落です。\n")
    chars = _chars(pdf)
    assert round(_find(chars, "字下げの段落")[0]["x0"] / MM, 2) == 16.85  # 13.68 mm margin (38 em frame) + one 9 pt em
    assert round(_find(chars, "字下げのない")[0]["x0"] / MM, 2) == 13.68


def test_ruby_is_set_above_its_base(tmp_path):
    pdf = _build(tmp_path, "# 題\n\n｜聴牌《テンパイ》になると{和了|ホーラ}できます。起家《チーチャ》から。\n")
    chars = _chars(pdf)
    base = _find(chars, "聴牌")
    ruby = _find(chars, "テンパイ", BODY / 2)
    assert abs((ruby[0]["x0"] + ruby[-1]["x1"]) / 2 - (base[0]["x0"] + base[-1]["x1"]) / 2) < 0.05  # centred
    assert ruby[0]["bottom"] < base[0]["top"] + 1  # above the base
    assert _find(chars, "ホーラ", BODY / 2) and _find(chars, "チーチャ", BODY / 2)
    text = "".join(c["text"] for c in chars if abs(c["size"] - BODY) < 0.01)
    assert "《" not in text and "｜" not in text and "{" not in text


def test_toc_without_headings_prints_no_placeholder(tmp_path):
    game = _game(tmp_path, "本文だけの規則です。見出しはありません。\n")
    y = game / "game.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("  toc: false\n", "  toc: true\n"), encoding="utf-8")
    g, report = load_and_validate(game)
    assert g.manifest.rulebook.toc
    pdf = tmp_path / "book.pdf"
    write_rulebook(g, report, fonts_for(g), pdf)
    with open_pdf(pdf) as doc:
        text = "".join(p.extract_text() for p in doc.pages)
        assert len(doc.pages) == 1
    assert "Placeholder" not in text and "目次" not in text and "本文だけの規則です" in text


def test_tenjanpai_has_ruby_on_the_mahjong_terms(written_rulebooks):
    with open_pdf(written_rulebooks("tenjanpai")) as doc:
        ruby = "".join(c["text"] for p in doc.pages for c in p.chars if abs(c["size"] - BODY / 2) < 0.01)
    for reading in ("テンパイ", "ホーラ", "チーチャ", "ワンパイ"):
        assert reading in ruby
