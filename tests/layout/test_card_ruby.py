"""Ruby on cards (｜聴牌《テンパイ》, {聴牌|テンパイ}, 聴牌《テンパイ》): the base is one unbreakable
atom, the reading is set at half size (6 pt at least) centred above it, and the line moves down to make room;
read back from a print-shop PDF of the mini game."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.api import build_game
from cardgen.core.units import MM
from cardgen.layout.text import break_lines
from cardgen.layout.text_atoms import Atom, atoms, ruby_size
from tests.minigame import CARDS, write_game
from tests.pdfread import open_pdf

IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")


def test_ruby_notations_become_one_atom():
    expect = [Atom("聴牌", "ruby", "テンパイ"), Atom("速", "cjk"), Atom("度", "cjk")]
    assert atoms("｜聴牌《テンパイ》速度") == expect
    assert atoms("{聴牌|テンパイ}速度") == expect
    assert atoms("聴牌《テンパイ》速度") == expect
    assert atoms("《烈火》") == [Atom(c, "cjk") for c in "《烈火》"]  # no kanji before 《: not ruby


def test_ruby_base_is_never_split_and_as_wide_as_its_reading():
    def measure(text, _font, size):
        return len(text) * size
    lines = break_lines("あ｜聴牌《テンパイ》", 2.5 * 10, "body", 10, measure)
    assert [[a.text for a in ln.atoms] for ln in lines] == [["あ"], ["聴牌"]]
    wide = break_lines("{王|ワンパイ}", 100, "body", 20, measure)
    assert wide[0].width == 4 * 10 - 10  # the reading (4 × 10 pt) overhangs each side by half its em (5 pt)


def test_reading_is_centred_above_its_base_on_the_card(tmp_path):
    cards = [dict(c) for c in CARDS]
    cards[0]["name"] = "速｜聴牌《テンパイ》度"  # inside the line (at its start the reading starts with the line)
    game = write_game(tmp_path, cards=cards)
    build_game(game, tmp_path / "out", steps=("shop",))
    with open_pdf(tmp_path / "out" / "mini" / "shop" / "cards.pdf") as pdf:
        ruby_page, plain_page = pdf.pages[0], pdf.pages[2 * 3]  # front of n1, front of n2 (3 copies, front + back)
        base = [c for c in ruby_page.chars if c["text"] in "聴牌" and round(c["size"], 1) == 10.0]
        reading = [c for c in ruby_page.chars if c["text"] in "テンパイ" and round(c["size"], 1) == 6.0]
        plain = [c for c in plain_page.chars if c["text"] == "カ" and round(c["size"], 1) == 10.0]
    assert "".join(c["text"] for c in base) == "聴牌" and "".join(c["text"] for c in reading) == "テンパイ"
    centre = (base[0]["x0"] + base[-1]["x1"]) / 2
    assert (reading[0]["x0"] + reading[-1]["x1"]) / 2 == pytest.approx(centre, abs=0.05 * MM)
    assert max(c["bottom"] for c in reading) <= min(c["top"] for c in base) + 0.2  # above the base glyphs
    # the line with ruby sits one ruby size (6 pt: half of 10 pt is below the 6 pt floor) lower than
    # the same box's line without ruby
    assert base[0]["bottom"] - plain[0]["bottom"] == pytest.approx(6.0, abs=0.05)
    assert (ruby_size(10), ruby_size(20), ruby_size(5)) == (6.0, 10.0, 5.0)


def test_ruby_at_a_line_start_stays_inside_the_text_box(tmp_path):
    """A reading wider than its base at the start of a line begins at the line's start (the text
    box's edge), not half a ruby em before it (JLREQ: ruby overhangs the kana beside it, never
    the line's edge); the base keeps its place. Read back from the shop PDF."""
    cards = [dict(c) for c in CARDS]
    cards[0]["name"] = "{王|ワンパイ}を取る"
    game = write_game(tmp_path, cards=cards)
    build_game(game, tmp_path / "out", steps=("shop",))
    with open_pdf(tmp_path / "out" / "mini" / "shop" / "cards.pdf") as pdf:
        page = pdf.pages[0]
        base = [c for c in page.chars if c["text"] == "王" and round(c["size"], 1) == 10.0]
        reading = [c for c in page.chars if c["text"] in "ワンパイ" and round(c["size"], 1) == 6.0]
    assert len(base) == 1 and "".join(c["text"] for c in reading) == "ワンパイ"
    bw, rw, rs = base[0]["x1"] - base[0]["x0"], reading[-1]["x1"] - reading[0]["x0"], 6.0
    line_start = base[0]["x0"] - (max(bw, rw - rs) - bw) / 2  # the base is centred in its atom
    assert rw > bw  # the reading is wider: centred, it would start rs/2 before the line
    assert reading[0]["x0"] == pytest.approx(line_start, abs=0.05)
