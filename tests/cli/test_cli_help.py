"""Every command declares its one-line summary with itself (``@cli.command(short_help=…)``), and
``cardgen --help`` shows each one whole, loading none of the libraries the commands use."""
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


def test_help_loads_no_library_it_does_not_show():
    """``cardgen --help`` loads click and the command modules, not the libraries of the commands
    (pydantic, reportlab, jinja2, PyYAML, fontTools, rich) nor cardgen's checks and steps."""
    import subprocess
    import sys

    code = ("import sys\nsys.argv = ['cardgen', '--help']\nfrom cardgen.cli.entry import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = ('pydantic', 'reportlab', 'jinja2', 'yaml', 'fontTools', 'rich', 'cardgen.api', 'cardgen.steps.registry', 'cardgen.check')\n"
            "print('LOADED', [m for m in heavy if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "Usage:" in out and out.strip().endswith("LOADED []"), out[-300:]


def _commands(group, path=()):
    import click

    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))
        else:
            yield " ".join((*path, name)), cmd


def _section(usage: str, command: str) -> str:
    """The text of docs/usage.md's reference section of ``command`` (its ``### `cardgen COMMAND…``` heading to the next)."""
    import re

    found = re.search(r"^### `cardgen " + re.escape(command) + r"(?: [^`]*)?`\n(.*?)(?=^### |\Z)", usage, re.M | re.S)
    return found.group(1) if found else ""


def test_docs_usage_names_every_command_and_option():
    """docs/usage.md has a section per command, and it names every option of that command."""
    from tests.conftest import ROOT

    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    missing = []
    for command, cmd in _commands(cli):
        section = _section(usage, command)
        if not section:
            missing.append(command)
            continue
        missing += [f"{command} {opt}" for p in cmd.params if p.param_type_name == "option"
                    for opt in p.opts + p.secondary_opts if f"`{opt}`" not in section]
    assert missing == []
    assert "--project" in usage and "--version" in usage
    assert _section(usage, "no-such-command") == "" and "`--dpi`" not in _section(usage, "validate")  # it can fail
