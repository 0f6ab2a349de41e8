"""What a new designer met trying the merged main from a fresh clone (session 8): each message
names the fix, and nothing offers a --force that cannot help."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.core.errors import CardgenError
from cardgen.data.new_game import new_game
from cardgen.data.printers import load_printers

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_refuses_a_player_count_the_game_does_not_declare(tmp_path):
    """`simulate --players 5` on a 3–4 player game wrote a simulation.json with no player counts, exit 0."""
    from cardgen.insight.api import simulate_game

    with pytest.raises(CardgenError) as err:
        simulate_game(ROOT / "card_data" / "nko_mahjong", tmp_path / "out", rounds=10, players=[5], pdf=False)
    [p] = err.value.problems
    assert p.code == "insight-players" and "no setup for 5 players" in p.message and "3, 4" in p.hint
    assert not (tmp_path / "out").exists()


def test_an_unknown_shop_preset_suggests_the_close_one_and_offers_no_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "g")
    res = CliRunner().invoke(cli, ["shop", "g", "--preset", "popl", "--out", "out"])
    assert res.exit_code == 1
    assert "no print-shop preset 'popl'; did you mean 'popls'?" in res.output
    assert "--force" not in res.output and "card layout error" not in res.output
    assert not (tmp_path / "out").exists()


def test_a_game_the_shop_cannot_print_is_refused_with_the_size_to_use_even_with_force(tmp_path, monkeypatch):
    """63 × 88 mm for DriveThruCards: the hint names the size preset; --force cannot print it either,
    so no summary offers it."""
    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "g")
    for extra in ([], ["--force"]):
        res = CliRunner().invoke(cli, ["shop", "g", "--preset", "drivethrucards", "--out", "out", *extra])
        assert res.exit_code == 1, res.output
        assert "(card_size: poker-us)" in res.output
        assert "--force" not in res.output and "outlined in red" not in res.output
    assert not (tmp_path / "out").exists()


def test_a_broken_printers_file_is_one_message_with_its_line(tmp_path):
    path = tmp_path / "printers.yaml"
    path.write_text("printers: [oops\n", encoding="utf-8")
    with pytest.raises(CardgenError) as err:
        load_printers(path)
    assert err.value.problems[0].format().startswith(f"{path}:2: error: printers → cannot be read: expected ','")
    path.write_text("printers:\n  office: {offset: [a, 1]}\n", encoding="utf-8")
    with pytest.raises(CardgenError) as err:
        load_printers(path)
    assert err.value.problems[0].format().splitlines()[0] == (
        f"{path}: error: printers → office → offset → ['a', 1] is not two numbers (x, y in mm)")
