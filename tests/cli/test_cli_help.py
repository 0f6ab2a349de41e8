"""Every command declares its one-line summary with itself (``@cli.command(short_help=…)``), and
``cardgen --help`` shows each one whole."""
from __future__ import annotations

from click.testing import CliRunner

from cardgen.cli.commands import cli


def test_every_command_declares_its_summary():
    assert [name for name, cmd in cli.commands.items() if not cmd.short_help] == []


def test_help_lists_every_summary_whole():
    res = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    assert res.exit_code == 0
    listing = " ".join(res.output.split())
    for name, cmd in cli.commands.items():
        assert f"{name} {cmd.short_help}" in listing, name
