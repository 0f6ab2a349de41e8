"""What `cardgen simulate` prints above its tables: headings broken only between their pieces
(a setting such as ``seed 1`` or a Japanese phrase), never inside one, at any terminal width."""
from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from rich.console import Console

from cardgen.cli.insight_output import print_model_simulation
from cardgen.layout.phrases import phrases

DESCRIPTION = "スキル・奥義（脱衣で発動する効果）は扱わない。ゲームは局を続け、得点と脱衣を扱う"


def _result(**kw):
    count = {"players": 4, "rounds": 2000, "turn_limit": 0, "rounds_per_second": 47,
             "estimates": {"tsumo": {"label": "ツモ上がり", "value": 0.032, "se": 0.0039, "percent": True}},
             "game": {"games": 200, "name": "ゲーム", "games_per_second": 7,
                      "estimates": {"n": {"label": "ゲーム1回あたりの局数", "value": 5.72, "se": 0.117,
                                          "percent": False}}}}
    base = dict(model="天雀牌 草案3：ツモ・ロン・ポン・チー（1局）", label="as built",
                options={"facedown_calls": 0, "sideways_blocks_agari": 1, "twos_down": 0, "draw_tie": 0,
                         "after_win": 0},
                description=DESCRIPTION, title="天雀牌", policy="greedy", seed=1, counts=[count])
    return SimpleNamespace(**{**base, **kw})


def _lines(width: int, **kw) -> list[str]:
    out = io.StringIO()
    print_model_simulation(_result(**kw), Console(file=out, width=width, color_system=None))
    return out.getvalue().splitlines()


@pytest.mark.parametrize("width", [50, 64, 80, 120])
def test_headings_break_between_settings_never_inside_one(width):
    lines = _lines(width)
    assert all(len(line.rstrip()) <= width for line in lines)
    heading = [line for line in lines if not line.startswith(("┏", "┃", "┡", "│", "└"))]
    text = " ".join(line.rstrip() for line in heading)
    # every setting is on one line, as written
    for piece in ("seed 1", "policy greedy", "2,000 rounds", "200 games (ゲーム)", "(47 rounds/s)",
                  "facedown_calls=0", "sideways_blocks_agari=1"):
        assert any(piece in line for line in heading), (piece, heading)
    assert "天雀牌: 4 players, 2,000 rounds, policy greedy, seed 1 (47 rounds/s)" in text
    # what the model leaves out breaks only between BudouX's phrases
    leaves = [line.rstrip() for line in heading if "扱" in line or line.startswith("leaves out")]
    assert "".join(leaves) == "leaves out: " + DESCRIPTION
    pieces = phrases(DESCRIPTION)
    ends = {sum(len(p) for p in pieces[:i]) for i in range(len(pieces) + 1)}
    at = -len("leaves out: ")
    for line in leaves:
        at += len(line)
        assert at in ends, (line, leaves)


def test_a_wide_terminal_keeps_each_heading_on_one_line():
    lines = _lines(200)
    assert "天雀牌: 4 players, 2,000 rounds, policy greedy, seed 1 (47 rounds/s)" in lines
    assert "天雀牌: 4 players, 200 games (ゲーム), policy greedy, seed 1 (7 games/s)" in lines
    assert ("as built, options: facedown_calls=0, sideways_blocks_agari=1, twos_down=0, draw_tie=0, "
            "after_win=0") in lines


def test_a_turn_limit_and_no_options_read_as_a_list():
    count = {"players": 3, "rounds": 10, "turn_limit": 30, "rounds_per_second": 0, "estimates": {}}
    lines = _lines(200, options={}, description="", counts=[count])
    assert "as built, options: none" in lines
    assert "天雀牌: 3 players, 10 rounds, policy greedy, seed 1, 30 turns each" in lines
