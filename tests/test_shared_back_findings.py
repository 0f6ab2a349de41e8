"""A back that is the same for every card reports its layout findings once, at the template."""
from __future__ import annotations

import pytest

from cardgen.steps.game_check import _preflight
from cardgen.data.expand import printable_components
from cardgen.fonts.fontset import fonts_for
from cardgen.steps.pipeline import layout_problems, plan_component
from cardgen.check.print_setup import load_and_validate
from tests.conftest import copy_game, needs_fonts, replace_in

pytestmark = needs_fonts


@pytest.fixture(scope="module")
def long_title(tmp_path_factory):
    """Tenjanpai with a game title that shrinks on both backs (battle_back, character_back)."""
    game_dir = copy_game(tmp_path_factory.mktemp("g"))
    replace_in(game_dir / "game.yaml", "title: 天雀牌", "title: 天雀牌デラックス")
    game, report = load_and_validate(game_dir)
    fonts = fonts_for(game)
    plans = [plan_component(game, cid, fonts) for cid in printable_components(game)]
    return game, report, fonts, plans


def _element_line(path, name: str) -> int:
    return next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if f"name: {name}," in ln)


def test_layout_problem_names_the_back_template_once(long_title):
    game, _report, _fonts, plans = long_title
    shrunk = [p for p in layout_problems(game, plans) if p.code == "text-shrunk"]
    assert len(shrunk) == 2, [p.format() for p in shrunk]  # one per back template, not one per card row
    templates = game.root.parent.parent / "templates" / "cards"
    for p, back in zip(shrunk, ("battle_back", "character_back")):
        assert p.file.endswith(f"templates/cards/{back}.yaml") and ".csv" not in p.format()
        assert p.line == _element_line(templates / f"{back}.yaml", "title")
        assert p.path == "elements → title" and "the back shared by every card of" in p.message


def test_preflight_reports_the_back_once(long_title):
    game, report, fonts, plans = long_title
    pf = _preflight(game, fonts, plans, report)
    shrunk = [f for f in pf.findings if f.code == "text-shrunk"]
    assert [(f.card.label, f.field) for f in shrunk] == [("battle back", "title"), ("characters back", "title")]
    assert all(f.file.endswith(".yaml") and f.line for f in shrunk)
