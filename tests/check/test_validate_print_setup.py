"""`cardgen validate` finds what a build would trip over first: unknown sizes, missing templates."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cardgen.cli.commands import cli
from tests.minigame import MANIFEST, line_of, write_game


def test_validate_reports_missing_template_and_unknown_size(tmp_path):
    game = write_game(tmp_path, manifest={"print": {"card_size": "bogus"},
                                          "components": [{**MANIFEST["components"][0], "template": "crad"}]})
    result = CliRunner().invoke(cli, ["validate", str(game), "--format", "json"])
    assert result.exit_code == 1
    errors = json.loads(result.stdout)["errors"]
    messages = {(e["code"], e["line"]) for e in errors}
    assert ("unknown-size", line_of(game / "game.yaml", "card_size: bogus")) in messages
    assert ("missing-template", line_of(game / "game.yaml", "template: crad")) in messages
    assert any("'crad'" in e["message"] for e in errors)


def test_validate_is_clean_for_the_main_game():
    result = CliRunner().invoke(cli, ["validate", "card_data/tenjanpai", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["errors"] == []
