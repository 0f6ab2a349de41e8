"""One card reference per finding (component, card id, row file and line, face), one finding type
with a typed severity, and the two bugs they fixed (issue #10)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.core.errors import CardRef, Problem, card_problem
from tests.conftest import ROOT, needs_fonts

BAD = ROOT / "tests" / "fixtures" / "bad"


def _case(tmp_path: Path, name: str) -> Path:
    game = tmp_path / "g"
    shutil.copytree(BAD / "_base", game)
    shutil.copytree(BAD / name, game, dirs_exist_ok=True)
    return game


def _cardgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=cwd, capture_output=True, text=True)


def test_card_ref_labels_each_face():
    assert CardRef("battle", "b3-pon", "cards.csv", 4).label == "battle b3-pon"
    assert CardRef("battle", "b3-pon", "cards.csv", 4, "back").label == "battle b3-pon back"
    assert CardRef("battle", "", face="back").label == "battle back"  # a back every card shares


def test_card_problem_points_at_the_row_or_at_the_template():
    ref = CardRef("cards", "c1 back", "cards.csv", 3)
    at_row = card_problem("error", ref, "text", "does not fit", "text-overflow")
    assert (at_row.file, at_row.line, at_row.path, at_row.card) == ("cards.csv", 3, "cards c1 back → text", ref)
    at_template = card_problem("error", ref, "text", "bad expression", "template-expr", "templates/cards/card.yaml", 6)
    assert (at_template.file, at_template.line, at_template.card) == ("templates/cards/card.yaml", 6, ref)


def test_severity_is_typed():
    assert Problem("f", 1, "", "m", severity="warning").severity == "warning"
    with pytest.raises(ValueError, match="severity must be one of"):
        Problem("f", 1, "", "m", severity="fatal")


@needs_fonts
def test_a_card_id_ending_in_back_is_found_at_its_own_row(tmp_path):
    """Rows ``c1`` (cards.csv:2) and ``c1 back`` (cards.csv:3): text that does not fit on ``c1 back``
    is reported at line 3, in the build's message and in report.json (it used to say line 2)."""
    game = _case(tmp_path, "layout-card-id-ending-in-back")
    assert game.joinpath("cards.csv").read_text(encoding="utf-8").splitlines()[2].startswith("c1 back,")
    res = _cardgen("build", ".", "--force", "--out", str(tmp_path / "out"), cwd=game)
    assert "cards.csv:3: error: cards c1 back → text → the text does not fit" in res.stderr, res.stderr
    assert "cards.csv:2" not in res.stderr
    report = json.loads((tmp_path / "out" / "g" / "report.json").read_text(encoding="utf-8"))
    overflow = [f for f in report["findings"] if f["code"] == "text-overflow"]
    assert [(f["card"], f["file"], f["line"]) for f in overflow] == [("cards c1 back", "cards.csv", 3)]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_dot_names_the_game_folder(tmp_path, fmt):
    """``cardgen validate .`` on a game that does not load names the folder (it printed ": 2 error(s)"
    and wrote ``"game": ""``)."""
    game = _case(tmp_path, "model-unknown-top-key")
    res = _cardgen("validate", ".", "--format", fmt, cwd=game)
    assert res.returncode == 1
    if fmt == "json":
        assert json.loads(res.stdout)["game"] == "g"
    else:
        assert res.stdout.splitlines()[-1].startswith("g: 1 error(s)"), res.stdout
