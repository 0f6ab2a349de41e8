"""Folders and files of a game that cannot be read (no permission), found before the game is
loaded: each is one finding naming it relative to the working folder, saying how to fix it, and
the rest of the check goes on without it (:func:`unreadable_parts`, :func:`covered`)."""
from __future__ import annotations

import os
from pathlib import Path

from cardgen.core.errors import Problem, rel

#: Most entries looked at in one game folder (a game holds tens to a few thousand files).
MAX_ENTRIES = 100_000
#: Folders of a game folder never read as part of the game.
SKIPPED = frozenset({".git", "__pycache__", "output"})


def unreadable_parts(game_dir: Path | str) -> list[Problem]:
    """One ``unreadable`` error for each folder inside ``game_dir`` that cannot be listed or
    entered and each file that cannot be read, by the permissions the operating system applies
    to this process (the game folder itself included; links are not followed). Never raises."""
    root = Path(game_dir)
    found: list[Problem] = []

    def blocked(path: Path, folder: bool) -> None:
        shown = rel(path)
        found.append(Problem(
            shown, None, "", "the folder cannot be read (permission denied): nothing in it can be used" if folder
            else "the file cannot be read (permission denied)",
            f"give yourself read access: chmod {'-R u+rX' if folder else 'u+r'} {shown}"
            " (or ask whoever sent the game to fix its permissions)", code="unreadable"))

    seen = 0
    stack = [root]
    while stack and seen < MAX_ENTRIES:
        folder = stack.pop()
        if not os.access(folder, os.R_OK | os.X_OK):
            blocked(folder, True)
            continue
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except PermissionError:
            blocked(folder, True)
            continue
        except OSError:  # gone meanwhile, not a folder: the loader says so where it matters
            continue
        for entry in entries:
            seen += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED:
                        stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False) and not os.access(entry.path, os.R_OK):
                    blocked(Path(entry.path), False)
            except OSError:
                continue
        stack.sort(reverse=True)  # folders in name order, each before the next
    return found


def permission_problem(exc: PermissionError) -> Problem:
    """The finding for a file or folder the check met and may not read (:func:`unreadable_parts`
    finds those of the game folder first; this one names any other, e.g. a shared template)."""
    shown = rel(os.fsdecode(exc.filename)) if exc.filename else ""
    return Problem(shown, None, "", "it cannot be read (permission denied)",
                   f"give yourself read access: chmod u+r {shown or 'FILE'} (and u+rx on the folders above it)",
                   code="unreadable")


def covered(problem: Problem, blocked: list[Problem]) -> bool:
    """Whether ``problem`` is about a file inside (or being) one of the ``blocked`` parts, other
    than their own findings: what follows from such a part is said by the part's finding."""
    if not problem.file or any(problem is b for b in blocked):
        return False
    file = rel(problem.file)
    return any(file == b.file or file.startswith(b.file.rstrip("/") + "/") for b in blocked)
