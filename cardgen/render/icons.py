"""Built-in vector icons for call and resource marks, drawn on a reportlab canvas.

Each icon fills the square ``x, y, size`` (pt). The names are those of
:data:`cardgen.layout.icon_names.BUILTIN_ICONS`; layout reports any other name as an error, and a
forced proof draws it as a neutral labelled square so the typo shows instead of vanishing.
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor

ICONS = {
    # name: (fill, label)
    "pon": ("#c0392b", "ポン"),
    "chi": ("#1e7b4f", "チー"),
    "ron": ("#1f4e9c", "ロン"),
    "tsumo": ("#8e44ad", "ツモ"),
    "kan": ("#7f5a12", "カン"),
}


def draw_icon(canvas, name: str, x: float, y: float, size: float, font_name: str) -> None:
    """Draw icon ``name`` in the square at ``x, y`` with side ``size`` (pt)."""
    c = canvas
    c.saveState()
    if name == "power":
        c.setFillColor(HexColor("#e8a317"))
        c.setStrokeColor(HexColor("#7a5200"))
        c.setLineWidth(max(0.3, size * 0.05))
        c.circle(x + size / 2, y + size / 2, size * 0.46, stroke=1, fill=1)
        # a lightning bolt
        p = c.beginPath()
        pts = [(0.58, 0.88), (0.30, 0.47), (0.48, 0.47), (0.40, 0.12), (0.70, 0.56), (0.52, 0.56)]
        p.moveTo(x + pts[0][0] * size, y + pts[0][1] * size)
        for px, py in pts[1:]:
            p.lineTo(x + px * size, y + py * size)
        p.close()
        c.setFillColor(HexColor("#ffffff"))
        c.drawPath(p, stroke=0, fill=1)
    elif name == "power_empty":
        c.setStrokeColor(HexColor("#b9a27a"))
        c.setDash(size * 0.12, size * 0.08)
        c.setLineWidth(max(0.3, size * 0.05))
        c.circle(x + size / 2, y + size / 2, size * 0.44, stroke=1, fill=0)
    elif name.endswith("_off") and name[:-4] in ICONS:
        # the call is not available on this card: a pale outline with a stroke through it
        _fill, label = ICONS[name[:-4]]
        c.setStrokeColor(HexColor("#b5ab9a"))
        c.setLineWidth(max(0.3, size * 0.04))
        c.roundRect(x, y, size, size, size * 0.18, stroke=1, fill=0)
        c.setFillColor(HexColor("#b5ab9a"))
        fs = size * 0.42
        c.setFont(font_name, fs)
        c.drawCentredString(x + size / 2, y + size / 2 - fs * 0.36, label)
        c.line(x + size * 0.12, y + size * 0.12, x + size * 0.88, y + size * 0.88)
    else:
        fill, label = ICONS.get(name, ("#777777", name[:2]))
        c.setFillColor(HexColor(fill))
        c.roundRect(x, y, size, size, size * 0.18, stroke=0, fill=1)
        c.setFillColor(HexColor("#ffffff"))
        fs = size * 0.42
        c.setFont(font_name, fs)
        c.drawCentredString(x + size / 2, y + size / 2 - fs * 0.36, label)
    c.restoreState()
