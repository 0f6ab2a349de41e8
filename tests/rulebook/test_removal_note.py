"""The note under the setup table says which cards a player count removes as a player reads it:
by the cards' own name when the removed cards share one, by the number when only the number is
given, else each column with its value — never two values run together (``3・6をすべて`` read
as "all the 3s and the 6s" for the green 6s; a tester found it)."""
from __future__ import annotations


from cardgen.check.deck_math import validate
from cardgen.data.game import load_game
from cardgen.rulebook.table_registry import RulebookData
from cardgen.rulebook.tables import breakdown_table, setup_table

from tests.minigame import write_game

#: two colours of the numbers 1–4, three of each: 24 cards (each removal below takes 3)
CARDS = [{"id": f"c{c}-{n}", "colour": c, "number": n, "name": f"{'赤青'[c - 1]}の{n}", "count": 3}
         for c in (1, 2) for n in range(1, 5)]


def _note(tmp_path, remove: list) -> str:
    manifest = {
        "components": [{"id": "cards", "name": "カード", "kind": "deck", "count": 24, "cards": "cards.csv",
                        "fields": {"number": "int", "colour": "int", "name": "text"}, "template": "card",
                        "back": "card_back"}],
        "setup": {"deck": "cards", "player_counts": [
            {"players": 3, "hand": 3, "dead_wall": 9, "turns": 1, "remove": remove},  # 24 − 3 − 3 × 4
            {"players": 4, "hand": 2, "dead_wall": 12, "turns": 1}]},
    }
    game = load_game(write_game(tmp_path, manifest=manifest, cards=CARDS))
    report = validate(game)
    assert not report.errors, report.errors
    table = setup_table(RulebookData(game, report))
    notes = [line for line in table.splitlines() if line.startswith("抜くカード")]
    assert len(notes) == 1, table
    return notes[0]


def test_cards_chosen_by_two_columns_are_named_by_their_shared_name(tmp_path):
    assert _note(tmp_path, [{"where": {"colour": 2, "number": 4}, "count": "all"}]) == "抜くカード：3人のとき、青の4をすべて"


def test_cards_of_different_names_are_named_by_each_column_and_value(tmp_path):
    note = _note(tmp_path, [{"where": {"colour": 2}, "count": 3}])
    assert note == "抜くカード：3人のとき、colour2のカードを3枚", note


def test_a_number_alone_reads_as_the_number(tmp_path):
    assert _note(tmp_path, [{"where": {"number": 4}, "count": 3}]) == "抜くカード：3人のとき、4を3枚"


def test_breakdown_by_a_word_column_lists_its_values_in_table_order(tmp_path):
    """``breakdown_by`` a column of words: the rows come as the card table lists the values (春,
    夏, 秋, 冬), not in code-point order (冬, 夏, 春, 秋 — a designer found it); numbers stay in
    numeric order."""
    cards = [{"id": f"{s}{n}", "season": s, "number": n, "name": f"{s}{n}", "count": 1}
             for s in "春夏秋冬" for n in (1, 2, 3)]
    manifest = {
        "components": [{"id": "cards", "name": "カード", "kind": "deck", "count": 12, "cards": "cards.csv",
                        "fields": {"number": "int", "season": "text", "name": "text"}, "template": "card",
                        "back": "card_back"}],
        "rulebook": {"breakdown_by": "season", "breakdown_columns": []},
    }
    game = load_game(write_game(tmp_path, manifest=manifest, cards=cards))
    report = validate(game)
    rows = [line.split("|")[1].strip() for line in breakdown_table(RulebookData(game, report)).splitlines()[2:]]
    assert rows[:4] == ["春", "夏", "秋", "冬"], rows


def _breakdown_heads(tmp_path, rulebook: dict, terms: dict) -> list[str]:
    cards = [{"id": f"{s}{n}", "season": s, "number": n, "bonus": n % 2, "name": f"{s}{n}", "count": 1}
             for s in "春夏" for n in (1, 2)]
    manifest = {
        "components": [{"id": "cards", "name": "カード", "kind": "deck", "count": 4, "cards": "cards.csv",
                        "fields": {"number": "int", "season": "text", "bonus": "int", "name": "text"},
                        "template": "card", "back": "card_back"}],
        "rulebook": rulebook, "terms": terms,
    }
    game = load_game(write_game(tmp_path, manifest=manifest, cards=cards))
    table = breakdown_table(RulebookData(game, validate(game)))
    return [h.strip() for h in table.splitlines()[0].strip("|").split("|")]


def test_breakdown_heading_is_the_games_term_for_its_column(tmp_path):
    """``terms: {season: 季節}`` names the column ``breakdown_by`` groups by (and a
    ``breakdown_columns`` column without an icon) in the table's heading, as it names it in the
    odds tables; ``rulebook.tables.breakdown_table.headings`` still has the last word (a
    designer's term was ignored: the heading printed the column name)."""
    rulebook = {"breakdown_by": "season", "breakdown_columns": ["bonus"]}
    terms = {"season": "季節", "bonus": "得点札"}
    assert _breakdown_heads(tmp_path / "a", rulebook, terms) == ["季節", "枚数", "得点札あり"]
    assert _breakdown_heads(tmp_path / "b", rulebook, {}) == ["season", "枚数", "bonusあり"]
    given = {**rulebook, "tables": {"breakdown_table": {"headings": {"by": "四季", "bonus": "点あり"}}}}
    assert _breakdown_heads(tmp_path / "c", given, terms) == ["四季", "枚数", "点あり"]
