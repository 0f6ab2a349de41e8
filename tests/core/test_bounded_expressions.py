"""An element's ``if:`` or ``repeat:`` that can neither loop nor build is evaluated without the
per-call guard (issue 19: the guard's alarm and budget page cost more than the expression);
anything that calls, filters, multiplies, raises to a power, formats or concatenates keeps it
(cardgen.core.sandbox.is_bounded)."""
from __future__ import annotations

import pytest

from cardgen.core.sandbox import is_bounded

BOUNDED = [
    "card.draft",
    "not (design.undress_limit is defined and card.stage >= design.undress_limit)",
    "card.kind in ['pon', 'chi']",
    "card.x if card.y else 3",
    "card.a + 1 > design.b - 2",
    "card.points / 2 >= 1000 // 3",
    "-card.value < 0",
    "card['name'][0:2] == 'ab'",
    "card.value is divisibleby 3",
    "card.value is not none or (1, 2) == card.pair",
]

GUARDED = [
    "range(10) | list",            # a filter
    "card.name | length > 3",
    "card.x * 3",                  # builds
    "9 ** 9",
    "'%d' % 3",
    "card.name ~ 'x'",
    "card.items()",                # a call
    "lipsum(5)",
    "card.x is sameas *args",      # dynamic arguments to a test
    "card.x }} {{ 1",              # not one expression
    "foo(",                        # does not parse: its error is reported where it is compiled
    "card.x and " * 1000 + "1",    # 10,000 characters or more
]


@pytest.mark.parametrize("expression", BOUNDED)
def test_reading_and_comparing_is_bounded(expression):
    assert is_bounded(expression)


@pytest.mark.parametrize("expression", GUARDED)
def test_anything_that_can_build_or_loop_keeps_its_guard(expression):
    assert not is_bounded(expression)


@pytest.mark.parametrize("show_if, guarded", [
    ("card.n > 1", False),
    ("not (design.limit is defined and card.n >= design.limit)", False),
    ("card.name | length > 1", True),
    ("range(card.n) | list | length > 1", True),
])
def test_only_an_unbounded_if_runs_under_the_guard(tmp_path, monkeypatch, show_if, guarded):
    """plan_card wraps an element in :func:`cardgen.core.sandbox.evaluation` (alarm, size allowance,
    file:line for the build budget) unless all its expressions are plain reads or bounded; the
    element's result is the same either way."""
    import cardgen.layout.card as card_mod
    from cardgen.core.units import MM
    from cardgen.data.template import load_template
    from cardgen.layout.face import Frame

    (tmp_path / "t.yaml").write_text(
        "elements:\n"
        f"  - {{kind: rect, name: shown, box: [5, 5, 10, 5], fill: '#ff0000', if: \"{show_if}\"}}\n",
        encoding="utf-8")
    template = load_template(tmp_path, "t")
    calls = []
    real = card_mod.evaluation
    monkeypatch.setattr(card_mod, "evaluation", lambda *a, **k: calls.append(a) or real(*a, **k))
    frame = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)
    res = card_mod.plan_card(template, {"card": {"n": 2, "name": "ab"}, "design": {}}, frame,
                             lambda text, font, size: len(text) * size, "c 1")
    assert res.findings == [] and len(res.plan.ops) == 1
    assert bool(calls) is guarded
