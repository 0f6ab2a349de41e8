"""reportlab's parse of a TrueType face, kept on disk between runs.

Parsing a large Japanese font (``reportlab.pdfbase.ttfonts.TTFont``: the cmap of ~12,000
characters, every advance width) costs about 60 ms per face; reading the result back costs a
fraction of that. :func:`load_ttfont` returns a ``TTFont`` equal to a fresh parse, from the
cache (:mod:`cardgen.core.disk_cache`, kind :data:`KIND`) when an entry exists for the same
file — real path, face index, size, modification and change times (a `touch -d` or a `mv` of a
same-size font cannot restore the change time) and inode — and the same reportlab
and Python versions, else parsed and stored.

The font file's bytes (``face._ttf_data``) and the glyph tables only embedding a subset in a PDF
and variation glyphs use (:data:`_LAZY`) are read when first used, so a ``validate`` run reads
only the character map and the widths. Only plain values are
stored (``marshal``, the format of Python's own ``.pyc`` files, behind the cache's checksum);
when a reportlab version keeps anything else on the face or the font, nothing is stored and
every run parses, as before.
"""
from __future__ import annotations

import marshal
import os
import sys
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

from cardgen.core import disk_cache

#: Cache sub-folder (the digit is this module's entry version).
KIND = "ttf-parsed-1"
#: Attributes of a ``TTFont`` this module knows how to rebuild (any other: not cached).
_FONT_ATTRS = {"fontName", "face", "encoding", "state", "_asciiReadable", "_shapable"}
#: Face attributes rebuilt rather than stored.
_REBUILT = {"_ttf_data", "_pdfScale"}
#: Face attributes restored on first use (subsetting and variation glyphs need them; measuring does not).
_LAZY = ("glyphToChar", "hmetrics", "glyphPos")


class CachedFace(TTFontFace):
    """A ``TTFontFace`` restored from the cache: the same attributes as a fresh parse; the font
    file's bytes and the :data:`_LAZY` tables are read on first use (to embed a subset)."""

    def __getattr__(self, name: str):
        if name == "_ttf_data":
            with open(self.filename, "rb") as fh:
                data = fh.read()
            self.__dict__["_ttf_data"] = data
            return data
        if name in _LAZY and "_lazy" in self.__dict__:
            self.__dict__.update(marshal.loads(self.__dict__.pop("_lazy")))
            return self.__dict__[name]
        raise AttributeError(name)


def read_all(face: TTFontFace) -> None:
    """Read what a face restored from the cache reads on first use (the file's bytes, the
    :data:`_LAZY` tables) now; a no-op for a face parsed in full."""
    if isinstance(face, CachedFace):
        for name in ("_ttf_data",) + _LAZY:
            getattr(face, name, None)


def _key(path: str, index: int) -> bytes | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    real = os.path.realpath(path)
    return repr((real, index, *disk_cache.stamp(st), reportlab.Version,
                 rl_config.ttfAsciiReadable, sys.version_info[:3])).encode()


def _scale(units_per_em: int):
    """The face's font-unit → 1/1000 em scale (as ``TTFontFile.extractInfo`` makes it)."""
    if units_per_em == 1000:
        return lambda x: x
    mult = 1000 / units_per_em
    return lambda x: x * mult


def _dump(font: TTFont) -> bytes | None:
    """The stored form of ``font`` (None when it holds something this module cannot rebuild)."""
    if set(vars(font)) != _FONT_ATTRS or type(font.face) is not TTFontFace:
        return None
    state, names, lazy = {}, [], {}
    for k, v in vars(font.face).items():
        if k in _REBUILT:
            continue
        if k in _LAZY:
            lazy[k] = v
            continue
        if type(v) is TTFNameBytes:
            names.append(k)
            v = v.ustr
        state[k] = v
    try:
        return marshal.dumps((state, names, font._asciiReadable, font._shapable, marshal.dumps(lazy)))
    except ValueError:  # an attribute of a type marshal does not know
        return None


def _restore(name: str, path: str, payload: bytes) -> TTFont | None:
    try:
        state, names, ascii_readable, shapable, lazy = marshal.loads(payload)
        face = CachedFace.__new__(CachedFace)
        face.__dict__.update(state)
        face.__dict__["_lazy"] = lazy
        for k in names:
            face.__dict__[k] = TTFNameBytes(state[k].encode("utf8"))
        face._pdfScale = _scale(face.unitsPerEm)
        face.filename = path  # as this run names it: the stored one may be relative to another folder
    except Exception:  # noqa: BLE001 - an entry of another shape: parse instead
        return None
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = ascii_readable
    font._shapable = shapable
    return font


def load_ttfont(name: str, path: str, index: int = 0) -> TTFont:
    """``reportlab.pdfbase.ttfonts.TTFont(name, path, subfontIndex=index)``: the on-disk cache's
    when it holds this file's parse, else parsed (and stored, unless the file's
    stamp changed meanwhile). Raises what reportlab raises for a file it cannot read
    (``TTFError``, ``OSError``…)."""
    key = _key(path, index)
    if key is not None:
        payload = disk_cache.read(KIND, key)
        if payload is not None:
            font = _restore(name, path, payload)
            if font is not None:
                return font
    font = TTFont(name, path, subfontIndex=index)
    if key is not None:
        payload = _dump(font)
        if payload is not None and _key(path, index) == key:  # not when the file changed while it was parsed
            disk_cache.write(KIND, key, payload)
    return font
