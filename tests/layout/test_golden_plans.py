"""Golden layout plans: two battle cards and one character card of 天雀牌, as JSON.

The plans (drawing ops in pt, rounded to 1/1000 pt) are compared with tests/golden/*.json.
After an intended layout change, regenerate them and review the diff:

    CARDGEN_UPDATE_GOLDEN=1 python -m pytest tests/layout/test_golden_plans.py
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardgen.layout.ops import to_json
from cardgen.fonts.fontset import fonts_for
from cardgen.steps.component_plans import plan_component
from cardgen.data.game import load_game
from tests.conftest import TENJANPAI, needs_fonts

pytestmark = needs_fonts
GOLDEN = Path(__file__).parents[1] / "golden"
CASES = [("battle", "b2-chi"), ("battle", "b7-both"), ("characters", "c1-2")]


@pytest.fixture(scope="module")
def plans():
    game = load_game(TENJANPAI)
    fonts = fonts_for(game)
    return {cid: plan_component(game, cid, fonts) for cid in {c for c, _ in CASES}}


def plan_json(comp, row_id: str) -> dict:
    i = next(k for k, card in enumerate(comp.cards) if card.row.id == row_id)
    data = {"card": f"{comp.component} {row_id}", "front": to_json(comp.fronts[i]), "back": to_json(comp.backs[i])}
    for side in ("front", "back"):
        data[side].pop("key", None)  # an identity hash, not geometry
    return data


@pytest.mark.parametrize("component, row_id", CASES)
def test_plan_matches_golden(plans, component, row_id):
    got = plan_json(plans[component], row_id)
    path = GOLDEN / f"{component}-{row_id}.json"
    if os.environ.get("CARDGEN_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert path.is_file(), f"{path.name} missing: run with CARDGEN_UPDATE_GOLDEN=1 to create it"
    want = json.loads(path.read_text(encoding="utf-8"))
    assert got == want, f"layout of {row_id} changed; if intended, regenerate with CARDGEN_UPDATE_GOLDEN=1"


def test_goldens_say_what_they_show():
    """Sanity of the goldens themselves: the right numbers, icons and text are in them."""
    b7 = json.loads((GOLDEN / "battle-b7-both.json").read_text(encoding="utf-8"))["front"]["ops"]
    texts = [o["text"] for o in b7 if o["op"] == "text"]
    turned = [(o["text"], o["angle"]) for o in b7 if o["op"] == "turned_text"]
    assert texts.count("7") == 2 and "聴牌速度・打点" in texts
    assert turned == [("7", 180.0)]  # the second corner index, read from across the table
    icons = [o["name"] for o in b7 if o["op"] == "icon"]
    assert icons.count("power") == 2 and "pon" in icons and "chi" in icons
    b2 = json.loads((GOLDEN / "battle-b2-chi.json").read_text(encoding="utf-8"))["front"]["ops"]
    assert "無料" in [o["text"] for o in b2 if o["op"] == "text"]
    assert "pon_off" in [o["name"] for o in b2 if o["op"] == "icon"]
    c = json.loads((GOLDEN / "characters-c1-2.json").read_text(encoding="utf-8"))["front"]
    assert c["width"] == pytest.approx(63 * 72 / 25.4, abs=1e-3) and c["bleed"] == pytest.approx(3 * 72 / 25.4, abs=1e-3)
    # the name set vertically (templates/cards/character.yaml): one column, one character a square
    (name,) = [o for o in c["ops"] if o["op"] == "vertical_text"]
    assert [(mode, ch) for mode, ch, _ in name["items"]] == [("upright", ch) for ch in "李紅蓮"]
    assert [off for _, _, off in name["items"]] == [0, name["size"], 2 * name["size"]]
