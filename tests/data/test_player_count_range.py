"""A player count out of range (0, 100) in setup or in game.players says the allowed range
(1–12) and what to write, not just "Number of players."."""
from __future__ import annotations

import pytest

from cardgen.api import validate_game
from tests.minigame import MANIFEST, write_game


@pytest.mark.parametrize("n, word", [(0, "at least 1"), (100, "at most 12")])
def test_setup_players_out_of_range(tmp_path, n, word):
    counts = [{**MANIFEST["setup"]["player_counts"][0], "players": n}, MANIFEST["setup"]["player_counts"][1]]
    game = write_game(tmp_path, manifest={"setup": {"player_counts": counts}})
    errors = validate_game(game).errors
    p = next(e for e in errors if e.path.endswith("→ players") and "setup" in e.path)
    assert f"must be {word} (got {n})" in p.message
    assert "from 1 to 12" in p.hint and "- players: 4" in p.hint


@pytest.mark.parametrize("n, word", [(0, "at least 1"), (100, "at most 12")])
def test_game_players_out_of_range(tmp_path, n, word):
    """game.players and setup entries share one player-count type (data.fields.Players): the same
    range, the same words."""
    game = write_game(tmp_path, manifest={"game": {"players": [3, 4, n]}})
    errors = validate_game(game).errors
    p = next(e for e in errors if e.path == "game → players → item 3")
    assert p.message == f"must be {word} (got {n})"
    assert "from 1 to 12" in p.hint and "[3, 4]" in p.hint
    assert not any(f"- players: {n}" in e.hint for e in errors)  # no advice to write an impossible entry
