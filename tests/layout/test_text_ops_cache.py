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


def _own_text_template(folder, before: int):
    """A template whose text element is its own (no card value) and types an unknown icon name,
    after ``before`` other elements (so the element sits at another line of another file)."""
    folder.mkdir(exist_ok=True)
    (folder / "t.yaml").write_text(
        "elements:\n"
        + "".join(f"  - {{kind: rect, name: r{i}, box: [0, 0, 5, 5], fill: '#eeeeee'}}\n" for i in range(before))
        + "  - {kind: text, name: label, box: [5, 5, 40, 20], text: '毎手番:powr:を得る', size: 9}\n",
        encoding="utf-8")
    return load_template(folder, "t")


def test_a_finding_about_the_templates_own_text_names_that_templates_line(tmp_path):
    """The same element (same text, box and settings) in two templates: its finding (an icon name
    typed in the template) is placed at each template's own file and line, never replayed at the
    first one's. Fails when the memo's key leaves out where the element is."""
    first = _own_text_template(tmp_path / "a", 0)
    second = _own_text_template(tmp_path / "b", 2)
    found = [[(p.code, p.file, p.line) for p in _plan(t, "x1").findings] for t in (first, second)]
    assert found[0] == [("unknown-icon", first.source(0)[0], 2)]
    assert found[1] == [("unknown-icon", second.source(2)[0], 4)]
    assert first.source(0)[0] != second.source(2)[0]


def test_font_sets_with_the_same_fonts_share_the_laid_out_text(tmp_path, monkeypatch):
    """Two font sets naming the same registered fonts (an edition that keeps the default's fonts)
    measure alike, so a text box laid out for one is replayed for the other; a font set with
    another font is laid out afresh (its widths differ)."""
    from pathlib import Path

    from cardgen.fonts.fontset import FontFace, FontSet

    def fonts(name: str) -> FontSet:
        return FontSet({"body": FontFace("body", Path(name), 0, name, Path(name))})

    calls = []
    real = card_text.fit_text
    monkeypatch.setattr(card_text, "fit_text", lambda *a, **k: calls.append(a[6]) or real(*a, **k))
    template = _template(tmp_path)
    ctx = {"card": {"text": "ABC " * 20}}
    plans = [plan_card(template, ctx, FRAME, fs.width, CardRef("c", "a1")).plan.ops
             for fs in (fonts("Helvetica"), fonts("Helvetica"), fonts("Courier"))]
    assert [m.__self__.faces["body"].name for m in calls] == ["Helvetica", "Courier"]  # the 2nd Helvetica: replayed
    assert plans[0] == plans[1]
