"""docs/manifest.md is generated and current; `cardgen new` makes a game that builds."""
from __future__ import annotations

import re

from click.testing import CliRunner

from cardgen.api import build_game, validate_game
from cardgen.cli.commands import cli
from cardgen.refdocs.manifest_docs import manifest_reference, models, templates_reference, undocumented, undocumented_helpers
from cardgen.data.manifest import Component, DesignRule, Manifest, PlayerCount
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
    r = CliRunner().invoke(cli, ["docs", "--check", "--out", str(tmp_path)])
    assert r.exit_code == 1 and "manifest.md is out of date" in r.output and "templates.md is out of date" in r.output
    r = CliRunner().invoke(cli, ["docs", "--out", str(tmp_path)])
    assert r.exit_code == 0 and stale.read_text(encoding="utf-8") == manifest_reference()
    assert (tmp_path / "templates.md").read_text(encoding="utf-8") == templates_reference()
    r = CliRunner().invoke(cli, ["docs", "--check", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    (tmp_path / "templates.md").write_text("old\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["docs", "--check", "--out", str(tmp_path)])
    assert r.exit_code == 1 and "templates.md is out of date" in r.output and "manifest.md is up to date" in r.output


def test_templates_reference_is_checked_in_and_complete():
    from cardgen.data.template_model import ELEMENT_KINDS, Template

    text = templates_reference()
    assert (ROOT / "docs" / "templates.md").read_text(encoding="utf-8") == text, "run `cardgen docs`"
    assert undocumented(Template) == []
    for model in (Template, *ELEMENT_KINDS.values()):
        section = text.split(f"### {model.__name__}\n", 1)[1].split("\n### ", 1)[0]
        for name, f in model.model_fields.items():
            assert f"| `{f.alias or name}` |" in section, f"{model.__name__}.{name}"
    for topic in ("bleed: true", "min_size", "leading", "valign", "repeat", "fit: contain", "{{ card.color }}",
                  "{% for", "| num", "nobreak", "## Worked example"):
        assert topic in text, topic


def test_design_rule_helpers_are_listed_with_one_line_each():
    from cardgen.check.design_rules import RULE_HELPERS

    assert undocumented_helpers() == []
    text = (ROOT / "docs" / "manifest.md").read_text(encoding="utf-8")
    section = text.split("## Design-rule helpers")[1]
    for name in RULE_HELPERS:
        row = next(ln for ln in section.splitlines() if ln.startswith(f"| `{name}("))
        assert len(row.split("|")[2].strip()) > 10, row
    assert {"hands", "any_fits", "unformable", "supply", "dot"} <= set(RULE_HELPERS)


def test_the_worked_example_lays_out(tmp_path):
    """The template in docs/templates.md is accepted and draws what the text says it draws."""
    from cardgen.refdocs.template_docs import EXAMPLE
    from cardgen.layout.card import plan_card
    from cardgen.layout.face import Frame
    from cardgen.layout.ops import Icon, Rect, Text
    from cardgen.data.yaml_source import load_yaml
    from cardgen.data.template_model import Template
    from cardgen.core.units import MM

    path = tmp_path / "battle.yaml"
    path.write_text(EXAMPLE, encoding="utf-8")
    tmpl = Template.model_validate(load_yaml(path).data)
    assert [e.name for e in tmpl.elements] == ["band", "number", "pon", "art", "skill", "power", "points"]
    card = {"id": "b1", "number": 7, "color": "#b3261e", "pon": True, "art": "", "skill": "ポンできる。",
            "power": 3, "points": 1000}
    frame = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)
    res = plan_card(tmpl, {"card": card, "game": {}, "design": {}, "tables": {}}, frame,
                    lambda t, f, s: len(t) * s * 0.6, "b1")
    ops = res.plan.ops
    band = next(o for o in ops if isinstance(o, Rect) and o.fill == "#b3261e")
    assert band.x == -3 * MM and band.w == 69 * MM  # bleed: true reaches into the bleed
    assert [o.name for o in ops if isinstance(o, Icon)] == ["pon", "power", "power", "power"]
    assert "1,000点" in "".join(o.text for o in ops if isinstance(o, Text))  # two runs: a quarter em between 1,000 and 点
    assert not [f for f in res.findings if f.severity == "error"], res.findings


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
        assert "最大の数字は6" in rb.replace("\n", "")  # the typesetter's quarter em, not a typed space
        assert "{{" not in rb and "`" not in rb  # no expression printed as code
        assert rb.lstrip().startswith("新しいゲーム")  # the title page reads game.title, not the folder name
        assert "【未確定】手札は何枚か" in rb.replace("\n", "")
        assert "Placeholder" not in rb  # the example open question is Japanese like the rest
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
    from cardgen.rulebook.design import BUILTIN_DESIGN

    assert BUILTIN_DESIGN.read_bytes() == (ROOT / "templates" / "rulebook" / "default.yaml").read_bytes()


def test_new_game_in_a_japanese_named_folder_gets_a_distinct_id_and_says_it(tmp_path):
    """No Latin letters in the folder name: the id is ``game_`` + 6 hex digits of the name, different
    for two names, and `cardgen new` prints it (it names the output folder)."""
    ids = []
    for name in ("花札", "麻雀"):
        r = CliRunner().invoke(cli, ["new", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
        gid = next(ln.split()[1] for ln in (tmp_path / name / "game.yaml").read_text(encoding="utf-8").splitlines()
                   if ln.strip().startswith("id:"))
        assert re.fullmatch(r"game_[0-9a-f]{6}", gid)
        assert f"game id: {gid}" in r.output and "change game.id in game.yaml" in r.output
        ids.append(gid)
    assert ids[0] != ids[1]


def test_new_game_over_an_existing_file_says_it_is_a_file(tmp_path):
    """`cardgen new notes.txt` where notes.txt is a file: "is a file", not "folder … not empty"."""
    f = tmp_path / "notes.txt"
    f.write_text("x", encoding="utf-8")
    r = CliRunner().invoke(cli, ["new", str(f)])
    assert r.exit_code == 2
    assert "is a file, not a folder" in r.output and "not empty" not in r.output
    assert f.read_text(encoding="utf-8") == "x"


def test_new_says_where_the_build_will_write(tmp_path, monkeypatch):
    """A tester ran the build from two folders and found the output in two places: `cardgen new`'s
    next step names the folder a build from here writes to, the one the build then uses."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["new", "solo"])
    assert r.exit_code == 0, r.output
    assert "next: cardgen build solo   (writes output/solo/ from this folder)" in r.output
    r = CliRunner().invoke(cli, ["sheets", "solo"])  # --out left at its default, as the line says
    assert r.exit_code == 0, r.output
    assert (tmp_path / "output" / "solo" / "print-sheets.pdf").is_file()
