"""A text element's ops and findings are worked out once per text, element and card geometry and
replayed onto later faces (cardgen.layout.card_text, issue 19). A replayed face must equal one
laid out afresh, its findings must name its own card, and whatever the ops depend on (the game's
own icons, the box, the colour) must lead to a fresh layout."""
from __future__ import annotations

import pytest

import cardgen.layout.card_text as card_text
from cardgen.core.errors import CardRef
from cardgen.core.units import MM
from cardgen.data.template import load_template
from cardgen.layout.card import plan_card
from cardgen.layout.face import Frame
from cardgen.layout.icon_names import IconSpec
from cardgen.layout.ops import GameIcon, Icon

FRAME = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)
#: Long enough to be shrunk from 12 pt (a warning), with an inline icon and ruby.
TEXT = "自分の手番の終わりに、:power:を2個得る。この手番は｜聴牌《テンパイ》速度が3下がる。" * 2


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size


def _template(tmp_path, colour: str = "#000000", box: str = "[5, 5, 40, 20]"):
    (tmp_path / "t.yaml").write_text(
        "elements:\n"
        f"  - {{kind: text, name: skill, box: {box}, text: '{{{{ card.text }}}}', size: 12, min_size: 4,"
        f" color: '{colour}'}}\n", encoding="utf-8")
    return load_template(tmp_path, "t")


def _plan(template, card_id: str, icons=None):
    return plan_card(template, {"card": {"text": TEXT}}, FRAME, _measure, CardRef("c", card_id), icons=icons)


@pytest.fixture(autouse=True)
def _empty_caches():
    card_text._OPS_CACHE.clear()
    card_text._FIT_CACHE.clear()
    yield
    card_text._OPS_CACHE.clear()


def test_a_replayed_face_equals_a_fresh_one_and_names_its_own_card(tmp_path):
    template = _template(tmp_path)
    first = _plan(template, "a1")
    replayed = _plan(template, "b2")
    card_text._OPS_CACHE.clear()
    fresh = _plan(template, "b2")
    assert replayed.plan.ops == fresh.plan.ops == first.plan.ops
    assert [p.code for p in first.findings] == ["text-shrunk"]
    assert replayed.findings == fresh.findings
    assert replayed.findings[0].card.card_id == "b2" and first.findings[0].card.card_id == "a1"
    assert any(isinstance(op, Icon) for op in replayed.plan.ops)


def test_what_the_ops_depend_on_is_part_of_the_key(tmp_path):
    base = _plan(_template(tmp_path), "a1").plan.ops
    (tmp_path / "other").mkdir()
    moved = _plan(_template(tmp_path / "other", box="[6, 5, 40, 20]"), "a1").plan.ops
    assert moved != base
    (tmp_path / "red").mkdir()
    red = _plan(_template(tmp_path / "red", colour="#ff0000"), "a1").plan.ops
    assert {op.color for op in red if hasattr(op, "color")} == {"#ff0000"}
    own = _plan(_template(tmp_path), "a1", icons={"power": IconSpec("/x/power.svg", "P")}).plan.ops
    assert any(isinstance(op, GameIcon) for op in own) and not any(isinstance(op, GameIcon) for op in base)
