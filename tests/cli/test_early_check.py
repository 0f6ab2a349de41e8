"""cardgen validate's check started by the console entry before click loads (cardgen.cli.early_check):
the console prints and exits exactly as the in-process command does, a check started for other
options is stopped and not used, and the inputs' state is taken before it starts reading."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import early_check, entry
from cardgen.cli.commands import cli
from cardgen.core.budget import Budget
from cardgen.steps import check_cache
from tests.cli.test_bad_input import _prepare

ROOT = Path(__file__).resolve().parents[2]
CARDGEN = Path(sys.executable).parent / "cardgen"
CASES = ["file-missing-font", "rules-table-word", "choice-duplicate-id", "file-rules-symlink-out",
         "template-literal-missing-glyph", "layout-card-id-ending-in-back"]


@pytest.fixture(autouse=True)
def clean_state():
    from cardgen.fonts import prefetch

    early_check.stop()
    yield
    early_check.stop()
    prefetch.stop()  # a font helper start_check forked


def _console(game, *args, cwd=None) -> tuple[int, str, str]:
    env = {**os.environ}
    env.pop("CARDGEN_DEBUG", None)
    run = subprocess.run([str(CARDGEN), "validate", *args, str(game)], capture_output=True, text=True, env=env, cwd=cwd)
    return run.returncode, run.stdout, run.stderr


def _in_process(game, *args) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["validate", *args, str(game)])
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("game", ["tenjanpai", "yajanki", "majan", "nko_mahjong"])
def test_bundled_games_print_the_same_both_ways(game):
    path = ROOT / "card_data" / game
    for args in ((), ("--format", "json")):
        assert _console(path, *args) == _in_process(path, *args)


@pytest.mark.parametrize("name", CASES)
def test_bad_input_prints_the_same_both_ways(name, tmp_path, monkeypatch):
    game, _spec = _prepare(name, tmp_path)
    monkeypatch.chdir(game)
    monkeypatch.delenv("CARDGEN_DEBUG", raising=False)
    console = _console(".", "--cpu-limit", "60", cwd=game)
    assert console == _in_process(".", "--cpu-limit", "60")
    assert console[0] in (1, 2) and "Traceback" not in console[2]


def test_a_check_started_for_other_options_is_stopped():
    game = ROOT / "card_data" / "tenjanpai"
    early_check.start(str(game), False, Budget())
    limited = early_check._STARTED[0][3]
    assert early_check.take(game, True, Budget()) is None  # --no-cache asked: not this one
    with pytest.raises(ChildProcessError):
        os.waitpid(limited.pid, os.WNOHANG)  # killed and reaped
    early_check.start(str(game), False, Budget())
    assert early_check.take(game, False, Budget(cpu_s=5)) is None  # another budget
    early_check.start(str(game) + "/", False, Budget())
    started = early_check.take(game, False, Budget())
    lines, json_text, code = started.result()
    assert code == 0 and lines[-1] == (False, "tenjanpai: 0 error(s), 1 warning(s)")


def test_the_inputs_state_is_taken_before_the_check_starts(tmp_path, monkeypatch):
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(check_cache, "_MISSED", {})
    game = ROOT / "card_data" / "tenjanpai"
    seen = []
    monkeypatch.setattr(early_check, "start", lambda g, n, b: seen.append(dict(check_cache._MISSED)))
    entry.start_check(["validate", "--cpu-limit", "60", str(game)])  # no fast path for these options: no lookup
    assert seen == [{str(game): check_cache.inputs_state(game)}]
    seen.clear()
    check_cache._MISSED.clear()
    entry.start_check(["validate", "--no-cache", str(game)])  # nothing is stored: no state
    assert seen == [{}]


_PROBE = r"""
import atexit, json, os, sys
out = sys.argv[1]
def seen(code):
    with open(out, "w") as fh:
        json.dump({"code": code, "click": "click" in sys.modules, "pydantic": "pydantic" in sys.modules}, fh)
real_exit = os._exit
os._exit = lambda code: (seen(code), real_exit(code))
sys.argv = ["cardgen", *sys.argv[2:]]
from cardgen.cli.entry import main
try:
    main()
except SystemExit as exc:
    seen(exc.code)
    raise
"""


def test_a_miss_is_printed_without_loading_click_or_the_models(tmp_path):
    """The check child answers; the console stores and prints its answer itself."""
    out = tmp_path / "seen.json"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("CARDGEN_NO_CACHE", None)
    game = ROOT / "card_data" / "tenjanpai"
    run = subprocess.run([sys.executable, "-c", _PROBE, str(out), "validate", str(game)], capture_output=True,
                         text=True, env=env)
    import json
    seen = json.loads(out.read_text())
    assert seen == {"code": 0, "click": False, "pydantic": False}
    assert run.stdout.endswith("tenjanpai: 0 error(s), 1 warning(s)\n")
    again = subprocess.run([str(CARDGEN), "validate", str(game)], capture_output=True, text=True, env=env)
    assert (again.returncode, again.stdout, again.stderr) == (0, run.stdout, run.stderr)  # stored, then replayed


def test_a_raised_answer_goes_to_the_command_line(tmp_path, monkeypatch):
    """A check that raised (a path leaving the game folder) is reported by click's handler, as before."""
    game, _spec = _prepare("file-rules-symlink-out", tmp_path)
    code, out, err = _console(".", cwd=game)
    assert code == 1 and "leads outside the game folder" in err and "Traceback" not in err
