"""Where the two drafts of a diff come from: a game folder as it is, or a game folder as it was
at a git revision (its trees and blobs read into a temporary folder; nothing is checked out and
the working tree is never touched).

A game folder is untrusted, and so is a ``.git/`` it ships. The revision is therefore read with
dulwich, which reads git's objects itself: no ``git`` process is started, so nothing the
repository's configuration or ``.gitattributes`` names runs — no smudge/clean filter, textconv
driver, fsmonitor, hook or pager; blobs are taken as stored (no filter, no ``export-subst``).
Reading is bounded (:data:`MAX_TREE_BYTES`, :data:`MAX_TREE_ENTRIES`); a symbolic link in the
tree that leads outside the game is refused like a link on disk (``path-escape``), one inside is
kept as a link (the file boundary then checks it like any other).

Nor may the repository read objects from outside the folder that holds it (for a game that is
its own repository: the game folder) — unless it is the designer's own project repository (it
holds the project root, :mod:`cardgen.core.boundary`): a ``.git`` file (``gitdir:``) or a
``.git`` link to a repository elsewhere, a ``commondir`` naming another, ``objects/info/alternates``
naming an object store elsewhere (at any depth), or a link inside the repository leading out are
refused by name before any object is read (:func:`_confine`). ``objects/info/http-alternates`` is
read by no code here (dulwich reads it only as a dumb-HTTP client).

A game at a revision is extracted with the project's ``templates/`` and ``fonts/`` of that
revision, at the same relative places, so :class:`cardgen.project.Project` finds the templates
the game used then.
"""
from __future__ import annotations

import os
import posixpath
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from dulwich.errors import NotGitRepository
from dulwich.objects import Blob, Commit, Tag, Tree
from dulwich.objectspec import parse_object
from dulwich.repo import Repo

from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.data.project import Project

#: Most bytes the blobs of one game at a revision may hold (the game, its templates and fonts).
MAX_TREE_BYTES = 200 * 1024 * 1024
#: Most files and folders one game at a revision may hold.
MAX_TREE_ENTRIES = 20_000
#: Longest revision text read (a commit, tag or branch with ``~``/``^`` steps).
MAX_REV_CHARS = 256


def _bad_rev(game_dir: Path, message: str, hint: str, code: str = "bad-rev", file: str | None = None) -> CardgenError:
    return CardgenError(Problem(file or rel(game_dir), None, "--rev", message, hint, code=code))


def _open_repo(game_dir: Path) -> tuple[Repo, Path] | None:
    """The repository holding ``game_dir`` (its own ``.git`` or one above) and the folder holding
    it, or None outside git. Opening reads ``.git/config`` as data only: dulwich runs nothing it
    names. The folder is where the ``.git`` was found (never ``core.worktree``, which the
    repository's own config could point anywhere).

    Raises:
        CardgenError: the repository would read objects from outside that folder (:func:`_confine`).
    """
    for top in (game_dir, *game_dir.parents):
        if not (os.path.lexists(top / ".git") or ((top / "objects").is_dir() and (top / "refs").is_dir())):
            continue
        try:
            repo = Repo(str(top))
        except (NotGitRepository, OSError, ValueError):
            return None
        except Exception:  # an unsupported repository format or extension: not readable, as if no repository
            return None
        try:
            _confine(repo, top, game_dir)
        except BaseException:
            repo.close()
            raise
        return repo, top
    return None


#: Deepest chain of alternates followed (git's own limit).
MAX_ALTERNATE_DEPTH = 5


def _confine(repo: Repo, top: Path, game_dir: Path) -> None:
    """Refuse a repository of an untrusted folder whose objects could come from outside ``top``
    (the folder holding it): its control folder or common folder elsewhere (a ``gitdir:`` file,
    a ``.git`` link, ``commondir``), its object store or an alternate object store
    (``objects/info/alternates``, followed to :data:`MAX_ALTERNATE_DEPTH`) outside, or a link in
    the repository leading out. The designer's own project repository (one that holds the project
    root above the game) is trusted as the project is, linked worktrees and all.

    Raises:
        CardgenError: ``path-escape``, naming the file that points out (relative to the working folder).
    """
    project = Project.for_game(game_dir).root.resolve()
    if project != game_dir and project.is_relative_to(top):
        return
    where = "the game folder" if top == game_dir else f"{rel(top)}/ (the folder holding the repository)"
    hint = ("give the game a repository of its own inside its folder, or compare two folders: "
            "cardgen diff OLD_DIR NEW_DIR (docs/security.md)")

    def out(p: str | Path) -> bool:
        try:
            return not Path(p).resolve().is_relative_to(top)
        except (OSError, RuntimeError):  # a link loop
            return True

    def refuse(file: Path, message: str, fix: str = hint) -> CardgenError:
        return _bad_rev(game_dir, message, fix, code="path-escape", file=rel(file))

    dotgit = top / ".git"
    if out(repo.controldir()):
        raise refuse(dotgit, f"the repository's .git {'file' if dotgit.is_file() else 'link'} points at a "
                             f"repository outside {where}")
    if out(repo.commondir()):
        raise refuse(Path(repo.controldir()) / "commondir",
                     f"the repository's commondir points at a repository outside {where}")
    stores, seen = [(Path(repo.object_store.path), 0)], set()
    while stores:
        store, depth = stores.pop()
        if out(store):
            raise refuse(store, f"the repository's object store lies outside {where}")
        if store.resolve() in seen or depth > MAX_ALTERNATE_DEPTH:
            continue
        seen.add(store.resolve())
        listing = store / "info" / "alternates"
        try:
            lines = listing.read_bytes().splitlines() if listing.is_file() else []
        except OSError:
            lines = []
        for raw in lines:
            entry = os.fsdecode(raw.strip())
            if not entry or entry.startswith("#"):
                continue
            alt = Path(entry) if os.path.isabs(entry) else store / entry
            if out(alt):
                raise refuse(listing, f"the repository's alternates borrow objects from {entry!r}, outside {where}",
                             "a game's history is read only from inside its folder: in your own repository, "
                             "`git repack -a -d` copies the borrowed objects in; then delete this file "
                             "(docs/security.md)")
            stores.append((alt, depth + 1))
    for folder in dict.fromkeys(Path(d).resolve() for d in (repo.controldir(), repo.commondir())):
        for base, dirs, files in os.walk(folder):
            for name in dirs + files:
                link = Path(base) / name
                if link.is_symlink() and out(link):
                    raise refuse(link, f"a link inside the repository leads outside {where}",
                                 "replace the link by the file or folder it points to (docs/security.md)")


def _commit(repo: Repo, rev: str) -> Commit | None:
    """The commit ``rev`` names (tags followed), or None. A ``rev:path`` or an index path
    (``:file``) is no commit."""
    if not rev or rev.startswith("-") or ":" in rev or len(rev) > MAX_REV_CHARS or "\0" in rev:
        return None
    try:
        obj = parse_object(repo, rev.encode("utf-8", "surrogateescape"))
        for _ in range(64):
            if not isinstance(obj, Tag):
                break
            obj = repo.object_store[obj.object[1]]
    except (KeyError, ValueError, IndexError, AssertionError, NotImplementedError, OSError):
        return None
    except Exception:  # a corrupt object or ref: no commit to read
        return None
    return obj if isinstance(obj, Commit) else None


def _lookup(repo: Repo, tree: Tree, path: str):
    """(mode, sha) of ``path`` in ``tree``, or None when it is not there."""
    if path in ("", "."):
        return stat.S_IFDIR, tree.id
    try:
        return tree.lookup_path(repo.object_store.__getitem__, path.encode("utf-8", "surrogateescape"))
    except (KeyError, NotGitRepository):
        return None
    except Exception:  # a submodule on the way, or an object of the wrong type
        return None


class _Extract:
    """Writes trees of one commit below ``dest``, counting bytes and entries."""

    def __init__(self, repo: Repo, dest: Path, game_dir: Path, game_rel: str, rev: str):
        self.repo, self.dest, self.game_dir, self.game_rel, self.rev = repo, dest, game_dir, game_rel, rev
        self.bytes = 0
        self.entries = 0

    def _refuse(self, path: str, message: str, hint: str, code: str) -> CardgenError:
        return _bad_rev(self.game_dir, message, hint, code=code, file=path)

    def _count(self, size: int = 0) -> None:
        self.entries += 1
        self.bytes += size
        if self.entries > MAX_TREE_ENTRIES or self.bytes > MAX_TREE_BYTES:
            raise _bad_rev(self.game_dir, f"the game at {self.rev} holds more than {MAX_TREE_ENTRIES} files or "
                           f"{MAX_TREE_BYTES // 2**20} MB, the most a revision is read with",
                           "compare two folders instead: cardgen diff OLD_DIR NEW_DIR", code="rev-too-large")

    def tree(self, sha: bytes, path: str) -> None:
        obj = self.repo.object_store[sha]
        if not isinstance(obj, Tree):
            raise self._refuse(path, f"{path} at {self.rev} is not a folder in git's data", "check the revision with "
                               "`git fsck`", code="bad-rev")
        (self.dest / path).mkdir(parents=True, exist_ok=True)
        for entry in obj.iteritems():
            name = entry.path.decode("utf-8", "surrogateescape")
            child = f"{path}/{name}"
            if name in ("", ".", "..", ".git") or "/" in name or "\0" in name:
                raise self._refuse(child, f"{child!r} at {self.rev} has a name no file may have",
                                   "check the revision with `git fsck`", code="bad-rev")
            self._count()
            mode = entry.mode
            if stat.S_ISDIR(mode):
                self.tree(entry.sha, child)
            elif stat.S_ISLNK(mode):
                self.link(entry.sha, child)
            elif stat.S_ISREG(mode):
                self.blob(entry.sha, child)
            # a submodule (gitlink) has no files in this repository: left out, as git archive does

    def _blob_data(self, sha: bytes, path: str) -> bytes:
        obj = self.repo.object_store[sha]
        if not isinstance(obj, Blob):
            raise self._refuse(path, f"{path} at {self.rev} is not a file in git's data",
                               "check the revision with `git fsck`", code="bad-rev")
        data = obj.as_raw_string()
        self._count(len(data))
        return data

    def blob(self, sha: bytes, path: str) -> None:
        (self.dest / path).write_bytes(self._blob_data(sha, path))

    def link(self, sha: bytes, path: str) -> None:
        target = self._blob_data(sha, path).decode("utf-8", "surrogateescape")
        where = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        game = self.game_rel
        if (target.startswith("/") or "\0" in target or where == ".." or where.startswith("../")
                or not (game in (".", "") or where == game or where.startswith(game + "/"))):
            shown = posixpath.relpath(path, game)
            raise self._refuse(rel(self.game_dir / shown),
                               f"the file {shown!r} at {self.rev} is a link leading outside the game folder",
                               "commit the file itself instead of a link (links that leave the game folder are "
                               "refused; docs/security.md)", code="path-escape")
        os.symlink(target, self.dest / path)


@contextmanager
def game_at_revision(game_dir: Path | str, rev: str) -> Iterator[Path]:
    """The game folder ``game_dir`` as committed at git revision ``rev``, extracted into a
    temporary folder that is removed on exit. Yields the extracted game folder.

    Raises:
        CardgenError: ``game_dir`` is not inside a git repository, ``rev`` names no commit,
            the game folder did not exist at ``rev``, the tree is too large, or it holds a link
            leading outside the game folder.
    """
    game_dir = Path(game_dir).resolve()
    if rev.startswith("-"):
        raise _bad_rev(game_dir, f"{rev!r} is not a revision", "give a commit, tag or branch, e.g. HEAD~1")
    found_repo = _open_repo(game_dir)
    if found_repo is None:
        raise _bad_rev(game_dir, "the game folder is not inside a git repository, so --rev has nothing to read",
                       "compare two folders instead: cardgen diff OLD_DIR NEW_DIR")
    repo, root = found_repo
    with repo:
        commit = _commit(repo, rev)
        if commit is None:
            raise _bad_rev(game_dir, f"the revision {rev!r} does not exist in {root.name}",
                           "name a commit, tag or branch, e.g. HEAD~1 (see `git log --oneline`)")
        sha = commit.id.decode()
        tree = repo.object_store[commit.tree]
        project = Project.for_game(game_dir).root.resolve()
        game_rel = game_dir.relative_to(root).as_posix()
        wanted = [game_rel]
        if project != game_dir and project.is_relative_to(root):
            base = project.relative_to(root).as_posix()
            wanted += [d if base == "." else f"{base}/{d}" for d in ("templates", "fonts")]
        found = {p: _lookup(repo, tree, p) for p in wanted}
        if found[game_rel] is None or not stat.S_ISDIR(found[game_rel][0]):
            raise _bad_rev(game_dir, f"{game_rel}/ did not exist at {rev} ({sha[:10]})",
                           "pick a later revision (`git log --oneline -- " + game_rel + "` lists the ones that have it)")
        tmp = Path(tempfile.mkdtemp(prefix="cardgen-diff-"))
        # keep the folder name: it is the game's name in messages (a game that is its own repository too)
        dest = tmp / "rev" / (game_dir.name if game_rel == "." else "")
        try:
            out = _Extract(repo, dest, game_dir, game_rel, rev)
            for p, hit in found.items():
                if hit is not None and stat.S_ISDIR(hit[0]):
                    out.tree(hit[1], p)
            yield dest / game_rel
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def is_revision(game_dir: Path | str, rev: str) -> bool:
    """True when ``rev`` names a commit of the git repository holding ``game_dir`` (False outside git).

    Raises:
        CardgenError: the repository would read objects from outside its folder (:func:`_confine`)."""
    if rev.startswith("-"):
        return False
    found = _open_repo(Path(game_dir).resolve())
    if found is None:
        return False
    with found[0] as repo:
        return _commit(repo, rev) is not None
