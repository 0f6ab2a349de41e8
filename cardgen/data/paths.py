"""A file named in a game's data, refused when it leaves the game folder (:func:`safe_path`)."""
from __future__ import annotations

from pathlib import Path

from cardgen.core.boundary import on_disk
from cardgen.core.errors import CardgenError, Problem


def safe_path(root: Path, name: str, file: str, line: int | None, path: str) -> Path:
    """``root / name``, refusing anything that leaves ``root`` (``../``, absolute, symlinks out);
    a name found on disk only in another Unicode form (NFC/NFD) is returned as spelt on disk.

    Raises:
        CardgenError: naming ``file:line`` and ``path``.
    """
    candidate = Path(name)
    if candidate.is_absolute() or ".." in candidate.parts:
        raise CardgenError(Problem(file, line, path, f"the path {name!r} leaves the game folder",
                                   "name a file inside the game folder, relative to it", code="path-escape"))
    full = on_disk(root / candidate)
    try:
        resolved = full.resolve()
        resolved.relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        raise CardgenError(Problem(file, line, path, f"the path {name!r} leads outside the game folder (a link?)",
                                   "copy the file into the game folder instead of linking to it",
                                   code="path-escape"))
    if resolved.exists() and not resolved.is_file():
        raise CardgenError(Problem(file, line, path, f"the path {name!r} is not a regular file",
                                   "name a file (not a folder, pipe or device)", code="not-a-file"))
    return full
