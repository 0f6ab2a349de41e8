"""Where fonts are looked for on this machine, and which files count as fonts."""
from __future__ import annotations

import os
import stat
from pathlib import Path


#: File suffixes read as fonts (any case).
FONT_SUFFIXES = {".ttf", ".otf", ".ttc", ".otc"}


def system_font_dirs() -> list[Path]:
    """The system folders searched for fonts, in order."""
    home = Path.home()
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), home / ".fonts",
            home / ".local/share/fonts"]


def is_regular(path: str | os.PathLike) -> bool:
    """Whether ``path`` (links followed) is a regular file; a stat only, never an open (a named
    pipe's open would block)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
