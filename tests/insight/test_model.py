"""`cardgen simulate` of a game's own model (`insight: model:`): a test game's model against its
exact first-draw odds worked out here, NKO against `cardgen odds`, the vocabulary's refusals,
the same seed on one and two threads, and games without a model."""
from __future__ import annotations

import json
import math
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from cardgen.core.errors import CardgenError
from cardgen.data.game import load_game
from cardgen.insight import model_round as R
from cardgen.insight.model_compile import compile_model
from cardgen.insight.model_run import play_rows, simulate_model
from tests.minigame import write_game

ROOT = Path(__file__).resolve().parents[2]
Z99 = 2.5758  # two-sided 99 % normal quantile

#: ミニ三連: hold a 1, a 2 and a 3 (a set of numbers) to win on one's own draw or on a discard.
MODEL = {
    "name": "ミニ三連（テスト）",
    "kind": "number",
    "value": "number",
    "turns": "design.highest - 3",   # 1 turn each, from a design constant
    "tsumo": {"name": "ツモ", "after": "draw", "when": "in_hand(1) and in_hand(2) and in_hand(3)",
              "points": "card.number"},
    "calls": [{"name": "ロン", "when": "in_hand(1) and in_hand(2) and in_hand(3)", "points": "10 + discard.number"}],
}


def _game(tmp_path, model=None):
    return write_game(tmp_path, manifest={"insight": {"model": model or MODEL}})


def _within(p_hat: float, p: float, n: int) -> bool:
    return abs(p_hat - p) <= Z99 * math.sqrt(p * (1 - p) / n)


def test_a_game_with_its_own_model_agrees_with_its_exact_odds(tmp_path):
    """The dealer's first 4 cards (3 dealt + 1 drawn of the 12-card deck) hold a 1, 2 and 3: the
    exact chance counted over every 4-card subset, the simulated share inside its 99 % interval;
    the report names the model."""
    cm = compile_model(load_game(_game(tmp_path)))
    deck = [n for n in range(1, 5) for _ in range(3)]
    subsets = list(combinations(range(12), 4))
    exact = sum({1, 2, 3} <= {deck[i] for i in s} for s in subsets) / len(subsets)
    n = 40_000
    result = simulate_model(cm, n, 7, "greedy", players=[3])
    est = result.counts[0]["estimates"]
    assert result.to_json()["model"] == "ミニ三連（テスト）"
    assert result.counts[0]["turn_limit"] == 1
    assert _within(est["first_draw_win"]["value"], exact, n), (est["first_draw_win"], exact)
    rows = play_rows(cm, 0, n, 7, "greedy")
    wins = rows[rows[:, R.R_END] == 1]
    assert set(np.unique(wins[:, R.R_POINTS])) == {1, 2, 3, 4}  # points = the drawn card's number
    calls = rows[rows[:, R.R_END] == 2]
    assert set(np.unique(calls[:, R.R_POINTS])) == {12, 13, 14}  # 10 + the discard (greedy never plays its lowest, a 1)
    assert (rows[:, R.R_TURN] <= 3).all()  # the turn limit: 1 each


def test_priority_policy_plays_the_listed_kind_first(tmp_path):
    """`priority: [1]` plays a 1 whenever the hand holds one: a call on a 1 (10 + 1 points) is
    common; greedy (the highest number first) never plays a 1 while it holds another card."""
    cm = compile_model(load_game(_game(tmp_path, {**MODEL, "priority": [1]})))
    points = {p: play_rows(cm, 0, 20_000, 3, p) for p in ("priority", "greedy")}
    on_one = {p: ((r[:, R.R_END] == 2) & (r[:, R.R_POINTS] == 11)).sum() for p, r in points.items()}
    assert on_one["greedy"] == 0 and on_one["priority"] > 200, on_one


def test_nko_first_draw_win_agrees_with_cardgen_odds():
    """NKO's model plays the draft's round; the dealer wins on the first draw exactly when the 6
    tiles form a base yaku — `cardgen odds`' 'any' line (no bonus yaku), within the 99 % CI."""
    from cardgen.insight.odds import compute_odds

    game = load_game(ROOT / "card_data" / "nko_mahjong")
    exact = {c.players: next(line.p for line in c.lines if line.key == "any") for c in compute_odds(game)[0].counts}
    n = 30_000
    result = simulate_model(compile_model(game), n, 11, "greedy")
    assert result.model.startswith("NKO麻雀")
    for c in result.counts:
        assert _within(c["estimates"]["first_draw_win"]["value"], exact[c["players"]], n), (c["players"], exact)
        assert c["estimates"]["end.call.0"]["label"] == "ロン"


def test_same_seed_same_rows_on_one_or_two_threads():
    import numba

    cm = compile_model(load_game(ROOT / "card_data" / "yajanki"))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_rows(cm, 0, 5_000, 4, "greedy")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_rows(cm, 0, 5_000, 4, "greedy")
    finally:
        numba.set_num_threads(before)
    assert (one == two).all()
    assert not (one == play_rows(cm, 0, 5_000, 5, "greedy")).all()


def test_yajanki_turns_option_sets_the_turn_limit():
    """夜雀鬼's open question (7 turns as the draft says, or until the draw pile is empty) is the
    model's option `turns`; an unknown option is refused."""
    game = load_game(ROOT / "card_data" / "yajanki")
    assert [int(c.prm[R.P_TURNS]) for c in compile_model(game).counts] == [0, 0]
    assert [int(c.prm[R.P_TURNS]) for c in compile_model(game, {"turns": 7}).counts] == [7, 7]
    with pytest.raises(CardgenError) as exc:
        compile_model(game, {"turn": 7})
    assert exc.value.problems[0].message == "the model has no option 'turn'"


@pytest.mark.parametrize("when, message", [
    ("__import__('os').system('true')", "is not in the model's vocabulary"),
    ("card.__class__", "unknown name 'card.__class__'"),
    ("river.summ >= 3", "unknown name 'river.summ' (did you mean 'river.sum'?)"),
    ("in_hand('x')", "'x' is not a kind of card"),
    ("chips >=", "cannot read 'chips >='"),
])
def test_expressions_outside_the_vocabulary_are_refused_at_their_line(tmp_path, when, message):
    game = _game(tmp_path, {**MODEL, "tsumo": {**MODEL["tsumo"], "when": when}})
    with pytest.raises(CardgenError) as exc:
        compile_model(load_game(game))
    p = exc.value.problems[0]
    assert message in p.message and p.path == "insight → model → tsumo → when" and p.line


def test_a_game_without_a_model_is_told_what_to_add_and_never_gets_another_games_rules(tmp_path):
    from cardgen.insight.api import simulate_game

    plain = write_game(tmp_path / "a")
    with pytest.raises(CardgenError) as exc:
        simulate_game(plain, tmp_path / "out", rounds=10)
    assert exc.value.problems[0].code == "insight-no-model"
    assert "add `insight: model:`" in exc.value.problems[0].hint
    borrowed = write_game(tmp_path / "b", manifest={"insight": {"simulate": {"procedure": "tenjanpai-draft3"}}})
    with pytest.raises(CardgenError) as exc:
        simulate_game(borrowed, tmp_path / "out", rounds=10)
    assert "plays the rules of the game 'tenjanpai', not of 'mini'" in exc.value.problems[0].message


def test_simulation_json_names_the_model(tmp_path):
    from cardgen.insight.api import simulate_game

    run = simulate_game(_game(tmp_path), tmp_path / "out", rounds=2_000, pdf=False)
    data = json.loads(run.files[0].read_text(encoding="utf-8"))["simulation"]
    assert data["model"] == "ミニ三連（テスト）"
    assert [c["players"] for c in data["player_counts"]] == [3, 4]
    assert Counter(k.split(".")[0] for k in data["player_counts"][0]["estimates"])["end"] == 3


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("options", [{}, {"facedown_calls": 1, "sideways_blocks_agari": 0}])
def test_tenjanpai_model_plays_the_hand_written_procedure_round_for_round(policy, options):
    """天雀牌's manifest model (pon/chi from rivers, face-up/face-down plays, 和了牌 from the hand)
    against the numba procedure tenjanpai-draft3 on the same seeds: the same deal and the same
    decisions, so every round ends the same way, on the same turn, with the same winner, points
    and calls (a stronger test than the 99 % interval of each figure)."""
    from cardgen.insight import sim_layout as L
    from cardgen.insight.deck import dealt_decks
    from cardgen.insight.games import get
    from cardgen.insight.simulate import Setup, play

    game = load_game(ROOT / "card_data" / "tenjanpai")
    proc = get("tenjanpai-draft3")
    setup = Setup("tenjanpai", "天雀牌", "as built", proc, dealt_decks(game), dict(game.manifest.design),
                  {k: bool(options.get(k, v[0])) for k, v in proc.options.items()},
                  {"number": "number", "pon": "pon", "chi": "chi", "cost": "power"})
    cm = compile_model(game, options)
    for k, deck in enumerate(setup.decks):
        old = play(setup, deck, 4_000, 5, policy).astype(np.int64)
        new = play_rows(cm, k, 4_000, 5, policy)
        assert (old[:, L.COL_KIND] == new[:, R.R_END]).all()
        assert (old[:, L.COL_TURN] == new[:, R.R_TURN]).all()
        assert (old[:, L.COL_WINNER] == new[:, R.R_WINNER]).all()
        assert (old[:, L.COL_POINTS] == new[:, R.R_POINTS]).all()
        assert (old[:, L.COL_PON_USED] + old[:, L.COL_CHI_USED] == new[:, R.R_TAKES]).all()
        assert new[:, R.R_TAKES].sum() > 100 and (new[:, R.R_END] == 1).sum() > 50
