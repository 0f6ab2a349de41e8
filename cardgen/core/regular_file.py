"""Opening a file that must be a regular file without ever blocking (a pipe or a device named in
a game folder, or planted in the cache folder, is never opened)."""
from __future__ import annotations

import os
import stat
from typing import BinaryIO


def open_regular(path: str | os.PathLike, follow_links: bool = True) -> BinaryIO:
    """``path`` opened for reading in binary, never blocking: opened with ``O_NONBLOCK`` (a named
    pipe with no writer opens at once instead of waiting for ever) and the handle itself checked
    (``fstat``: no race with a file swapped after a stat). ``follow_links=False``: a link is not
    opened (``O_NOFOLLOW``); else the caller confines the path.

    Raises:
        ValueError: not a regular file (a named pipe, a device, a folder).
        OSError: cannot be opened (a link with ``follow_links=False`` among the reasons).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file (a folder, pipe or device)")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
