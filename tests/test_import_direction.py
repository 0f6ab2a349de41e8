"""The package tree is the pipeline: a module imports only from its own folder or from folders of
an earlier stage (docs/ARCHITECTURE.md), and no modules import each other in a circle.

Read from the source with ``ast`` (every ``import`` statement, including those inside functions),
so a lazy import cannot hide an upward dependency."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from tests.pysource import PKG, package_files, tree

#: Stages in pipeline order; a folder may import from itself and any folder listed before it.
STAGES = ["core", "presets", "data", "fonts", "layout", "render", "check", "insight", "rulebook", "steps", "diff", "refdocs",
          "api", "preview", "cli", "__main__"]


def module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def cardgen_imports(path: Path) -> set[str]:
    """Every ``cardgen...`` module ``path`` imports (``from cardgen.x import y`` → ``cardgen.x``, or
    ``cardgen.x.y`` when ``y`` is a module)."""
    modules = _modules()
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "cardgen"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] != "cardgen":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return found - {"cardgen"}


@functools.cache
def _modules() -> frozenset[str]:
    """The name of every module of the package."""
    return frozenset(module_name(p) for p in package_files())


def stage(module: str) -> str:
    return module.split(".")[1]


@functools.cache
def _graph() -> dict[str, frozenset[str]]:
    return {module_name(p): frozenset(cardgen_imports(p)) for p in package_files()}


def graph() -> dict[str, set[str]]:
    """module → the cardgen modules it imports (built once per process; a fresh copy each call)."""
    return {mod: set(deps) for mod, deps in _graph().items()}


def test_every_folder_has_a_stage():
    folders = {stage(m) for m in graph() if m != "cardgen"}
    assert folders <= set(STAGES), f"add {sorted(folders - set(STAGES))} to STAGES and docs/ARCHITECTURE.md"


def upward_imports(g: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod, deps in g.items():
        if mod == "cardgen":
            continue
        for dep in deps:
            if STAGES.index(stage(dep)) > STAGES.index(stage(mod)):
                bad.append(f"{mod} imports {dep} (stage {stage(dep)!r} comes after {stage(mod)!r})")
    return bad


def test_no_import_from_a_later_stage():
    assert upward_imports(graph()) == []


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Import circles (each reported once, from its first module in sorted order)."""
    found, done = [], set()

    def visit(mod: str, path: list[str]) -> None:
        for dep in sorted(g.get(mod, ())):
            if dep in path:
                cycle = path[path.index(dep):]
                first = cycle.index(min(cycle))
                cycle = cycle[first:] + cycle[:first]
                if cycle not in found:
                    found.append(cycle)
            elif dep not in done:
                visit(dep, path + [dep])
        done.add(mod)

    for mod in sorted(g):
        visit(mod, [mod])
    return found


def test_no_import_circles():
    assert circles(graph()) == []


@pytest.mark.parametrize("case", ["upward", "circle"])
def test_the_checks_can_fail(case):
    g = {"cardgen.data.a": {"cardgen.render.b"}, "cardgen.render.b": set()}
    if case == "upward":
        assert upward_imports(g) == ["cardgen.data.a imports cardgen.render.b (stage 'render' comes after 'data')"]
    else:
        g = {"cardgen.data.c": {"cardgen.data.a"}, "cardgen.data.a": {"cardgen.data.b"},
             "cardgen.data.b": {"cardgen.data.c"}, "cardgen.data.0": {"cardgen.data.b"}}
        assert circles(g) == [["cardgen.data.a", "cardgen.data.b", "cardgen.data.c"]]


def test_imports_inside_functions_are_read():
    assert "cardgen.data.manifest" in cardgen_imports(PKG / "data" / "game.py")  # at the top
    assert "cardgen.render.images" in cardgen_imports(PKG / "rulebook" / "assemble.py")  # inside a function


def imports_of_click(path: Path) -> bool:
    """Whether ``path`` imports click (``import click``, ``from click… import …``), anywhere in it."""
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "click" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "click":
            return True
    return False


def test_only_the_cli_imports_click(tmp_path):
    """The command line is a thin click layer over cardgen.api: no module outside cardgen/cli/ imports click."""
    outside = [str(p.relative_to(PKG)) for p in package_files()
               if "cli" not in p.relative_to(PKG).parts[:1] and imports_of_click(p)]
    assert outside == []
    assert imports_of_click(PKG / "cli" / "commands.py")  # the check sees an import (it can fail)
    (tmp_path / "lazy.py").write_text("def f():\n    from click.testing import CliRunner\n", encoding="utf-8")
    assert imports_of_click(tmp_path / "lazy.py")


def architecture_names() -> set[str]:
    """The modules docs/ARCHITECTURE.md's tables name, as paths under cardgen/: a row's first cell
    names one or more (`core/errors.py`, or `render/card_pdf.py`, `png_cards.py` — a bare name
    is in the folder named before it in the cell); the tree sketch names the top-level files."""
    text = (PKG.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    names = {line.split()[0] for line in text.splitlines() if line.startswith("  ") and line.split()[0].endswith(".py")}
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        folder = ""
        for name in line.split("|")[1].split("`")[1::2]:
            if "/" in name:
                folder = name.rsplit("/", 1)[0] + "/"
                names.add(name)
            elif name.endswith(".py"):
                names.add(folder + name)
    return names


def test_architecture_names_every_module():
    modules = {str(p.relative_to(PKG)) for p in PKG.rglob("*.py") if p.name != "__init__.py" and "__pycache__" not in p.parts}
    assert sorted(modules - architecture_names()) == [], "give each module a row in docs/ARCHITECTURE.md"
