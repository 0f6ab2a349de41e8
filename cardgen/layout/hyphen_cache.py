"""pyphen's parse of a hyphenation dictionary, kept on disk between runs.

Parsing pyphen's ``hyph_en_US.dic`` (``pyphen.HyphDict``: ~4,900 patterns turned into a dict)
costs about 0.1 s per process, and every command that sets an English edition pays it; reading
the parse back costs a fraction of that. :func:`prime` puts the dictionary of a file into
pyphen's own in-process cache (``pyphen.hdcache``, which ``pyphen.Pyphen`` reads first), from
the on-disk cache (:mod:`cardgen.core.disk_cache`, kind :data:`KIND`) when an entry exists for
the same file — real path, size, modification and change times and inode — and the same pyphen
and Python versions, else parsed and stored. Only plain values are stored (``marshal``, behind
the cache's checksum): a dictionary with pyphen's alternative patterns (``DataInt`` values), or
a pyphen version that keeps anything else on a ``HyphDict``, is parsed every time, as before.
"""
from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path

import pyphen

from cardgen.core import disk_cache

#: Cache sub-folder (the digit is this module's entry version).
KIND = "hyph-parsed-1"
#: What a ``pyphen.HyphDict`` holds (any other attribute: not cached).
_ATTRS = {"patterns", "cache", "maxlen"}


def _key(path: Path) -> bytes | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return repr((os.path.realpath(path), *disk_cache.stamp(st), pyphen.__version__, sys.version_info[:3])).encode()


def _restore(payload: bytes) -> pyphen.HyphDict | None:
    try:
        patterns, maxlen = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(patterns, dict) or not isinstance(maxlen, int):
        return None
    hd = pyphen.HyphDict.__new__(pyphen.HyphDict)
    hd.patterns, hd.cache, hd.maxlen = patterns, {}, maxlen
    return hd


def _dump(hd: pyphen.HyphDict) -> bytes | None:
    if set(vars(hd)) != _ATTRS:
        return None
    try:
        return marshal.dumps((hd.patterns, hd.maxlen))
    except ValueError:  # a value of a type marshal does not know (pyphen's DataInt)
        return None


def prime(path: Path) -> None:
    """Make ``pyphen.hdcache`` hold the parse of the dictionary file ``path`` (see the module doc)."""
    path = Path(path)
    if path in pyphen.hdcache:
        return
    key = _key(path)
    if key is not None:
        payload = disk_cache.read(KIND, key)
        hd = _restore(payload) if payload is not None else None
        if hd is not None:
            pyphen.hdcache[path] = hd
            return
    hd = pyphen.HyphDict(path)
    pyphen.hdcache[path] = hd
    if key is not None:
        payload = _dump(hd)
        if payload is not None and _key(path) == key:  # not when the file changed while it was parsed
            disk_cache.write(KIND, key, payload)
