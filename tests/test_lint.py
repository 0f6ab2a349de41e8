"""Static checks: pyflakes over cardgen/ and tests/, and ruff with the rules of pyproject.toml (docstrings)."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from pyflakes.api import checkRecursive
from pyflakes.reporter import Reporter

from tests.pysource import source, tree as parsed

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


def local_imports_without_reason(root: Path) -> list[str]:
    """``file:line`` of every import inside a function of ``root``'s modules that says no measured
    reason beside it (``# lazy: +N ms …``); imports under ``try``/``if``/``with`` inside the
    function (an optional library, a platform's) are left out."""
    import ast
    import re

    found = []
    for path in sorted(root.rglob("*.py")):
        text = source(path)
        lines = text.split("\n")
        tree = parsed(path)
        parents = {ch: n for n in ast.walk(tree) for ch in ast.iter_child_nodes(n)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            p, in_fn, guarded = parents.get(node), False, False
            while p is not None and not in_fn:
                if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    in_fn = True
                elif isinstance(p, (ast.Try, ast.If, ast.With)):
                    guarded = True
                p = parents.get(p)
            said = "\n".join(lines[node.lineno - 1:node.end_lineno])
            if in_fn and not guarded and not re.search(r"# lazy: \+\d+ ms", said):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_imports_are_at_the_top_unless_a_measured_reason_is_beside(tmp_path):
    """Imports at the top of modules; one inside a function says what it saves, measured (issue 27)."""
    assert local_imports_without_reason(ROOT / "cardgen") == []
    (tmp_path / "m.py").write_text("def f():\n    import json\n\n\ndef g():\n    import csv  # lazy: +3 ms of imports here (measured)\n")
    assert local_imports_without_reason(tmp_path) == ["m.py:2"]  # it can fail
