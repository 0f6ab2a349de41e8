"""Atomic output: everything is written to a temporary folder beside the target and moved into
place only when the whole step succeeded, so a failed or killed build leaves the previous
output untouched (each file is replaced with ``os.replace``, which is atomic on POSIX)."""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path


class AtomicOutput:
    """Context manager: ``with AtomicOutput(out_dir) as out: out.path("x.pdf")``.

    On success each written file replaces its namesake in ``out_dir`` (sub-folders are merged
    file by file); on an exception nothing in ``out_dir`` changes and the temporary folder is
    removed.
    """

    def __init__(self, final_dir: Path):
        self.final_dir = Path(final_dir)
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
                self.final_dir.mkdir(parents=True, exist_ok=True)
                for src in sorted(self.tmp.rglob("*")):
                    if src.is_file():
                        dest = self.final_dir / src.relative_to(self.tmp)
                        dest.parent.mkdir(parents=True, exist_ok=True)
                        os.replace(src, dest)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


def clean_stale_temps(parent: Path) -> list[Path]:
    """Remove temporary folders left by builds that were killed (``.NAME.tmp-PID-*``).

    A folder whose process is still running (another ``cardgen build`` writing into the same
    output root) is left alone. Returns the folders removed."""
    removed = []
    if parent.is_dir():
        for p in sorted(parent.glob(".*.tmp-*")):
            m = _TEMP.match(p.name)
            if m and m.group(1) and _alive(int(m.group(1))):
                continue
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


_TEMP = re.compile(r"^\..+\.tmp-(?:(\d+)-)?")


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
    return True
