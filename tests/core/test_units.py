"""Unit conversion (cardgen.core.units): manifest lengths in mm, cm, in or pt → points, from the
definitions 1 in = 25.4 mm = 72 pt (ISO 32000-1 user space unit)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from cardgen.core.units import ANY_SIZE_MM, INCH, MM, mm, parse_length, to_mm


@pytest.mark.parametrize("value, pt", [
    (63, 63 * 72 / 25.4), (2.5, 2.5 * 72 / 25.4), ("63", 63 * 72 / 25.4), ("63mm", 63 * 72 / 25.4),
    (" 6.3 cm ", 63 * 72 / 25.4), ("2.5in", 180.0), ("12pt", 12.0), ("-1mm", -72 / 25.4), ("0", 0.0),
])
def test_parse_length(value, pt):
    assert parse_length(value) == pytest.approx(pt, abs=1e-9)


@pytest.mark.parametrize("value", ["63 px", "mm", "2,5mm", "1e3", "", True, "12 pt pt"])
def test_not_a_length(value):
    with pytest.raises(ValueError, match="is not a length; write a number of mm or a string like '63mm'"):
        parse_length(value)


def test_an_inch_is_25_4_mm_and_72_pt():
    assert INCH == 72 and 25.4 * MM == pytest.approx(INCH, abs=1e-12)


@given(st.floats(min_value=-1e4, max_value=1e4, allow_nan=False))
def test_mm_round_trip(value):
    assert to_mm(mm(value)) == pytest.approx(value, abs=1e-9)
    assert parse_length(f"{value:.6f}mm") == pytest.approx(mm(round(value, 6)), abs=1e-6)


def test_a_limit_refuses_beyond_it_and_any_size_only_keeps_pt_finite():
    with pytest.raises(ValueError, match="at most 100,000 mm"):
        parse_length(200_000)
    assert parse_length(200_000, ANY_SIZE_MM) == 200_000 * MM
    assert parse_length(3.5e19, ANY_SIZE_MM) == 3.5e19 * MM
    with pytest.raises(ValueError, match="not a usable length"):
        parse_length(10 ** 400, ANY_SIZE_MM)  # beyond any float: refused, not an OverflowError
