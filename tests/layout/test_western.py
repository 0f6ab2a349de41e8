"""Western line breaking of a Latin-script edition (cardgen/layout/western.py) and the overflow
check on every edition: an English text that does not fit is a finding of the English edition at
its card, while the Japanese edition still builds."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.api import build_game
from cardgen.core.errors import CardgenError
from cardgen.layout.text import line_text
from cardgen.layout.western import break_western, western_quotes
from cardgen.steps.game_check import check_game
from tests.conftest import copy_game, needs_fonts, replace_in


def mono(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.5  # every character half an em: widths easy to reason about


def test_breaks_only_at_spaces_and_hyphenates_with_the_dictionary():
    lines = [line_text(ln) for ln in break_western("Draw extraordinary cards from the wall.", 60, "b", 8, mono)]
    # 15 characters a line; "extraordinary" does not fit after "Draw": pyphen's en_US breaks it after "ex"
    assert lines == ["Draw ex-", "traordinary", "cards from the", "wall."]
    for ln in lines:
        assert ln.endswith("-") or " " not in ln[-1:]  # no line ends with a space


def test_short_words_and_names_with_digits_move_down_whole():
    lines = [line_text(ln) for ln in break_western("Gain 12345678 :power: now.", 40, "b", 8, mono)]
    assert lines == ["Gain", "12345678", ":power:", "now."] or lines[1] == "12345678"
    assert all("-" not in ln for ln in lines)


def test_an_icon_keeps_its_punctuation():
    lines = [line_text(ln) for ln in break_western("You gain 1 :power:.", 40, "b", 8, mono)]
    assert lines[-1].endswith(":power:.")
    assert not any(ln.startswith(".") for ln in lines)


def test_typographic_quotes_and_dashes():
    assert western_quotes('Say "Ron" -- it\'s yours; \'tsumo\'') == "Say “Ron” – it’s yours; ‘tsumo’"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return copy_game(tmp_path)


@needs_fonts
def test_english_text_that_does_not_fit_is_a_finding_of_that_edition_while_japanese_builds(game: Path, tmp_path: Path):
    table = game / "editions" / "en.csv"
    long = "Look at the top 2 cards of the wall. " * 12
    replace_in(table, "Look at the top 2 cards of the wall. Put 1 into your hand and the other back on top.", long.strip())
    en = check_game(game, edition="en", rulebook=False)
    over = [p for p in en.errors if p.code == "text-overflow"]
    assert [(p.card.card_id, p.card.component) for p in over] == [("c4-1", "characters")]
    ja = check_game(game, rulebook=False)  # the default edition: the English overflow is a warning naming the edition
    assert not [p for p in ja.errors if p.code == "text-overflow"]
    named = [p for p in ja.warnings if p.code == "text-overflow"]  # English and the bilingual deck's English box
    assert sorted(p.message.split(":")[0] for p in named) == ["edition 'en'", "edition 'ja-en'"]
    assert {p.card.card_id for p in named} == {"c4-1"}
    res = build_game(game, tmp_path / "out", steps=("sheets",))
    assert (res.out_dir / "print-sheets.pdf").is_file()
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("sheets",), edition="en")
    assert "text-overflow" in [p.code for p in exc.value.problems]
