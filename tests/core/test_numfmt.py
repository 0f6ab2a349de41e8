"""One number format for cards and rulebooks (cardgen.core.numfmt, the jinja2 filter ``num``)."""
from __future__ import annotations

import pytest

from cardgen.rulebook.context import environment
from cardgen.core.numfmt import num
from cardgen.data.template_expr import compile_text


@pytest.mark.parametrize("value, plain, signed", [
    (1000, "1,000", "+1,000"), (30000, "30,000", "+30,000"), (-2500, "-2,500", "-2,500"), (999, "999", "+999"),
    (0, "0", "0"), (1000.0, "1,000", "+1,000"), (1.5, "1.5", "+1.5"), ("1000", "1,000", "+1,000"),
    ("UNKO", "UNKO", "UNKO"), (None, "None", "None"), (True, "True", "True"),
])
def test_num(value, plain, signed):
    assert num(value) == plain and num(value, sign=True) == signed


def test_card_templates_and_rules_text_share_the_filter():
    card = compile_text("{{ card.points | num }} / {{ card.points | num(sign=true) }}").render(card={"points": 1000})
    rules = environment().from_string("{{ p | num }}点 / {{ p | num(sign=true) }}").render(p=1000)
    assert card == "1,000 / +1,000" and rules == "1,000点 / +1,000"
