"""Two games with the same id in one build would overwrite each other's output: refused up front."""
from __future__ import annotations

import shutil

from click.testing import CliRunner

from cardgen.cli.commands import cli
from tests.conftest import copy_game


def test_copied_game_with_same_id_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    game = copy_game(tmp_path)
    shutil.copytree(game, game.parent / "mygame")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["build", "card_data/mygame", "card_data/tenjanpai", "--out", "out"])
    assert result.exit_code == 1
    assert "card_data/tenjanpai/game.yaml:" in result.stderr
    assert "'tenjanpai' is also the id of card_data/mygame; both would write output/tenjanpai/" in result.stderr
    assert not (tmp_path / "out").exists()
