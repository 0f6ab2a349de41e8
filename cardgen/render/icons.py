"""Built-in vector icons for call and resource marks, drawn on a reportlab canvas.

Each icon fills the square ``x, y, size`` (pt). The names are those of
:data:`cardgen.layout.icon_names.BUILTIN_ICONS`; layout reports any other name as an error, and a
forced proof draws it as a neutral labelled square so the typo shows instead of vanishing.

Calls are told apart without colour (red and green are nearly the same grey, and colour-blind
players cannot tell them apart): ポン is a rounded square, チー a circle, and each carries its own
white symbol — three equal bars for ポン (three of a kind), three rising steps for チー (a run),
a dot for ロン, an up-pointing triangle for ツモ, four bars for カン. The kana label is drawn
instead of the symbol only where it prints at 6 pt or more (icons of about 5 mm and up), so no
icon glyph is smaller than card text may be (:data:`cardgen.layout.print_checks.MIN_TEXT_PT`).
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics

from cardgen.layout.icon_names import CALL_WORDS, LATIN_CALL_WORDS

ICONS = {
    # name: (fill, label)
    "pon": ("#c0392b", CALL_WORDS["pon"]),
    "chi": ("#1e7b4f", CALL_WORDS["chi"]),
    "ron": ("#1f4e9c", CALL_WORDS["ron"]),
    "tsumo": ("#8e44ad", CALL_WORDS["tsumo"]),
    "kan": ("#7f5a12", CALL_WORDS["kan"]),
}
CIRCLE = {"chi"}  #: calls drawn as a circle (the others as a rounded square)
LABEL_MIN_PT = 6.0  #: the kana label is drawn only at this size or more (else the symbol)
LABEL_RATIO = 0.42  #: label size / icon size

# Symbols in unit coordinates of the icon square: bars (x, y, w, h) and polygons.
_BARS = {
    "pon": [(0.24, 0.26, 0.12, 0.48), (0.44, 0.26, 0.12, 0.48), (0.64, 0.26, 0.12, 0.48)],
    "chi": [(0.25, 0.28, 0.13, 0.22), (0.435, 0.28, 0.13, 0.34), (0.62, 0.28, 0.13, 0.46)],
    "kan": [(0.18, 0.27, 0.1, 0.46), (0.345, 0.27, 0.1, 0.46), (0.51, 0.27, 0.1, 0.46), (0.675, 0.27, 0.1, 0.46)],
}


def _shape(c, name: str, x: float, y: float, size: float, stroke: int, fill: int) -> None:
    """The outline of call ``name``: a circle for チー, a rounded square for the others."""
    if name in CIRCLE:
        c.circle(x + size / 2, y + size / 2, size / 2, stroke=stroke, fill=fill)
    else:
        c.roundRect(x, y, size, size, size * 0.18, stroke=stroke, fill=fill)


def _symbol(c, name: str, x: float, y: float, size: float) -> None:
    """The call's symbol in the current fill colour (see the module doc)."""
    for bx, by, bw, bh in _BARS.get(name, []):
        c.rect(x + bx * size, y + by * size, bw * size, bh * size, stroke=0, fill=1)
    if name == "ron":
        c.circle(x + size / 2, y + size / 2, size * 0.16, stroke=0, fill=1)
    elif name == "tsumo":
        p = c.beginPath()
        p.moveTo(x + 0.5 * size, y + 0.74 * size)
        p.lineTo(x + 0.26 * size, y + 0.3 * size)
        p.lineTo(x + 0.74 * size, y + 0.3 * size)
        p.close()
        c.drawPath(p, stroke=0, fill=1)


#: The label of a call in Latin letters, drawn where the font has no kana (a Western edition's fonts).
LATIN_LABELS = LATIN_CALL_WORDS


def _drawable(font_name: str, text: str) -> bool:
    """Whether the registered font ``font_name`` has a glyph for every character of ``text``."""
    face = getattr(pdfmetrics.getFont(font_name), "face", None)
    cmap = getattr(face, "charToGlyph", None)
    return cmap is None or all(ord(ch) in cmap for ch in text)


def _mark(c, name: str, label: str, x: float, y: float, size: float, font_name: str) -> None:
    """The label when it is legible at this size, else the symbol (current fill colour). A font
    without the kana draws the Latin label (:data:`LATIN_LABELS`), narrowed to fit the icon."""
    fs = size * LABEL_RATIO
    if fs >= LABEL_MIN_PT and name in LATIN_LABELS and not _drawable(font_name, label):
        label = LATIN_LABELS[name]
        fs = min(fs, size * 0.8 / max(pdfmetrics.stringWidth(label, font_name, 1.0), 1e-6))
    if fs >= LABEL_MIN_PT or name not in _BARS and name not in ("ron", "tsumo"):
        if fs >= LABEL_MIN_PT:
            c.setFont(font_name, fs)
            c.drawCentredString(x + size / 2, y + size / 2 - fs * 0.36, label)
        return
    _symbol(c, name, x, y, size)


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
    elif name == "stick_dot":
        # a point stick's dot (点棒): a filled dark dot
        c.setFillColor(HexColor("#222222"))
        c.circle(x + size / 2, y + size / 2, size * 0.3, stroke=0, fill=1)
    elif name.endswith("_off") and name[:-4] in ICONS:
        # the call is not available on this card: a pale outline with a stroke through it
        base = name[:-4]
        _fill, label = ICONS[base]
        c.setStrokeColor(HexColor("#b5ab9a"))
        c.setLineWidth(max(0.3, size * 0.04))
        _shape(c, base, x, y, size, stroke=1, fill=0)
        c.setFillColor(HexColor("#b5ab9a"))
        _mark(c, base, label, x, y, size, font_name)
        c.line(x + size * 0.12, y + size * 0.12, x + size * 0.88, y + size * 0.88)
    else:
        fill, label = ICONS.get(name, ("#777777", name[:2]))
        c.setFillColor(HexColor(fill))
        _shape(c, name, x, y, size, stroke=0, fill=1)
        c.setFillColor(HexColor("#ffffff"))
        _mark(c, name, label, x, y, size, font_name)
    c.restoreState()
