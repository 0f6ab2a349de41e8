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


def _make_then_wait(report: str) -> None:
    import time

    from cardgen.core.budget import private_temp_dir
    Path(report).write_text(private_temp_dir("cardgen-test-"), encoding="utf-8")
    time.sleep(60)


def _make_then_die(report: str) -> None:
    import os
    import signal

    from cardgen.core.budget import private_temp_dir
    Path(report).write_text(private_temp_dir("cardgen-test-"), encoding="utf-8")
    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel ends a child past its hard limit


def _wait_for(report: Path) -> str:
    import time
    for _ in range(500):
        if report.exists() and report.read_text(encoding="utf-8"):
            return report.read_text(encoding="utf-8")
        time.sleep(0.01)
    raise AssertionError("the child made no folder")


def test_a_killed_childs_private_folders_are_removed_by_the_parent(tmp_path, monkeypatch):
    # Ctrl-C during a build: the parent SIGKILLs the child's group, whose own clean-ups never run;
    # the rulebook's cardgen-icons-* folder stayed in /tmp (tester, about half of the tries)
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    report = tmp_path / "made"
    child = budget.start_limited(_make_then_wait, str(report))
    folder = _wait_for(report)
    assert Path(folder).is_dir() and Path(folder).parent == tmp_path
    child.stop()
    assert not Path(folder).exists()


def test_a_child_killed_by_the_kernel_leaves_no_private_folder(tmp_path, monkeypatch):
    import tempfile

    import pytest

    from cardgen.core.errors import CardgenError
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    report = tmp_path / "made"
    with pytest.raises(CardgenError):
        run_limited(_make_then_die, str(report))
    folder = report.read_text(encoding="utf-8")
    assert Path(folder).name.startswith("cardgen-test-pg")
    assert not Path(folder).exists()


def test_folders_of_other_process_groups_are_left_alone(tmp_path, monkeypatch):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    other = tmp_path / "cardgen-icons-pg123456-abc"
    other.mkdir()
    budget._remove_group_temps(12345)
    budget._remove_group_temps(23456)
    assert other.is_dir()
    budget._remove_group_temps(123456)
    assert not other.exists()


def test_a_new_private_folder_first_removes_those_of_groups_that_are_gone(tmp_path, monkeypatch):
    # `kill -9` of a whole build (the out-of-memory killer, tests/core/test_output_safety) leaves the
    # group's folder with nobody to remove it: the next run that makes one removes it
    import os
    import subprocess
    import sys
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True, start_new_session=True)
    dead_group = int(gone.stdout)  # led its own group, now ended
    orphan = tmp_path / f"cardgen-icons-pg{dead_group}-abc123"
    orphan.mkdir()
    (orphan / "pon.png").write_bytes(b"x")
    alive = tmp_path / f"cardgen-icons-pg{os.getpgid(0)}-def456"  # this test's own group: running
    alive.mkdir()
    other = tmp_path / "cardgen-icons-k3j2h1"  # not one of ours by name: left alone
    other.mkdir()
    made = budget.private_temp_dir("cardgen-icons-")
    assert Path(made).is_dir()
    assert not orphan.exists()
    assert alive.is_dir() and other.is_dir()


_ORPHAN = """
import os, sys, time
from cardgen.core import budget
budget.before_fork()
if os.fork() == 0:
    time.sleep(0.3)  # the parent has ended by now: its death happened before the request below
    budget._die_with_parent()
    open(sys.argv[1], "w").write("ran on as an orphan")
    os._exit(0)
os._exit(0)
"""


def test_a_child_whose_parent_died_before_it_asked_to_die_with_it_ends(tmp_path):
    # CI: a build SIGKILLed between forking its child and the child's prctl left the child running,
    # holding the command's output pipes (tests/core/test_interrupt: "did not stop within 60 s")
    import subprocess
    import sys
    import time

    marker = tmp_path / "survived"
    subprocess.run([sys.executable, "-c", _ORPHAN, str(marker)], check=True, timeout=30)
    time.sleep(1.0)
    assert not marker.exists()
