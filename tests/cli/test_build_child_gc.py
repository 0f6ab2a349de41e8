"""A build from the command line loads its modules once, in the process that forks the budgeted
child, with the cyclic garbage collector off (cli/build_run.load_build_libraries); the child
freezes them out of the collector's passes before it builds (build_with_bars), and the command
line freezes what it loaded before the interpreter's last collection at exit (commands.main).
The collector is on for the build, also when loading fails."""
from __future__ import annotations

import subprocess
import sys

from tests.minigame import write_game

PROBE = """
import gc, sys
from pathlib import Path
from cardgen.cli import build_run
build_run.load_build_libraries()
loaded = ('cardgen.api' in sys.modules, gc.isenabled(), gc.get_freeze_count())
import cardgen.api as api
real = api.build_game
seen = {}
def probe(*a, **k):
    seen['during'] = (gc.isenabled(), gc.get_freeze_count())
    return real(*a, **k)
api.build_game = probe
build_run.build_with_bars(Path(sys.argv[1]), Path(sys.argv[2]), True, steps=('sheets',))
print('RESULT', *loaded, *seen['during'], (Path(sys.argv[2]) / 'mini' / 'print-sheets.pdf').is_file())
"""


def test_modules_load_with_the_collector_off_and_the_build_runs_frozen(tmp_path):
    game = write_game(tmp_path / "g")
    out = subprocess.run([sys.executable, "-c", PROBE, str(game), str(tmp_path / "out")],
                         capture_output=True, text=True, check=True).stdout
    word, loaded, enabled, frozen_at_load, enabled_during, frozen_during, written = out.strip().splitlines()[-1].split()
    assert (word, loaded, enabled, frozen_at_load) == ("RESULT", "True", "True", "0"), out[-500:]
    assert (enabled_during, written) == ("True", "True")
    assert int(frozen_during) > 10_000  # pydantic's, jinja2's, reportlab's and cardgen's objects


def test_command_line_freezes_before_exit(tmp_path):
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: sys.stderr.write(f'FROZEN {gc.get_freeze_count()}'))\n"
            "sys.argv = ['cardgen', '--version']\nfrom cardgen.cli.commands import main\nmain()\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert res.returncode == 0 and "cardgen" in res.stdout
    assert int(res.stderr.rsplit("FROZEN ", 1)[1]) > 1_000


def test_sheets_loads_each_module_once(tmp_path):
    """Before, the budgeted child imported the step registry and the game check to build, and the parent
    again to read the result (``-X importtime`` prints a line per import, from both processes)."""
    game = write_game(tmp_path / "g")
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardgen", "sheets", "-q", str(game),
                          "--out", str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    assert (tmp_path / "out" / "mini" / "print-sheets.pdf").is_file()
    imports = [line.rsplit("|", 1)[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")]
    for module in ("cardgen.steps.registry", "cardgen.steps.game_check", "cardgen.data.manifest",
                   "reportlab.pdfgen.canvas"):
        assert imports.count(module) == 1, module
    # The preflight report the result holds: loaded before the fork too, not by the child and again here
    # (importtime prints no line for a module loaded by importlib.import_module itself, so: not twice).
    assert imports.count("cardgen.check.preflight") <= 1


def test_collector_is_on_again_when_loading_fails(monkeypatch):
    import gc

    from cardgen.cli import build_run

    def failing(name):
        assert not gc.isenabled()  # loading runs with the collector off
        raise ImportError("probe")

    monkeypatch.delitem(sys.modules, "cardgen.api", raising=False)
    monkeypatch.setattr(build_run, "import_module", failing)
    try:
        build_run.load_build_libraries()
    except ImportError:
        pass
    assert gc.isenabled()


def test_validate_checks_with_the_collector_off_and_puts_it_back(monkeypatch, tmp_path):
    """``cardgen validate``'s child (cli/review_commands.check_output) runs the check with no
    collection at all (it leaves almost no cyclic garbage and ends right after); in process the
    collector is on again after, also when the check raises."""
    import gc

    import cardgen.api as api
    from cardgen.cli.review_commands import check_output

    seen = []
    real = api.validate_game

    def probe(game_dir):
        seen.append(gc.isenabled())
        return real(game_dir)

    monkeypatch.setattr(api, "validate_game", probe)
    lines, json_text, code = check_output(str(write_game(tmp_path / "g")), False)
    assert (seen, gc.isenabled(), code) == ([False], True, 0), lines
    assert '"errors": []' in json_text

    def failing(game_dir):
        seen.append(gc.isenabled())
        raise RuntimeError("probe")

    monkeypatch.setattr(api, "validate_game", failing)
    try:
        check_output(str(tmp_path / "g"), False)
    except RuntimeError:
        pass
    assert (seen, gc.isenabled()) == ([False, False], True)
