"""All-or-nothing output per game: everything is written to a staging folder beside the target,
completed with the previous files the build did not rewrite, and swapped in as a whole by one
directory rename, so a failed, interrupted or killed build leaves the previous output folder
complete and a finished one leaves the new one complete — never a mix.

The swap is Linux's ``renameat2(RENAME_EXCHANGE)`` (both folders trade places atomically; the old
one is then removed). Where that call is missing, the old folder is first renamed aside
(``.NAME.old-PID-…``) and the staging folder renamed into place; a build killed between those
two renames leaves the old folder aside, and :func:`clean_stale_temps` puts it back.
"""
from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Callable


class AtomicOutput:
    """Context manager: ``with AtomicOutput(out_dir) as out: out.path("x.pdf")``.

    On success the staging folder gets hard links (or copies) of every file of ``out_dir`` it
    does not hold itself (a ``cardgen png`` keeps the print sheets of an earlier build; a file
    in the way of a new folder, or a folder in the way of a new file, gives way to the new one),
    ``finish(staged folder)`` runs (the output manifest removes stale files there,
    :func:`cardgen.core.written.record_and_prune`), then the staging folder replaces ``out_dir``
    in one rename. On an exception ``out_dir`` is not touched and the
    staging folder is removed.
    """

    def __init__(self, final_dir: Path, finish: Callable[[Path], object] | None = None):
        self.final_dir = Path(final_dir)
        self.finish = finish  #: called with the staged folder, complete, just before the swap
        self.tmp: Path | None = None

    def __enter__(self) -> "AtomicOutput":
        self.final_dir.parent.mkdir(parents=True, exist_ok=True)
        # the pid in the name lets clean_stale_temps tell a killed build from a running one
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.final_dir.name}.tmp-{os.getpid()}-",
                                         dir=self.final_dir.parent))
        return self

    def path(self, name: str) -> Path:
        """Where to write ``name`` (relative to the output folder) during the build."""
        assert self.tmp is not None
        p = self.tmp / name
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self.tmp is not None
        try:
            if exc_type is None:
                if self.final_dir.is_dir() and not self.final_dir.is_symlink():
                    _carry_over(self.final_dir, self.tmp)
                if self.finish is not None:  # e.g. the output manifest prunes stale files, in the staging folder
                    self.finish(self.tmp)
                os.chmod(self.tmp, 0o777 & ~_umask())  # mkdtemp makes it 0700; an output folder is not private
                swap_in(self.tmp, self.final_dir)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)  # the old folder after a swap, or the failed build


def as_output(path: Path | str) -> None:
    """Give a file made with ``tempfile.mkstemp`` (0600) the mode of every other output file:
    0666 under the umask (0644 with the usual 022); call before it is renamed into place."""
    os.chmod(path, 0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _carry_over(old: Path, new: Path) -> None:
    """Link (or copy) into ``new`` every entry of ``old`` that ``new`` does not have."""
    for entry in os.scandir(old):
        src, dest = Path(entry.path), new / entry.name
        if entry.is_dir(follow_symlinks=False):
            if not dest.exists():
                dest.mkdir()
            if dest.is_dir() and not dest.is_symlink():
                _carry_over(src, dest)
        elif not os.path.lexists(dest):
            if entry.is_symlink():
                os.symlink(os.readlink(src), dest)
                continue
            try:
                os.link(src, dest)
            except OSError:
                shutil.copy2(src, dest)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2); False where the call is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_in(staged: Path, final: Path) -> None:
    """Make ``staged`` the folder at ``final`` in one step; the previous ``final`` (if any) ends at
    ``staged``'s path for the caller to remove."""
    if not os.path.lexists(final):
        os.rename(staged, final)
        return
    if _exchange(staged, final):
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-{os.getpid()}-", dir=final.parent))
    os.rmdir(aside)
    os.rename(final, aside)
    os.rename(staged, final)
    os.rename(aside, staged)


def clean_stale_temps(parent: Path) -> list[Path]:
    """Remove temporary folders left by builds that were killed (``.NAME.tmp-PID-*``).

    A folder whose process is still running (another ``cardgen build`` writing into the same
    output root) is left alone. Returns the folders removed."""
    removed = []
    if parent.is_dir():
        for p in sorted(parent.glob(".*.old-*")):  # killed between the two renames of swap_in
            m = _OLD.match(p.name)
            if m and not _alive(int(m.group(2))) and not os.path.lexists(parent / m.group(1)):
                os.rename(p, parent / m.group(1))
        for p in sorted(parent.glob(".*.tmp-*")):
            m = _TEMP.match(p.name)
            if m and m.group(1) and _alive(int(m.group(1))):
                continue
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


_TEMP = re.compile(r"^\..+\.tmp-(?:(\d+)-)?")
_OLD = re.compile(r"^\.(.+)\.old-(\d+)-")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    except OSError:
        return False
    try:  # a zombie (killed, not yet reaped by its parent) is not running
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat[stat.rindex(")") + 2:][:1] != "Z"
    except (OSError, ValueError):
        return True
