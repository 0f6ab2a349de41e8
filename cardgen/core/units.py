"""Length units. Manifests speak mm (numbers) or strings with a unit; inside, everything is pt.

1 in = 25.4 mm = 72 pt (PostScript point, ISO 32000-1 default user space unit).
"""
from __future__ import annotations

import math
import re
import sys

MM = 72.0 / 25.4  #: points per millimetre
INCH = 72.0  #: points per inch
EPS = 1e-6  #: tolerance in pt for geometry comparisons

#: Largest length (mm) any manifest value may give: far beyond any card or paper.
MAX_LENGTH_MM = 100_000.0
#: A limit that only keeps a length finite in pt (about 6e307 mm), for values checked elsewhere.
ANY_SIZE_MM = sys.float_info.max / MM
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")
_FACTORS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0, None: MM}


def mm(value: float) -> float:
    """Millimetres → points."""
    return value * MM


def to_mm(pt: float) -> float:
    """Points → millimetres."""
    return pt / MM


def parse_length(value: float | int | str, limit_mm: float = MAX_LENGTH_MM) -> float:
    """A manifest or template length → points.

    Accepts a number (mm) or a string ``"63"``, ``"63mm"``, ``"2.5in"``, ``"12pt"``, ``"6.3cm"``;
    a number is converted as ``value * MM``. ``limit_mm``: the largest size accepted (mm; card
    templates pass :data:`ANY_SIZE_MM` and check sizes themselves, naming the whole box).

    Raises:
        ValueError: with a message naming the accepted forms, or a length beyond ``limit_mm``.
    """
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length; write a number of mm or a string like '63mm', '2.5in', '12pt'")
    if isinstance(value, (int, float)):
        pt = float(value) * MM if abs(value) <= limit_mm else math.inf
    else:
        m = _LENGTH.match(str(value)[:100])
        if not m:
            raise ValueError(f"{str(value)[:40]!r} is not a length; write a number of mm or a string like '63mm', "
                             "'2.5in', '12pt'")
        pt = float(m.group(1)) * _FACTORS[m.group(2)]
    if not math.isfinite(pt) or abs(pt) > limit_mm * MM:
        raise ValueError(f"{str(value)[:40]} is not a usable length (at most {limit_mm:,.0f} mm)")
    return pt
