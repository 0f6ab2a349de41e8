"""Translate plan ops onto a reportlab canvas (the only place ops become PDF operators)."""
from __future__ import annotations

from reportlab.lib.colors import Color

from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import Circle, GameIcon, Icon, Image, Line, Rect, Text, TurnedIcon, TurnedText
from cardgen.render.icons import draw_icon
from cardgen.render.svg_icons import draw_game_icon

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



def _paint(c, op: Rect | Circle) -> tuple[int, int]:
    """Set the fill and stroke of a shape; → reportlab's ``(stroke, fill)`` flags (0 or 1).
    A stroke of width 0 is not drawn."""
    if op.fill:
        c.setFillColor(color(op.fill))
    if op.stroke:
        c.setStrokeColor(color(op.stroke))
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
            c.setFillColor(color(op.color))
            c.setFont(fonts.name(op.font), op.size)
            c.drawString(op.x, op.y, op.text)
        elif isinstance(op, TurnedText):
            c.saveState()
            c.translate(op.x, op.y)
            c.rotate(op.angle)
            c.setFillColor(color(op.color))
            c.setFont(fonts.name(op.font), op.size)
            c.drawString(0, 0, op.text)
            c.restoreState()
        elif isinstance(op, Rect):
            stroke, fill = _paint(c, op)
            if not (stroke or fill):
                continue
            if op.radius:
                c.roundRect(op.x, op.y, op.w, op.h, op.radius, stroke=stroke, fill=fill)
            else:
                c.rect(op.x, op.y, op.w, op.h, stroke=stroke, fill=fill)
        elif isinstance(op, Circle):
            stroke, fill = _paint(c, op)
            c.circle(op.cx, op.cy, op.r, stroke=stroke, fill=fill)
        elif isinstance(op, Line):
            c.setStrokeColor(color(op.color))
            c.setLineWidth(op.width)
            c.line(op.x1, op.y1, op.x2, op.y2)
        elif isinstance(op, Icon):
            draw_icon(c, op.name, op.x, op.y, op.size, fonts.name("heading"))
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
