"""Font files registered with reportlab, once per process.

Each face (file and index in a collection) is registered under its PostScript name (made
unique when two files share one). CFF-outline ``.otf`` fonts, which reportlab cannot embed, are
converted to TrueType outlines once and cached on disk (:mod:`cardgen.fonts.convert`); the
parse of every face is cached on disk too (:mod:`cardgen.fonts.parsed_cache`).
"""
from __future__ import annotations

import hashlib
import os
import struct
import threading
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics

from cardgen.core import disk_cache
from cardgen.fonts.convert import cff_to_truetype
from cardgen.fonts.index import collection_size
from cardgen.fonts.library_log import reading
from cardgen.core.regular_file import open_regular
from cardgen.fonts.parsed_cache import load_ttfont, read_all


@dataclass(frozen=True)
class FontFace:
    """One resolved role: ``source`` is the file named/found, ``embedded`` the file registered
    (a converted TrueType copy for CFF fonts), ``name`` the reportlab font name."""

    role: str
    source: Path
    index: int
    name: str
    embedded: Path


_REGISTERED: dict[tuple[str, int], str] = {}  # (real path, face index) → reportlab name
_STAMPS: dict[str, tuple[int, int, int, int]] = {}  # file registered → its stamp when it was parsed
_LOCK = threading.RLock()
# A process forked while another thread registers a font (the live preview forks a rebuild from
# one thread while another may be loading fonts) would inherit the lock held for ever: forks wait
# for it, and both sides let go of it after.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_LOCK.acquire, after_in_parent=_LOCK.release, after_in_child=_LOCK.release)


def _sfnt_tag(path: Path, index: int) -> bytes:
    """The sfnt tag of face ``index``. Raises ValueError for a pipe, device or folder (never blocks)."""
    with open_regular(path) as fh:
        tag = fh.read(4)
        if tag == b"ttcf":
            fh.seek(12 + 4 * index)
            (offset,) = struct.unpack(">I", fh.read(4))
            fh.seek(offset)
            tag = fh.read(4)
    return tag


def register(source: Path, index: int) -> tuple[str, Path]:
    """Register face ``index`` of font file ``source`` with reportlab (a no-op when it already
    is); → (reportlab font name, file registered: ``source`` or its TrueType conversion).

    Raises:
        ValueError: a web font (WOFF) or a file that is not TrueType/OpenType.
        OSError, reportlab's ``TTFError``, fontTools errors: a file that cannot be read or parsed.
    """
    key = (str(source.resolve()), index)
    with _LOCK:
        if key in _REGISTERED:
            name = _REGISTERED[key]
            return name, Path(pdfmetrics.getFont(name).face.filename)
        collection_size(source)  # a header claiming a million faces is refused before any is read
        tag = _sfnt_tag(source, index)
        if tag in (b"wOFF", b"wOF2"):
            raise ValueError("a web font (WOFF); convert it to .ttf or .otf first")
        if tag == b"OTTO":
            with reading(source):
                embedded, sub = cff_to_truetype(source, index), 0
        elif tag in (b"\x00\x01\x00\x00", b"true"):
            embedded, sub = source, index
        else:
            raise ValueError("not a TrueType/OpenType font")
        st = os.stat(embedded)
        rl = load_ttfont("_cardgen_tmp", str(embedded), sub)
        _STAMPS.setdefault(str(embedded), disk_cache.stamp(st))
        ps = rl.face.name.decode("latin-1") if isinstance(rl.face.name, bytes) else str(rl.face.name)
        name = ps
        if name in _REGISTERED.values() or name in pdfmetrics.getRegisteredFontNames():
            name = f"{ps}-{hashlib.sha1(repr(key).encode()).hexdigest()[:8]}"
        rl.fontName = name
        pdfmetrics.registerFont(rl)
        _REGISTERED[key] = name
        return name, embedded


def registered_stamp(path: Path | str) -> tuple[int, int, int, int] | None:
    """``(size, modification time ns, change time ns, inode)`` of font file ``path`` as it was when
    this process registered it (None: never registered here). A process that keeps running (the
    live preview, and the rebuilds it forks) measures with the font it registered even after the
    file is replaced, so what it stores on disk must be keyed by that font, not by the file now."""
    return _STAMPS.get(str(path))


def preload(source: Path | str, index: int = 0) -> None:
    """Register the face ``index`` of font file ``source`` with reportlab now (a no-op when it
    already is), with the file's bytes and the tables a subset is embedded from read too
    (:func:`cardgen.fonts.parsed_cache.read_all`), so processes forked later find it parsed and
    ready to embed. Raises ValueError for a file that is not a TrueType/OpenType font, OSError
    when it cannot be read."""
    name, _embedded = register(Path(source), index)
    read_all(pdfmetrics.getFont(name).face)
