"""The vertical forms of a registered TrueType font, for vertical text (縦書き).

A character set upright in a column is shaped alone by HarfBuzz (uharfbuzz) top to bottom
(``direction="ttb"``) with the font's ``vert`` and ``vrt2`` features, so it takes the font's
vertical form (ー as a vertical bar, 、。 in the upper right of their square, brackets turned,
small kana shifted, 〜…‥ vertical) and its place from the font's vertical metrics (``vhea`` /
``vmtx`` / ``VORG``, read by HarfBuzz): where the glyph's horizontal origin lies from the
vertical origin (the middle of the top of its square).

A vertical form has no code point in the font's ``cmap``, and reportlab draws text by code
point. So, as :mod:`cardgen.fonts.variations` does for variation sequences (and reportlab's own
``TTFont.hbFont`` for shaped glyphs), the form gets a code point of its own in the registered
face: U+100000 + the character's code point (Supplementary Private Use Area-B; every
character with a vertical form is in the BMP), entered in ``charToGlyph``, ``glyphToChar`` and
``charWidths``. reportlab's subsetting then embeds the form like any glyph, and the subset's
``ToUnicode`` map (reportlab's ``makeToUnicodeCMap``, wrapped here once) maps that code point
back to the character, so the PDF's text stays the text that was set: selectable and
searchable. The wrap changes nothing for a subset without such code points.
"""
from __future__ import annotations

import importlib
import sys
import threading
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics, ttfonts

#: A vertical form's code point is this plus its character's (a BMP character: U+10xxxx).
VERTICAL_BASE = 0x100000
#: The features that choose vertical forms (OpenType: vertical alternates, rotation).
FEATURES = {"vert": True, "vrt2": True}

_LOCK = threading.Lock()
_FORMS: dict[str, "VerticalForms"] = {}


def harfbuzz():
    """The ``uharfbuzz`` module, imported on first use: cardgen keeps reportlab from importing it
    in every process (see cardgen/__init__.py), so only a process that sets vertical text loads it."""
    mod = sys.modules.get("uharfbuzz")
    if mod is None:
        sys.modules.pop("uharfbuzz", None)
        mod = importlib.import_module("uharfbuzz")
    return mod


@dataclass(frozen=True, slots=True)
class Upright:
    """How one character is drawn upright in a column: ``text`` (the character, or the code
    point of its vertical form), ``dx, dy``: its horizontal origin from the vertical origin of
    its square (the middle of the square's top edge), in em (y up: ``dy`` is negative);
    ``form``: the font has a vertical form for it (``text`` is then that form's code point)."""

    text: str
    dx: float
    dy: float
    form: bool


class VerticalForms:
    """The vertical forms of one registered reportlab TrueType font (see the module doc)."""

    def __init__(self, font_name: str) -> None:
        rl = pdfmetrics.getFont(font_name)
        self._rl = rl
        face = rl.face
        index = _index(rl)
        hb = self._hb = harfbuzz()
        blob = hb.Blob.from_file_path(face.filename)
        hb_face = hb.Face(blob, index)
        self._upem = hb_face.upem
        self._font = hb.Font(hb_face)
        self._cache: dict[str, Upright] = {}
        #: em from the top of a character's square down to its baseline (the vertical origin of
        #: an ideograph, from ``vhea``/``vmtx``/``VORG``; 0.88 for the IPAex fonts)
        self.origin = -self._shape("\u6c34").dy or 0.88

    def upright(self, ch: str) -> Upright:
        """How ``ch`` (one character) is drawn upright; its vertical form entered in the
        registered face on first use."""
        hit = self._cache.get(ch)
        if hit is not None:
            return hit
        with _LOCK:
            hit = self._cache.get(ch)
            if hit is None:
                hit = self._cache[ch] = self._shape(ch)
        return hit

    def _shape(self, ch: str) -> Upright:
        hb = self._hb
        buf = hb.Buffer()
        buf.add_str(ch)
        buf.guess_segment_properties()
        buf.direction = "ttb"
        hb.shape(self._font, buf, FEATURES)
        info, pos = buf.glyph_infos[0], buf.glyph_positions[0]
        face = self._rl.face
        gid = info.codepoint
        own = face.charToGlyph.get(ord(ch))
        dx, dy = pos.x_offset / self._upem, pos.y_offset / self._upem
        if own is None or gid == own or gid == 0 or ord(ch) > 0xFFFF:
            return Upright(ch, dx, dy, False)
        code = VERTICAL_BASE + ord(ch)
        if code not in face.charToGlyph:
            face.charToGlyph[code] = gid
            face.glyphToChar.setdefault(gid, []).append(code)
            face.charWidths[code] = (self._rl.pdfScale(face.hmetrics[gid][0]) if gid < len(face.hmetrics)
                                     else face.defaultWidth)
        return Upright(chr(code), dx, dy, True)

    def has_form(self, ch: str) -> bool:
        """The font has a vertical form for ``ch``."""
        return self.upright(ch).form


def forms(font_name: str) -> VerticalForms:
    """The :class:`VerticalForms` of registered font ``font_name`` (one per process)."""
    hit = _FORMS.get(font_name)
    if hit is None:
        with _LOCK:
            hit = _FORMS.get(font_name)
            if hit is None:
                hit = _FORMS[font_name] = VerticalForms(font_name)
    return hit


def _index(rl) -> int:
    """The face index of a registered TrueType font in its collection (0 for a .ttf)."""
    suffix = getattr(rl.face, "subfontNameX", b"") or b""
    return int(suffix.decode("ascii").lstrip("-") or 0) if isinstance(suffix, bytes) else 0


def source_char(code: int) -> int:
    """The character a code point of this module stands for (other code points unchanged)."""
    return code - VERTICAL_BASE if VERTICAL_BASE <= code < VERTICAL_BASE + 0x10000 else code


#: reportlab's own ``makeToUnicodeCMap`` (also when this module is loaded a second time)
_MAKE_TO_UNICODE = getattr(ttfonts.makeToUnicodeCMap, "__wrapped__", ttfonts.makeToUnicodeCMap)


def _to_unicode_cmap(fontname, subset):
    """reportlab's ``makeToUnicodeCMap`` with every vertical form mapped to its character."""
    return _MAKE_TO_UNICODE(fontname, [source_char(v) for v in subset])


_to_unicode_cmap.__wrapped__ = _MAKE_TO_UNICODE  # type: ignore[attr-defined]
ttfonts.makeToUnicodeCMap = _to_unicode_cmap  # looked up by TTFont.addObjects when a subset is written
