"""Where fonts are looked for on this machine, and which files count as fonts (standard library only:
the validate fast path, :mod:`cardgen.steps.check_cache`, keys its cache on these folders)."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

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


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """``path`` opened for reading in binary, never blocking: opened with ``O_NONBLOCK`` (a named
    pipe with no writer opens at once instead of waiting for ever) and the handle itself checked
    (``fstat``: no race with a file swapped after a stat). Links are followed (fonts are often
    linked); the caller confines the path.

    Raises:
        ValueError: not a regular file (a named pipe, a device, a folder).
        OSError: cannot be opened.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file (a folder, pipe or device)")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
