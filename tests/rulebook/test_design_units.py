"""The rulebook page design is converted to pt at validation, like card templates: its lengths are
written in mm (or with a unit) and held in pt; font sizes are pt as written."""
from __future__ import annotations

import pytest

from cardgen.core.units import MM
from cardgen.rulebook.design import PageDesign, load_design
from tests.conftest import ROOT


def test_the_default_design_is_held_in_pt():
    d, _ = load_design([ROOT / "templates" / "rulebook"], "default")
    assert d.margins == pytest.approx({"top": 17 * MM, "bottom": 15 * MM, "left": 14 * MM, "right": 14 * MM})
    assert (d.body.space_after, d.table.padding, d.quote.indent, d.toc.indent) == pytest.approx(
        (2.2 * MM, 1.5 * MM, 3 * MM, 4 * MM))
    assert d.body.size == 9  # pt as written, not converted


def test_units_written_with_the_length_are_taken():
    d = PageDesign.model_validate({"margins": {"top": "12pt", "bottom": "0.5in", "left": "1cm", "right": 14},
                                   "list_indent": "6pt", "figure_gap": 2})
    assert d.margins == pytest.approx({"top": 12.0, "bottom": 36.0, "left": 10 * MM, "right": 14 * MM})
    assert (d.list_indent, d.figure_gap) == pytest.approx((6.0, 2 * MM))
    assert PageDesign().margins["left"] == pytest.approx(14 * MM) and PageDesign().figure_gap == pytest.approx(3 * MM)
    with pytest.raises(ValueError, match="is not a length"):
        PageDesign.model_validate({"margins": {"top": "wide"}})
