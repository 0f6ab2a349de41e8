"""A game's own icons (``icons:`` in game.yaml), drawn on a reportlab canvas.

- SVG files become reportlab drawings with svglib (``svg2rlg``) and are drawn as vector paths
  (``renderPDF.draw``): they stay sharp at any size and print as paths, not images.
- PNG files are drawn as images (colour as :func:`cardgen.render.images.load_upright` reads it).
- A ``label`` (one or two characters) is printed across the icon's centre, so two icons that
  differ only in colour stay apart in greyscale and for colour-blind players.

SVG files come from untrusted game folders. Before svglib sees one, :func:`load_svg` parses it
with lxml (no entity expansion, no network, no DTD loading) and refuses what would read another
file: a reference (``href``, ``xlink:href``, ``xml:base``, CSS ``url(…)`` / ``@import``) that is
neither inside the document (``#id``) nor a ``data:`` URI, and any ``<!ENTITY``. An embedded
raster image (``<image href="data:image/png;base64,…">``) is checked from its header before
anything decodes it: PNG or JPEG only (what svglib draws), at most the pixel limit of every
image (:func:`cardgen.render.images.pixel_limit`); it is drawn as an image XObject (reportlab's
inline images cannot be drawn inside the form XObject a card face is). Each file is read once
per process (cache by path, size and modification time).
"""
from __future__ import annotations

import base64
import binascii
import functools
import re
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader

from cardgen.core.colours import parse_colour
from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.render.images import embedded_image_size, load_upright, pixel_limit
from cardgen.layout.icon_names import label_size

#: Largest SVG icon file read, in bytes (an icon is a few kilobytes).
MAX_SVG_BYTES = 2_000_000
_EXTERNAL_CSS = re.compile(r"@import|url\(\s*['\"]?(?!#|data:)", re.IGNORECASE)
_HREF_ATTRS = ("href", "{http://www.w3.org/1999/xlink}href", "{http://www.w3.org/XML/1998/namespace}base", "src")
_DATA_IMAGE = re.compile(r"data:image/(png|jpe?g);base64,", re.IGNORECASE)


def _refuse(path: Path, message: str, hint: str, code: str = "bad-icon") -> CardgenError:
    return CardgenError(Problem(rel(path), None, "icon", message, hint, code=code))


def check_svg(path: Path) -> None:
    """Refuse an SVG that could read another file or cannot be parsed (see the module doc).
    Raises :class:`CardgenError` (``bad-icon``, naming the file and what was found)."""
    from lxml import etree  # lazy: +14 ms of imports here (measured)

    try:
        data = path.read_bytes() if path.stat().st_size <= MAX_SVG_BYTES else None
    except OSError as exc:
        raise _refuse(path, f"the icon {rel(path)} cannot be read: {exc.strerror or exc}",
                      "check that the file exists and is readable", "missing-file")
    if data is None:
        raise _refuse(path, f"the icon {rel(path)} is larger than {MAX_SVG_BYTES:,} bytes",
                      "an icon is a few kilobytes; simplify the drawing or save it as plain SVG")
    if b"<!ENTITY" in data:
        raise _refuse(path, f"the icon {rel(path)} declares XML entities", "save it as plain SVG (no <!ENTITY>)")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise _refuse(path, f"the icon {rel(path)} is not valid SVG: {exc}", "save it again as plain SVG")
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        raise _refuse(path, f"the icon {rel(path)} is not an SVG drawing (its root is not <svg>)",
                      "save it as SVG, or as PNG")
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in _HREF_ATTRS:
            value = (el.get(attr) or "").strip()
            if value and not value.startswith(("#", "data:")):
                raise _refuse(path, f"the icon {rel(path)} refers to another file ({value[:80]!r})",
                              "embed everything in the SVG (Inkscape: Save As → Plain SVG; images embedded)")
            if value.startswith("data:") and etree.QName(el).localname == "image":
                _check_embedded(path, value, el.sourceline)
        style = (el.text or "") if etree.QName(el).localname == "style" else ""
        for text in (style, el.get("style") or ""):
            if _EXTERNAL_CSS.search(text):
                raise _refuse(path, f"the icon {rel(path)} loads a style or image from another file",
                              "embed everything in the SVG (no @import, no url() to files)")


def _check_embedded(path: Path, uri: str, line: int | None) -> None:
    """An ``<image>``'s ``data:`` URI: a base64 PNG or JPEG whose header states at most the pixel
    limit. Nothing is decoded but the header."""
    where = f"the icon {rel(path)}" + (f" (line {line})" if line else "")
    m = _DATA_IMAGE.match(uri)
    if not m:
        raise _refuse(path, f"{where} embeds an image that is not a base64 PNG or JPEG ({uri.split(',')[0][:40]!r})",
                      "embed the image as PNG or JPEG, or draw it as paths")
    try:
        data = base64.b64decode(uri[m.end():], validate=False)
    except (binascii.Error, ValueError):
        data = b""
    found = embedded_image_size(data)
    if found is None:
        raise _refuse(path, f"{where} embeds an image that cannot be read (not a PNG or JPEG)",
                      "embed the image again as PNG or JPEG")
    _fmt, w, h = found
    if w * h > pixel_limit():
        raise _refuse(path, f"{where} embeds an image of {w:,} × {h:,} pixels, more than the limit of "
                      f"{pixel_limit():,}", "scale the embedded image down (300 dpi at the printed size is enough)",
                      "image-too-large")


class _IconRenderer(renderPDF._PDFRenderer):
    """reportlab's PDF renderer, drawing an embedded raster image as an image XObject
    (``drawImage``): its own ``drawInlineImage`` leaves bytes in a form's stream (TypeError)."""

    def drawImage(self, image):
        if hasattr(image.path, "mode"):  # svglib gives an embedded image as a PIL image
            self._canvas.drawImage(ImageReader(image.path), image.x, image.y, image.width, image.height, mask="auto")


def draw_svg(drawing, canvas) -> None:
    """Draw an icon's ``drawing`` (from :func:`load_svg`) at the canvas origin."""
    _IconRenderer().draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0)


@functools.lru_cache(maxsize=64)
def _drawing(path: str, size: int, mtime: float):
    from svglib.svglib import svg2rlg  # lazy: +67 ms of imports here (measured)

    check_svg(Path(path))
    try:
        drawing = svg2rlg(path, resolve_entities=False)
    except Exception as exc:  # svglib raises many kinds for odd SVG; all mean "cannot draw this file"
        raise _refuse(Path(path), f"the icon {rel(Path(path))} cannot be drawn: {type(exc).__name__}: {exc}"[:300],
                      "save it again as plain SVG")
    if drawing is None or not drawing.width or not drawing.height:
        raise _refuse(Path(path), f"the icon {rel(Path(path))} has no size (width and height or a viewBox)",
                      "give the <svg> element a viewBox")
    return drawing


def load_svg(path: str | Path):
    """The reportlab ``Drawing`` of an SVG icon (checked by :func:`check_svg`, read once).
    Raises :class:`CardgenError` (unreadable, refers to other files, not SVG, no size)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise _refuse(p, f"the icon {rel(p)} cannot be read: {exc.strerror or exc}",
                      "check the file name under icons: in game.yaml", "missing-file")
    return _drawing(str(p), st.st_size, st.st_mtime)


@functools.lru_cache(maxsize=64)
def _png_reader(path: str, size: int, mtime: float):
    im = load_upright(path)
    return ImageReader(im), im.size


def draw_game_icon(canvas, op, font_name: str) -> None:
    """Draw a :class:`cardgen.layout.ops.GameIcon` op: the file fitted into the square
    ``op.x, op.y, op.size`` (pt, aspect kept, centred), then its label, turned by ``op.angle``. Raises CardgenError
    for a file that cannot be drawn (the checks of ``cardgen validate`` find these first)."""
    c, s = canvas, op.size
    if op.angle:  # turned about the square's centre (a corner index read from across the table)
        from dataclasses import replace
        c.saveState()
        c.translate(op.x + s / 2, op.y + s / 2)
        c.rotate(op.angle)
        draw_game_icon(c, replace(op, x=-s / 2, y=-s / 2, angle=0.0), font_name)
        c.restoreState()
        return
    p = Path(op.file)
    c.saveState()
    if p.suffix.lower() == ".svg":
        d = load_svg(p)
        k = min(s / d.width, s / d.height)
        c.translate(op.x + (s - d.width * k) / 2, op.y + (s - d.height * k) / 2)
        c.scale(k, k)
        draw_svg(d, c)
    else:
        st = p.stat()
        reader, (pw, ph) = _png_reader(str(p), st.st_size, st.st_mtime)
        k = min(s / pw, s / ph)
        c.drawImage(reader, op.x + (s - pw * k) / 2, op.y + (s - ph * k) / 2, pw * k, ph * k, mask="auto")
    c.restoreState()
    if op.label:
        c.saveState()
        fs = label_size(s, op.label)
        r, g, b, a = parse_colour(op.label_colour) or (0, 0, 0, 255)
        c.setFillColor(Color(r / 255, g / 255, b / 255, alpha=a / 255))
        c.setFont(font_name, fs)
        c.drawCentredString(op.x + s / 2, op.y + s / 2 - fs * 0.36, op.label)
        c.restoreState()
