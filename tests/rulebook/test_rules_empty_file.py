"""An empty rules file (only whitespace) is a warning naming the file; when every rules file is
empty the rulebook step fails (it would print a title page and nothing else)."""
from __future__ import annotations

from click.testing import CliRunner

from cardgen.api import validate_game
from cardgen.cli.commands import cli
from tests.conftest import needs_fonts
from tests.minigame import RULES, write_game

pytestmark = needs_fonts


def _rulebook(game, out):
    return CliRunner().invoke(cli, ["rulebook", str(game), "--out", str(out)])


def test_one_empty_rules_file_is_a_warning_naming_it(tmp_path):
    game = write_game(tmp_path, rules={**RULES, "04_notes.md": " \n\t\n"})
    warnings = [p for p in validate_game(game).warnings if p.code == "empty-rules"]
    assert len(warnings) == 1 and warnings[0].file.endswith("rules/04_notes.md")
    assert "04_notes.md is empty" in warnings[0].message
    res = _rulebook(game, tmp_path / "out")
    assert res.exit_code == 0, res.output
    assert "rules/04_notes.md: warning:" in res.stderr and "rulebook.pdf" in res.stdout


def test_every_rules_file_empty_is_an_error_for_the_rulebook(tmp_path):
    game = write_game(tmp_path, rules={"01_rules.md": "\n", "02_more.md": "\n"})
    res = _rulebook(game, tmp_path / "out")
    assert res.exit_code == 1
    assert "error: rulebook → every rules file is empty" in res.stderr
    assert "01_rules.md" in res.stderr and "02_more.md" in res.stderr
    assert not (tmp_path / "out" / "mini" / "rulebook.pdf").exists()
    # the sheets do not need rules text: a build of the sheets alone still works
    res = CliRunner().invoke(cli, ["sheets", str(game), "--out", str(tmp_path / "o2")])
    assert res.exit_code == 0, res.stderr


def test_the_real_games_have_no_empty_rules_file():
    from tests.conftest import TENJANPAI
    assert not [p for p in validate_game(TENJANPAI).warnings if p.code == "empty-rules"]
