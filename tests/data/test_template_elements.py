"""One model per card-template element kind, one planner per kind: each kind refuses the keys of
the others (with a did-you-mean); every kind has a planner (what each draws: tests/layout/test_planners.py)."""
from __future__ import annotations

import typing

import pytest

from cardgen.core.errors import CardgenError
from cardgen.data.template import load_template
from cardgen.data.template_model import ELEMENT_KINDS, Element
from cardgen.layout.planners import PLANNERS


def _load(tmp_path, *elements: str):
    (tmp_path / "t.yaml").write_text("elements:\n" + "".join(f"  - {e}\n" for e in elements), encoding="utf-8")
    return load_template(tmp_path, "t")


def _problems(tmp_path, *elements: str) -> list:
    with pytest.raises(CardgenError) as exc:
        _load(tmp_path, *elements)
    return exc.value.problems


def test_every_kind_has_one_model_and_one_planner():
    union = typing.get_args(typing.get_args(Element)[0])
    assert [m.model_fields["kind"].annotation for m in union] == [typing.Literal[k] for k in ELEMENT_KINDS]
    assert set(PLANNERS) == set(ELEMENT_KINDS)


def test_a_text_element_refuses_image_and_icons_keys(tmp_path):
    """The issue's example: ``fit:``, ``repeat:`` and ``file:`` on a text element were accepted silently."""
    ps = _problems(tmp_path, '{kind: text, name: body, box: [5, 5, 20, 10], text: x, fit: cover, repeat: "2", file: a.png}')
    assert sorted(p.message for p in ps) == ["unknown key 'file'", "unknown key 'fit'", "unknown key 'repeat'"]
    assert {(p.file.endswith("t.yaml"), p.line, p.code) for p in ps} == {(True, 2, "unknown-key")}
    assert {p.path for p in ps} == {"elements → body → fit", "elements → body → repeat", "elements → body → file"}
    assert ps[0].hint.startswith("allowed keys here: kind, name, box, bleed, if, text, font, size")


@pytest.mark.parametrize("element, typo, meant", [
    ("{kind: rect, box: [5, 5, 5, 5], radus: 1}", "radus", "radius"),
    ("{kind: circle, box: [5, 5, 5, 5], fil: '#000000'}", "fil", "fill"),
    ("{kind: line, box: [5, 5, 5, 0], stroke_widht: 1}", "stroke_widht", "stroke_width"),
    ("{kind: text, box: [5, 5, 5, 5], fnot: body}", "fnot", "font"),
    ("{kind: icon, box: [5, 5, 5, 5], icno: pon}", "icno", "icon"),
    ("{kind: icons, box: [5, 5, 5, 5], repat: '2'}", "repat", "repeat"),
    ("{kind: image, box: [5, 5, 5, 5], flie: a.png}", "flie", "file"),
])
def test_each_kind_suggests_its_own_key(tmp_path, element, typo, meant):
    [p] = _problems(tmp_path, element)
    assert p.message == f"unknown key {typo!r}; did you mean {meant!r}?"
    assert p.line == 2


def test_a_key_of_another_kind_is_refused(tmp_path):
    [p] = _problems(tmp_path, "{kind: circle, name: dot, box: [5, 5, 5, 5], radius: 2}")
    assert (p.path, p.message) == ("elements → dot → radius", "unknown key 'radius'")
    assert "radius" not in p.hint


def test_an_unknown_kind_names_the_kinds(tmp_path):
    [p] = _problems(tmp_path, "{kind: txt, box: [5, 5, 5, 5]}")
    assert (p.line, p.code, p.message) == (2, "unknown-kind", "unknown element kind 'txt'; did you mean 'text'?")
    assert p.hint == "kinds: " + ", ".join(ELEMENT_KINDS)
