"""``--memory-limit`` and ``--cpu-limit`` given values click refuses: the console entry's early
parse (cardgen/cli/entry.check_args, before click is loaded) leaves them to click, which answers
with its own "Invalid value" (exit 2), never a traceback."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.cli.entry import check_args
from tests.conftest import TENJANPAI

CARDGEN = Path(sys.executable).parent / "cardgen"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(CARDGEN), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("option, value", [("--cpu-limit", "²"), ("--memory-limit", "①")])
def test_digits_that_are_not_ascii_are_left_to_click(option, value, tmp_path, monkeypatch):
    """'²', '①' pass str.isdigit() but not int()."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "G").mkdir()
    assert check_args(["validate", "G", option, value]) is None
    assert check_args(["validate", "G", f"{option}={value}"]) is None
    run = _run("validate", str(TENJANPAI), option, value)
    assert run.returncode == 2, run.stderr
    assert f"Invalid value for '{option}'" in run.stderr and "Traceback" not in run.stderr
