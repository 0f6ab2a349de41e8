"""Text made ready for one font: NFC, invisible characters dropped, variation sequences kept
where the font has them.

:func:`prepare` is what card text goes through before it is measured, broken and drawn:

1. :func:`cardgen.core.unicode_text.nfc` (ト + combining dakuten → ド);
2. a variation sequence (a base character followed by a variation selector: ideographic
   U+E0100–E01EF, standardized U+FE00–FE0F such as the emoji VS16) is kept when the font's
   ``cmap`` format 14 subtable lists it (OpenType spec, cmap subtable format 14, read with
   fontTools): a sequence with its own glyph is drawn with that glyph; a "default" sequence is
   the base character's usual glyph, so only the selector goes. A sequence the font lacks keeps
   its base character and drops the selector;
3. every other default-ignorable character (soft hyphen, zero-width space, joiners, bidi marks,
   BOM — :data:`cardgen.core.unicode_text.IGNORABLE`) is dropped: it has no glyph.

reportlab draws text by code point, so a variant glyph gets a code point of its own in the
Supplementary Private Use Area-A (U+F0000 + its position among the font's variant glyphs),
entered in the registered face's ``charToGlyph`` and ``charWidths`` — the way reportlab itself
adds shaped glyphs (``TTFont.hbFont``). The same sequence always gets the same code point.
"""
from __future__ import annotations

import functools
import threading

from reportlab.pdfbase import pdfmetrics

from cardgen.core.unicode_text import IGNORABLE, VARIATION_SELECTOR, nfc

#: First code point given to variant glyphs (Supplementary Private Use Area-A).
ALIAS_BASE = 0xF0000

_LOCK = threading.Lock()
_ALIASES: dict[str, dict[tuple[int, int], str | None]] = {}  # registered font name → sequence → text


@functools.lru_cache(maxsize=64)
def sequences(path: str, index: int = 0) -> dict[tuple[int, int], str | None]:
    """The variation sequences of a font file's ``cmap`` format 14 subtable:
    ``(base, selector)`` → glyph name, or None for a default sequence (the base's own glyph).
    Empty when the font has none. ``index``: the face in a .ttc collection."""
    from fontTools.ttLib import TTFont, TTLibError  # lazy: +28 ms of imports here (measured)

    try:
        font = TTFont(path, fontNumber=index, lazy=True)
        tables = [t for t in font["cmap"].tables if t.format == 14]
    except (TTLibError, OSError, KeyError, AssertionError):
        return {}
    out: dict[tuple[int, int], str | None] = {}
    for table in tables:
        for selector, pairs in table.uvsDict.items():
            for base, glyph in pairs:
                out.setdefault((base, selector), glyph)
    font.close()
    return out


def _aliases(font_name: str) -> dict[tuple[int, int], str | None]:
    """Sequence → the text that draws it in ``font_name`` (a registered reportlab font): the
    alias code point of a variant glyph, ``chr(base)`` for a default sequence. Built once per
    font, entering the alias code points into the registered face."""
    with _LOCK:
        hit = _ALIASES.get(font_name)
        if hit is not None:
            return hit
        rl = pdfmetrics.getFont(font_name)
        face = rl.face
        seqs = sequences(face.filename, _index(rl))
        out: dict[tuple[int, int], str | None] = {}
        variants = sorted(k for k, g in seqs.items() if g is not None)
        if variants:
            from fontTools.ttLib import TTFont
            tt = TTFont(face.filename, fontNumber=_index(rl), lazy=True)
            for n, key in enumerate(variants):
                code = ALIAS_BASE + n
                gid = tt.getGlyphID(seqs[key])
                face.charToGlyph[code] = gid
                face.glyphToChar.setdefault(gid, []).append(code)
                face.charWidths[code] = rl.pdfScale(face.hmetrics[gid][0]) if gid < len(face.hmetrics) else face.defaultWidth
                out[key] = chr(code)
            tt.close()
        for key, glyph in seqs.items():
            if glyph is None and key[0] in face.charToGlyph:
                out[key] = chr(key[0])
        _ALIASES[font_name] = out
        return out


def _index(rl) -> int:
    """The face index of a registered TrueType font inside its collection (0 for a .ttf):
    reportlab keeps it only as the name suffix ``subfontNameX`` (``b"-1"``)."""
    suffix = getattr(rl.face, "subfontNameX", b"") or b""
    return int(suffix.decode("ascii").lstrip("-") or 0) if isinstance(suffix, bytes) else 0


def prepare(text: str, font_name: str) -> str:
    """``text`` as ``font_name`` (a registered reportlab font) draws it: NFC, variation sequences
    the font has kept (as their glyph), other variation selectors and default-ignorable
    characters dropped. See the module docstring."""
    text = nfc(text)
    if text.isascii() or not IGNORABLE.search(text):
        return text
    if VARIATION_SELECTOR.search(text):
        aliases = _aliases(font_name)
        out: list[str] = []
        for ch in text:
            if VARIATION_SELECTOR.fullmatch(ch) and out:
                drawn = aliases.get((ord(out[-1]), ord(ch)))
                if drawn is not None:
                    out[-1] = drawn
                continue
            out.append(ch)
        text = "".join(out)
    return IGNORABLE.sub("", text)

