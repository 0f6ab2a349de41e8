"""The multi-game build and the docs check live in the library (cardgen.api, cardgen.refdocs); the
CLI only prints what they return."""
from __future__ import annotations

import shutil

import pytest

from cardgen.api import BuildResult, build_games, games_to_build
from cardgen.core.errors import CardgenError, UsageError
from cardgen.refdocs.manifest_docs import DOCS, stale_docs, write_docs
from tests.conftest import ROOT, needs_fonts

BASE = ROOT / "tests" / "fixtures" / "bad" / "_base"


def _game(parent, name: str, game_id: str):
    d = parent / name
    shutil.copytree(BASE, d)
    manifest = d / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("  id: g\n", f"  id: {game_id}\n"), encoding="utf-8")
    return d


def test_no_games_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="no games found"):
        games_to_build([], tmp_path)


def test_two_games_with_one_id_are_refused_before_building(tmp_path):
    a, b = _game(tmp_path / "data", "a", "one"), _game(tmp_path / "data", "b", "two")
    assert games_to_build([], tmp_path / "data") == [a, b]  # every game in card_data, by name
    copy = _game(tmp_path, "copy", "one")
    with pytest.raises(CardgenError) as exc:
        games_to_build([a, copy], tmp_path)
    assert [p.code for p in exc.value.problems] == ["duplicate-game-id"]


@needs_fonts
def test_a_failing_game_does_not_stop_the_others(tmp_path):
    bad, good = _game(tmp_path, "a", "bad"), _game(tmp_path, "b", "good")
    (bad / "game.yaml").write_text("game: [\n", encoding="utf-8")
    results = list(build_games([bad, good], tmp_path / "out", steps=("sheets",)))
    assert [d for d, _r in results] == [bad, good]
    assert isinstance(results[0][1], CardgenError) and results[0][1].problems[0].file.endswith("game.yaml")
    assert isinstance(results[1][1], BuildResult)
    assert (tmp_path / "out" / "good" / "print-sheets.pdf").is_file()


def test_docs_check_and_write(tmp_path):
    assert stale_docs(tmp_path) == {tmp_path / name: False for name in DOCS}
    assert write_docs(tmp_path / "docs") == [tmp_path / "docs" / name for name in DOCS]
    assert all(stale_docs(tmp_path / "docs").values())
    (tmp_path / "docs" / "templates.md").write_text("old\n", encoding="utf-8")
    assert stale_docs(tmp_path / "docs")[tmp_path / "docs" / "templates.md"] is False
