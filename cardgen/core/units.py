"""Length units. Manifests speak mm (numbers) or strings with a unit; inside, everything is pt.

1 in = 25.4 mm = 72 pt (PostScript point, ISO 32000-1 default user space unit).
"""
from __future__ import annotations

import math
import re

MM = 72.0 / 25.4  #: points per millimetre
INCH = 72.0  #: points per inch
EPS = 1e-6  #: tolerance in pt for geometry comparisons

#: Largest length (mm) any manifest or template value may give: far beyond any card or paper.
MAX_LENGTH_MM = 100_000.0
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")
_FACTORS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0, None: MM}


def mm(value: float) -> float:
    """Millimetres → points."""
    return value * MM


def to_mm(pt: float) -> float:
    """Points → millimetres."""
    return pt / MM


def parse_length(value: float | int | str) -> float:
    """A manifest length → points.

    Accepts a number (mm) or a string ``"63"``, ``"63mm"``, ``"2.5in"``, ``"12pt"``, ``"6.3cm"``.

    Raises:
        ValueError: with a message naming the accepted forms.
    """
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length; write a number of mm or a string like '63mm', '2.5in', '12pt'")
    if isinstance(value, (int, float)):
        pt = float(value) * MM if abs(value) <= MAX_LENGTH_MM else math.inf
    else:
        m = _LENGTH.match(str(value)[:100])
        if not m:
            raise ValueError(f"{str(value)[:40]!r} is not a length; write a number of mm or a string like '63mm', "
                             "'2.5in', '12pt'")
        pt = float(m.group(1)) * _FACTORS[m.group(2)]
    if not math.isfinite(pt) or abs(pt) > MAX_LENGTH_MM * MM:
        raise ValueError(f"{str(value)[:40]} is not a usable length (at most {MAX_LENGTH_MM:,.0f} mm)")
    return pt
