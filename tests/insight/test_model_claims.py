"""Claims (`insight: model: claims:`): a call on another player's discard that does not win (ポン, or
the game's own, e.g. 風鈴牌's かすめ) — a stacked deal of the mini game (12 cards, 1–4 × 3) traced by
hand: the claim on the turn expected, the skipped seat not drawing, the caller's hand size, the
card in the hand or laid sideways in the river; the per-claim count in the report in the claim's
own name; the same rows on one or two threads."""
from __future__ import annotations

import copy

import numba
import numpy as np

from cardgen.data.game import load_game
from cardgen.insight import model_layout as L
from cardgen.insight import model_round as R
from cardgen.insight.model_compile import compile_model
from cardgen.insight.api import simulate_game
from cardgen.insight.model_run import metrics, play_game_rows, play_rows, policy_codes
from cardgen.insight.rng import round_state
from tests.minigame import write_game

#: 揃え取り: no win; a player holding two of the discard's number may claim it (in_hand counts the
#: discard, as in a call). Greedy plays the highest number.
CLAIMING = {
    "name": "揃え取り（テスト）",
    "kind": "number",
    "value": "number",
    "claims": [{"name": "かすめ", "when": "in_hand(discard.kind) >= 3"}],
}

#: Card indexes of the mini deck (in table order): 1s are 0–2, 2s 3–5, 3s 6–8, 4s 9–11.
#: Hands (3 players × 3): seat 0 1,1,2 · seat 1 3,3,2 · seat 2 4,4,3; the wall: 4, 1, 2.
ORDER = [0, 1, 3, 6, 7, 4, 9, 10, 8, 11, 2, 5]


def _compiled(tmp_path, **claim):
    model = copy.deepcopy(CLAIMING)
    model["claims"][0].update(claim)
    return compile_model(load_game(write_game(tmp_path, manifest={"insight": {"model": model}})))


def _play(cm, policy: str = "greedy"):
    c = cm.counts[0]
    assert c.deck.players == 3 and c.deck.size == 12
    W = R.workspace(3, 12, int(c.prm[L.P_NKINDS]))
    row = np.zeros(L.WIDTH, dtype=np.int64)
    R.play_round(np.array(ORDER, dtype=np.int64), cm.arrays(0), W, policy_codes(policy, 3), round_state(0, 0), row,
                 np.zeros(3, dtype=np.int64))
    hand, hsize, rc, rs, rn = W[0], W[1], W[3], W[4], W[5]
    hands = [sorted(hand[s, :hsize[s]].tolist()) for s in range(3)]
    rivers = [[(int(rc[s, i]), int(rs[s, i])) for i in range(rn[s])] for s in range(3)]
    return row, hands, rivers, W[2]


def test_a_claim_to_the_hand_skips_the_seats_between(tmp_path):
    """Turn 1: seat 0 draws the wall's 4 (card 11) and plays it; seat 1 cannot claim (no 4),
    seat 2 (4, 4 in hand) claims it into the hand and, turn 2, plays a 4 (card 9) without drawing.
    Seat 1 is skipped: seat 0 draws next (the 1, card 2) and plays its 2 (card 3, which seat 1's
    single 2 cannot claim); turn 4 seat 1 draws the last card (the 2, card 5) — the first it
    draws — and plays a 3. The wall is dry after four turns (three draws and the claimed turn);
    every hand still holds 3 cards."""
    row, hands, rivers, _ = _play(_compiled(tmp_path))
    assert row[L.R_CLAIMS] == 1 and row[L.R_CLAIMS + 1:L.R_CLAIMS + L.MAX_CLAIMS].sum() == 0
    assert row[L.R_TURN] == 4 and row[L.R_WALL] == 0 and row[L.R_END] == 0
    assert hands == [[0, 1, 2], [4, 5, 7], [8, 10, 11]]
    # the claimed 4 left seat 0's river; seat 2's river holds the 4 it played
    assert rivers == [[(3, L.UP)], [(6, L.UP)], [(9, L.UP)]]


def test_a_claim_to_the_river_lays_it_sideways(tmp_path):
    """As above, with `to: river`: seat 2 lays the claimed 4 sideways (river.sum 8 with the 4 it
    plays), so its hand is one card smaller (2 cards)."""
    row, hands, rivers, S = _play(_compiled(tmp_path, to="river"))
    assert row[L.R_CLAIMS] == 1 and row[L.R_TURN] == 4
    assert hands == [[0, 1, 2], [4, 5, 7], [8, 10]]
    assert rivers[2] == [(11, L.SIDEWAYS), (9, L.UP)] and S[2, 0] == 8 and S[2, 1] == 2 and S[2, 2] == 4
    assert rivers[0] == [(3, L.UP)] and S[0, 0] == 2


def test_greedy_claims_only_when_its_choice_holds(tmp_path):
    """`greedy: "false"`: the same deal without a claim — seat 1 draws on turn 2, and the wall is
    dry after three turns."""
    row, hands, _, _ = _play(_compiled(tmp_path, greedy="false"))
    assert row[L.R_CLAIMS] == 0 and row[L.R_TURN] == 3
    assert [len(h) for h in hands] == [3, 3, 3]


def test_a_call_on_the_discard_comes_before_a_claim(tmp_path):
    """With a ロン on the same condition, seat 2 wins on seat 0's 4 instead of claiming it."""
    model = copy.deepcopy(CLAIMING)
    model["calls"] = [{"name": "ロン", "when": "in_hand(discard.kind) >= 3"}]
    row, _, _, _ = _play(compile_model(load_game(write_game(tmp_path, manifest={"insight": {"model": model}}))))
    assert row[L.R_END] == 2 and row[L.R_WINNER] == 2 and row[L.R_LOSER] == 0 and row[L.R_CLAIMS] == 0


def test_the_report_counts_each_claim_in_its_name(tmp_path):
    """Per round, under the claim's name; random claims with even odds, so less often than greedy
    (who claims whenever it may). Every round's turns are its draws plus its claimed turns."""
    cm = _compiled(tmp_path)
    greedy, rand = play_rows(cm, 0, 4000, 1, "greedy"), play_rows(cm, 0, 4000, 1, "random")
    m = {x.key: x for x in metrics(cm, 3, rand)}
    assert m["claims.0"].label == "かすめ（1局あたり）"
    v, se, _ = m["claims.0"].value()
    assert 0 < v < greedy[:, L.R_CLAIMS].mean() and se > 0
    for rows in (greedy, rand):
        assert (rows[:, L.R_TURN] == 3 - rows[:, L.R_WALL] + rows[:, L.R_CLAIMS]).all()


def test_same_seed_same_rows_on_one_or_two_threads(tmp_path):
    cm = _compiled(tmp_path)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_rows(cm, 0, 5_000, 4, "random")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_rows(cm, 0, 5_000, 4, "random")
    finally:
        numba.set_num_threads(before)
    assert (one == two).all() and one[:, L.R_CLAIMS].sum() > 0


def test_a_claim_no_hand_can_make_or_no_round_made_is_a_warning_at_its_line(tmp_path):
    """Three copies of a number: a claim on four of a kind (with the discard) can never happen
    (validate); one that greedy never wants (`greedy: "false"`) never happened (simulate)."""
    game = load_game(write_game(tmp_path / "never", manifest={"insight": {"model": {
        **CLAIMING, "claims": [{"name": "かすめ", "when": "in_hand(discard.kind) >= 4"}]}}}))
    notes = compile_model(game).notes
    assert [n.path for n in notes] == ["insight → model → claims → かすめ → when"]
    assert notes[0].line == game.source.line(("insight", "model", "claims", 0, "when"))
    assert notes[0].message.startswith("かすめ can never happen: 'in_hand(discard.kind) >= 4'")
    unwanted = write_game(tmp_path / "unwanted", manifest={"insight": {"model": {
        **CLAIMING, "claims": [{"name": "かすめ", "when": "in_hand(discard.kind) >= 3", "greedy": "false"}]}}})
    run = simulate_game(unwanted, tmp_path / "out", rounds=500, pdf=False)
    assert [n.message for n in run.notes] == ["かすめ never happened in 500 rounds at 3 and 4 players"]


def test_whole_games_play_rounds_with_claims(tmp_path):
    """A `game:` of three rounds plays the rounds with their claims (the interpreter's model
    tuple carries the claims into the game loop too)."""
    model = {**CLAIMING, "tsumo": {"name": "ツモ", "when": "in_hand(card.kind) >= 3"},
             "game": {"counters": [{"name": "score", "after": "score + points"}],
                      "ends": [{"name": "3局", "when": "round >= 3"}], "rank": ["score"]}}
    cm = compile_model(load_game(write_game(tmp_path, manifest={"insight": {"model": model}})))
    rows = play_game_rows(cm, 0, 200, 1, "greedy")
    assert (rows[:, L.GR_ROUNDS] == 3).all() and (rows[:, L.GR_WINNER] >= 0).any()
    assert play_rows(cm, 0, 2000, 1, "greedy")[:, L.R_CLAIMS].sum() > 0
