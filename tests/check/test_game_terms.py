"""The words of the game in deck math and odds (issue 31): a game without a dead wall is not told
about one; the manifest's `terms:` name hands, dead wall and the pair odds' kind; 天雀牌's
"ron shape" wording stays 天雀牌's."""
from __future__ import annotations

from cardgen.check.deck_math import validate
from cardgen.data.game import load_game
from cardgen.insight.odds import compute_odds
from tests.conftest import ROOT
from tests.minigame import MANIFEST, write_game

PAIRS = {"insight": {"odds": [{"id": "pair", "kind": "pairs", "by": "number"}]}}


def test_a_game_without_a_dead_wall_is_not_told_about_one(tmp_path):
    report = validate(load_game(write_game(tmp_path, manifest=PAIRS)))
    assert report.player_counts[0].arithmetic == "12 cards; 12 − 3 × 3 (hands) = 3 to draw; 3 ÷ 3 players = 1 turns each"
    nko = validate(load_game(ROOT / "card_data" / "nko_mahjong"))
    assert all("dead wall" not in pc.arithmetic for pc in nko.player_counts)
    yajanki = validate(load_game(ROOT / "card_data" / "yajanki"))
    assert "− 2 (dead wall)" in yajanki.player_counts[0].arithmetic


def test_terms_name_the_games_things(tmp_path):
    counts = [{**pc, "dead_wall": 3, "turns": 2} for pc in MANIFEST["setup"]["player_counts"][:1]]
    game = write_game(tmp_path, manifest={**PAIRS, "terms": {"hands": "手札", "dead_wall": "伏せ札", "number": "色"},
                                          "setup": {"player_counts": counts}, "game": {"players": [3]}})
    report = validate(load_game(game))
    message = next(p.message for p in report.errors if p.code == "turns-mismatch")
    assert "3 × 3 (手札) − 3 (伏せ札) = 0 to draw" in message and "3 × 2 (turns) + 3 (伏せ札) = 18 cards" in message
    lines = compute_odds(load_game(game))[0].counts[0].lines
    assert [line.label for line in lines] == ["同じ色が2枚以上", "同じ色が3枚以上"]


def test_pair_odds_speak_each_games_words():
    labels = {g: compute_odds(load_game(ROOT / "card_data" / g))[0].counts[0].lines[0].label
              for g in ("tenjanpai", "yajanki")}
    assert labels == {"tenjanpai": "同じ数字が2枚以上（ロンできる形）", "yajanki": "同じ数字が2枚以上"}
