"""``cardgen build .`` run inside the game folder: the default output root is outside the game
(the checkout's output/ for card_data/<game>, else output/ beside the game folder), and the
refusal of an --out inside the game folder suggests one that works."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.core.boundary import default_output
from tests.minigame import write_game

CHECKOUT = Path(__file__).resolve().parents[2]


def test_inside_a_checkout_game_the_default_is_the_checkouts_output(monkeypatch) -> None:
    monkeypatch.chdir(CHECKOUT / "card_data" / "tenjanpai")
    assert default_output([Path(".")]) == Path("../../output")
    monkeypatch.chdir(CHECKOUT)
    assert default_output([Path("card_data/tenjanpai")]) == Path("output")


def test_build_inside_a_game_folder_writes_beside_it(tmp_path, monkeypatch) -> None:
    game = write_game(tmp_path)
    monkeypatch.chdir(game)
    result = CliRunner().invoke(cli, ["sheets", "."])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "mini" / "print-sheets.pdf").is_file()
    assert not (game / "output").exists()


def test_an_out_inside_the_game_folder_is_refused_with_a_hint_that_works(tmp_path, monkeypatch) -> None:
    game = write_game(tmp_path)
    monkeypatch.chdir(game)
    result = CliRunner().invoke(cli, ["sheets", ".", "--out", "output"])
    assert result.exit_code == 2
    assert result.stderr == ("--out: error: the output folder output/mini is inside the game folder .\n"
                             "    hint: write outputs outside the game folder, e.g. --out ../output "
                             "(or leave --out out: that is the default)\n")
    hinted = CliRunner().invoke(cli, ["sheets", ".", "--out", "../output"])
    assert hinted.exit_code == 0, hinted.output
    assert (tmp_path / "output" / "mini" / "print-sheets.pdf").is_file()
    assert not (game / "output").exists()
