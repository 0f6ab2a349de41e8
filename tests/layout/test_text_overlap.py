"""``text-overlap``: text printed on top of another element's text is a warning naming both
elements and where they meet; boxes that overlap while their text stays apart are not (a
generous box is no mistake). The tester's case: a corner index mirrored into the opposite corner
lands on the card text's first line when that line is long."""
from __future__ import annotations

import pytest

import cardgen.layout.card_text as card_text
from cardgen.core.errors import CardRef
from cardgen.core.units import MM
from cardgen.data.template import load_template
from cardgen.layout.card import plan_card
from cardgen.layout.face import Frame

FRAME = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size


def _findings(tmp_path, text: str, elements: str):
    (tmp_path / "t.yaml").write_text("elements:\n" + elements, encoding="utf-8")
    template = load_template(tmp_path, "t")
    laid = plan_card(template, {"card": {"text": text, "index": "風"}}, FRAME, _measure, CardRef("c", "wind"))
    return [p for p in laid.findings if p.code == "text-overlap"]


#: the corner index [6, 14, 16, 12] mirrored lands at [41, 62, 16, 12]; the text box runs under it
TESTER = ("  - {kind: text, name: corner, box: [6, 14, 16, 12], text: '{{ card.index }}', size: 22, mirror: true}\n"
          "  - {kind: text, name: text, box: [7, 68, 49, 12], text: '{{ card.text }}', size: 8, align: center}\n")


@pytest.fixture(autouse=True)
def _empty_caches():
    card_text._OPS_CACHE.clear()
    card_text._FIT_CACHE.clear()
    yield


def test_a_mirrored_index_on_a_long_line_is_reported_with_both_names_and_the_place(tmp_path):
    [found] = _findings(tmp_path, "あ" * 17, TESTER)  # 17 × 8 pt = 48 mm: the line reaches under the index
    assert found.severity == "warning" and found.card.card_id == "wind"
    assert "the text of 'corner' is printed over the text of 'text'" in found.message
    x, y = (float(v) for v in found.message.split("(at ")[1].split(" mm")[0].split(", "))
    assert 41 <= x <= 57 and 62 <= y <= 74  # inside the mirrored index's box, from the trim's top-left
    assert found.line == 2  # the corner element's line in the template


def test_a_short_line_beside_the_index_is_not_reported(tmp_path):
    # 8 × 8 pt centred in the box: 20.2–42.8 mm across; the mirrored 風 (22 pt, right-aligned) prints at 49.2–57 mm
    assert _findings(tmp_path, "あ" * 8, TESTER) == []


def test_overlapping_boxes_whose_text_stays_apart_are_not_reported(tmp_path):
    elements = ("  - {kind: text, name: title, box: [5, 5, 53, 30], text: 'タイトル', size: 10}\n"
                "  - {kind: text, name: body, box: [5, 20, 53, 30], text: '{{ card.text }}', size: 10, valign: bottom}\n")
    assert _findings(tmp_path, "本文", elements) == []
