"""cardgen.layout.vertical: orientation per character (UAX #50), turned Latin, tate-chu-yoko,
and the horizontal engine's kinsoku, compression and short-last-line rules on columns."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cardgen.layout import jlreq
from cardgen.layout.vertical import (NO_END, NO_START, TCY, TURNED, UPRIGHT, break_columns, fit_columns,
                                     needs_form, orientation, turns_without_form, units)

SIZE = 10.0


def em(text: str, font: str, size: float) -> float:
    """Every character one em (as in the horizontal tests), so lengths are easy to reason about."""
    return len(text) * size


def columns_of(text: str, height_em: float) -> list[str]:
    cols = break_columns(units(text, "body", SIZE, em), height_em * SIZE, SIZE)
    return [c.text() for c in cols]


def test_orientation_follows_uax50():
    assert [orientation(c) for c in "あ字ー「、。Rｰ〜"] == ["U", "U", "Tr", "Tr", "Tu", "Tu", "R", "R", "Tr"]
    assert all(needs_form(c) for c in "、。っァ") and not any(needs_form(c) for c in "あ字R1ー「！？")
    assert all(turns_without_form(c) for c in "ー「」〜…‥―") and not any(turns_without_form(c) for c in "あ、R")


def test_latin_digits_and_capitals():
    pieces = [(p.mode, p.text) for u in units("第12回Ron、HPはA、2026年", "body", SIZE, em) for p in u.pieces]
    assert (TCY, "12") in pieces  # 1-2 digits: one tate-chu-yoko unit
    assert (TURNED, "Ron") in pieces and (TURNED, "2026") in pieces  # a word, a long number: turned
    assert (UPRIGHT, "H") in pieces and (UPRIGHT, "P") in pieces and (UPRIGHT, "A") in pieces  # short capitals upright
    three = [(p.mode, p.text) for u in units("第123回", "body", SIZE, em, tcy_digits=3) for p in u.pieces]
    assert (TCY, "123") in three
    marks = [(p.mode, p.text) for u in units("ロン!?ツモ!", "body", SIZE, em) for p in u.pieces]
    assert (TCY, "!?") in marks and (UPRIGHT, "!") in marks
    none = [(p.mode, p.text) for u in units("第1回", "body", SIZE, em, tcy_digits=0) for p in u.pieces]
    assert (TURNED, "1") not in none and (UPRIGHT, "1") in none  # a single digit still stands upright


def test_no_column_starts_with_closing_punctuation():
    assert columns_of("あいうえお、かきくけこ", 5) == ["あいうえ", "お、かき", "くけこ"]  # and no 2-character last column
    for ch in "。」ー）、っ":
        for col in columns_of(f"あいうえお{ch}かきくけこ", 5)[1:]:
            assert col[0] not in NO_START, (ch, col)


def test_no_column_ends_with_opening_bracket():
    out = columns_of("あいうえ「かきくけこ」", 5)
    assert out[0] == "あいうえ"
    assert all(col[-1] not in NO_END for col in out)


def test_punctuation_compression_along_the_column():
    """」。 and 「「: the half-em blank between two marks goes (JLREQ §3.1.4), as horizontally."""
    (col,) = break_columns(units("あ」。い", "body", SIZE, em), 100 * SIZE, SIZE)
    assert col.length == pytest.approx(4 * SIZE - jlreq.squeeze("」", "。") * SIZE)
    (col,) = break_columns(units("「「あ", "body", SIZE, em), 100 * SIZE, SIZE)
    assert col.length == pytest.approx(2.5 * SIZE)
    (col,) = break_columns(units("あRonい", "body", SIZE, em), 100 * SIZE, SIZE)
    assert col.length == pytest.approx(5 * SIZE + 2 * jlreq.LATIN_GAP * SIZE)  # a quarter em either side


def test_no_last_column_of_one_or_two_characters():
    out = columns_of("あいうえおかきくけこさ", 5)
    assert out == ["あいうえお", "かきく", "けこさ"]  # not 5, 5, 1
    assert columns_of("あいうえおかきくけこさ\nたち", 5)[-1] == "たち"  # a paragraph of its own stays
    # nothing can move: the column before would start with 、 — the column stays short, and says so
    cols = break_columns(units("あいうえお、かきくけこ、さ", "body", SIZE, em), 6 * SIZE, SIZE)
    assert [c.text() for c in cols][-1] == "さ" and cols[-1].short


def test_columns_break_between_phrases():
    """As horizontal card text (phrases: true): a column ends where a phrase (文節, BudouX) does."""
    from cardgen.layout.phrases import boundaries

    text = "手札から1枚を捨てて、山札の上から3枚を見る。"
    plain = [c.text() for c in break_columns(units(text, "body", SIZE, em), 8 * SIZE, SIZE)]
    cols = [c.text() for c in break_columns(units(text, "body", SIZE, em), 8 * SIZE, SIZE, phrases=True)]
    assert "".join(cols) == text and plain[0] == "手札から1枚を捨"  # without: at any place JLREQ allows
    ends = {len("".join(cols[:i + 1])) for i in range(len(cols) - 2)}  # the last break: the short-last rule's
    assert ends <= boundaries(text), (cols, sorted(boundaries(text)))
    assert len(cols[-1]) > 3  # 「見る。」 alone would be a last column of two characters: it takes を


def test_fit_columns_shrinks_then_fails():
    fitted = fit_columns("あいうえおかきくけこ", 1.2 * SIZE, 8 * SIZE, "body", SIZE, 6, em)
    assert fitted.fits and fitted.shrunk and fitted.size < SIZE and len(fitted.columns) == 1
    fitted = fit_columns("あいうえおかきくけこ" * 5, 1.2 * SIZE, 8 * SIZE, "body", SIZE, 8, em)
    assert not fitted.fits and fitted.size == 8


TOKENS = ["あ", "い", "漢", "字", "ア", "、", "。", "」", "ー", "っ", "「", "（", ":pon:", " Ron ", "12", "HP", " "]


def _sane(tokens: list[str]) -> bool:
    """As the horizontal property test: no two forbidden characters in a row."""
    bad = NO_START | NO_END
    shown = [t.strip() for t in tokens if t.strip()]
    return all(not (a[-1] in bad and b[0] in bad) for a, b in zip(shown, shown[1:]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=60).filter(_sane), st.integers(6, 18), st.booleans())
def test_kinsoku_property(tokens, height_em, phrases):
    text = "".join(tokens)
    cols = break_columns(units(text, "body", SIZE, em), height_em * SIZE, SIZE, phrases)
    out = [c.text() for c in cols]
    assert "".join(out).replace(" ", "") == text.replace(" ", "")  # nothing lost, only spaces at breaks
    for c in cols[1:]:
        assert not c.units or c.units[0].first not in NO_START, out  # no 、。」ーっ at a column start
        assert not c.units or not c.units[0].is_space, out
    for c in cols[:-1]:
        assert not c.units or c.units[-1].last not in NO_END, out  # no 「（ at a column end
    for c in cols:  # only a column ending in hanging punctuation, or one word (after its 「) longer than a column
        assert c.length <= height_em * SIZE + 1e-6 or c.units[-1].last in NO_START \
            or all(u.last in NO_END for u in c.units[:-1]), out


def _plan(direction: str, text: str, size: float = 10, min_size: float = 8):
    from cardgen.core.units import MM
    from cardgen.data.template_model import Template
    from cardgen.layout.card import plan_card
    from cardgen.layout.face import Frame

    t = Template.model_validate({"elements": [{"kind": "text", "name": "name", "box": [10, 10, 12, 30], "text": text,
                                               "size": size, "min_size": min_size, "direction": direction}]})
    return plan_card(t, {}, Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM), em, "c1")


def test_vertical_boxes_report_as_horizontal_ones():
    """Shrunk and overflowing vertical text: the horizontal text's findings, messages and red outline."""
    from cardgen.layout.card_text import OVERFLOW_COLOR
    from cardgen.layout.ops import Line

    long = "あいうえおかきくけこ" * 4
    for direction in ("horizontal", "vertical"):
        res = _plan(direction, long)
        (over,) = [p for p in res.findings if p.code == "text-overflow"]
        assert over.severity == "error"
        assert over.message.startswith("the text does not fit its box (12.0 × 30.0 mm) even at 8 pt; its ")
        assert any(isinstance(o, Line) and o.color == OVERFLOW_COLOR for o in res.plan.ops)
    # 20 em in 30 mm (85 pt) columns, 12 mm (34 pt) across: three columns of 9 pt (9 + 2 × 12.15 pt) fit
    vertical = _plan("vertical", "あいうえおかきくけこ" * 2, 12, 6)
    (shrunk,) = [p for p in vertical.findings if p.code == "text-shrunk"]
    assert shrunk.message == "the text was shrunk from 12 pt to 9 pt to fit"
    assert not any(isinstance(o, Line) for o in vertical.plan.ops)
