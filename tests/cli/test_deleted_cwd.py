"""A command run from a folder that was deleted (``mkdir d; cd d; rmdir ../d``) says so in one
message (exit 1), instead of a traceback from reportlab's start-up (``os.getcwd()`` in
rl_config)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TENJANPAI

CARDGEN = Path(sys.executable).parent / "cardgen"


@pytest.mark.parametrize("args", [["validate", "--no-cache"], ["validate"], ["build", "--out", "OUT"]])
def test_a_deleted_current_folder_is_one_clear_error(args, tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    argv = [str(CARDGEN), args[0], str(TENJANPAI)] + [a.replace("OUT", str(tmp_path / "out")) for a in args[1:]]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run = subprocess.run(["sh", "-c", 'cd "$1" && rmdir "$1" && shift && exec "$@"', "sh", str(gone), *argv],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1, run.stderr
    assert run.stderr == (f"cardgen: error: the current folder no longer exists (No such file or directory: {str(gone)!r})\n"
                          "    hint: cd to a folder that exists (it was deleted or moved) and run the command again\n")
    assert run.stdout == "" and not (tmp_path / "out").exists()
