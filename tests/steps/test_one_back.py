"""A back template that names no card field is laid out once for the whole component (issue 19),
and one that does is laid out for every card: plan_card's calls counted, with the faces and
findings a per-card layout gives. (With a ``plan`` of its own — the live preview's face cache —
every card's back is still asked for.)"""
from __future__ import annotations

import pytest

from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.layout.card import plan_card
import cardgen.steps.component_plans as component_plans
from cardgen.steps.component_plans import plan_component
from tests.conftest import needs_fonts
from tests.minigame import BACK, write_game

pytestmark = needs_fonts


def _plans(tmp_path, monkeypatch, back: dict, own_plan: bool = False):
    game_dir = write_game(tmp_path, back=back)
    game, _report = load_and_validate(game_dir)
    calls: list[str] = []

    def counting(template, ctx, frame, measure, card, **k):
        calls.append(card.face)
        return plan_card(template, ctx, frame, measure, card, **k)

    if own_plan:
        return plan_component(game, "cards", fonts_for(game), plan=counting), calls
    monkeypatch.setattr(component_plans, "plan_card", counting)
    return plan_component(game, "cards", fonts_for(game)), calls


def test_a_back_without_card_fields_is_laid_out_once(tmp_path, monkeypatch):
    long_title = {**BACK, "elements": [{**BACK["elements"][0], "text": "{{ game.title }}" * 12, "min_size": 6}]}
    plans, calls = _plans(tmp_path, monkeypatch, long_title)
    assert calls.count("front") == 4 and calls.count("back") == 1  # 4 rows (12 cards), one back
    assert len({plans.backs.key_at(i) for i in range(len(plans.cards))}) == 1
    shrunk = [p for p in plans.findings if p.code == "text-shrunk" and p.card.face == "back"]
    assert len(shrunk) == 1 and shrunk[0].card.card_id == ""  # said once, for the component's back


def test_with_a_plan_of_its_own_every_back_is_asked_for(tmp_path, monkeypatch):
    _plans_, calls = _plans(tmp_path, monkeypatch, BACK, own_plan=True)
    assert calls.count("back") == 4


def test_a_back_naming_a_card_field_is_laid_out_per_card(tmp_path, monkeypatch):
    numbered = {**BACK, "elements": [*BACK["elements"], {"kind": "text", "name": "no", "box": [6, 70, 51, 8],
                                                        "text": "{{ card.number }}", "font": "body", "size": 8}]}
    plans, calls = _plans(tmp_path, monkeypatch, numbered)
    assert calls.count("back") == 4
    assert len({plans.backs.key_at(i) for i in range(len(plans.cards))}) == 4


@pytest.mark.parametrize("text", ["{{ card.number }}", "{% if card %}x{% endif %}", "{{ tables.cards[0].card }}"])
def test_any_mention_of_card_counts(text):
    from cardgen.data.template_model import Template
    from cardgen.layout.card import reads_card

    template = Template.model_validate({"elements": [{"kind": "text", "box": [1, 1, 10, 10], "text": text}]})
    assert reads_card(template)
    assert not reads_card(Template.model_validate({"description": "A card back.", "elements": []}))
