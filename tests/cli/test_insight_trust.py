"""``cardgen odds`` and ``cardgen simulate`` treat a game folder as builds do (issue 18): the work
runs in a forked child under the operating-system budget (--memory-limit, --cpu-limit), and user
text reaches the terminal escaped (control characters as U+XXXX, rich markup shown as written)."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli.commands import cli

ROOT = Path(__file__).resolve().parents[2]
TEN = ROOT / "card_data" / "tenjanpai"


def _hog(*_args, **_kwargs):
    return bytearray(2 * 1024 ** 3)  # 2 GB: past a 512 MB budget at once


def _spin(*_args, **_kwargs):
    while True:
        pass


@pytest.mark.parametrize("command", ["odds", "simulate"])
def test_memory_budget_holds_for_insight_commands(command, tmp_path, monkeypatch):
    """The computation itself is replaced by one that asks for 2 GB: only an OS budget in a child
    stops it cleanly (an unlimited in-process run would simply succeed)."""
    import cardgen.insight.api as api

    monkeypatch.setattr(api, f"{command}_game", _hog)
    res = CliRunner().invoke(cli, [command, str(TEN), "--out", str(tmp_path), "--memory-limit", "512"])
    assert res.exit_code == 1, res.output
    assert f"{TEN}: error: the build needed more than 512 MB of memory and was stopped" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("command", ["odds", "simulate"])
def test_cpu_budget_holds_for_insight_commands(command, tmp_path, monkeypatch):
    import cardgen.insight.api as api

    monkeypatch.setattr(api, f"{command}_game", _spin)
    start = time.monotonic()
    res = CliRunner().invoke(cli, [command, str(TEN), "--out", str(tmp_path), "--cpu-limit", "1"])
    assert res.exit_code == 1, res.output
    assert "used more than 1 seconds of CPU time and was stopped" in res.output
    assert "raise the budget with --cpu-limit SECONDS" in res.output
    assert time.monotonic() - start < 60  # 1 s of CPU; wall time on a loaded 2-core machine


def _hostile_copy(tmp_path: Path) -> Path:
    game = tmp_path / "ten"
    shutil.copytree(TEN, game)
    m = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    m["game"]["title"] = "天\x1b[31m[/][bold]"
    m["insight"]["odds"][0]["label"] = "手\x1b]0;x\x07[red]"
    (game / "game.yaml").write_text(yaml.safe_dump(m, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return game


def test_odds_output_escapes_user_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["odds", str(_hostile_copy(tmp_path)), "--out", "out"])
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "天U+001B[31m[/][bold] — 手U+001B]0;xU+0007[red]" in res.output  # as written, not obeyed
    assert "wrote out/tenjanpai/report.json" in res.output


@pytest.mark.usefixtures("compiled_simulator")  # numba compiled once a run, in the background (tests/conftest.py)
def test_simulate_output_escapes_user_text(tmp_path):
    """In its own process: numba's OpenMP threads do not start in a child forked from a test
    process that already ran them (see tests/test_insight_simulate.py)."""
    from attack_game import run_cli

    game = _hostile_copy(tmp_path)
    code, output, _took = run_cli("simulate", str(game), "-n", "200", "--players", "3", "--no-pdf", "--out", "out",
                                  cwd=tmp_path, timeout=300)
    assert code == 0, output
    assert "\x1b" not in output
    assert "天U+001B[31m[/][bold]: 3 players" in output  # the table title: as written, not obeyed
    assert "wrote out/tenjanpai/simulation.json" in output
