"""Template lengths are converted to pt once, at validation (data.fields.TemplateLength): a box,
a corner radius and an icon gap given as a bare number (mm), `"3mm"`, `"0.5in"` or `"12pt"` reach
the plan as the right pt values, with no conversion in layout; findings and JSON dumps show mm."""
from __future__ import annotations

import pytest

from cardgen.core.errors import CardgenError
from cardgen.data.template import load_template
from cardgen.layout.card import plan_card
from cardgen.layout.face import Frame
from cardgen.layout.ops import Icon, Rect

MM = 72 / 25.4  # points per mm, written out here rather than taken from cardgen.core.units
FRAME = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)


def _load(tmp_path, *elements: str):
    (tmp_path / "t.yaml").write_text("elements:\n" + "".join(f"  - {e}\n" for e in elements), encoding="utf-8")
    return load_template(tmp_path, "t")


def _plan(template):
    return plan_card(template, {"card": {}}, FRAME, lambda text, font, size: len(text) * size, "c 1")


def test_box_and_radius_in_each_unit_reach_the_plan_in_pt(tmp_path):
    t = _load(tmp_path, '{kind: rect, box: ["3mm", "0.5in", 10, "12pt"], radius: "1mm", fill: "#000000"}')
    assert t.elements[0].box == pytest.approx((3 * MM, 36.0, 10 * MM, 12.0), abs=1e-9)
    assert t.elements[0].radius == pytest.approx(MM, abs=1e-9)
    [rect] = _plan(t).plan.ops
    assert isinstance(rect, Rect)
    # y down from the trim's top in the template, y up from the trim's bottom in the plan
    assert (rect.x, rect.y, rect.w, rect.h) == pytest.approx((3 * MM, 88 * MM - 36.0 - 12.0, 10 * MM, 12.0), abs=1e-9)
    assert rect.radius == pytest.approx(MM, abs=1e-9)


def test_a_bare_number_is_mm_and_converts_exactly_as_before(tmp_path):
    """A bare number becomes ``value * MM``, the same float layout computed at use before, so
    outputs stay byte-identical."""
    t = _load(tmp_path, "{kind: rect, box: [3.5, 6, 56.25, 81], radius: 2}")
    assert t.elements[0].box == (3.5 * (72.0 / 25.4), 6 * (72.0 / 25.4), 56.25 * (72.0 / 25.4), 81 * (72.0 / 25.4))
    assert t.elements[0].radius == 2 * (72.0 / 25.4)


def test_icon_gap_in_a_unit_and_its_default(tmp_path):
    t = _load(tmp_path, "{kind: icons, box: [5, 5, 40, 5], icon: pon, repeat: '3', gap: '0.1in'}",
              "{kind: icons, box: [5, 20, 40, 5], icon: pon, repeat: '2'}")
    assert t.elements[0].gap == pytest.approx(7.2, abs=1e-9)
    assert t.elements[1].gap == pytest.approx(1 * MM, abs=1e-9)  # the default, 1 mm, is converted too
    icons = [op for op in _plan(t).plan.ops if isinstance(op, Icon)]
    first, second = icons[0], icons[1]
    assert second.x - (first.x + first.size) == pytest.approx(7.2, abs=1e-9)
    assert icons[4].x - (icons[3].x + icons[3].size) == pytest.approx(MM, abs=1e-9)


def test_json_dumps_and_findings_show_mm(tmp_path):
    t = _load(tmp_path, '{kind: rect, box: ["3mm", "0.5in", 10, "12pt"], radius: "1mm"}')
    dumped = t.model_dump(mode="json")["elements"][0]
    assert dumped["box"] == [3.0, 12.7, 10.0, 4.233] and dumped["radius"] == 1.0
    with pytest.raises(CardgenError) as exc:
        _load(tmp_path, '{kind: rect, name: frame, box: ["6mm", 6, "-20mm", -14]}')
    [p] = exc.value.problems
    assert p.message == "the box [x, y, w, h] = [6.0, 6.0, -20.0, -14.0] has no area (w and h must be more than 0 mm)"


def test_a_length_that_does_not_read_is_refused_at_its_line(tmp_path):
    with pytest.raises(CardgenError) as exc:
        _load(tmp_path, '{kind: rect, name: frame, box: [3, 3, "10 furlongs", 5]}')
    [p] = exc.value.problems
    assert p.line == 2 and p.path.startswith("elements → frame → box")
    assert "'10 furlongs' is not a length" in p.message


def test_digest_tells_apart_boxes_the_mm_dump_rounds_together(tmp_path):
    """Face keys (and the preview's template key) come from the held pt values: two boxes 0.0002 mm
    apart dump to the same mm but are different templates."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = _load(tmp_path / "a", "{kind: rect, box: [5, 5, 10.0001, 5]}")
    b = _load(tmp_path / "b", "{kind: rect, box: [5, 5, 10.0003, 5]}")
    assert a.model_dump_json() == b.model_dump_json()
    assert a.digest() != b.digest()
