"""The rulebook check's findings per block held in memory by a watch (cardgen.rulebook.block_memo):
off in a one-off check; on, an edit to one paragraph lays out that paragraph only, and what every
block depends on (design, paper, font) lays out every block; the findings are always those of a
check without the memo. Nothing is written to disk."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.rulebook import block_memo
from cardgen.steps.rulebook import check_rulebook
from tests.conftest import needs_fonts, replace_in
from tests.rulebook.rules_game import rules_game
from tests.rulebook.test_rulebook_check import MIXED

pytestmark = needs_fonts
CARD = '![雀士](card:characters/c1-1 "26")'


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The mixed rules game (short last lines, a table, an image far wider than the page, a card
    figure), with an empty memo."""
    monkeypatch.setattr(block_memo, "_BOOKS", {})
    monkeypatch.setattr(block_memo, "_NEW", {})

    def big(path: Path) -> None:
        Image.new("RGB", (3000, 1500), (200, 30, 30)).save(path, dpi=(72, 72))
    return rules_game(tmp_path, MIXED + f"\n{CARD}\n", {"big.png": big})


class Breaks:
    """The texts the check breaks into lines (kinsoku_split), from now on."""

    def __init__(self, monkeypatch):
        from cardgen.rulebook import kinsoku

        self.texts: list[str] = []
        real = kinsoku.kinsoku_split
        monkeypatch.setattr(kinsoku, "kinsoku_split",
                            lambda frags, *a, **kw: self.texts.append("".join(f.text for f in frags))
                            or real(frags, *a, **kw))


def _check(game_dir: Path) -> list[str]:
    game, report = load_and_validate(game_dir)
    return [p.format() for p in check_rulebook(game, report, fonts_for(game))]


def _watched(game_dir: Path) -> list[str]:
    """The check as a watch's child runs it, what it kept taken in as the watch takes it."""
    found, kept = block_memo.remembering(_check, game_dir)
    block_memo.take_in(kept)
    return found


def test_a_one_off_check_lays_out_every_block_every_time(game, monkeypatch):
    first = _check(game)
    breaks = Breaks(monkeypatch)
    assert _check(game) == first and breaks.texts  # laid out again
    assert block_memo._BOOKS == {} and not block_memo.on()


def test_an_edit_to_one_paragraph_lays_out_that_paragraph_only(game, monkeypatch):
    first = _watched(game)
    assert len(first) == 2  # the scaled-down image and one short last line (the list items and the quote are re-broken, issue 30)
    breaks = Breaks(monkeypatch)
    assert _watched(game) == first and breaks.texts == []  # every block kept: nothing laid out
    replace_in(game / "rules" / "01.md", "ああああああああああああああPneumono", "あああああああああああああああPneumono")
    after = _watched(game)
    assert breaks.texts and all(t.startswith("あ" * 15) for t in breaks.texts)  # that paragraph, nothing else
    assert after == _check(game) and after != first


def test_a_moved_paragraph_is_reported_at_its_new_line(game):
    first = _watched(game)
    replace_in(game / "rules" / "01.md", "本文です。\n", "本文です。\n\n足した段落です。\n")
    after = _watched(game)
    assert after == _check(game)
    assert [p.split(":")[1] for p in after] == [str(int(p.split(":")[1]) + 2) for p in first]


@pytest.mark.parametrize("what", ["design", "paper", "font"])
def test_what_every_block_depends_on_lays_out_every_block(game, monkeypatch, what):
    _watched(game)
    if what == "design":  # wider margins: every line breaks elsewhere
        own = game / "templates" / "rulebook"
        own.mkdir(parents=True)
        text = (game.parent / "templates" / "rulebook" / "default.yaml").read_text(encoding="utf-8")
        (own / "default.yaml").write_text(text.replace("left: 14, right: 14", "left: 24, right: 24"), encoding="utf-8")
    elif what == "paper":
        replace_in(game / "game.yaml", "  paper: a5\n", "  paper: a4\n")
    else:  # the body text in another face: other widths
        replace_in(game / "game.yaml", "\nprint:\n", "\nfonts:\n  serif: IPAexGothic\n\nprint:\n")
    breaks = Breaks(monkeypatch)
    after = _watched(game)
    laid_out = len(breaks.texts)
    assert after == _check(game)
    assert laid_out == len(breaks.texts) - laid_out > 0  # as many as a check without the memo


@pytest.mark.parametrize("name", ["tenjanpai", "yajanki", "majan", "nko_mahjong"])
def test_bundled_games_by_block_find_what_the_whole_check_finds(name, tmp_path, monkeypatch):
    from tests.conftest import copy_game

    monkeypatch.setattr(block_memo, "_BOOKS", {})
    game = copy_game(tmp_path, name)
    whole = _check(game)
    assert _watched(game) == whole
    breaks = Breaks(monkeypatch)
    assert _watched(game) == whole
    assert breaks.texts == []
