"""cardgen.layout.planners: each element kind is drawn by its own planner (its ops, at its box),
a turned corner index turns its inline icons, and face keys follow content."""
from __future__ import annotations

import pytest

from cardgen.core.units import MM
from cardgen.data.template import load_template
from cardgen.layout.card import plan_card
from cardgen.layout.face import Frame
from cardgen.layout.ops import Circle, Icon, Image, Line, Rect, Text


def _load(tmp_path, *elements: str):
    (tmp_path / "t.yaml").write_text("elements:\n" + "".join(f"  - {e}\n" for e in elements), encoding="utf-8")
    return load_template(tmp_path, "t")


@pytest.mark.parametrize("element, op", [
    ("{kind: rect, box: [5, 5, 10, 5], fill: '#ff0000', radius: 1}", Rect),
    ("{kind: circle, box: [5, 5, 10, 5], fill: '#ff0000'}", Circle),
    ("{kind: line, box: [5, 5, 10, 0], stroke_width: 1}", Line),
    ("{kind: text, box: [5, 5, 30, 10], text: 'あいう'}", Text),
    ("{kind: icon, box: [5, 5, 10, 5], icon: pon}", Icon),
    ("{kind: icons, box: [5, 5, 30, 5], icon: pon, repeat: '3'}", Icon),
    ("{kind: image, box: [5, 5, 10, 5], file: art.png}", Image),
])
def test_each_kind_is_planned_by_its_planner(tmp_path, element, op):
    template = _load(tmp_path, element)
    frame = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)
    res = plan_card(template, {"card": {}}, frame, lambda text, font, size: len(text) * size, "c 1")
    assert res.findings == []
    assert [type(o) for o in res.plan.ops] == [op] * (3 if "repeat" in element else 1)
    if op in (Rect, Line, Text, Image):  # boxes are mm from the trim's left edge
        first = res.plan.ops[0]
        assert (first.x1 if op is Line else first.x) == pytest.approx(5 * MM)


def test_a_turned_corner_index_turns_its_inline_icons(tmp_path):
    """``rotate: 180`` turns the inline icons with the text: the plan holds a turned icon in the
    mirrored square, and the rendered card shows the upright icon's pixels turned upside down."""
    import numpy as np

    from cardgen.data.game import load_game
    from cardgen.fonts.fontset import fonts_for
    from cardgen.layout.ops import TurnedIcon
    from cardgen.render.card_pdf import card_pdf
    from cardgen.render.png_cards import rasterise

    from conftest import TENJANPAI

    template = _load(tmp_path, "{kind: text, name: up, box: [5, 5, 20, 10], text: ':chi:', size: 20}",
                     "{kind: text, name: down, box: [35, 5, 20, 10], text: ':chi:', size: 20, rotate: 180}")
    frame = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)
    plan = plan_card(template, {"card": {}}, frame, lambda text, font, size: len(text) * size, "c 1").plan
    up = next(o for o in plan.ops if type(o) is Icon)
    down = next(o for o in plan.ops if isinstance(o, TurnedIcon))
    assert (down.name, down.angle, down.size) == ("chi", 180.0, up.size)
    # mirrored about its box centre: left/top in the upright box → right/bottom in the turned one
    assert down.x + down.size == pytest.approx(55 * MM - (up.x - 5 * MM))
    box_bottom = plan.height - 15 * MM  # both boxes: 5 mm from the top, 10 mm high (pt, y up)
    assert down.y - box_bottom == pytest.approx(box_bottom + 10 * MM - up.y - up.size)
    scale = 4.0
    img = np.asarray(rasterise(card_pdf(plan, fonts_for(load_game(TENJANPAI)), bleed=False), scale,
                               (round(plan.width * scale), round(plan.height * scale))), dtype=float)

    def crop(o):
        top = plan.height - o.y - o.size
        return img[round(top * scale):round((top + o.size) * scale), round(o.x * scale):round((o.x + o.size) * scale)]

    a, b = crop(up), crop(down)
    assert a.std() > 20  # the icon is there
    assert np.abs(a[::-1, ::-1] - b).mean() < 8 < np.abs(a - b).mean()  # turned, not merely moved


def test_face_keys_follow_content_not_object_identity(tmp_path):
    """Two objects of one template give one face key per card; another template, another card size
    or other values give another. (Keys made from ``id(template)`` once let a freed template's
    address be reused, so a back was drawn with a front's form.)"""
    frame = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)
    measure = lambda text, font, size: len(text) * size  # noqa: E731
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    text = "{kind: text, box: [5, 5, 40, 10], text: '{{ card.name }}'}"
    first = _load(tmp_path / "a", text)
    again = first.model_copy(deep=True)  # equal content, another object (loading again gives the cached one)
    other = _load(tmp_path / "b", text.replace("40, 10", "40, 12"))

    def key(t, values, f=frame):
        return plan_card(t, {"card": values}, f, measure, "c 1").plan.key

    assert first is not again
    assert key(first, {"name": "お"}) == key(again, {"name": "お"})
    assert key(first, {"name": "お"}) != key(other, {"name": "お"})
    assert key(first, {"name": "お"}) != key(first, {"name": "う"})
    assert key(first, {"name": "お"}) != key(first, {"name": "お"}, Frame(88 * MM, 63 * MM, 3 * MM, 3 * MM))


def test_an_overflow_message_says_by_how_much():
    """'does not fit its box' says what the text needs (an earlier note: it gave no amount)."""
    from types import SimpleNamespace

    from cardgen.core.units import MM
    from cardgen.layout.card_text import _overflow

    line = SimpleNamespace(width=20 * MM, has_ruby=False)
    tall = SimpleNamespace(size=6.0, leading=8.1, lines=[line] * 10)  # 6 + 9 × 8.1 = 78.9 pt = 27.8 mm
    assert _overflow(tall, 30 * MM, 20 * MM) == "; its 10 lines need 27.8 mm of height"
    wide = SimpleNamespace(size=6.0, leading=8.1, lines=[SimpleNamespace(width=31 * MM, has_ruby=False)])
    assert _overflow(wide, 30 * MM, 20 * MM) == "; a line needs 31.0 mm of width"
