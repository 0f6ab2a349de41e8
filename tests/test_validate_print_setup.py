"""`cardgen validate` finds what a build would trip over first: unknown sizes, missing templates."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cardgen.cli.commands import cli
from tests.conftest import replace_in


def test_validate_reports_missing_template_and_unknown_size(game_copy):
    manifest = game_copy / "game.yaml"
    replace_in(manifest, "template: battle\n", "template: batle\n")
    replace_in(manifest, "card_size: poker", "card_size: bogus")
    result = CliRunner().invoke(cli, ["validate", str(game_copy), "--format", "json"])
    assert result.exit_code == 1
    errors = json.loads(result.stdout)["errors"]
    messages = {(e["code"], e["line"]) for e in errors}
    lines = manifest.read_text(encoding="utf-8").splitlines()
    size_line = next(i for i, ln in enumerate(lines, 1) if "card_size: bogus" in ln)
    template_line = next(i for i, ln in enumerate(lines, 1) if "template: batle" in ln)
    assert ("unknown-size", size_line) in messages
    assert ("missing-template", template_line) in messages
    assert any("'batle'" in e["message"] for e in errors)


def test_validate_is_clean_for_the_main_game():
    result = CliRunner().invoke(cli, ["validate", "card_data/tenjanpai", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["errors"] == []
