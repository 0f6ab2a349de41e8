"""report.json and the build's summary count what `cardgen validate` counts: the checks made after
the card preflight (the simulator model, the game's icons, the other editions, the rulebook) were
printed by a build but left out of its report ("0 error(s), 0 warning(s)" under five warnings)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from cardgen.api import build_game, validate_game

CORPUS = Path(__file__).parents[1] / "fixtures" / "bad"


def test_a_model_typo_is_in_report_json_as_validate_counts_it(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(CORPUS / "_base", game)
    shutil.copy(CORPUS / "insight-model-checked-by-validate" / "game.yaml", game / "game.yaml")
    checked = validate_game(game)
    assert not checked.errors and len(checked.warnings) == 5  # the five model findings of the corpus case
    result = build_game(game, tmp_path / "out", steps=("sheets",))
    report = json.loads((result.out_dir / "report.json").read_text(encoding="utf-8"))
    assert report["warnings"] == len(checked.warnings) and report["errors"] == 0
    assert len(result.preflight.warnings) == len(checked.warnings)
    assert sorted((f["line"], f["message"]) for f in report["findings"]) == \
        sorted((p.line, p.message) for p in checked.warnings)
