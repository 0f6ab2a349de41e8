"""The command line: exit codes 0 / 1 / 2, JSON report, layout errors, forced draft sheets."""
from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from tests.conftest import TENJANPAI, needs_fonts, replace_in
from tests.pdfread import open_pdf


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_validate_json_tenjanpai():
    r = run("validate", TENJANPAI, "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["game"] == "tenjanpai" and data["errors"] == []
    assert isinstance(data["warnings"], list)
    pcs = {pc["players"]: pc for pc in data["player_counts"]}
    keys = {"players", "deck", "removed", "hand", "dead_wall", "draw_pile", "turns", "declared_turns", "ok"}
    assert all(keys <= set(pc) for pc in pcs.values())
    assert (pcs[4]["deck"], pcs[4]["draw_pile"], pcs[4]["turns"], pcs[4]["ok"]) == (42, 24, 6, True)
    assert (pcs[3]["deck"], pcs[3]["removed"], pcs[3]["draw_pile"], pcs[3]["turns"], pcs[3]["ok"]) == (36, 6, 21, 7, True)


def test_validate_text_exit_0():
    r = run("validate", TENJANPAI)
    assert r.exit_code == 0 and "0 error(s)" in r.output


def test_validate_errors_exit_1(game_copy):
    replace_in(game_copy / "game.yaml", "      turns: 7", "      turns: 8")
    r = run("validate", game_copy, "--format", "json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert [e["code"] for e in data["errors"]] == ["turns-mismatch"]
    assert next(pc for pc in data["player_counts"] if pc["players"] == 3)["ok"] is False
    r = run("validate", game_copy)
    assert r.exit_code == 1 and "game.yaml:" in r.output and "error: " in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("args", [
    ["validate"],                                        # missing argument
    ["validate", "card_data/tenjanpai", "--format", "xml"],
    ["sheets", "card_data/tenjanpai", "--paper", "a3"],
    ["sheets", "card_data/tenjanpai", "--marks", "crosses"],
    ["validate", "/no/such/game"],
    ["nonsense"],
])
def test_usage_errors_exit_2(args):
    r = run(*args)
    assert r.exit_code == 2, r.output


def test_build_without_games_exit_2(tmp_path):
    r = run("build", "--card-data", tmp_path, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "no games found" in r.output


@needs_fonts
def test_sheets_exit_0_writes_pdf(tmp_path):
    r = run("sheets", TENJANPAI, "--out", tmp_path, "--paper", "b5", "--no-backs")
    assert r.exit_code == 0, r.output
    pdf = tmp_path / "tenjanpai" / "print-sheets.pdf"
    with open_pdf(pdf) as doc:
        assert len(doc.pages) == 11 + 4 + 1  # 42 and 15 poker cards at 4 a sheet, one token sheet


@needs_fonts
def test_text_too_long_is_an_error_naming_card_and_field(game_copy, tmp_path):
    csv = game_copy / "characters.csv"
    replace_in(csv, ":power:を1個得る。,烈火の型", "とても長い説明文。" * 40 + ",烈火の型")
    r = run("sheets", game_copy, "--out", tmp_path / "out")
    assert r.exit_code == 1, r.output
    assert "c1-1" in r.output and "skill_text" in r.output and "characters.csv:2" in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "out" / "tenjanpai" / "print-sheets.pdf").exists()


@needs_fonts
def test_force_writes_draft_sheets(game_copy, tmp_path):
    replace_in(game_copy / "game.yaml", "      turns: 7", "      turns: 8")
    r = run("sheets", game_copy, "--out", tmp_path)
    assert r.exit_code == 1 and not (tmp_path / "tenjanpai").exists()
    r = run("sheets", game_copy, "--out", tmp_path, "--force")
    assert r.exit_code == 0, r.output
    with open_pdf(tmp_path / "tenjanpai" / "print-sheets.pdf") as doc:
        assert len(doc.pages) == 18  # 6 + 2 sheets with backs, the token sheet and its blank back
        for page in doc.pages:
            assert "DRAFT – validation failed" in page.extract_text()


@needs_fonts
def test_png_sides_back_names_the_components_without_backs(tmp_path):
    """馬将's only printed component has no back: say so (it is not an error)."""
    from tests.pdfread import CARD_DATA

    r = run("png", CARD_DATA / "majan", "--sides", "back", "--out", tmp_path, "--dpi", "40", "-j", "1")
    assert r.exit_code == 0, r.output
    assert "note: --sides back wrote no card PNGs: no component has a back (早見表カード (quickref))" in r.output
    assert not list((tmp_path / "majan").glob("cards/*.png"))
    r = run("png", CARD_DATA / "majan", "--sides", "front", "--out", tmp_path, "--dpi", "40", "-j", "1")
    assert r.exit_code == 0 and "note:" not in r.output  # fronts only: nothing to say
    assert len(list((tmp_path / "majan").glob("cards/*.png"))) == 4


@needs_fonts
def test_forced_build_prints_layout_errors_with_their_place(game_copy, tmp_path):
    csv = game_copy / "characters.csv"
    replace_in(csv, ":power:を1個得る。,烈火の型", "とても長い説明文。" * 40 + ",烈火の型")
    r = run("sheets", game_copy, "--out", tmp_path / "out")
    assert r.exit_code == 1
    assert "1 card layout error(s); nothing was written" in r.output and "--force" in r.output
    r = run("sheets", game_copy, "--out", tmp_path / "out", "--force")
    assert r.exit_code == 0, r.output
    assert "characters.csv:2: error:" in r.output and "skill_text" in r.output
    assert "1 card layout error(s); printed anyway (--force)" in r.output
    assert (tmp_path / "out" / "tenjanpai" / "print-sheets.pdf").is_file()


#: Every place of cardgen/ that ends the process: the group's handler (``_Group.invoke``, its
#: ``_stop_interrupted`` for a Ctrl-C and ``_os_error`` for a failed write, also one met while
#: click reads the options), ``fail``, the click command line's ``main``, ``python -m cardgen``
#: (Ctrl-C while it loads) and the budgeted child's own end (``os._exit``, after its result is sent:
#: a forked child must not run the parent's cleanup).
EXITS = {("cli/commands.py", "invoke"), ("cli/commands.py", "_stop_interrupted"), ("cli/commands.py", "_os_error"),
         ("cli/commands.py", "main"), ("cli/output.py", "fail"), ("__main__.py", "<module>"),
         ("core/budget.py", "_child")}


def exits_in(path, name: str) -> set[tuple[str, str]]:
    """``(name, function)`` of every ``sys.exit``/``exit``/``fail``/``os._exit`` call and ``raise
    SystemExit`` in ``path`` (``<module>`` outside any function)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()

    def walk(node, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            here = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if isinstance(child, ast.Call) and ast.unparse(child.func) in ("sys.exit", "exit", "fail", "os._exit",
                                                                             "_exit", "quit"):
                found.add((name, where))
            elif isinstance(child, ast.Raise) and child.exc is not None and "SystemExit" in ast.unparse(child.exc):
                found.add((name, where))
            walk(child, here)
    walk(tree, "<module>")
    return found


def test_commands_raise_and_only_the_handlers_exit(tmp_path):
    """A thin CLI: commands raise (CardgenError, or click's ``ctx.exit`` for a result code); the
    process ends only in the places of :data:`EXITS` — every ``sys.exit``, ``raise SystemExit`` and
    ``os._exit`` in cardgen/ is one of them."""
    from tests.conftest import ROOT

    pkg = ROOT / "cardgen"
    found = set()
    for path in sorted(pkg.rglob("*.py")):
        found |= exits_in(path, path.relative_to(pkg).as_posix())
    assert found - EXITS == set(), found - EXITS
    assert ("cli/commands.py", "invoke") in found and ("core/budget.py", "_child") in found  # the walk sees them
    (tmp_path / "m.py").write_text("import os\ndef f():\n    raise SystemExit(2)\ndef g():\n    os._exit(1)\n")
    assert exits_in(tmp_path / "m.py", "m.py") == {("m.py", "f"), ("m.py", "g")}  # it can fail


@pytest.mark.parametrize("players, code", [([3, 4], 0), ([3, 4, 5], 1)])
def test_console_entry_point_keeps_the_result_code(tmp_path, players, code):
    """``python -m cardgen`` (the console script's path, not CliRunner): ``ctx.exit(code)`` reaches the
    shell — click returns the code instead of exiting when not in standalone mode."""
    import subprocess
    import sys

    from tests.minigame import write_game
    game = write_game(tmp_path, manifest={"game": {"players": players}})
    res = subprocess.run([sys.executable, "-m", "cardgen", "validate", str(game)], capture_output=True, text=True)
    assert res.returncode == code, res.stdout + res.stderr


def _python(code: str):
    """Run ``code`` in a fresh Python (the console entry's signal handling is process-wide)."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_ctrl_c_during_shutdown_prints_no_traceback():
    """A Ctrl-C that arrives once the command has finished, while Python shuts down, is ignored
    (it once printed "Exception ignored … KeyboardInterrupt" and a traceback; found by the
    interrupt test under load). The SIGINT is sent from an exit handler, i.e. during shutdown."""
    proc = _python("import atexit, os, signal, sys, time\n"
                   "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(0.2)))\n"
                   "sys.argv = ['cardgen', '--version']\n"
                   "from cardgen.cli.commands import main\n"
                   "main()\n")
    assert proc.returncode == 0, proc.stderr
    assert "cardgen" in proc.stdout
    assert "KeyboardInterrupt" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_ctrl_c_turned_into_another_error_by_a_library_still_ends_as_interrupted():
    """pydantic, building a model's schema when the Ctrl-C lands, raises its own SchemaError
    instead of KeyboardInterrupt; the run must still end with exit 130 and the one line, not as
    an internal error (exit 3; found by the interrupt test under load)."""
    proc = _python("import os, signal, sys, time\n"
                   "from cardgen.cli import commands\n"
                   "@commands.cli.command('wrapme')\n"
                   "def wrapme():\n"
                   "    try:\n"
                   "        os.kill(os.getpid(), signal.SIGINT)\n"
                   "        time.sleep(5)\n"
                   "    except KeyboardInterrupt:\n"
                   "        raise RuntimeError('a library turned the interrupt into its own error')\n"
                   "sys.argv = ['cardgen', 'wrapme']\n"
                   "commands.main()\n")
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "cardgen: interrupted; each output folder holds all its new files or all its previous ones, never a mix"


def test_ctrl_c_inside_a_callback_python_cannot_raise_from_still_ends_as_interrupted():
    """A Ctrl-C whose KeyboardInterrupt is raised inside a weakref callback (importlib's module
    locks use one while a module loads) cannot propagate: Python printed "Exception ignored …
    Traceback" and the command went on (found by the interrupt test under load). It must end
    with exit 130 and the one line, no traceback."""
    proc = _python("import sys, time, weakref\n"
                   "from cardgen.cli import commands\n"
                   "class Lock: pass\n"
                   "@commands.cli.command('wrapme')\n"
                   "def wrapme():\n"
                   "    lock = Lock()\n"
                   "    ref = weakref.ref(lock, lambda r: commands._on_sigint(2, None))\n"
                   "    del lock\n"
                   "    time.sleep(5)\n"
                   "    print('went on')\n"
                   "sys.argv = ['cardgen', 'wrapme']\n"
                   "commands.main()\n")
    assert proc.returncode == 130, proc.stderr
    assert "went on" not in proc.stdout
    assert proc.stderr.strip() == "cardgen: interrupted; each output folder holds all its new files or all its previous ones, never a mix"


def test_ctrl_c_during_a_build_leaves_no_staging_folder(tmp_path, monkeypatch):
    """Ctrl-C kills the build's child before it removes its staging folder: the command removes
    it before the interrupt goes on (tester's finding, session 5: OUT/.GAME.tmp-PID-… held a
    partial report.json and print-sheets.pdf until the next build)."""
    import subprocess

    from cardgen.cli import build_run

    dead = subprocess.Popen(["true"])
    dead.wait()  # a pid that has ended
    out = tmp_path / "out"
    staging = out / f".g.tmp-{dead.pid}-abc"
    running = out / f".h.tmp-{os.getpid()}-abc"  # another build writing here: kept
    for folder in (staging, running):
        folder.mkdir(parents=True)
        (folder / "report.json").write_text("{", encoding="utf-8")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_run, "limited", interrupted)
    monkeypatch.setattr(build_run, "is_quiet", lambda: True)
    with pytest.raises(KeyboardInterrupt):
        build_run.limited_build(tmp_path / "g", out, steps=("sheets",))
    assert not staging.exists() and running.exists()
