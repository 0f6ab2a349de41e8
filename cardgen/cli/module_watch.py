"""Whether any file of a module this process has loaded changed since: the preloaded daemon's
guard (:mod:`cardgen.cli.fork_server`) against serving old library code after an edit or an
upgrade in place (``pip install -U``, an edited ``site-packages/click/exceptions.py``).

:class:`ModuleWatch` watches the folders of the loaded modules' files with Linux's inotify
(``inotify(7)``, through ``ctypes``; watchfiles, which ``cardgen watch`` uses, runs its watcher in a
background thread, and a process that forks for every command must not hold another thread: the
child gets only the forking thread, and a lock the watcher held at that instant stays locked in
it for ever) and notes any
write, attribute change (``touch``), rename over, creation or removal of one of those files. Asking
(:meth:`ModuleWatch.changed`) is one non-blocking ``read``, so the daemon asks before every
command; a stamp walk of the ~670 files would take 3–8 ms. Where inotify cannot be used (not
Linux, the watch limit reached), it compares each file's size, modification and change times and
inode with those taken at the start instead.
"""
from __future__ import annotations

import os
import struct
import sys

# inotify(7) event bits
_IN_MODIFY, _IN_ATTRIB, _IN_MOVED_FROM, _IN_MOVED_TO = 0x2, 0x4, 0x40, 0x80
_IN_CREATE, _IN_DELETE, _IN_DELETE_SELF, _IN_MOVE_SELF = 0x100, 0x200, 0x400, 0x800
_IN_Q_OVERFLOW, _IN_IGNORED = 0x4000, 0x8000
_MASK = (_IN_MODIFY | _IN_ATTRIB | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE | _IN_DELETE_SELF
         | _IN_MOVE_SELF)
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


def loaded_files() -> list[str]:
    """The files of the modules in ``sys.modules`` (their ``__file__``: source, extension or
    compiled file), sorted, without duplicates."""
    return sorted({f for m in list(sys.modules.values()) if isinstance(f := getattr(m, "__file__", None), str)})


def _stamp(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


class ModuleWatch:
    """Watches ``files`` (by default :func:`loaded_files`) from now on."""

    def __init__(self, files: list[str] | None = None):
        self.files = loaded_files() if files is None else list(files)
        self.stamps = {f: _stamp(f) for f in self.files}
        self.fd = -1
        self.names: dict[int, set[bytes]] = {}  # watch descriptor → the watched names in its folder
        self.seen = False
        try:
            self._watch()
        except (OSError, AttributeError):  # no inotify here: stamps are compared instead
            self.close()

    def _watch(self) -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.fd = fd
        folders: dict[str, set[bytes]] = {}
        for f in self.files:
            folder, name = os.path.split(os.path.abspath(f))
            folders.setdefault(folder, set()).add(os.fsencode(name))
        for folder, names in folders.items():
            wd = libc.inotify_add_watch(fd, os.fsencode(folder), _MASK)
            if wd < 0:
                raise OSError(ctypes.get_errno(), f"inotify_add_watch {folder}")
            self.names.setdefault(wd, set()).update(names)
        if any(_stamp(f) != s for f, s in self.stamps.items()):  # changed before the watches were set
            self.seen = True

    def changed(self) -> bool:
        """Whether any watched file was written, touched, replaced, created or removed since the
        start (once true, stays true)."""
        if self.seen:
            return True
        if self.fd < 0:
            self.seen = any(_stamp(f) != s for f, s in self.stamps.items())
            return self.seen
        while not self.seen:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                self.seen = True
                break
            self.seen = self._relevant(data)
        return self.seen

    def _relevant(self, data: bytes) -> bool:
        at = 0
        while at + _EVENT.size <= len(data):
            wd, mask, _cookie, size = _EVENT.unpack_from(data, at)
            name = data[at + _EVENT.size: at + _EVENT.size + size].rstrip(b"\0")
            at += _EVENT.size + size
            if mask & (_IN_Q_OVERFLOW | _IN_DELETE_SELF | _IN_MOVE_SELF):
                return True
            if mask & _IN_IGNORED:  # the folder went (removed, unmounted)
                return True
            if name in self.names.get(wd, ()):
                return True
        return False

    def close(self) -> None:
        """Stop watching (a forked command's child closes its copy)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
