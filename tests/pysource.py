"""cardgen's own Python files as the static tests read them (tests/test_import_direction.py,
tests/test_lint.py): each file's text and ``ast`` tree read once per test process and shared (the
files do not change during a run, and a file a test writes is read after it is written; each of those tests
parsed every file again, and the import
graph was rebuilt three times)."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "cardgen"


@functools.cache
def package_files() -> tuple[Path, ...]:
    """Every ``*.py`` file under cardgen/, sorted."""
    return tuple(sorted(PKG.rglob("*.py")))


@functools.cache
def source(path: Path) -> str:
    """The text of ``path``."""
    return path.read_text(encoding="utf-8")


@functools.cache
def tree(path: Path) -> ast.Module:
    """``ast.parse`` of ``path``'s text (shared: read it, do not change it)."""
    return ast.parse(source(path), filename=str(path))
