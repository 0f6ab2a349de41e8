"""``max_size``: a text box whose template lets it grow is set at the largest size from
``max_size`` down that fits (a short skill text in large type, a long one at the preferred size
or shrunk to ``min_size``); only going below ``size`` is reported (``text-shrunk``). Read back
from the plan's Text ops, horizontal and vertical."""
from __future__ import annotations

import pytest

import cardgen.layout.card_text as card_text
import cardgen.layout.vertical_text as vertical_text
from cardgen.core.errors import CardgenError, CardRef
from cardgen.core.units import MM
from cardgen.data.template import load_template
from cardgen.layout.card import plan_card
from cardgen.layout.face import Frame
from cardgen.layout.ops import Text, VerticalText

FRAME = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size


def _template(tmp_path, sizes: str, direction: str = "horizontal"):
    (tmp_path / "t.yaml").write_text(
        "elements:\n"
        f"  - {{kind: text, name: skill, box: [5, 5, 40, 20], text: '{{{{ card.text }}}}', {sizes},"
        f" direction: {direction}}}\n", encoding="utf-8")
    return load_template(tmp_path, "t")


def _sizes_and_codes(template, text: str):
    laid = plan_card(template, {"card": {"text": text}}, FRAME, _measure, CardRef("c", "x1"))
    sizes = {op.size for op in laid.plan.ops if isinstance(op, (Text, VerticalText))}
    return sizes, [p.code for p in laid.findings]


@pytest.fixture(autouse=True)
def _empty_caches():
    for mod in (card_text, vertical_text):
        mod._OPS_CACHE.clear()
        mod._FIT_CACHE.clear()
    yield


@pytest.mark.parametrize("direction", ["horizontal", "vertical"])
def test_a_short_text_grows_to_max_size_and_a_long_one_stays_at_size(tmp_path, direction):
    template = _template(tmp_path, "size: 9, min_size: 6, max_size: 14", direction)
    assert _sizes_and_codes(template, "ツモ") == ({14.0}, [])
    # 40 mm × 20 mm at one em a character (the test's measure), leading 1.35: 9 pt sets 4 lines of
    # 12 (48 characters), 9.5 pt 4 lines of 11
    sizes, codes = _sizes_and_codes(template, "あ" * 48)
    assert codes == []
    assert sizes == {9.0} if direction == "horizontal" else min(sizes) >= 9.0


def test_between_size_and_max_size_nothing_is_reported_below_size_it_is(tmp_path):
    template = _template(tmp_path, "size: 9, min_size: 6, max_size: 14")
    sizes, codes = _sizes_and_codes(template, "あ" * 40)  # 4 lines of 10 at 11 pt; 11.5 pt needs 5
    assert sizes == {11.0} and codes == []
    sizes, codes = _sizes_and_codes(template, "あ" * 110)
    assert max(sizes) < 9 and codes == ["text-shrunk"]


def test_without_max_size_the_text_never_grows(tmp_path):
    assert _sizes_and_codes(_template(tmp_path, "size: 9, min_size: 6"), "ツモ") == ({9.0}, [])


def test_the_ops_cache_tells_max_size_apart(tmp_path):
    short = "ツモ"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _sizes_and_codes(_template(tmp_path / "a", "size: 9"), short)[0] == {9.0}
    assert _sizes_and_codes(_template(tmp_path / "b", "size: 9, max_size: 12"), short)[0] == {12.0}


@pytest.mark.parametrize("sizes, message", [
    ("size: 9, max_size: 8", "max_size 8 pt must be from the size (9 pt) up to 500 pt"),
    ("size: 9, max_size: 900", "max_size 900 pt must be from the size (9 pt) up to 500 pt"),
])
def test_a_max_size_below_size_or_too_large_is_one_message_at_its_field(tmp_path, sizes, message):
    with pytest.raises(CardgenError) as err:
        _template(tmp_path, sizes)
    problems = err.value.problems
    assert len(problems) == 1 and message in problems[0].message and "max_size" in problems[0].path
