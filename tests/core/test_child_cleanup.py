"""A child of run_limited ends with os._exit (no atexit handlers): what it registers with
core.budget.at_exit is still cleaned up when it ends — the rulebook's icon placeholder folder
stayed behind in /tmp after every validate or build that set icons in the rules text."""
from __future__ import annotations

from pathlib import Path

from cardgen.core import budget
from cardgen.core.budget import at_exit, run_limited


def _make_and_register(folder: str) -> str:
    path = Path(folder) / "made-in-child"
    path.mkdir()
    at_exit(path.rmdir)
    return str(path)


def test_what_a_child_registers_is_cleaned_up_when_it_ends(tmp_path):
    made = run_limited(_make_and_register, str(tmp_path))
    assert made == str(tmp_path / "made-in-child")
    assert not Path(made).exists()


def test_the_parents_handlers_are_not_run_by_the_child(tmp_path, monkeypatch):
    marker = tmp_path / "parent-only"
    monkeypatch.setattr(budget, "_CHILD_CLEANUPS", [])
    at_exit(lambda: marker.write_text("ran", encoding="utf-8"))  # registered here (atexit only)
    assert budget._CHILD_CLEANUPS == []
    assert run_limited(lambda: 1) == 1
    assert not marker.exists()


def _icon_folder() -> str:
    from cardgen.rulebook.markup import icon_file
    return str(Path(icon_file("pon")).parent)


def test_the_rulebook_icon_placeholders_made_in_a_child_are_removed(monkeypatch):
    import cardgen.rulebook.markup as markup
    monkeypatch.setattr(markup, "_ICON_DIR", None)  # as in a validate run: made in the child
    folder = run_limited(_icon_folder)
    assert Path(folder).name.startswith("cardgen-icons-")
    assert not Path(folder).exists()
