"""Static checks: pyflakes over cardgen/ and tests/, and ruff with the rules of pyproject.toml (docstrings)."""
from __future__ import annotations

import io
import subprocess
import sys
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


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True)


def test_ruff_finds_nothing():
    """ruff with the rules of pyproject.toml ([tool.ruff.lint]: pyflakes, docstrings on every module,
    package, public class, method and function of cardgen/)."""
    res = _ruff("cardgen", "tests")
    assert res.returncode == 0, res.stdout + res.stderr


def test_ruff_check_can_fail(tmp_path):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "mod.py").write_text('"""A module."""\n\n\ndef public(x):\n    return x\n\n\n'
                                     'class Public:\n    def method(self):\n        return 1\n', encoding="utf-8")
    res = _ruff("mod.py", cwd=tmp_path)
    assert res.returncode == 1, res.stdout + res.stderr
    assert all(code in res.stdout for code in ("D101", "D102", "D103")), res.stdout
