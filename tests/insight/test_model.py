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
from numba.core.dispatcher import Dispatcher

from cardgen.core.errors import CardgenError
from cardgen.data.game import load_game
from cardgen.insight import model_game as G
from cardgen.insight import model_layout as L
from cardgen.insight import model_round as R
from cardgen.insight import rng as streams
from cardgen.insight.model_compile import compile_model
from cardgen.insight.model_run import play_rows, simulate_model
from tests.minigame import write_game

ROOT = Path(__file__).resolve().parents[2]

# numba's compile of the simulator happens once a run, in the background (tests/conftest.compiled_simulator)
pytestmark = pytest.mark.usefixtures("compiled_simulator")
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
    wins = rows[rows[:, L.R_END] == 1]
    assert set(np.unique(wins[:, L.R_POINTS])) == {1, 2, 3, 4}  # points = the drawn card's number
    calls = rows[rows[:, L.R_END] == 2]
    assert set(np.unique(calls[:, L.R_POINTS])) == {12, 13, 14}  # 10 + the discard (greedy never plays its lowest, a 1)
    assert (rows[:, L.R_TURN] <= 3).all()  # the turn limit: 1 each


def test_priority_policy_plays_the_listed_kind_first(tmp_path):
    """`priority: [1]` plays a 1 whenever the hand holds one: a call on a 1 (10 + 1 points) is
    common; greedy (the highest number first) never plays a 1 while it holds another card."""
    cm = compile_model(load_game(_game(tmp_path, {**MODEL, "priority": [1]})))
    points = {p: play_rows(cm, 0, 20_000, 3, p) for p in ("priority", "greedy")}
    on_one = {p: ((r[:, L.R_END] == 2) & (r[:, L.R_POINTS] == 11)).sum() for p, r in points.items()}
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
    assert [int(c.prm[L.P_TURNS]) for c in compile_model(game).counts] == [0, 0]
    assert [int(c.prm[L.P_TURNS]) for c in compile_model(game, {"turns": 7}).counts] == [7, 7]
    with pytest.raises(CardgenError) as exc:
        compile_model(game, {"turn": 7})
    assert exc.value.problems[0].message == "the model has no option 'turn'; did you mean 'turns'?"


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
    with pytest.raises(CardgenError) as exc:  # the hand-written 天雀牌 procedure is gone: no rules to borrow
        simulate_game(borrowed, tmp_path / "out", rounds=10)
    assert "unknown key 'simulate'" in exc.value.problems[0].message


def test_simulation_json_names_the_model(tmp_path):
    from cardgen.insight.api import simulate_game

    run = simulate_game(_game(tmp_path), tmp_path / "out", rounds=2_000, pdf=False)
    data = json.loads(run.files[0].read_text(encoding="utf-8"))["simulation"]
    assert data["model"] == "ミニ三連（テスト）"
    assert [c["players"] for c in data["player_counts"]] == [3, 4]
    assert Counter(k.split(".")[0] for k in data["player_counts"][0]["estimates"])["end"] == 3



def _melds_reference(counts: list[int], nxt: list[int], sets: int) -> bool:
    """Sets and a pair by trying every split (recursion over the lowest kind left)."""
    def split(c: list[int], left: int) -> bool:
        k = next((i for i, x in enumerate(c) if x), None)
        if k is None:
            return left == 0
        if c[k] >= 3:
            c[k] -= 3
            if split(c, left - 1):
                c[k] += 3
                return True
            c[k] += 3
        j = nxt[k]
        m = nxt[j] if j >= 0 else -1
        if m >= 0 and c[j] and c[m]:
            for i in (k, j, m):
                c[i] -= 1
            ok = split(c, left - 1)
            for i in (k, j, m):
                c[i] += 1
            return ok
        return False
    if sum(counts) != 3 * sets + 2:
        return False
    for p in range(len(counts)):
        if counts[p] >= 2:
            c = list(counts)
            c[p] -= 2
            if split(c, sets):
                return True
    return False


def test_majan_melds_agree_with_every_split_tried():
    """馬将's win test melds() (four sets and a pair, runs within a suit, none among honours)
    against a reference that tries every split, on 3,000 hands: random ones (nearly never
    complete) and hands built from sets and a pair, with the 14th tile taken as a call's discard."""
    cm = compile_model(load_game(ROOT / "card_data" / "majan"))
    c = cm.counts[0]
    prm, nk = c.prm, int(c.prm[L.P_NKINDS])
    nxt = [int(x) for x in prm[L.N_PARAMS:L.N_PARAMS + nk]]
    real = [k for k in range(nk) if (c.attr[:, 0] == k).any()]
    rng = np.random.default_rng(3)
    S = np.zeros((1, L.HC + 3 * nk), dtype=np.int64)
    stack = np.zeros(L.SCRATCH + 64, dtype=np.int64)
    complete = 0
    for trial in range(3000):
        counts = [0] * nk
        if trial % 2:
            tiles = list(rng.choice(real, 14))
        else:
            tiles = [int(rng.choice(real))] * 2
            for _ in range(4):
                k = int(rng.choice(real))
                run = nxt[k] >= 0 and nxt[nxt[k]] >= 0 and rng.random() < 0.6
                tiles += [k, nxt[k], nxt[nxt[k]]] if run else [k] * 3
        for t in tiles:
            counts[t] += 1
        if max(counts) > 4:
            continue
        extra = int(tiles[-1])
        S[0, L.HC:L.HC + nk] = counts
        S[0, L.HC + extra] -= 1
        want = _melds_reference(counts, nxt, 4)
        assert bool(R.melds_ok(S, 0, extra, prm, stack)) == want, (tiles, want)
        complete += want
    assert complete > 1000


def test_majan_plays_until_the_regulation_count_of_wins():
    """馬将's model: wins per round (the draft's question) never past players − 1; the shares of
    rounds by wins add up to one; a second win comes after a first (the winner plays on)."""
    cm = compile_model(load_game(ROOT / "card_data" / "majan"))
    result = simulate_model(cm, 3_000, 2, "greedy")
    for c in result.counts:
        est, need = c["estimates"], c["players"] - 1
        assert est["wins.all"]["label"] == f"規定回数（{need}回）の和了で終わった局"
        assert abs(sum(est[f"wins.{k}"]["value"] for k in range(need)) + est["wins.all"]["value"] - 1) < 1e-9
        assert est["wins.all"]["value"] > 0.01 and 0 < est["wins"]["value"] < need
    rows = play_rows(cm, 0, 3_000, 2, "greedy")
    assert rows[:, L.R_WINS].max() == 2 and (rows[:, L.R_POINTS] == rows[:, L.R_WINS]).all()


def _simulator_dispatchers() -> dict[str, object]:
    """The simulator's compiled functions (``@njit``) by name: model_round, model_game, rng."""
    return {f"{mod.__name__.rsplit('.', 1)[-1]}.{name}": f for mod in (R, G, streams)
            for name, f in vars(mod).items() if isinstance(f, Dispatcher) and f.__module__ == mod.__name__}


def test_every_simulator_function_is_compiled_once():
    """numba's cache index of each compiled function holds one signature: a bare constant passed
    from one compiled function to another (``ev(p, s, c, -1, -1, -1, …)``), or a variable that
    starts as one (``cur = 0``), is typed ``Literal[int](-1)`` and numba compiles the function
    it calls again for each combination of such arguments (69 versions of 30 functions before
    model_round.py's ``NO``/``ZERO``). Only reads the index (nothing is compiled here): run after
    the warm-up and this module's own model runs, which filled the cache (greedy, priority and
    random policies, the bundled games and a test game)."""
    # An entry compiled before the simulator's sources last changed was asked for by older
    # callers (a checkout that ran the old code keeps rng.py's entries: rng.py did not change);
    # only entries written since count. A fresh clone compiles every entry after its checkout.
    since = max(Path(mod.__file__).stat().st_mtime for mod in (R, G, streams))

    def current(f) -> set:
        cache = f._cache._cache_file
        return {key[0] for key, data in cache._load_index().items()  # key: (signature, target)
                if (Path(cache._cache_path) / data).stat().st_mtime >= since}

    index = {name: current(f) for name, f in _simulator_dispatchers().items()}
    if not index["model_round.play_many"]:
        pytest.skip("numba's cache holds no simulator compiled from this source yet (no model ran before this test)")
    assert len(index) >= 30, sorted(index)
    again = {name: sigs for name, sigs in index.items() if len(sigs) > 1}
    assert {name: len(sigs) for name, sigs in again.items()} == {}, "\n".join(
        f"{name}: {sig}" for name, sigs in again.items() for sig in sigs)
