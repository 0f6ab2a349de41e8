"""CFF-outline OpenType → TrueType-outline conversion, cached on disk.

reportlab embeds only TrueType (``glyf``) outlines; a CFF ``.otf`` face is converted once with
fontTools (cubic → quadratic curves within 1 font unit) and cached in ``$XDG_CACHE_HOME/cardgen``
(``~/.cache/cardgen``; a temp folder when that cannot be created). fontTools is imported only
when a conversion is needed.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from cardgen.core.disk_cache import cache_dir

_CONVERTER_VERSION = b"cff2ttf-1"


def _cache_dir() -> Path:
    """cardgen's cache folder (:func:`cardgen.core.disk_cache.cache_dir`)."""
    return Path(cache_dir())


def cff_to_truetype(src: Path, index: int = 0, cache_dir: Path | None = None) -> Path:
    """Convert a CFF-outline OpenType face to a TrueType-outline ``.ttf`` in the cache folder.

    The cached file name holds a hash of the source bytes, so a conversion is reused until the
    font changes. Curves are approximated with quadratics within 1 font unit. Raises whatever
    fontTools raises for a broken font (callers turn that into a CardgenError).
    """
    from fontTools.pens.cu2quPen import Cu2QuPen  # lazy: +41 ms of imports here (measured)
    from fontTools.pens.ttGlyphPen import TTGlyphPen  # lazy: +58 ms of imports here (measured)
    from fontTools.ttLib import TTFont, newTable  # lazy: +51 ms of imports here (measured)

    data = src.read_bytes()
    digest = hashlib.sha256(_CONVERTER_VERSION + data).hexdigest()[:16]
    folder = cache_dir or _cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = Path(tempfile.gettempdir()) / "cardgen-fonts"
        folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{src.stem}-{index}-{digest}.ttf"
    if out.is_file():
        return out

    font = TTFont(str(src), fontNumber=index)
    if "CFF " not in font:
        raise ValueError("no CFF table (CFF2 variable fonts are not supported)")
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for gname in order:
        pen = TTGlyphPen(None)
        glyph_set[gname].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[gname] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    hmtx = font["hmtx"]
    for gname in order:
        g = glyf.glyphs[gname]
        g.recalcBounds(glyf)
        adv, _lsb = hmtx[gname]
        hmtx[gname] = (adv, getattr(g, "xMin", 0) if g.numberOfContours else 0)
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attr, val in (("maxZones", 1), ("maxTwilightPoints", 0), ("maxStorage", 0),
                      ("maxFunctionDefs", 0), ("maxInstructionDefs", 0), ("maxStackElements", 0),
                      ("maxSizeOfInstructions", 0), ("maxComponentElements", 0),
                      ("maxComponentDepth", 0), ("maxPoints", 0), ("maxContours", 0),
                      ("maxCompositePoints", 0), ("maxCompositeContours", 0)):
        setattr(maxp, attr, val)
    font["head"].glyphDataFormat = 0
    post = font["post"]
    if post.formatType not in (2.0, 3.0):
        post.formatType = 3.0
    font.sfntVersion = "\x00\x01\x00\x00"
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".ttf", dir=folder)
    os.close(fd)
    try:
        font.save(tmp)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out
