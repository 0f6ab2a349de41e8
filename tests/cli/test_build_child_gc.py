"""The budgeted build child loads its libraries with the cyclic garbage collector off, then
freezes what they made out of the collector's passes (cli/build_run.build_with_bars) — and the
collector is on again for the build itself, also when loading fails."""
from __future__ import annotations

import subprocess
import sys

from tests.minigame import write_game

PROBE = """
import gc, sys
from pathlib import Path
from cardgen.cli import build_run
seen = {}
import cardgen.api as api
real = api.build_game
def probe(*a, **k):
    seen['during'] = (gc.isenabled(), gc.get_freeze_count())
    return real(*a, **k)
api.build_game = probe
build_run.build_with_bars(Path(sys.argv[1]), Path(sys.argv[2]), True, steps=('sheets',))
print('RESULT', *seen['during'], gc.isenabled(), (Path(sys.argv[2]) / 'mini' / 'print-sheets.pdf').is_file())
"""


def test_build_runs_with_the_collector_on_and_the_libraries_frozen(tmp_path):
    game = write_game(tmp_path / "g")
    out = subprocess.run([sys.executable, "-c", PROBE, str(game), str(tmp_path / "out")],
                         capture_output=True, text=True, check=True).stdout
    word, enabled_during, frozen, enabled_after, written = out.strip().splitlines()[-1].split()
    assert (word, enabled_during, enabled_after, written) == ("RESULT", "True", "True", "True"), out[-500:]
    assert int(frozen) > 10_000  # the container objects of pydantic, jinja2, reportlab and cardgen's modules


def test_collector_is_on_again_when_loading_fails(monkeypatch):
    import builtins
    import gc

    from cardgen.cli import build_run

    real_import = builtins.__import__

    def failing(name, *a, **k):
        if name == "cardgen.api":
            raise ImportError("probe")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", failing)
    try:
        build_run.build_with_bars(".", ".", True)
    except ImportError:
        pass
    finally:
        monkeypatch.undo()
    assert gc.isenabled()
    gc.unfreeze()
