"""cardgen.layout.text: kinsoku line breaking, whole Latin words, inline icons, forced breaks, fitting."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cardgen.layout.text import NO_END, NO_START, break_lines, fit_text, line_text
from cardgen.layout.text_atoms import atoms


def em(text: str, font: str, size: float) -> float:
    """Every character is 1 em wide (size pt), so widths are easy to reason about."""
    return len(text) * size


def lines_of(text: str, width_em: float, size: float = 10.0) -> list[str]:
    return [line_text(ln) for ln in break_lines(text, width_em * size, "body", size, em)]


def test_no_line_starts_with_closing_punctuation():
    # plain breaking at 5 em would start line 2 with 、; お moves down with it, and the last line
    # is not left with two characters (the paragraph is broken again, one em narrower)
    assert lines_of("あいうえお、かきくけこ", 5) == ["あいうえ", "お、かき", "くけこ"]
    for ch in "。」ー）":
        for ln in lines_of(f"あいうえお{ch}かきくけこ", 5)[1:]:
            assert ln[0] not in NO_START


def test_no_line_ends_with_opening_bracket():
    out = lines_of("あいうえ「かきくけこさし」", 5)
    assert out[0] == "あいうえ"
    assert all(ln[-1] not in NO_END for ln in out)
    assert lines_of("あいうえ（注）", 5) == ["あいう", "え（注）"]  # え goes down too: a longer last line
    # a space between the bracket and the next word does not leave the bracket behind; it takes no
    # room either (JLREQ: nothing follows an opening bracket; found by the property test below)
    assert lines_of("あいう「 Ron」", 5) == ["あいう", "「Ron」"]
    assert lines_of("「   declare", 10) == ["「declare"]


def test_latin_words_are_never_split():
    text = "手番にRon declareできる。Tsumo winもある"
    out = lines_of(text, 6)
    for word in ("Ron", "declare", "Tsumo", "win"):
        assert sum(word in ln for ln in out) == 1, (word, out)
    assert "".join(out).replace(" ", "") == text.replace(" ", "")


def test_word_longer_than_the_line_gets_its_own_line():
    out = break_lines("あ Supercalifragilistic い", 5 * 10, "body", 10, em)
    assert [line_text(ln) for ln in out] == ["あ", "Supercalifragilistic", "い"]
    assert out[1].width > 50  # fit_text reports this as not fitting
    assert not fit_text("Supercalifragilistic", 50, 100, "body", 10, 8, em).fits


def test_icons_are_atoms_one_em_wide_on_the_line():
    a = atoms("打牌で:power:を得る")
    assert [x.kind for x in a].count("icon") == 1
    assert next(x for x in a if x.kind == "icon").text == "power"
    out = lines_of(":pon:と:chi:で払う:power:", 4)
    assert ":pon:" in out[0] and "".join(out) == ":pon:と:chi:で払う:power:"
    # 1.05 em each: two icons and a character do not fit in 3 em
    assert len(lines_of(":pon::chi:あ", 3)) == 2


def test_literal_backslash_n_and_real_newlines_force_breaks():
    assert lines_of(r"一行目\n二行目", 20) == ["一行目", "二行目"]
    assert lines_of("一行目\n二行目", 20) == ["一行目", "二行目"]
    assert lines_of(r"a\n\nb", 20) == ["a", "", "b"]


def test_fit_text_shrinks_then_fails():
    long = "あ" * 30
    f = fit_text(long, 100, 30, "body", 10, 6, em)  # 3 lines at 10 pt need 37 pt; smaller sizes fit
    assert f.fits and f.shrunk and 6 <= f.size < 10
    assert all(ln.width <= 100 for ln in f.lines)
    assert not fit_text("あ" * 300, 100, 40, "body", 10, 6, em).fits


TOKENS = ["あ", "い", "漢", "字", "ア", "、", "。", "」", "ー", "っ", "「", "（", ":pon:", " Ron ", " declare ", " "]


def _sane(tokens: list[str]) -> bool:
    """Texts a designer could write: no two forbidden characters in a row, no bracket
    directly before punctuation (those runs cannot always be kept together)."""
    bad = NO_START | NO_END
    shown = [t for t in tokens if t.strip()]  # "「 「" is two brackets in a row too (spaces between)
    return all(not (a in bad and b in bad) for a, b in zip(shown, shown[1:]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=60).filter(_sane), st.integers(10, 18))
def test_kinsoku_property(tokens, width_em):
    text = "".join(tokens)
    laid = break_lines(text, width_em * 10, "body", 10, em)
    out = [line_text(ln) for ln in laid]
    assert "".join(out).replace(" ", "") == text.replace(" ", "")  # nothing lost, only spaces at breaks
    for ln in laid[1:]:
        assert not ln.atoms or ln.atoms[0].kind == "icon" or ln.atoms[0].text[0] not in NO_START, out
        assert not ln.atoms or ln.atoms[0].kind != "space", out  # " 、" would still start with 、
    for ln in laid[:-1]:
        assert not ln.atoms or ln.atoms[-1].kind == "icon" or ln.atoms[-1].text[-1] not in NO_END, out
    for ln in laid:
        # only a line ending in hanging punctuation (nothing before it could move down) is too wide
        assert ln.width <= width_em * 10 + 1e-6 or ln.atoms[-1].text[-1] in NO_START, out
    words = [t.strip() for t in tokens if t.strip() in ("Ron", "declare")]
    laid_words = [a.text for ln in laid for a in ln.atoms if a.kind == "word"]
    assert laid_words == words  # every Latin word whole, on one line


@pytest.mark.parametrize("width", [w * 5.0 for w in range(8, 30)])
def test_consecutive_closing_marks_never_start_a_line(width):
    """」、 and ）。 move down together with the character before them (found by a user trial)."""
    from cardgen.layout.text import NO_START, break_lines, line_text

    def measure(t, f, s):
        return sum(s if ord(c) > 255 else s * 0.5 for c in t)

    text = "自分の「雪隠れ」、【河】を見る。パワーが（最低0個）。手札を1枚捨てる。"
    lines = [line_text(ln) for ln in break_lines(text, width, "body", 5, measure)]
    assert "".join(lines) == text
    assert all(ln[:1] not in NO_START for ln in lines[1:]), lines


def test_nobreak_keeps_a_reference_on_one_line():
    from cardgen.core.nobreak import NOBREAK, nobreak

    text = "手札から1枚を裏向きで川へ" + nobreak("（第20条④）")
    assert NOBREAK in text
    for width in range(8, 20):
        lines = lines_of(text, width)
        assert sum("（第20条④）" in ln for ln in lines) == 1, (width, lines)  # whole on one line
        assert all(NOBREAK not in ln for ln in lines)  # the mark itself is never drawn
    plain = lines_of("手札から1枚を裏向きで川へ（第20条④）", 15)
    assert not any("（第20条④）" in ln for ln in plain)  # without it the reference is split at this width


def test_punctuation_hangs_when_nothing_can_move_down():
    """A word wider than the line, or a run of closing marks, cannot carry a character down with
    the 、 after it: the 、 hangs at the line end (the line overflows and is reported) instead of
    starting the next line."""
    assert lines_of("Supercalifragilistic、あ", 5) == ["Supercalifragilistic、", "あ"]
    assert lines_of("」」」」」、あ", 3) == ["」」」」」、", "あ"]  # 」」 compressed: 3.5 em
    assert lines_of("word 、あい", 3) == ["word 、", "あい"]
    assert not fit_text("Supercalifragilistic、", 5 * 10, 100, "body", 10, 10, em).fits
