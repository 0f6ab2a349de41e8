"""``cardgen validate``'s result kept on disk, keyed by everything the check can read.

A validate run that finds an entry for exactly the same inputs prints the stored result instead
of checking again (:mod:`cardgen.cli.entry` does that before the rest of cardgen is imported).
The key (:func:`inputs_key`) is a SHA-256 over:

- every file below the game folder — its relative name and its bytes (files over :data:`BIG`
  bytes: size, modification and change times, inode); a symbolic link by the text it holds and
  where it leads, never followed (cardgen reads through a link only to a place inside the game
  folder or the shared folders, which are keyed themselves); anything else (a pipe, a device) by
  its kind, never opened;
- the same for the shared folders the game may read (``templates/`` and ``fonts/`` of its project
  root and of the cardgen checkout, :func:`cardgen.core.boundary.shared_dirs`), links followed
  (these folders are trusted: a font linked from elsewhere is read through its link), and the
  project root;
- the font files a shared ``fonts.yaml`` names by path (anywhere on disk), by stamp;
- every font file of the system font folders (:func:`cardgen.fonts.folders.system_font_dirs`) by
  name, size, modification time and inode, links followed;
- cardgen's own code (every file of the ``cardgen`` package by stamp — size, modification and
  change times, inode: any write to a file changes its change time, so an edited file always
  gives another key, and the ~190 files are not read on every run), the installed
  distributions (their ``.dist-info`` names, which carry the versions) and the Python version;
- the working folder, the game folder as typed (as a path, as the command receives it: ``x/``
  and ``./x`` are ``x``) and as resolved (messages name files relative to them), ``HOME`` and
  every ``CARDGEN_*`` environment variable but ``CARDGEN_NO_CACHE`` and ``CARDGEN_NO_DAEMON``
  (``cardgen daemon`` or not, a check prints the same).

So an edited, added, removed or renamed file anywhere cardgen could read from gives another key.
A game folder with more than :data:`MAX_FILES` entries or :data:`MAX_BYTES` bytes to read is not
cached (None). Only the standard library and :mod:`cardgen.core` are imported here. Entries
live in cardgen's cache folder (:mod:`cardgen.core.disk_cache`, kind :data:`KIND`) as JSON.
``CARDGEN_NO_CACHE=1`` (or ``cardgen validate --no-cache``) neither reads nor writes them.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
from pathlib import PurePath

from cardgen.core import disk_cache

#: Cache sub-folder of validate results (the digit is the entry version).
KIND = "validate-1"
#: Files larger than this (bytes) are keyed by size, times and inode instead of their bytes.
BIG = 4 << 20
#: A tree with more entries than this is not cached (the walk stops there).
MAX_FILES = 20_000
#: A tree with more bytes to read than this is not cached.
MAX_BYTES = 256 << 20
_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the cardgen package folder


class _TooBig(Exception):
    """The inputs are too large to key; the run is simply not cached."""


class _Walk:
    """Counts what one key has read so far, against :data:`MAX_FILES` and :data:`MAX_BYTES`."""

    def __init__(self, h) -> None:
        self.h, self.files, self.bytes = h, 0, 0
        #: every file's size, modification and change times and inode: see :func:`inputs_state`
        self.stamps = hashlib.sha256()

    def put(self, *parts) -> None:
        self.h.update(repr(parts).encode("utf-8", "surrogateescape") + b"\n")

    def count(self, size: int = 0) -> None:
        self.files += 1
        self.bytes += size
        if self.files > MAX_FILES or self.bytes > MAX_BYTES:
            raise _TooBig

    def content(self, path: str, st: os.stat_result) -> None:
        """A regular file: its bytes (its stamp when over :data:`BIG`)."""
        self.stamps.update(repr((path, *disk_cache.stamp(st))).encode(
            "utf-8", "surrogateescape"))
        if st.st_size > BIG:
            self.count()
            self.put("big", *disk_cache.stamp(st))
            return
        self.count(st.st_size)
        try:  # non-blocking, and checked again once open: a file swapped for a pipe meanwhile is not waited on
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as exc:
            self.put("unreadable", exc.errno)
            return
        try:
            now = os.fstat(fd)
            if not stat.S_ISREG(now.st_mode) or now.st_size > BIG:
                self.put("changed", stat.S_IFMT(now.st_mode), now.st_size, now.st_mtime_ns, now.st_ino)
                return
            with os.fdopen(fd, "rb", closefd=False) as fh:
                self.put("file", hashlib.sha256(fh.read(BIG + 1)).hexdigest())
        except OSError as exc:
            self.put("unreadable", exc.errno)
        finally:
            os.close(fd)

    def tree(self, root: str, follow: bool = False, fonts_only: bool = False) -> None:
        """Every entry below ``root`` in name order: files by content (by stamp with ``fonts_only``,
        which also skips non-font files); links by their text and target, followed only with
        ``follow`` (system folders); anything else by its kind."""
        self.put("tree", root)
        seen: set[tuple[int, int]] = set()
        stack = [""]
        while stack:
            rel = stack.pop()
            folder = os.path.join(root, rel) if rel else root
            try:
                st = os.stat(folder)
                names = sorted(os.listdir(folder))
            except OSError as exc:
                self.put("no-dir", rel, exc.errno)
                continue
            if (st.st_dev, st.st_ino) in seen:  # a link loop
                continue
            seen.add((st.st_dev, st.st_ino))
            subdirs = []
            for name in names:
                path, rname = os.path.join(folder, name), os.path.join(rel, name)
                self._entry(path, rname, subdirs, follow, fonts_only)
            stack.extend(reversed(subdirs))

    def _entry(self, path: str, rname: str, subdirs: list, follow: bool, fonts_only: bool) -> None:
        try:
            st = os.lstat(path)
        except OSError as exc:
            self.put("gone", rname, exc.errno)
            return
        if stat.S_ISLNK(st.st_mode):
            try:
                target = os.readlink(path)
            except OSError:
                target = None
            self.put("link", rname, target, os.path.realpath(path))
            if not follow:
                return
            try:
                st = os.stat(path)
            except OSError:
                return
        if stat.S_ISDIR(st.st_mode):
            self.count()
            self.put("dir", rname)
            subdirs.append(rname)
        elif stat.S_ISREG(st.st_mode):
            if fonts_only:
                if os.path.splitext(rname)[1].lower() in (".ttf", ".otf", ".ttc", ".otc"):
                    self.count()
                    self.put("font", rname, *disk_cache.stamp(st))
                return
            self.put("name", rname)
            self.content(path, st)
        else:
            self.count()
            self.put("other", rname, stat.S_IFMT(st.st_mode))


#: What :func:`_code` puts, recorded by :func:`fix_code` in a process whose code cannot change
#: while it serves (``cardgen daemon``), else None (hashed on every call).
_FIXED_CODE: list[tuple] | None = None


class _Recorder:
    def __init__(self):
        self.parts: list[tuple] = []

    def put(self, *parts) -> None:
        self.parts.append(parts)


def fix_code() -> None:
    """Hash cardgen's code now (:func:`_code`) and reuse that for the rest of this process and its
    forks. Only for ``cardgen daemon`` (:mod:`cardgen.cli.fork_server`): a command reaches it only
    while every file of the package has the stamp (size, modification and change times, inode)
    and every ``sys.path`` folder the modification time it had when the daemon started (its key,
    :func:`cardgen.cli.daemon_client.key`), and it ends when they change; a validate miss then
    walks the ~190 files none of the 3 times it otherwise does (≈ 1.3 ms each)."""
    global _FIXED_CODE
    recorder = _Recorder()
    _code(recorder)
    _FIXED_CODE = recorder.parts


def _code(w: _Walk) -> None:
    """cardgen's own files, the installed distributions and the Python version."""
    if _FIXED_CODE is not None:
        for parts in _FIXED_CODE:
            w.put(*parts)
        return
    w.put("python", sys.version, sys.executable)
    for entry in sys.path:  # the folders packages are installed in (not the script's or working folder)
        try:
            names = sorted(n for n in os.listdir(entry or ".") if n.endswith((".dist-info", ".egg-info", ".pth")))
        except OSError:
            continue
        if names:
            w.put("site", os.path.realpath(entry or "."), names)
    walk = _Walk(hashlib.sha256())  # the code is not the game's: no limits of its own count
    stack, cut = [_PKG], len(_PKG) + 1
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            name = entry.name
            if name == "__pycache__" or name.endswith((".pyc", ".tmp")):
                continue
            if entry.is_dir():
                stack.append(entry.path)
            elif entry.is_file():  # the name relative to the package folder, and the file's stamp
                walk.put(entry.path[cut:], *disk_cache.stamp(entry.stat()))
    w.put("code", walk.h.hexdigest())


def code_digest() -> str:
    """SHA-256 (hex) of what :func:`inputs_key` keys cardgen's code by: every file of the
    ``cardgen`` package by stamp (:func:`cardgen.core.disk_cache.stamp`), the installed
    distributions and the Python version (for other caches whose entries hold what this code
    computed, :mod:`cardgen.steps.rulebook_check_cache`)."""
    w = _Walk(hashlib.sha256())
    _code(w)
    return w.h.hexdigest()


#: Cache sub-folder of the text values of a ``fonts.yaml`` (keyed by the file's bytes).
VALUES_KIND = "fonts-yaml-values-1"
_FONT_PATH = re.compile(r"[^\"'{},:\n#]+\.(?:ttf|otf|ttc|otc)(?![\w.])", re.IGNORECASE)


def _yaml_values(data: bytes) -> list[str]:
    """Every text value (keys and values, at any depth) of a ``fonts.yaml``, parsed by PyYAML's
    safe loader once per content and then kept on disk (:data:`VALUES_KIND`), so the fast path
    does not import PyYAML; for a file that does not parse, the tokens ending in a font suffix."""
    digest = hashlib.sha256(data).digest()
    kept = disk_cache.read(VALUES_KIND, digest)
    if kept is not None:
        try:
            values = json.loads(kept.decode("utf-8"))
            if isinstance(values, list) and all(isinstance(v, str) for v in values):
                return values
        except ValueError:
            pass
    import yaml

    text = data.decode("utf-8", "replace")
    try:
        found: set[str] = set()
        stack = [yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))]  # libyaml: same result
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                found.add(node)
            elif isinstance(node, dict):
                stack.extend(k for k in node if isinstance(k, str))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        values = sorted(found)
    except (yaml.YAMLError, RecursionError):
        values = sorted({t.strip() for t in _FONT_PATH.findall(text)})
    disk_cache.write(VALUES_KIND, digest, json.dumps(values, ensure_ascii=False).encode("utf-8"))
    return values


def _configured_fonts(w: _Walk, config: str) -> None:
    """Font files a trusted ``fonts.yaml`` names by path (they may lie anywhere, by any name), by
    stamp: every text value of the file (:func:`_yaml_values`) that names a file, resolved as the
    font lookup resolves a path; family names name no file and are keyed as such."""
    from cardgen.core.regular_file import open_regular

    try:
        with open_regular(config) as fh:  # a pipe named fonts.yaml would block: refused here, reported by the check
            data = fh.read(1 << 20)
    except (OSError, ValueError):
        return
    base = os.path.dirname(config)
    for token in _yaml_values(data):
        path = os.path.join(base, os.path.expanduser(token.strip()))  # as the font lookup strips a value
        try:
            st = os.stat(path)
            w.put("configured-font", token, os.path.realpath(path), *disk_cache.stamp(st))
        except OSError as exc:
            w.put("configured-font", token, exc.errno)


def inputs_key(game_dir: str | os.PathLike) -> bytes | None:
    """The key of a validate run of ``game_dir`` here and now (see the module docstring), or
    None when the inputs are too large to key. Never raises for what it finds on disk."""
    w = _walk(game_dir)
    return None if w is None else w.h.digest()


def inputs_state(game_dir: str | os.PathLike) -> tuple[bytes, bytes] | None:
    """``(key, stamps)``: :func:`inputs_key` and a digest of every keyed file's size,
    modification and change times and inode, or None when the inputs are too large to key.
    :func:`store` compares both before and after a run: a file edited and put back while the
    check ran has its old bytes but a new change time (which nothing but the kernel sets), so
    a result checked against the edit is never kept for the original."""
    w = _walk(game_dir)
    return None if w is None else (w.h.digest(), w.stamps.digest())


def _walk(game_dir: str | os.PathLike) -> _Walk | None:
    from cardgen.core.boundary import checkout, project_root, shared_dirs
    from cardgen.fonts.folders import system_font_dirs

    w = _Walk(hashlib.sha256())
    game = os.path.realpath(game_dir)
    w.put("format", KIND)
    typed = os.fspath(PurePath(game_dir))  # as the command sees it: click gives it a Path (``x/`` and ``./x`` are ``x``)
    w.put("where", os.getcwd(), typed, game, os.environ.get("HOME"),
          sorted((k, v) for k, v in os.environ.items()
                  if k.startswith("CARDGEN_") and k not in ("CARDGEN_NO_CACHE", "CARDGEN_NO_DAEMON")))
    try:
        _code(w)
        root = project_root(game)
        w.put("root", str(root), str(checkout()))
        w.tree(game)
        for shared in shared_dirs(root, game):  # trusted folders: their links are followed, as the font index does
            w.tree(str(shared), follow=True)
            _configured_fonts(w, os.path.join(str(shared), "fonts.yaml"))
        for folder in system_font_dirs():
            w.tree(str(folder), follow=True, fonts_only=True)
    except (_TooBig, RecursionError):
        return None
    return w


#: The state (:func:`inputs_state`) each :func:`lookup` of this process found no entry for, by the
#: game folder as typed: the run that checks next starts from it (:func:`state_before`).
_MISSED: dict[str, tuple[bytes, bytes] | None] = {}


def lookup(game_dir: str | os.PathLike, keep_state: bool = False) -> dict | None:
    """The stored result for ``game_dir``'s current inputs (``{"text": [[to_stderr, line]...],
    "json": str, "code": int}``), or None (no entry, cache off, or inputs too large).
    ``keep_state`` (the console's fast path, whose command runs next in this process): on a miss
    the state it hashed is kept for :func:`state_before`."""
    if not disk_cache.enabled():
        return None
    state = inputs_state(game_dir)
    key = state[0] if state is not None else None
    payload = disk_cache.read(KIND, key) if key is not None else None
    if payload is None:
        if keep_state:
            _MISSED[os.fspath(PurePath(game_dir))] = state
        return None
    try:
        entry = json.loads(payload.decode("utf-8", "surrogatepass"))
    except ValueError:
        return None
    ok = (isinstance(entry, dict) and isinstance(entry.get("json"), str) and entry.get("code") in (0, 1)
          and isinstance(entry.get("text"), list)
          and all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], bool) and isinstance(x[1], str)
                  for x in entry["text"]))
    return entry if ok else None


def keep_state(game_dir: str | os.PathLike) -> None:
    """Take :func:`inputs_state` of ``game_dir`` now for the run that follows in this process
    (:func:`state_before`), unless a :func:`lookup` kept it already: the console entry, before it
    forks a check that starts reading the files at once (:mod:`cardgen.cli.early_check`)."""
    typed = os.fspath(PurePath(game_dir))
    if typed not in _MISSED and disk_cache.enabled():
        _MISSED[typed] = inputs_state(game_dir)


def state_before(game_dir: str | os.PathLike) -> tuple[bytes, bytes] | None:
    """:func:`inputs_state` of ``game_dir`` before a run: the one this process's :func:`lookup` of
    the same folder took when it found no entry (the validate fast path, moments earlier: every
    file is then hashed once less), else taken now. Either way it was taken before the check read
    anything, so :func:`store` still sees any edit made since."""
    typed = os.fspath(PurePath(game_dir))
    return _MISSED.pop(typed) if typed in _MISSED else inputs_state(game_dir)


def store(game_dir: str | os.PathLike, state: tuple[bytes, bytes] | None, text: list[tuple[bool, str]],
          json_text: str, code: int) -> None:
    """Keep a finished run's printed result for ``game_dir`` under its key (``state``:
    :func:`inputs_state` taken before the run): ``text`` the lines ``--format text`` prints
    (``True``: standard error), ``json_text`` what ``--format json`` prints, ``code`` the exit code
    (0 or 1). Nothing is kept when the cache is off, ``state`` is None, or an input changed while
    the check ran, even if it was put back (the state differs now)."""
    if state is None or not disk_cache.enabled() or code not in (0, 1) or inputs_state(game_dir) != state:
        return
    key = state[0]
    payload = json.dumps({"text": [[bool(e), s] for e, s in text], "json": json_text, "code": code},
                         ensure_ascii=False).encode("utf-8", "surrogatepass")  # a folder named in bytes that are not UTF-8
    disk_cache.write(KIND, key, payload)
