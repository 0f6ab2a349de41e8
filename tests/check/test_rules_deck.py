"""cardgen.check.deck_math: deck math per player count, removals, design rules naming file:line."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.check.deck_math import validate
from cardgen.data.game import load_game
from tests.conftest import TENJANPAI, replace_in
from tests.minigame import write_game


def line_of(path: Path, needle: str, occurrence: int = 1) -> int:
    """1-based line number of the ``occurrence``-th line containing ``needle``."""
    hits = [i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in ln]
    return hits[occurrence - 1]


def by_code(report, code):
    return [p for p in report.errors if p.code == code]


def test_tenjanpai_deck_math():
    r = validate(load_game(TENJANPAI))
    assert r.ok, [p.format() for p in r.errors]
    pcs = {pc.players: pc for pc in r.player_counts}
    four, three = pcs[4], pcs[3]
    assert (four.deck, four.removed, four.hand, four.dead_wall, four.draw_pile, four.turns) == (42, 0, 3, 6, 24, 6)
    assert (three.deck, three.removed, three.draw_pile, three.turns) == (36, 6, 21, 7)
    assert four.ok and three.ok and four.declared_turns == 6 and three.declared_turns == 7
    # deck − removed = players × hand + players × turns + dead_wall
    for pc in (four, three):
        assert pc.deck == pc.players * pc.hand + pc.players * pc.turns + pc.dead_wall


def test_design_rule_failure_names_the_card_row(game_copy):
    csv = game_copy / "battle.csv"
    replace_in(csv, "b3-pon,3,1,0,1,4", "b3-pon,3,1,0,2,4")  # power 2 for a single pon icon
    r = validate(load_game(game_copy))
    errs = by_code(r, "design-rule")
    assert len(errs) >= 1
    row = next(p for p in errs if "b3-pon" in p.path)
    assert row.file.endswith("battle.csv") and row.line == line_of(csv, "b3-pon")
    assert "power-equals-icons" in row.message
    # the values of the columns the rule reads (when + check), in table order
    assert row.message.endswith("; this card has number = 3, pon = 1, chi = 0, power = 2"), row.message
    assert row.format().startswith(f"{row.file}:{row.line}: error: battle → b3-pon → ")


def test_removing_cards_the_deck_lacks_is_an_error(game_copy):
    yaml = game_copy / "game.yaml"
    replace_in(yaml, "- {where: {number: 2}, count: 1}", "- {where: {number: 9}, count: 1}")
    r = validate(load_game(game_copy))
    errs = by_code(r, "bad-removal")
    assert len(errs) == 1
    e = errs[0]
    assert e.line == line_of(yaml, "{number: 9}") and e.file.endswith("game.yaml")
    assert "no card of the deck" in e.message and "number = 9" in e.message
    assert "number is one of 2, 3, 4, 5, 6, 7)" in e.hint  # the values the deck has (天雀牌: 2–7), in table order
    assert not r.ok


def test_removing_more_copies_than_exist_is_an_error(game_copy):
    replace_in(game_copy / "game.yaml", "- {where: {number: 7}, count: 1}", "- {where: {number: 7}, count: 9}")
    errs = by_code(validate(load_game(game_copy)), "bad-removal")
    assert errs and "removes 9 card(s)" in errs[0].message and "has 6" in errs[0].message


def test_turns_mismatch_shows_the_arithmetic(game_copy):
    yaml = game_copy / "game.yaml"
    replace_in(yaml, "      turns: 7", "      turns: 8")
    r = validate(load_game(game_copy))
    (e,) = by_code(r, "turns-mismatch")
    assert e.line == line_of(yaml, "turns: 8")
    assert "36 − 3 × 3 (hands) − 6 (dead wall) = 21 to draw" in e.message
    assert "21 ÷ 3 players = 7 turns each" in e.message
    # and what the declared 8 turns would need: 3 × 3 + 3 × 8 + 6 = 39 cards
    assert "3 × 8" in e.message and "39 cards" in e.message and "the deck has 36" in e.message
    assert "turns to 7" in e.hint
    pc = next(pc for pc in r.player_counts if pc.players == 3)
    assert not pc.ok and pc.turns == 7 and pc.declared_turns == 8


def test_uneven_draw_pile_is_an_error(game_copy):
    replace_in(game_copy / "game.yaml", "      dead_wall: 6\n      turns: 6", "      dead_wall: 5\n      turns: 6")
    r = validate(load_game(game_copy))
    (e,) = by_code(r, "deck-math")
    assert "does not split evenly" in e.message and "25 to draw" in e.message
    pc = next(pc for pc in r.player_counts if pc.players == 4)
    assert pc.turns is None and not pc.ok


def test_count_mismatch(game_copy):
    replace_in(game_copy / "battle.csv", "b7-both,7,1,1,2,5", "b7-both,7,1,1,2,4")
    r = validate(load_game(game_copy))
    assert by_code(r, "count-mismatch") and "has 41" in by_code(r, "count-mismatch")[0].message


@pytest.mark.parametrize("key", ["game", "errors", "warnings", "player_counts"])
def test_report_json_shape(key):
    data = validate(load_game(TENJANPAI)).to_json()
    assert key in data
    for pc in data["player_counts"]:
        assert {"players", "deck", "removed", "hand", "dead_wall", "draw_pile", "turns", "declared_turns", "ok"} <= set(pc)


def test_a_table_without_its_copies_column_says_so_in_the_count_hint(tmp_path):
    """The copies column renamed (count → copies): the count mismatch's hint says the table has no
    'count' column and each row counted once, and how to point at the new name (a new designer got
    four follow-on errors and nothing about the cause)."""
    cards = [{"id": f"n{n}", "number": n, "name": f"カード{n}", "copies": 3} for n in range(1, 5)]
    r = validate(load_game(write_game(tmp_path, cards=cards)))
    (e,) = by_code(r, "count-mismatch")
    assert "declares 12 pieces but the card table has 4" in e.message
    assert "no 'count' column" in e.hint and "`quantity:`" in e.hint


def test_a_derive_expression_of_an_unknown_bare_name_is_a_message(tmp_path):
    """``setup.derive.turns: A`` (a bare unknown name) is one derive-eval error at its line; it was
    an internal error when the undefined value met the stated turns (found by the any-value
    property)."""
    game = load_game(write_game(tmp_path, manifest={"setup": {"derive": {"turns": "A"}}}))
    r = validate(game)
    errs = by_code(r, "derive-eval")
    assert errs and all("'A' is undefined" in e.message for e in errs), r.errors
    assert errs[0].line == game.source.line(("setup", "derive", "turns"))
