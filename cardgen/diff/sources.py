"""Where the two drafts of a diff come from: a game folder as it is, or a game folder as it was
at a git revision (read with ``git archive`` into a temporary folder; nothing is checked out and
the working tree is never touched).

A game at a revision is extracted with the project's ``templates/`` and ``fonts/`` of that
revision, at the same relative places, so :class:`cardgen.project.Project` finds the templates
the game used then.
"""
from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.data.project import Project

#: Most bytes a ``git archive`` of one game may produce (the game, its templates and fonts).
MAX_ARCHIVE_BYTES = 200 * 1024 * 1024


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60)
    except FileNotFoundError:
        raise CardgenError(Problem(rel(cwd), None, "--rev", "git is not installed, so a revision cannot be read",
                                   "install git, or compare two folders: cardgen diff OLD_DIR NEW_DIR",
                                   code="no-git"))


def _bad_rev(game_dir: Path, message: str, hint: str) -> CardgenError:
    return CardgenError(Problem(rel(game_dir), None, "--rev", message, hint, code="bad-rev"))


@contextmanager
def game_at_revision(game_dir: Path | str, rev: str) -> Iterator[Path]:
    """The game folder ``game_dir`` as committed at git revision ``rev``, extracted into a
    temporary folder that is removed on exit. Yields the extracted game folder.

    Raises:
        CardgenError: ``game_dir`` is not inside a git repository, ``rev`` names no commit,
            the game folder did not exist at ``rev``, or git is not installed.
    """
    game_dir = Path(game_dir).resolve()
    if rev.startswith("-"):
        raise _bad_rev(game_dir, f"{rev!r} is not a revision", "give a commit, tag or branch, e.g. HEAD~1")
    top = _git(game_dir, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise _bad_rev(game_dir, "the game folder is not inside a git repository, so --rev has nothing to read",
                       "compare two folders instead: cardgen diff OLD_DIR NEW_DIR")
    root = Path(top.stdout.decode().strip()).resolve()
    commit = _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if commit.returncode != 0:
        raise _bad_rev(game_dir, f"the revision {rev!r} does not exist in {root.name}",
                       "name a commit, tag or branch, e.g. HEAD~1 (see `git log --oneline`)")
    sha = commit.stdout.decode().strip()
    project = Project.for_game(game_dir).root.resolve()
    game_rel = game_dir.relative_to(root).as_posix()
    wanted = [game_rel]
    if project != game_dir and project.is_relative_to(root):
        base = project.relative_to(root).as_posix()
        wanted += [d if base == "." else f"{base}/{d}" for d in ("templates", "fonts")]
    present = [p for p in wanted if _exists_at(root, sha, p)]
    if game_rel not in present:
        raise _bad_rev(game_dir, f"{game_rel}/ did not exist at {rev} ({sha[:10]})",
                       "pick a later revision (`git log --oneline -- " + game_rel + "` lists the ones that have it)")
    archive = _git(root, "archive", "--format=tar", sha, "--", *present)
    if archive.returncode != 0:
        raise _bad_rev(game_dir, f"git archive failed: {archive.stderr.decode(errors='replace').strip()}",
                       "check the revision with `git log`")
    if len(archive.stdout) > MAX_ARCHIVE_BYTES:
        raise _bad_rev(game_dir, f"the game at {rev} is {len(archive.stdout) // 2**20} MB, more than "
                       f"{MAX_ARCHIVE_BYTES // 2**20} MB", "compare two folders instead")
    tmp = Path(tempfile.mkdtemp(prefix="cardgen-diff-"))
    try:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp / "rev", filter="data")
        # keep the folder name: it is the game's name in messages
        yield tmp / "rev" / game_rel
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _exists_at(root: Path, sha: str, path: str) -> bool:
    """True when ``path`` (a file or folder) exists in commit ``sha``."""
    res = _git(root, "cat-file", "-e", f"{sha}:{path}")
    return res.returncode == 0


def is_revision(game_dir: Path | str, rev: str) -> bool:
    """True when ``rev`` names a commit of the git repository holding ``game_dir`` (False outside git)."""
    if rev.startswith("-"):
        return False
    top = _git(Path(game_dir).resolve(), "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        return False
    return _git(Path(top.stdout.decode().strip()), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode == 0
