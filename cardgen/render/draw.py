"""Translate plan ops onto a reportlab canvas (the only place ops become PDF operators)."""
from __future__ import annotations

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION
from reportlab.pdfbase.pdfmetrics import getFont

from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import Circle, GameIcon, Icon, Image, Line, Rect, Text, TurnedIcon, TurnedText, VerticalText
from cardgen.render.icons import draw_icon
from cardgen.render.svg_icons import draw_game_icon
from cardgen.render.vertical_draw import draw_vertical

_colors: dict[str, object] = {}


def color(value: str):
    """``#rgb`` / ``#rrggbb`` / ``#rrggbbaa`` / a CSS name → reportlab colour with its opacity
    (cached; :func:`cardgen.core.colours.parse_colour`). Raises ValueError for anything else
    (the template checks refuse such colours before drawing)."""
    c = _colors.get(value)
    if c is None:
        from cardgen.core.colours import parse_colour
        rgba = parse_colour(value)
        if rgba is None:
            raise ValueError(f"{value!r} is not a colour")
        r, g, b, a = rgba
        c = _colors[value] = Color(r / 255, g / 255, b / 255, alpha=a / 255)
    return c


_TRANSPARENCY = PDF_SUPPORT_VERSION["transparency"]
#: Operator strings per colour: (fill ``rg`` | stroke ``RG``) → colour value → ``"r g b rg"``.
_CODES: dict[bool, dict[str, str]] = {False: {}, True: {}}


def _set_colour(c, value: str, stroke: bool) -> None:
    """``c.setFillColor(color(value))`` (``stroke``: ``c.setStrokeColor``) with the operator string
    kept per colour: the same ``r g b rg`` / ``RG`` bytes and opacity state as reportlab's own
    call, without its type dispatch."""
    col = color(value)
    if c._enforceColorSpace is not None:
        (c.setStrokeColor if stroke else c.setFillColor)(col)
        return
    codes = _CODES[stroke]
    code = codes.get(value)
    if code is None:
        code = codes[value] = f"{fp_str(col.red, col.green, col.blue)} {'RG' if stroke else 'rg'}"
    c._code.append(code)
    if stroke:
        c._strokeColorObj = col
    else:
        c._fillColorObj = col
    alpha = col.alpha
    if alpha is not None and not (alpha == 1 and c._extgstate._d.get("CA" if stroke else "ca", 1) == 1
                                  and c._doc._pdfVersion >= _TRANSPARENCY):
        # reportlab writes an opacity change only; it also marks the file PDF 1.4
        (c.setStrokeAlpha if stroke else c.setFillAlpha)(alpha)


def _set_fill(c, value: str) -> None:
    _set_colour(c, value, False)


def _set_stroke(c, value: str) -> None:
    _set_colour(c, value, True)
_RECORDED_MAX = 4096  #: drawings kept per canvas by :func:`_recorded`


def _recorded(c, key: tuple, draw) -> None:
    """Call ``draw()`` (which appends PDF operators to the canvas's content and leaves the
    canvas's state as it found it, or changes only what ``key`` says) the first time ``key`` is
    met on this canvas; after that, append the operators it wrote. For shapes and built-in icons
    that recur on many cards (a template's frame, an inline icon of a recurring line): reportlab
    formats every coordinate of their curves again on each call."""
    cache = c.__dict__.get("_cardgen_ops")
    if cache is None:
        cache = c.__dict__["_cardgen_ops"] = {}
    code = cache.get(key)
    if code is None:
        if len(cache) >= _RECORDED_MAX:
            cache.clear()
        start = len(c._code)
        draw()
        cache[key] = c._code[start:]
    else:
        c._code.extend(code)


_TEXT_CACHE_MAX = 4096  #: lines kept per canvas (faces are drawn once each: only recurring lines hit)


def _text_code(c, font_name: str, size: float, text: str) -> str | None:
    """The font and show operators reportlab's ``drawString`` writes for ``text`` in a TrueType
    font (``/F1+0 8.5 Tf 10.2 TL (…) Tj``), kept per document and (font, size, text): a
    character's code in a font subset is fixed once assigned, so a recurring line is encoded once.
    None for a font reportlab draws another way (a standard Type 1 font)."""
    cache = c.__dict__.get("_cardgen_text")
    if cache is None:
        cache = c.__dict__["_cardgen_text"] = {}
    key = (font_name, size, text)
    code = cache.get(key)
    if code is None:
        font = getFont(font_name)
        if not getattr(font, "_dynamicFont", False):
            return None
        if len(cache) >= _TEXT_CACHE_MAX:
            cache.clear()
        doc = c._doc
        tf = f"{fp_str(size)} Tf {fp_str(size * 1.2)} TL"
        parts, current = [], -1
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                parts.append(f"{font.getSubsetInternalName(subset, doc)} {tf}")
                current = subset
            parts.append(f"({c._escape(chunk)}) Tj")
        code = cache[key] = " ".join(parts) + " T*"
    return code


def _draw_string(c, x: float, y: float, text: str, font_name: str, size: float) -> None:
    """``c.setFont(font_name, size); c.drawString(x, y, text)``, byte for byte, with the text's
    operators from :func:`_text_code` (reportlab builds a text object and re-encodes the string
    on every call)."""
    code = _text_code(c, font_name, size, text) if c.bottomup else None
    if code is None:
        c.setFont(font_name, size)
        c.drawString(x, y, text)
        return
    c._fontname, c._fontsize, c._leading = font_name, size, size * 1.2
    c._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {code} ET")


def _paint(c, op: Rect | Circle) -> tuple[int, int]:
    """Set the fill and stroke of a shape; → reportlab's ``(stroke, fill)`` flags (0 or 1).
    A stroke of width 0 is not drawn."""
    if op.fill:
        _set_fill(c, op.fill)
    if op.stroke:
        _set_stroke(c, op.stroke)
        c.setLineWidth(op.stroke_width)
    return int(bool(op.stroke and op.stroke_width)), int(bool(op.fill))

def draw_ops(canvas, ops, fonts: FontSet, images=None) -> None:
    """Draw ``ops`` (pt, in the canvas's current coordinate system).

    Args:
        images: callable ``(op) -> ImageReader`` for :class:`Image` ops (see render.images).
    """
    c = canvas
    for op in ops:
        if isinstance(op, Text):
            _set_fill(c, op.color)
            _draw_string(c, op.x, op.y, op.text, fonts.name(op.font), op.size)
        elif isinstance(op, TurnedText):
            c.saveState()
            c.translate(op.x, op.y)
            c.rotate(op.angle)
            c.setFillColor(color(op.color))
            c.setFont(fonts.name(op.font), op.size)
            c.drawString(0, 0, op.text)
            c.restoreState()
        elif isinstance(op, VerticalText):
            _set_fill(c, op.color)
            draw_vertical(c, op, fonts.name(op.font))
        elif isinstance(op, Rect):
            stroke, fill = _paint(c, op)
            if not (stroke or fill):
                continue
            if op.radius:  # the path alone is recorded (colours and width were set above)
                _recorded(c, ("roundRect", op.x, op.y, op.w, op.h, op.radius, stroke, fill, c._fillMode),
                          lambda op=op, s=stroke, f=fill: c.roundRect(op.x, op.y, op.w, op.h, op.radius, stroke=s, fill=f))
            else:
                c.rect(op.x, op.y, op.w, op.h, stroke=stroke, fill=fill)
        elif isinstance(op, Circle):
            stroke, fill = _paint(c, op)
            _recorded(c, ("circle", op.cx, op.cy, op.r, stroke, fill, c._fillMode),
                      lambda op=op, s=stroke, f=fill: c.circle(op.cx, op.cy, op.r, stroke=s, fill=f))
        elif isinstance(op, Line):
            c.setStrokeColor(color(op.color))
            c.setLineWidth(op.width)
            c.line(op.x1, op.y1, op.x2, op.y2)
        elif isinstance(op, Icon):  # drawn inside q … Q: the canvas state is as before, but for the opacity in force
            font = fonts.name("heading")
            _recorded(c, ("icon", op, font, c._fillMode, tuple(c._extgstate._d.items())),
                      lambda op=op, font=font: draw_icon(c, op.name, op.x, op.y, op.size, font))
        elif isinstance(op, TurnedIcon):
            c.saveState()
            c.translate(op.x + op.size / 2, op.y + op.size / 2)
            c.rotate(op.angle)
            draw_icon(c, op.name, -op.size / 2, -op.size / 2, op.size, fonts.name("heading"))
            c.restoreState()
        elif isinstance(op, GameIcon):
            draw_game_icon(c, op, fonts.name("heading"))
        elif isinstance(op, Image) and images is not None:
            reader, (dx, dy, dw, dh) = images(op)
            c.saveState()
            if op.clip:
                p = c.beginPath()
                p.rect(*op.clip)
                c.clipPath(p, stroke=0, fill=0)
            c.drawImage(reader, dx, dy, dw, dh, mask="auto")
            c.restoreState()
