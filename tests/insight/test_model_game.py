"""Whole games (`insight: model: game:`): what carries over between rounds, the dealer, the end
and the winner — a test game whose every round is known, traced here by hand; the bundled games'
game-level results read back from simulation.json, the terminal and insight.pdf; 馬将's 将 栄和
(第20条④); the same rows on one or two threads; single rounds unchanged by a `game:`."""
from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from cardgen.data.game import load_game
from cardgen.insight import model_layout as L
from cardgen.insight import model_round as R
from cardgen.insight.api import simulate_game
from cardgen.insight.model_compile import compile_model
from cardgen.insight.model_run import play_game_rows, play_rows
from tests.minigame import write_game
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]

#: 一番乗り: the dealer wins on their first draw every round, for 1 + their chips. Between rounds
#: the dealer gains 2 chips they keep (`carry`), every other player pays 1 into the pot, which the
#: next winner takes; the dealer stays once (after round 2); five rounds; a negative score is out.
FIRST_DRAW = {
    "name": "一番乗り（テスト）",
    "kind": "number",
    "value": "number",
    "tsumo": {"name": "ツモ", "after": "draw", "when": "true", "points": "1 + chips"},
    "game": {
        "name": "勝負",
        "counters": [{"name": "score", "label": "点", "after": "score + points - pay + pot_won"},
                     {"name": "wins", "after": "wins + winner"}],
        "carry": "chips + 2 if dealer else chips",
        "pot": "0 if winner else 1",
        "dealer_stays": "round == 2",
        "ends": [{"name": "5局", "when": "round >= 5"}, {"name": "10点", "when": "score >= 10"}],
        "out": "score < 0",
        "rank": ["score", "-wins"],
    },
}


def _first_draw(tmp_path, **game):
    model = copy.deepcopy(FIRST_DRAW)
    model["game"].update(game)
    return compile_model(load_game(write_game(tmp_path, manifest={"insight": {"model": model}})))


def test_a_game_of_known_rounds_carries_chips_pot_and_dealer_as_traced(tmp_path):
    """Three players (seats A, B, C; A the first dealer). Round by round (dealer: points, pot taken):
    1 A: 1 (A keeps 2 chips) · 2 B: 1 + pot 2 (the dealer stays) · 3 B: 1 + 2 chips + pot 2 ·
    4 C: 1 + pot 2 · 5 A: 1 + 2 chips + pot 2; each round the two others pay 1 into the pot.
    Scores A 3, B 5, C −1: B wins, C is out, the game ends by its first end after 5 rounds."""
    cm = _first_draw(tmp_path)
    rows = play_game_rows(cm, 0, 20, 1, "greedy")
    assert (rows[:, L.GR_ROUNDS] == 5).all() and (rows[:, L.GR_END] == 0).all()
    assert (rows[:, L.GR_WINNER] == 1).all() and (rows[:, L.GR_DRY] == 0).all()
    assert rows[0, L.GR_FIRST:L.GR_FIRST + 3].tolist() == [3, 5, -1]
    assert rows[0, L.GR_OUT:L.GR_OUT + 3].tolist() == [0, 0, 1]


def test_the_dealer_moves_each_round_unless_it_stays_and_ties_are_draws(tmp_path):
    """Without the stay the dealers are A B C A B. A: round 1 1, round 4 1 + 2 chips (kept since
    round 1) + pot 2, paid 1 in rounds 2, 3, 5 → 3; B: round 2 1 + pot 2, round 5 1 + 2 + 2, paid
    in 1, 3, 4 → 5; C: round 3 1 + 2, paid in 1, 2, 4, 5 → −1 (the same scores by another way).
    A tie of score and wins is a draw; the second end (10 points) stops a long game; a game with
    no end stops at max_rounds."""
    rows = play_game_rows(_first_draw(tmp_path / "a", dealer_stays="false"), 0, 4, 1, "greedy")
    assert rows[0, L.GR_FIRST:L.GR_FIRST + 3].tolist() == [3, 5, -1]
    tied = play_game_rows(_first_draw(tmp_path / "b", dealer_stays="false", pot="0", out="false",
                                      ends=[{"name": "3局", "when": "round >= 3"}]), 0, 4, 1, "greedy")
    assert (tied[:, L.GR_WINNER] == -1).all() and tied[0, L.GR_FIRST:L.GR_FIRST + 3].tolist() == [1, 1, 1]
    long = play_game_rows(_first_draw(tmp_path / "c", ends=[{"name": "50局", "when": "round >= 50"},
                                                            {"name": "10点", "when": "score >= 10"}]),
                          0, 4, 1, "greedy")
    assert (long[:, L.GR_END] == 1).all() and (long[:, L.GR_ROUNDS] < 50).all()
    capped = play_game_rows(_first_draw(tmp_path / "d", ends=[{"name": "never", "when": "false"}], max_rounds=7),
                            0, 4, 1, "greedy")
    assert (capped[:, L.GR_END] == -1).all() and (capped[:, L.GR_ROUNDS] == 7).all()


def test_a_game_does_not_change_the_single_rounds(tmp_path):
    """天雀牌's rounds are the same rows with its `game:` and without it (the single-round
    figures of test_insight_simulate.py stay the procedure's)."""
    game = load_game(ROOT / "card_data" / "tenjanpai")
    with_game = play_rows(compile_model(game), 0, 3000, 4, "greedy")
    data = game.manifest.insight.model.model_copy(update={"game": None})
    insight = game.manifest.insight.model_copy(update={"model": data})
    bare = dataclasses.replace(game, manifest=game.manifest.model_copy(update={"insight": insight}))
    assert compile_model(bare).counts[0].gp is None
    assert (play_rows(compile_model(bare), 0, 3000, 4, "greedy") == with_game).all()


def test_same_seed_same_games_on_one_or_two_threads():
    import numba

    cm = compile_model(load_game(ROOT / "card_data" / "nko_mahjong"))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_game_rows(cm, 0, 600, 4, "greedy")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_game_rows(cm, 0, 600, 4, "greedy")
    finally:
        numba.set_num_threads(before)
    assert (one == two).all()
    assert not (one == play_game_rows(cm, 0, 600, 5, "greedy")).all()


def _shares_add_up(est: dict, players: int, prefix: str) -> None:
    seats = sum(est[f"game.seat{s + 1}.win"]["value"] for s in range(players)) + est["game.draw"]["value"]
    assert abs(seats - 1) < 1e-9
    ends = [v["value"] for k, v in est.items() if k.startswith("game.end.")]
    assert abs(sum(ends) - 1) < 1e-9
    assert est["game.seat1.win"]["label"].startswith(prefix)


@pytest.mark.parametrize("gid", ["tenjanpai", "yajanki", "nko_mahjong", "majan"])
def test_each_bundled_game_reports_its_games(tmp_path, gid):
    """simulate of each bundled game: the games' estimates in simulation.json (their own part per
    player count, in the game's words), each game ended as the manifest says."""
    run = simulate_game(ROOT / "card_data" / gid, tmp_path, rounds=400, games=300, seed=3, pdf=False)
    data = json.loads((tmp_path / gid / "simulation.json").read_text(encoding="utf-8"))
    assert data["simulation"]["games"] == 300
    for c in data["simulation"]["player_counts"]:
        g, n = c["game"], c["players"]
        est = g["estimates"]
        assert g["games"] == 300 and sum(g["rounds_histogram"]) == 300
        _shares_add_up(est, n, g["name"])
        rounds = est["game.rounds"]["value"]
        if gid == "majan":  # 連荘無し四局戦: four rounds
            assert rounds == 4 and est["game.end.0"]["label"].endswith("四局")
        elif gid == "nko_mahjong":  # the dealer role goes round twice; a dealer's win keeps it
            assert rounds > 2 * n and est["game.end.0"]["value"] == 1
            assert abs(sum(est[f"game.seat{s + 1}.score"]["value"] for s in range(n)) - 30000 * n) < 1000 * n
        else:  # until a third 脱衣: at least three rounds; the undressed player is out
            assert rounds >= 3 and est["game.end.0"]["value"] == 1
            assert 0.9 < sum(est[f"game.seat{s + 1}.out"]["value"] for s in range(n)) < 3
    assert run.result.parts[0].metric("game.rounds").x.shape == (300,)


def test_the_terminal_and_insight_pdf_show_the_games(tmp_path, monkeypatch):
    """`cardgen simulate` prints a games table per player count and insight.pdf has its page."""
    from click.testing import CliRunner

    from cardgen.cli.insight import simulate

    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setattr("cardgen.cli.insight.limited", lambda f, *a, game=None, **k: f(*a, **k))
    result = CliRunner().invoke(simulate, [str(ROOT / "card_data" / "majan"), "-n", "300", "--games", "200",
                                           "--players", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "3 players, 200 games (四局戦)" in result.output and "四局戦の勝者：1番目の席（起家）" in result.output
    with open_pdf(tmp_path / "majan" / "insight.pdf") as pdf:
        text = "".join(p.extract_text() or "" for p in pdf.pages)
    assert "四局戦1回あたりの局数" in text and "3人・200回・方針 greedy・シード 1" in text


def test_compare_option_compares_the_games(tmp_path):
    """天雀牌's open question after-win (the dealer stays and power is kept after a win) changes
    the games and not the single rounds; the comparison has both."""
    run = simulate_game(ROOT / "card_data" / "tenjanpai", tmp_path, rounds=2000, games=2000, seed=2, players=[3],
                        compare_options=["after_win=1"], pdf=False)
    rows = {r["key"]: r for r in run.comparison}
    assert rows["turns"]["diff"] == 0  # the rounds alone: the same
    assert rows["game.rounds"]["diff"] != 0 and "game.seat1.win" in rows


def _majan_hand(cm, tiles: list[int]) -> np.ndarray:
    """S with seat 0 holding ``tiles`` (kind indexes of 馬将's deck: 1–9 萬子, 11–19 筒子 …)."""
    nk = len(cm.kinds)
    S = np.zeros((1, L.HC + 3 * nk), dtype=np.int64)
    for t in tiles:
        S[0, L.HC + cm.kinds.index(str(t))] += 1
    return S


def test_majan_jiang_ron_takes_the_face_down_tile_from_the_wall():
    """第20条④: a 栄和 whose discard completes the 将 (the pair) lays the wall's top tile face
    down; completing a 馬 the discard joins the hand. melds_pair() tells them apart, and the
    option jiang_from_wall (the draft's reading, 1) changes the rounds."""
    cm = compile_model(load_game(ROOT / "card_data" / "majan"))
    prm, stack = cm.counts[0].prm, np.zeros(L.SCRATCH + 64, dtype=np.int64)
    k = cm.kinds.index
    jiang = _majan_hand(cm, [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 11, 11, 25])  # waits on 25 for the pair
    assert R.melds_ok(jiang, 0, k("25"), prm, stack) == 1 and R.melds_pair(jiang, 0, k("25"), prm, stack) == 1
    ma = _majan_hand(cm, [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 11, 24, 25])  # waits on 23 or 26 for a 馬
    assert R.melds_ok(ma, 0, k("26"), prm, stack) == 1 and R.melds_pair(ma, 0, k("26"), prm, stack) == 0
    a = play_rows(cm, 0, 4000, 1, "greedy")
    b = play_rows(compile_model(load_game(ROOT / "card_data" / "majan"), {"jiang_from_wall": 0}), 0, 4000, 1,
                  "greedy")
    assert (a[:, L.R_WINS] >= 1).any() and not (a == b).all()
    assert a[:, L.R_WALL].sum() < b[:, L.R_WALL].sum()  # the wall gives the face-down tiles


def test_insight_pages_read_in_japanese_labels_left_figures_right(tmp_path):
    """A rules editor read insight.pdf's heading as 「4人, 300 rounds, policy greedy」 and the
    description broken inside 移動; labels were centred under figures of different widths."""
    from cardgen.insight.plots import DESCRIPTION_CHARS, wrap_phrases, write_model_pdf
    from cardgen.layout.phrases import phrases

    description = "スキル・奥義（脱衣で発動する効果）は扱わない。ゲームは局を続け、得点・脱衣・流局でのパワーの持ち越し・起家の移動・3回目の脱衣での終了と勝敗を扱う"
    estimates = {"tsumo": {"label": "ツモ上がり", "value": 0.0333, "se": 0.0104, "percent": True},
                 "turns": {"label": "1番目の席（親）の1局あたりの得点", "value": 1.323, "se": 0.132, "percent": False}}
    result = SimpleNamespace(title="天雀牌", model="草案3（1局）", label="as built", description=description,
                             policy="greedy", seed=1, counts=[{"players": 4, "rounds": 300, "estimates": estimates}])
    write_model_pdf(tmp_path / "insight.pdf", result, font_path=Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"))  # the Makefile installs it
    with open_pdf(tmp_path / "insight.pdf") as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        words = page.extract_words()
    assert "天雀牌 — 草案3（1局）（データのまま）：4人・300局・方針 greedy・シード 1" in text
    lines = wrap_phrases("このモデルが扱わないこと：" + description, DESCRIPTION_CHARS)
    assert len(lines) > 1 and "".join(lines) == "このモデルが扱わないこと：" + description
    ends = {len("このモデルが扱わないこと：") + sum(len(p) for p in phrases(description)[:i])
            for i in range(len(phrases(description)) + 1)}
    assert all(sum(len(x) for x in lines[:i]) in ends for i in range(1, len(lines)))  # between phrases
    for line in lines:
        assert line in text
    label = {w["text"]: w for w in words}
    left = [label["ツモ上がり"]["x0"], label["1番目の席（親）の1局あたりの得点"]["x0"]]
    right = [label[f"{1.96 * 1.04:.2f}"]["x1"], label[f"{1.96 * 0.132:.3f}"]["x1"]]  # each figure's last word
    assert abs(left[0] - left[1]) < 1  # labels start at the same x
    assert abs(right[0] - right[1]) < 1 and right[0] > left[0] + 300  # figures end at the same x, on the right
