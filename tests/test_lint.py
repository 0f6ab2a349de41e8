"""Static check: no unused imports or names, no undefined names, in cardgen/ and tests/ (pyflakes)."""
from __future__ import annotations

import io
from pathlib import Path

from pyflakes.api import checkRecursive
from pyflakes.reporter import Reporter

ROOT = Path(__file__).resolve().parent.parent


def test_pyflakes_finds_nothing():
    out, err = io.StringIO(), io.StringIO()
    count = checkRecursive([str(ROOT / "cardgen"), str(ROOT / "tests")], Reporter(out, err))
    assert count == 0 and not err.getvalue(), out.getvalue() + err.getvalue()


def test_pyflakes_check_can_fail(tmp_path):
    (tmp_path / "bad.py").write_text("import os\n")
    out = io.StringIO()
    assert checkRecursive([str(tmp_path)], Reporter(out, io.StringIO())) == 1
    assert "'os' imported but unused" in out.getvalue()
