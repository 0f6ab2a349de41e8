"""``--memory-limit`` and ``--cpu-limit`` given values click refuses: click answers with its own
"Invalid value" (exit 2), never a traceback."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TENJANPAI

CARDGEN = Path(sys.executable).parent / "cardgen"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(CARDGEN), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("option, value", [("--cpu-limit", "²"), ("--memory-limit", "①")])
def test_digits_that_are_not_ascii_are_left_to_click(option, value):
    """'²', '①' pass str.isdigit() but not int()."""
    run = _run("validate", str(TENJANPAI), option, value)
    assert run.returncode == 2, run.stderr
    assert f"Invalid value for '{option}'" in run.stderr and "Traceback" not in run.stderr


def _budgeted_commands():
    """(command path, click command) of every command with the budget options."""
    import click

    from cardgen.cli.commands import cli

    def walk(group, path):
        for name, cmd in group.commands.items():
            if isinstance(cmd, click.Group):
                yield from walk(cmd, [*path, name])
            elif any(p.name == "memory_limit" for p in cmd.params):
                yield [*path, name], cmd
    return list(walk(cli, []))


def test_every_budget_option_has_an_upper_bound():
    """A budget past what setrlimit takes stopped the build process itself ('ended unexpectedly
    (exit status 70) ... a bug in cardgen'): every command's options are bounded, 1 TiB and a week."""
    from cardgen.core.budget_limits import MAX_CPU_S, MAX_MEMORY_MB

    commands = _budgeted_commands()
    assert {"build", "validate", "sheets"} <= {" ".join(p) for p, _c in commands}
    for path, cmd in commands:
        ranges = {p.name: p.type for p in cmd.params if p.name in ("memory_limit", "cpu_limit")}
        assert (ranges["memory_limit"].max, ranges["cpu_limit"].max) == (MAX_MEMORY_MB, MAX_CPU_S), path


@pytest.mark.parametrize("command", ["validate", "build"])
@pytest.mark.parametrize("option, value, shown", [
    ("--memory-limit", "99999999999999999999", "256<=x<=1048576"),
    ("--cpu-limit", "9223372036854775807", "1<=x<=604800"),
])
def test_huge_budgets_get_clicks_message(command, option, value, shown, tmp_path):
    run = _run(command, str(TENJANPAI), option, value, *(["--out", str(tmp_path / "out")] if command == "build" else []))
    assert run.returncode == 2, run.stderr
    assert f"Invalid value for '{option}': {value} is not in the range {shown}." in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "out").exists()


def test_the_largest_budgets_are_taken():
    run = _run("validate", str(TENJANPAI), "--memory-limit", "1048576", "--cpu-limit", "604800", "--no-cache")
    assert run.returncode == 0 and "tenjanpai: 0 error(s)" in run.stdout, run.stderr
