"""How numbers are written on cards and in rulebooks: one function, used by both.

``num`` is registered as the jinja2 filter ``num`` in the card-template sandbox
(:func:`cardgen.data.template_expr.sandbox`) and in the rules text (:func:`cardgen.rulebook.context.environment`),
and the rulebook's generated tables use it for every amount, so a point value reads ``1,000``
wherever it appears (never ``1000`` next to ``1,000``).
"""
from __future__ import annotations

import re
from typing import Any

_NUMERIC = re.compile(r"^[+-]?\d+(\.\d+)?$")


def num(value: Any, sign: bool = False) -> str:
    """``value`` with thousands separators: ``1000`` → ``"1,000"``, ``-2500`` → ``"-2,500"``,
    ``1.5`` → ``"1.5"``; ``sign=True`` writes a plus on positives (``"+1,000"``).

    Accepts ints, floats and strings of digits (a CSV cell read as text); anything else
    (``None``, booleans, words) is returned as ``str(value)`` unchanged.
    """
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, str):
        if not _NUMERIC.match(value.strip()):
            return value
        value = float(value) if "." in value else int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, (int, float)):
        return str(value)
    text = f"{value:,}" if isinstance(value, int) else f"{value:,.{_decimals(value)}f}"
    return f"+{text}" if sign and value > 0 else text


def _decimals(value: float) -> int:
    return max(0, min(6, len(repr(value).split(".")[-1]) if "." in repr(value) else 0))


#: jinja2 filters added to every sandbox that renders text for a reader.
FILTERS = {"num": num}
