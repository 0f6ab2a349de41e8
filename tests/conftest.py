"""Shared test helpers: the repository root, the main game, and sandboxed copies of it.

A *game copy* is ``tmp/card_data/<game>`` next to copies of ``templates/`` and ``fonts/``, so a
test can edit a manifest or a card table without touching the checkout.
"""
from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

# cardgen's on-disk caches (converted fonts, font names, parsed fonts) go to a folder of this test
# run, never to the user's ~/.cache; subprocesses inherit it. They are off unless a test turns them
# on (a test that patches cardgen in-process must not store a parse under a real font's key).
_CACHE = tempfile.mkdtemp(prefix="cardgen-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
os.environ["CARDGEN_NO_CACHE"] = "1"
atexit.register(shutil.rmtree, _CACHE, True)

# The Ctrl-C tests send SIGINT to cardgen processes. A test run started in the background by a
# non-interactive shell (`make test &`, nohup) inherits SIGINT ignored, and so would every cardgen
# it starts: Python then never raises KeyboardInterrupt, as intended for a backgrounded command.
# The tests' processes get the usual disposition back, wherever the run was started from.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
TENJANPAI = ROOT / "card_data" / "tenjanpai"
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
needs_fonts = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts (fonts-ipaexfont) not installed")


def write_xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    """An .xlsx written with openpyxl: one worksheet per ``sheets`` entry, its rows in order."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def copy_game(dest: Path, game: str = "tenjanpai") -> Path:
    """Copy ``card_data/<game>`` with the project's templates and fonts under ``dest``; returns the game folder."""
    for d in ("templates", "fonts"):
        shutil.copytree(ROOT / d, dest / d, dirs_exist_ok=True)
    target = dest / "card_data" / game
    shutil.copytree(ROOT / "card_data" / game, target)
    return target


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    """Edit a file in a game copy; fails loudly when ``old`` is not there (so the test cannot go stale)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    return copy_game(tmp_path)


def git(cwd: Path, *args: str) -> None:
    """Run git in ``cwd`` with a fixed author and no user configuration (test repositories)."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": "/dev/null"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """The small dict-built game of :mod:`tests.minigame`, written under ``tmp_path``; a test that needs
    changes calls :func:`tests.minigame.write_game` itself."""
    from tests.minigame import write_game
    return write_game(tmp_path)
