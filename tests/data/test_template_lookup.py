"""Where card templates come from: the game folder's own templates/cards/ first, then the shared
templates/cards/ of the project around it — never another game's folder. A game folder copied
anywhere with its own templates builds; one without says where cardgen looked and what to do."""
from __future__ import annotations

import shutil

from cardgen.api import build_game, validate_game
from tests.conftest import ROOT, needs_fonts

pytestmark = needs_fonts


def test_game_copied_anywhere_with_its_own_templates_builds(tmp_path):
    game = tmp_path / "somewhere" / "tenjanpai"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", game)
    shutil.copytree(ROOT / "templates" / "cards", game / "templates" / "cards")
    res = build_game(game, tmp_path / "out", steps=("sheets",))
    assert (res.out_dir / "print-sheets.pdf").stat().st_size > 10_000


def test_game_copied_without_templates_says_where_it_looked(tmp_path, monkeypatch):
    game = tmp_path / "tenjanpai"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", game)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("cardgen.core.boundary.checkout", lambda: None)  # an installed cardgen: no checkout templates
    errors = [p for p in validate_game("tenjanpai").errors if p.code == "missing-template"]
    line = (game / "game.yaml").read_text(encoding="utf-8").splitlines().index("    template: battle") + 1
    assert errors[0].format() == (
        f"tenjanpai/game.yaml:{line}: error: template → the card template 'battle' was not found; looked in "
        "tenjanpai/templates/cards/ (the game's own) and no shared templates/cards/ with fonts/ in the folders "
        "above it\n    hint: create tenjanpai/templates/cards/battle.yaml (copy one from a cardgen checkout's "
        "templates/cards/ to start), or name an existing template; none are available")


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
        "(the game's own) and no shared templates/cards/ with fonts/ in the folders above it; "
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
    assert {p.message.split("'")[1] for p in missing} == {"battle", "battle_back", "character_back", "power_token"}
    assert "looked in own/tenjanpai/templates/cards/ (the game's own) and nowhere else (a game folder with its own " \
           "templates/cards/ and fonts/ is its own project: shared templates are not searched)" in missing[0].message
