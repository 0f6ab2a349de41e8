"""game.yaml that is there but is not a file: a pipe, a folder, a link to nothing — each named as
what it is (tester: a FIFO game.yaml was reported as "the game folder has no game.yaml")."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cardgen.core.errors import CardgenError
from cardgen.data.game import load_game


def _problem(game) -> str:
    with pytest.raises(CardgenError) as exc:
        load_game(game)
    (problem,) = exc.value.problems
    return f"{problem.message} | {problem.hint} | {problem.code}"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_not_a_regular_file(tmp_path, kind):
    game = tmp_path / "g"
    game.mkdir()
    if kind == "fifo":
        os.mkfifo(game / "game.yaml")
    else:
        (game / "game.yaml").mkdir()
    assert _problem(game) == ("game.yaml is not a regular file | the manifest must be a plain text file "
                              "(start from `cardgen new`) | manifest-not-file")


def test_a_link_to_nothing(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    (game / "game.yaml").symlink_to(tmp_path / "gone.yaml")
    assert _problem(game) == ("game.yaml is a link to a file that does not exist | point the link at the "
                              "manifest, or replace it with the manifest itself | manifest-not-file")


def test_no_manifest_at_all_is_still_said_so(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    assert _problem(game).startswith("the game folder has no game.yaml | ")


def test_validate_of_a_fifo_manifest_ends_with_the_message(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    os.mkfifo(game / "game.yaml")
    res = subprocess.run([sys.executable, "-m", "cardgen", "validate", str(game)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert res.returncode == 1, res.stderr
    assert "game.yaml: error: game.yaml is not a regular file" in res.stdout + res.stderr
    assert "Traceback" not in res.stderr
