"""cardgen's on-disk cache: one folder, one entry format that is safe to read whatever is in it.

Folder: ``$XDG_CACHE_HOME/cardgen`` (``~/.cache/cardgen`` when the variable is not set), the
folder the converted fonts (:mod:`cardgen.fonts.convert`) and the font-name index
(:mod:`cardgen.fonts.index`) already use. Each kind of entry has its own sub-folder.

An entry is one file named by a hash of its key; its content is::

    MAGIC (12 bytes) | sha256(key) (32 bytes) | sha256(payload) (32 bytes) | payload

:func:`read` gives the payload only when the magic (which carries the format version), the key
and the payload's checksum all match; a missing, truncated, corrupt or foreign file, or one
written by another version of this format, is treated as no entry (never an error). Entries are
written whole to a temporary file and renamed into place, so a reader never sees half an entry;
a cache folder that cannot be written is ignored. It holds inputs' parses (fonts, font names),
never a verdict: every check runs on every command.
"""
from __future__ import annotations

import hashlib
import os

#: First bytes of every entry; the digit is the entry format's version.
MAGIC = b"cardgen-c01\n"
_HEAD = len(MAGIC) + 64

#: Entries kept per kind; past this the oldest (by modification time) are removed on write.
KEEP = 200
#: An entry file larger than this (bytes) is not read (a parsed Japanese font is ~0.7 MB).
MAX_ENTRY = 32 << 20


def enabled() -> bool:
    """False when ``CARDGEN_NO_CACHE`` is set (to anything but ``""`` or ``0``): then nothing is
    read from or written to the validate results, the font parses and the font-name index
    (``cardgen validate --no-cache`` sets it for its run)."""
    return os.environ.get("CARDGEN_NO_CACHE", "") in ("", "0")


def cache_dir() -> str:
    """The cache folder: ``$XDG_CACHE_HOME/cardgen``, else ``~/.cache/cardgen`` (it may not exist yet)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cardgen")


def stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """What a cache keys a file by when not by its bytes: ``(size, modification time ns, change
    time ns, inode)``. The change time is set by the kernel on every write or rename, so no
    ``touch -d`` or ``mv`` of a same-size file restores the stamp."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def entry_path(kind: str, key: bytes) -> str:
    """The file of the entry ``key`` of ``kind`` (a sub-folder name such as ``validate-1``)."""
    return os.path.join(cache_dir(), kind, hashlib.sha256(key).hexdigest()[:40] + ".bin")


def read_regular(path: str | os.PathLike) -> bytes | None:
    """The bytes of the cache file ``path``, or None when it is missing, unreadable, not a regular
    file (a link, a pipe or a device is never followed or read) or over :data:`MAX_ENTRY` bytes."""
    from cardgen.core.regular_file import open_regular  # lazy: +7 ms of imports here (measured)

    try:
        with open_regular(path, follow_links=False) as fh:
            if os.fstat(fh.fileno()).st_size > MAX_ENTRY:
                return None
            data = fh.read(MAX_ENTRY + 1)
    except (OSError, ValueError):
        return None
    return data if len(data) <= MAX_ENTRY else None


def read(kind: str, key: bytes) -> bytes | None:
    """The payload stored for ``key``, or None when there is no sound entry (missing, unreadable,
    not a regular file, over :data:`MAX_ENTRY` bytes, truncated, another format version, another
    key, or a payload that fails its checksum) or the cache is off (:func:`enabled`). A link, a
    pipe or a device in the cache folder is never followed or read (:func:`read_regular`)."""
    if not enabled():
        return None
    data = read_regular(entry_path(kind, key))
    if data is None or len(data) < _HEAD or data[:len(MAGIC)] != MAGIC:
        return None
    key_sum, payload_sum = data[len(MAGIC):len(MAGIC) + 32], data[len(MAGIC) + 32:_HEAD]
    payload = data[_HEAD:]
    if key_sum != hashlib.sha256(key).digest() or payload_sum != hashlib.sha256(payload).digest():
        return None
    return payload


def write(kind: str, key: bytes, payload: bytes, keep: int = KEEP) -> None:
    """Store ``payload`` for ``key`` (whole, then renamed into place). Errors writing (a read-only
    or full disk) are ignored: the cache only saves time. Keeps the ``keep`` newest entries of ``kind``.
    Nothing is written when the cache is off (:func:`enabled`)."""
    if not enabled():
        return
    path = entry_path(kind, key)
    folder = os.path.dirname(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + hashlib.sha256(key).digest() + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    _prune(folder, keep)


def _prune(folder: str, keep: int) -> None:
    """Remove all but the ``keep`` newest ``.bin`` entries of ``folder`` (races with another
    process pruning are harmless: a file already gone is skipped)."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".bin")]
    except OSError:
        return
    if len(names) <= keep:
        return
    dated = []
    for n in names:
        try:
            dated.append((os.stat(os.path.join(folder, n)).st_mtime_ns, n))
        except OSError:
            continue
    for _t, n in sorted(dated)[:max(0, len(dated) - keep)]:
        try:
            os.unlink(os.path.join(folder, n))
        except OSError:
            pass
