"""Where card templates come from: a plain name from the game folder's own templates/cards/ only,
`shared/NAME` from the shared templates/cards/ of the project around it — never another game's
folder, never a shared one silently. A game folder copied anywhere with its own templates builds;
one without says where cardgen looked and what to do."""
from __future__ import annotations

import shutil

import pytest

from cardgen.core.errors import CardgenError
from cardgen.api import build_game, validate_game
from tests.conftest import ROOT, needs_fonts

pytestmark = needs_fonts


def test_game_copied_anywhere_with_its_own_templates_builds(tmp_path):
    game = tmp_path / "somewhere" / "tenjanpai"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", game)
    shutil.copytree(ROOT / "templates" / "cards", game / "templates" / "cards")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("shared/", ""), encoding="utf-8")
    res = build_game(game, tmp_path / "out", steps=("sheets",))
    assert (res.out_dir / "print-sheets.pdf").stat().st_size > 10_000


def test_game_copied_without_templates_says_where_it_looked(tmp_path, monkeypatch):
    game = tmp_path / "tenjanpai"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", game)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("cardgen.core.boundary.checkout", lambda: None)  # an installed cardgen: no checkout templates
    errors = [p for p in validate_game("tenjanpai").errors if p.code == "missing-template"]
    line = (game / "game.yaml").read_text(encoding="utf-8").splitlines().index("    template: shared/battle") + 1
    assert errors[0].format() == (
        f"tenjanpai/game.yaml:{line}: error: components → battle → template → 'shared/battle' names a shared "
        "template, but no shared templates/cards/ with fonts/ is in the folders above it: there are no shared "
        "templates\n    hint: create tenjanpai/templates/cards/battle.yaml (copy one from a cardgen checkout's "
        "templates/cards/ to start) and write `battle`")


def test_another_games_template_is_never_used(tmp_path, monkeypatch):
    """A game kept inside another game's folder, and a sibling game with a template of the asked
    name: neither is used; the message names the file it did not use."""
    parent = tmp_path / "card_data" / "big"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", parent)
    shutil.copytree(ROOT / "templates" / "cards", parent / "templates" / "cards")
    shutil.copytree(ROOT / "fonts", parent / "fonts")
    small = parent / "variants" / "small"
    small.mkdir(parents=True)
    (small / "game.yaml").write_text(
        "game: {id: small, title: 小, version: '1', players: [2]}\n"
        "components:\n  - {id: c, name: C, cards: [{id: a}], template: character}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("cardgen.core.boundary.checkout", lambda: None)  # an installed cardgen: no checkout templates
    errors = [p for p in validate_game(small).errors if p.code == "missing-template"]
    assert len(errors) == 1
    assert errors[0].message == (
        "the card template 'character' was not found; looked in card_data/big/variants/small/templates/cards/ "
        "(the game's own; a plain name is looked up there only); "
        "card_data/big/templates/cards/character.yaml has that name but belongs to another game, whose "
        "templates are never used")


def test_checkout_templates_are_the_last_fallback(tmp_path, monkeypatch):
    """The decision of issue 18, as README's Security section states it: a game folder that is not
    a project of its own, with no project root above it, gets the checkout's templates/cards/ by
    plain name (the project's own files, which the game cannot change); a game folder with its own
    templates/cards/ and fonts/ is its own project and gets nothing from outside."""
    from cardgen.core.boundary import checkout
    from cardgen.data.project import Project

    monkeypatch.chdir(tmp_path)  # no templates/ here: the folder cardgen runs in is no project root
    loose = tmp_path / "sent" / "tenjanpai"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", loose)
    assert Project.for_game(loose).template_dirs == [checkout() / "templates" / "cards"]
    assert not [p for p in validate_game(loose).errors if p.code == "missing-template"]

    own = tmp_path / "own" / "tenjanpai"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", own)
    (own / "templates" / "cards").mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "cards" / "character.yaml", own / "templates" / "cards")
    (own / "fonts").mkdir()
    shutil.copy(ROOT / "fonts" / "fonts.yaml", own / "fonts")
    assert Project.for_game(own).template_dirs == [own.resolve() / "templates" / "cards"]
    missing = [p for p in validate_game(own).errors if p.code == "missing-template"]
    assert {p.message.split("'")[1] for p in missing} == {"shared/battle", "shared/battle_back", "shared/character",
                                                         "shared/character_back", "shared/power_token"}
    assert "'shared/battle' names a shared template, but this game folder is its own project (its own " \
           "templates/cards/ and fonts/): there are no shared templates" in missing[0].message


def test_a_missing_own_template_is_never_taken_from_the_shared_ones(tmp_path, monkeypatch):
    """Issue 31: a game with its own templates/cards/ whose character.yaml was deleted got 天雀牌's
    shared character.yaml silently (and errors about fields it never wrote); now the plain name is
    not found, and the hint says how to ask for the shared one."""
    from tests.conftest import copy_game

    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)  # the copy's templates/ are the shared ones
    own = game / "templates" / "cards"
    own.mkdir(parents=True)
    for name in ("battle", "battle_back", "character_back", "power_token"):
        shutil.copy(ROOT / "templates" / "cards" / f"{name}.yaml", own)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("shared/", ""), encoding="utf-8")
    errors = validate_game(game).errors
    assert [p.code for p in errors] == ["missing-template"]
    assert errors[0].message.startswith("the card template 'character' was not found; looked in ")
    assert "write `shared/character` to use the shared templates/cards/character.yaml" in errors[0].hint
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("template: character", "template: shared/character"),
                        encoding="utf-8")
    assert not validate_game(game).errors


def test_a_rulebook_design_is_never_taken_from_the_shared_ones(tmp_path, monkeypatch):
    """The same for page designs: a plain name is the game's own templates/rulebook/ (or, for
    `default`, the built-in design); the shared folder's only as `shared/NAME`."""
    from cardgen.api import build_game
    from tests.conftest import copy_game

    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)  # the copy's templates/ are the shared ones
    shutil.copy(ROOT / "templates" / "rulebook" / "default.yaml", tmp_path / "templates" / "rulebook" / "wide.yaml")
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "\nrulebook:\n" in text
    manifest.write_text(text.replace("\nrulebook:\n", "\nrulebook:\n  template: wide\n"), encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("rulebook",))
    assert exc.value.problems[0].message.startswith("no page design 'wide' in card_data/tenjanpai/templates/rulebook/")
    assert exc.value.problems[0].hint.startswith("write `shared/wide` to use the shared templates/rulebook/wide.yaml")
    manifest.write_text(text.replace("\nrulebook:\n", "\nrulebook:\n  template: shared/wide\n"), encoding="utf-8")
    res = build_game(game, tmp_path / "out", steps=("rulebook",))
    assert (res.out_dir / "rulebook.pdf").is_file()
