"""docs/manifest.md is generated and current; `cardgen new` makes a game that builds."""
from __future__ import annotations

from click.testing import CliRunner

from cardgen.api import build_game, validate_game
from cardgen.cli import cli
from cardgen.docs import manifest_reference, models, undocumented
from cardgen.model import Component, DesignRule, Manifest, PlayerCount
from tests.pdfread import ROOT, page_texts


def test_every_manifest_field_is_documented():
    assert undocumented() == []
    names = {m.__name__ for m in models()}
    assert {"Manifest", "GameInfo", "Choice", "Component", "Setup", "PlayerCount", "DesignRule"} <= names


def test_checked_in_reference_is_up_to_date():
    text = manifest_reference()
    assert (ROOT / "docs" / "manifest.md").read_text(encoding="utf-8") == text, "run `cardgen docs`"
    for model in (Manifest, Component, PlayerCount, DesignRule):
        for name in model.model_fields:
            assert f"| `{name}` |" in text, f"{model.__name__}.{name}"


def test_docs_check_command(tmp_path):
    stale = tmp_path / "manifest.md"
    stale.write_text("old\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["docs", "--check", "--out", str(stale)])
    assert r.exit_code == 1 and "out of date" in r.output
    r = CliRunner().invoke(cli, ["docs", "--out", str(stale)])
    assert r.exit_code == 0 and stale.read_text(encoding="utf-8") == manifest_reference()


def test_new_game_validates_and_builds(tmp_path):
    # inside a project (templates/ and fonts/ found in a parent), as `cardgen new card_data/x` would be
    game = ROOT / "card_data" / ".." / "tests" / "_new_game_tmp"
    import shutil
    shutil.rmtree(game, ignore_errors=True)
    try:
        r = CliRunner().invoke(cli, ["new", str(game), "--title", "新しいゲーム"])
        assert r.exit_code == 0, r.output
        assert (game / "templates" / "cards" / "card.yaml").is_file()
        rep = validate_game(game).to_json()
        assert rep["ok"] and not rep["warnings"], rep
        assert [(pc["players"], pc["turns"], pc["declared_turns"]) for pc in rep["player_counts"]] == [(3, 4, 4), (4, 3, 3)]
        res = build_game(game, tmp_path, steps=("sheets", "rulebook"))
        texts = page_texts(tmp_path / "new_game_tmp" / "print-sheets.pdf")
        assert len(texts) == 6  # 24 poker cards, 8 a sheet, with backs
        assert sum(t.count("新しいゲーム") for t in texts if "表 front" in t) >= 24
        rb = "\n".join(page_texts(tmp_path / "new_game_tmp" / "rulebook.pdf"))
        assert "いまは 6" in rb
        assert res.files
        r = CliRunner().invoke(cli, ["new", str(game)])
        assert r.exit_code == 2 and "not empty" in r.output
    finally:
        shutil.rmtree(game, ignore_errors=True)


def test_new_game_outside_a_checkout_builds_with_the_builtin_rulebook_design(tmp_path, monkeypatch):
    """A game started anywhere (no templates/rulebook/ around it) still gets its rulebook."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "solo"]).exit_code == 0
    result = build_game(tmp_path / "solo", tmp_path / "out", steps=("sheets", "rulebook"))
    assert (tmp_path / "out" / result.game / "rulebook.pdf").is_file()


def test_builtin_rulebook_design_matches_the_project_default():
    from cardgen.render.rulebook_style import BUILTIN_DESIGN

    assert BUILTIN_DESIGN.read_bytes() == (ROOT / "templates" / "rulebook" / "default.yaml").read_bytes()
