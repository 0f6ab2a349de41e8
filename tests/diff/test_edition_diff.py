"""`cardgen diff` reports changes per edition (cardgen/diff/editions.py): a changed translation,
the English rules text, and the coverage moving when the Japanese source changes."""
from __future__ import annotations

import shutil
from pathlib import Path

from cardgen.api import diff_drafts
from tests.conftest import copy_game, needs_fonts, replace_in

pytestmark = needs_fonts


def test_diff_reports_changes_per_edition(tmp_path: Path):
    old = copy_game(tmp_path / "a")
    new = tmp_path / "a" / "card_data" / "tenjanpai-new"
    shutil.copytree(old, new)
    replace_in(new / "characters.csv", ":power:を1個得る。,烈火の型", ":power:を2個得る。,烈火の型")
    replace_in(new / "editions" / "en.csv", "Take 1 :power: from another player.", "Steal 1 :power: from another player.")
    replace_in(new / "rules_en" / "02_play.md", "## Skills\n", "## Using skills\n")
    data = diff_drafts(old, new, pdf=False).data
    en = next(e for e in data["editions"] if e["id"] == "en")
    assert en["status"] == "same"
    assert en["texts"]["changed"] == [{"table": "characters", "id": "c1-2", "field": "skill_text",
                                       "old": "Take 1 :power: from another player.",
                                       "new": "Steal 1 :power: from another player."}]
    assert en["coverage"] == {"old": {"missing": 0, "stale": 0, "extra": 0}, "new": {"missing": 0, "stale": 1, "extra": 0}}
    assert [(r["op"], r["new"]) for r in en["rules"]] == [("changed", "## 5. Using skills")]
    ja_en = next(e for e in data["editions"] if e["id"] == "ja-en")
    assert ja_en["texts"] == {"changed": [], "added": [], "removed": []} and not ja_en["rules"]
    assert [c["id"] for c in data["components"] if c["counts"]["changed"]] == ["characters"]  # the default edition's diff
