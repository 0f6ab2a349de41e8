"""A tester's findings on a game of their own (#31): a way to win that can never happen (found
by validate from the deck's bounds) or never happened (said by simulate), the several-wins table
listing only what occurred with a true wall-ran-dry share, the game's own words (`terms`) in the
simulator's and the odds' labels, and the card names of a kind."""
from __future__ import annotations

import re
from itertools import combinations as _combinations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardgen.core.errors import CardgenError
from cardgen.insight.model_bounds import DeckBounds, never_holds
from cardgen.insight.model_expr import Names, compile_expr

from cardgen.data.game import load_game
from cardgen.insight import model_layout as L
from cardgen.insight.api import odds_game, simulate_game
from cardgen.insight.estimates import compare
from cardgen.insight.model_compile import compile_model
from cardgen.insight.model_run import play_rows, simulate_model
from tests.minigame import write_game

#: the minigame's 12 cards (numbers 1–4, three of each): hold a 1, 2 and 3 to win
MODEL = {
    "name": "ミニ三連（テスト）",
    "kind": "number",
    "value": "number",
    "tsumo": {"name": "ツモ", "when": "in_hand(1) and in_hand(2) and in_hand(3)"},
    "calls": [{"name": "ロン", "when": "in_hand(1) and in_hand(2) and in_hand(3)"}],
}


def _game(tmp_path, model=None, **manifest):
    return write_game(tmp_path, manifest={"insight": {"model": {**MODEL, **(model or {})}}, **manifest})


def test_a_win_no_hand_can_make_is_a_warning_at_its_line(tmp_path):
    """Three copies of each number and 4 cards in hand: `in_hand(card.kind) >= 4` and a call needing
    a 5 can never hold; `in_hand(card.kind) >= 3` can (no warning), nor does an undecidable one."""
    game = load_game(_game(tmp_path, {"tsumo": {"name": "ツモ", "when": "in_hand(card.kind) >= 4"},
                                      "calls": [{"name": "ロン", "when": "discard.number >= 5 and in_hand(1)"},
                                                {"name": "チョンボ", "when": "river.sum >= 1000"}]}))
    notes = compile_model(game).notes
    assert [(n.path, n.severity) for n in notes] == [("insight → model → tsumo → when", "warning"),
                                                      ("insight → model → calls → ロン → when", "warning")]
    assert notes[0].line == game.source.line(("insight", "model", "tsumo", "when"))
    assert "ツモ can never happen: 'in_hand(card.kind) >= 4'" in notes[0].message
    assert "at most 3 copies of a kind" in notes[0].message
    possible = load_game(_game(tmp_path / "ok", {"tsumo": {"name": "ツモ", "when": "in_hand(card.kind) >= 3"}}))
    assert compile_model(possible).notes == []
    # wins() without a yaku table and melds() without `melds:` are never true
    neither = load_game(_game(tmp_path / "no-table", {"tsumo": {"name": "ツモ", "when": "wins()"},
                                                      "calls": [{"name": "ロン", "when": "melds()"}]}))
    assert [n.path for n in compile_model(neither).notes] == ["insight → model → tsumo → when",
                                                              "insight → model → calls → ロン → when"]


def test_melds_no_hand_can_hold_is_a_warning_at_its_line(tmp_path):
    """`melds: {sets: 1}` is 5 cards: a 4-card hand and its drawn card (or the discard) can make
    it; a 5-card hand (6 with the drawn card) never, and validate says so at the way's line (simulate
    said the ツモ never happened); after the play a hand holds 5 or 6; a claim laid out in the river
    leaves a hand a card short, so then it is not decided (no warning)."""
    def notes(name, hand, **model):
        deck = {"deck": [{"number": [1, 9], "suit": 1, "count": 4}], "hand": hand,
                "melds": {"suit": "suit", "number": "number", "sets": 1}}
        return compile_model(load_game(_game(tmp_path / name, {**deck, **model}))).notes

    melds = {"tsumo": {"name": "ツモ", "when": "melds()"}, "calls": [{"name": "ロン", "when": "melds_pair()"}]}
    assert notes("fits", 4, **melds) == []
    [tsumo, ron] = notes("never", 5, **melds)
    assert (tsumo.path, ron.path) == ("insight → model → tsumo → when", "insight → model → calls → ロン → when")
    assert tsumo.message.endswith("melds() needs 5 cards (1 set and a pair), and the hand holds 6 when ツモ is tested)")
    assert tsumo.hint == "deal 4 cards a hand for `melds: {sets: 1}` (5 with the drawn card or the discard)"
    after_play = {**melds, "tsumo": {"name": "ツモ", "when": "melds()", "after": "play"}}
    assert [n.path for n in notes("after-play", 5, **after_play)] == ["insight → model → calls → ロン → when"]
    laid_out = {**melds, "claims": [{"name": "ポン", "when": "in_hand(discard.kind) >= 3", "to": "river"}]}
    assert notes("claims", 5, **laid_out) == []
    [seven] = notes("seven", 7, tsumo={"name": "ツモ", "when": "melds()"}, melds={"sets": 1})
    assert seven.hint.endswith(", or set `sets: 2` for the hand dealt")


def test_simulate_says_which_way_to_win_never_happened(tmp_path):
    """A call whose condition the bounds cannot decide (river.sum ≥ 1000) and that no round
    reaches is named with its line and the player counts; the tsumo that does happen is not."""
    game_dir = _game(tmp_path, {"calls": [{"name": "ロン", "when": "river.sum >= 1000"}]})
    run = simulate_game(game_dir, tmp_path / "out", rounds=500, pdf=False)
    assert [n.path for n in run.notes] == ["insight → model → calls → ロン → when"]
    assert run.notes[0].message == "ロン never happened in 500 rounds at 3 and 4 players"
    assert run.notes[0].line == load_game(game_dir).source.line(("insight", "model", "calls", 0, "when"))


def test_several_wins_table_lists_what_occurred_and_the_true_dry_share(tmp_path):
    """`wins_per_round: players * 100` can never be reached: every round runs until the wall is
    dry, so the dry share is 100 %, and only the win counts some round ended with are rows (a
    handful, not 300); a comparison reads a count one side never had as 0 % there."""
    cm = compile_model(load_game(_game(tmp_path, {"wins_per_round": "players * 100"})))
    result = simulate_model(cm, 2000, 3, "greedy", players=[3])
    est = result.counts[0]["estimates"]
    rows = play_rows(cm, 0, 2000, 3, "greedy")
    assert est["end.dry"]["value"] == 1.0
    assert est["end.dry"]["label"] == "300回の和了の前に山が尽きた局"
    seen = sorted(set(rows[:, L.R_WINS].tolist()))
    assert [k for k in est if k.startswith("wins.") and k != "wins.all"] == [f"wins.{k}" for k in seen]
    assert len(seen) < 10
    assert sum(est[f"wins.{k}"]["value"] for k in seen) == 1.0
    # a side that never had the highest count: that row is compared against 0 %
    top = seen[-1]
    b_part = type(result.parts[0])(3, [m for m in result.parts[0].metrics if m.key != f"wins.{top}"])
    row = next(r for r in compare(result.parts, [b_part]) if r["key"] == f"wins.{top}")
    assert row["b"] == 0.0 and row["a"] > 0


def test_one_win_rounds_keep_their_dry_share(tmp_path):
    """With one win a round, the dry share is the rounds without a win (the bundled wording)."""
    cm = compile_model(load_game(_game(tmp_path)))
    result = simulate_model(cm, 2000, 3, "greedy", players=[3])
    rows = play_rows(cm, 0, 2000, 3, "greedy")
    est = result.counts[0]["estimates"]
    assert est["end.dry"]["label"] == "山が尽きた（流局）"
    assert est["end.dry"]["value"] == np.mean(rows[:, L.R_WINS] == 0)


def test_the_games_terms_name_the_simulators_rows(tmp_path):
    """`terms: {win: 上がり, dealer: 親番, non_dealer: 子番, exhaustive_draw: 引き分け}` replace
    和了, 親, 子 and 流局 in every label they stood in."""
    terms = {"win": "上がり", "dealer": "親番", "non_dealer": "子番", "exhaustive_draw": "引き分け"}
    cm = compile_model(load_game(_game(tmp_path, terms=terms)))
    labels = [e["label"] for e in simulate_model(cm, 200, 3, "greedy", players=[3]).counts[0]["estimates"].values()]
    text = " ".join(labels)
    assert "山が尽きた（引き分け）" in labels and "1番目の席（親番）の上がり" in labels
    assert "2番目の席（子番）の1局あたりの得点" in labels and "上がり1回の点数" in labels
    assert "和了" not in text and "流局" not in text and "（親）" not in text and "（子）" not in text


def test_odds_rows_use_the_kinds_word_and_the_name_its_cards_share(tmp_path):
    """`terms: {number: 数}`: the per-value rows read 数 1 …; a number whose three cards are all
    named 風 reads 数 4（風）, a number whose cards have different names keeps the number alone."""
    game_dir = write_game(tmp_path, manifest={"terms": {"number": "数"},
                                              "insight": {"odds": [{"id": "pair", "kind": "pairs", "by": "number"}]}})
    # numbers 1–3: one card each of three colours (names differ); 4: three cards named 風
    rows = [f"n{n}{c},{n},{colour}の{n},1" for n in (1, 2, 3) for c, colour in enumerate(("赤", "青", "緑"))]
    (game_dir / "cards.csv").write_text("id,number,name,count\n" + "\n".join(rows) + "\nw,4,風,3\n", encoding="utf-8")
    run = odds_game(game_dir, tmp_path / "out")
    labels = [v["label"] for v in run.results[0].counts[0].per_value]
    assert labels == ["数 1", "数 2", "数 3", "数 4（風）"]


def test_the_rulebooks_per_value_table_uses_the_same_words(tmp_path):
    """`{{ odds_table('pair', per_value=true) }}`: the head is the game's word for the column and a
    value with one shared name shows it, as the terminal does."""
    from cardgen.rulebook.odds_tables import odds_markdown

    game_dir = write_game(tmp_path, manifest={"terms": {"number": "数"},
                                              "insight": {"odds": [{"id": "pair", "kind": "pairs", "by": "number"}]}})
    rows = [f"n{n}{c},{n},{colour}の{n},1" for n in (1, 2, 3) for c, colour in enumerate(("赤", "青", "緑"))]
    (game_dir / "cards.csv").write_text("id,number,name,count\n" + "\n".join(rows) + "\nw,4,風,3\n", encoding="utf-8")
    table = odds_markdown(odds_game(game_dir, tmp_path / "out").results[0], per_value=True)
    lines = table.splitlines()
    assert lines[0].startswith("| 数 |")
    assert any(line.startswith("| 4（風） |") for line in lines) and any(line.startswith("| 1 |") for line in lines)


def test_turns_below_zero_are_one_message_for_every_player_count(tmp_path):
    """`turns: "players - 5"` is −2 at 3 players and −1 at 4 (the header said "-1 turns each"
    and the round ran until the wall was empty): refused once, at its line."""
    game = load_game(_game(tmp_path, {"turns": "players - 5"}))
    with pytest.raises(CardgenError) as caught:
        compile_model(game)
    assert [p.message for p in caught.value.problems] == [
        "'players - 5' is -2 at 3 players, -1 at 4 players: a player takes 0 turns (until the wall runs dry) or more"]
    assert caught.value.problems[0].line == game.source.line(("insight", "model", "turns"))


# --- the bounds never call a possible win impossible (hypothesis against every hand) -----------

_DECK = [n for n in range(1, 5) for _ in range(3)]  # the minigame: numbers 1–4, three of each
_NAMES = Names({"kind": 0, "number": 1}, {str(n): n for n in range(5)})
_atom = st.one_of(
    st.builds(lambda k, op, c: f"in_hand({k}) {op} {c}", st.integers(0, 4), st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
              st.integers(-1, 6)),
    st.builds(lambda op, c: f"card.number {op} {c}", st.sampled_from(["<", ">=", "=="]), st.integers(-1, 6)),
    st.builds(lambda c: f"in_hand(card.kind) + in_hand(1) >= {c}", st.integers(0, 9)),
    st.builds(lambda a, b: f"min(in_hand({a}), in_hand({b})) >= 2", st.integers(1, 4), st.integers(1, 4)))
_expr = st.recursive(_atom, lambda inner: st.one_of(
    st.builds(lambda a, b: f"({a}) and ({b})", inner, inner), st.builds(lambda a, b: f"({a}) or ({b})", inner, inner),
    st.builds(lambda a: f"not ({a})", inner)), max_leaves=4)


def _holds_somewhere(text: str) -> bool:
    """Whether ``text`` is true for some 4-card hand of the minigame and some card of it (Python)."""
    for hand in {tuple(sorted(_DECK[i] for i in ids)) for ids in _combinations(range(12), 4)}:
        for card in set(hand):
            py = re.sub(r"in_hand\(card\.kind\)", str(hand.count(card)), text)
            py = re.sub(r"in_hand\((\d+)\)", lambda m: str(hand.count(int(m.group(1)))), py)
            if eval(py.replace("card.number", str(card)), {"min": min}):  # the test's own text, not a game's
                return True
    return False


@settings(max_examples=100, deadline=None)
@given(_expr)
@example("in_hand(1) >= 4 or card.number >= 5")  # impossible: 3 copies of each number, none above 4
def test_a_condition_called_impossible_is_false_for_every_hand(text):
    """The bounds are sound: a condition they call impossible holds for no 4-card hand of the
    minigame (all 495 hands tried in Python; ~3 s for 100 random conditions: the hands, not cardgen)."""
    bounds = DeckBounds.of([np.array([[n, n] for n in _DECK])], [3], [3])
    if never_holds(compile_expr(text, _NAMES), bounds):
        assert not _holds_somewhere(text), text


def test_wins_per_round_below_one_is_one_message_for_every_player_count(tmp_path):
    game = load_game(_game(tmp_path, {"wins_per_round": "players - 4"}))
    with pytest.raises(CardgenError) as caught:
        compile_model(game)
    assert [p.message for p in caught.value.problems] == [
        "'players - 4' is -1 at 3 players, 0 at 4 players: a round ends after at least 1 win"]
