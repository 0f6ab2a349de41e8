"""A back that is the same for every card reports its layout findings once, at the template."""
from __future__ import annotations

import pytest

from cardgen.steps.game_check import _preflight
from cardgen.data.expand import printable_components
from cardgen.fonts.fontset import fonts_for
from cardgen.steps.layout_findings import layout_problems
from cardgen.steps.component_plans import plan_component
from cardgen.check.print_setup import load_and_validate
from tests.conftest import needs_fonts
from tests.minigame import line_of, write_game

pytestmark = needs_fonts


@pytest.fixture(scope="module")
def long_title(tmp_path_factory):
    """The mini game with a title that shrinks on its back (one back template shared by 4 card rows)."""
    game_dir = write_game(tmp_path_factory.mktemp("g"), manifest={"game": {"title": "ミニデラックス・エディション"}})
    game, report = load_and_validate(game_dir)
    fonts = fonts_for(game)
    plans = [plan_component(game, cid, fonts) for cid in printable_components(game)]
    return game, report, fonts, plans


def test_layout_problem_names_the_back_template_once(long_title):
    game, _report, _fonts, plans = long_title
    shrunk = [p for p in layout_problems(game, plans) if p.code == "text-shrunk"]
    assert len(shrunk) == 1, [p.format() for p in shrunk]  # once for the back template, not once per card row
    p = shrunk[0]
    back = game.root / "templates" / "cards" / "card_back.yaml"
    assert p.file.endswith("templates/cards/card_back.yaml") and ".csv" not in p.format()
    assert p.line == line_of(back, "- kind: text")  # the element title (the back's only text element) starts here
    assert p.path == "elements → title" and "the back shared by every card of" in p.message


def test_preflight_reports_the_back_once(long_title):
    game, report, fonts, plans = long_title
    pf = _preflight(game, fonts, plans, report)
    shrunk = [f for f in pf.findings if f.code == "text-shrunk"]
    assert [(f.card.label, f.field) for f in shrunk] == [("cards back", "title")]
    assert all(f.file.endswith(".yaml") and f.line for f in shrunk)
