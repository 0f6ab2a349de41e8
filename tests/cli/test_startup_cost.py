"""What every command pays before cardgen's own code runs (issue 19's fixed cost of ``sheets``):
no import finder of the editable install at interpreter start-up, no search for pydantic plugins."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.minigame import write_game

# Runs the console entry point with importlib.metadata.entry_points counting its calls; prints the
# groups it was asked for (pydantic asks for "pydantic" on its first model when plugins are on).
PROBE = """
import importlib.metadata as md, sys
asked = []
real = md.entry_points
def counting(**kw):
    asked.append(kw.get("group"))
    return real(**kw)
md.entry_points = counting
sys.argv = ["cardgen", "sheets", "-q", sys.argv[1], "--out", sys.argv[2]]
from cardgen.cli.entry import main
try:
    main()
finally:
    print("ASKED", ",".join(g or "" for g in asked), file=sys.stderr, flush=True)
"""


def _asked(tmp_path, env_extra: dict) -> list[str]:
    import os

    game = write_game(tmp_path / "g")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"} | env_extra
    res = subprocess.run([sys.executable, "-c", PROBE, str(game), str(tmp_path / "out")], capture_output=True,
                         text=True, env=env, timeout=120)
    assert (tmp_path / "out" / "mini" / "print-sheets.pdf").is_file(), res.stderr[-2000:]
    line = [x for x in res.stderr.splitlines() if x.startswith("ASKED")][-1]
    return [g for g in line.removeprefix("ASKED").strip().split(",") if g]


def test_sheets_does_not_look_for_pydantic_plugins(tmp_path):
    assert "pydantic" not in _asked(tmp_path, {})


def test_a_user_who_wants_pydantic_plugins_still_gets_them(tmp_path):
    assert "pydantic" in _asked(tmp_path, {"PYDANTIC_DISABLE_PLUGINS": ""})


def test_no_import_finder_of_the_editable_install_at_start_up():
    """``make install``'s editable install is a plain path (.pth), not setuptools' finder module,
    which every Python of the venv imported at start-up (≈ 11 ms)."""
    res = subprocess.run([sys.executable, "-c", "import sys, cardgen; print(sorted(sys.modules))"],
                         capture_output=True, text=True, check=True, cwd="/")
    assert not [m for m in res.stdout.split("'") if m.startswith("__editable__")], res.stdout


def _modules_after(code: str, *args: str) -> set[str]:
    """The modules loaded in a fresh interpreter that ran ``code`` (it prints them as its last line)."""
    res = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return set(res.stdout.splitlines()[-1].split())


def test_help_loads_click_and_the_command_modules_only():
    """``cardgen --help`` prints what click knows of the commands: none of the libraries or
    cardgen modules that only running a command needs (issue 27's --help ratio)."""
    loaded = _modules_after("import sys\nsys.argv = ['cardgen', '--help']\nfrom cardgen.cli.entry import main\n"
                            "try:\n    main()\nexcept SystemExit:\n    pass\nprint(' '.join(sys.modules))")
    assert "click" in loaded
    heavy = {"cardgen.core.errors", "cardgen.core.boundary", "cardgen.api", "pydantic", "yaml", "jinja2", "reportlab",
             "numpy", "rich", "dataclasses"}
    assert not heavy & loaded, sorted(heavy & loaded)


def test_validate_checks_the_simulator_model_without_numpy():
    """天雀牌's ``insight.model`` is checked by validate in plain Python (insight/model_check.py):
    numpy (≈ 0.1 s of imports) is for ``simulate`` alone."""
    loaded = _modules_after("import sys\nfrom cardgen.api import validate_game\n"
                            "r = validate_game(sys.argv[1])\nassert r.ok and r.game == 'tenjanpai', r\nprint(' '.join(sys.modules))",
                            str(Path(__file__).resolve().parents[2] / "card_data" / "tenjanpai"))
    assert "cardgen.insight.model_check" in loaded  # the model was checked
    assert "numpy" not in loaded and "cardgen.insight.model_compile" not in loaded
