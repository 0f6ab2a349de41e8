"""Vertical text (:class:`~cardgen.layout.ops.VerticalText`, one column) → PDF operators.

One text object per column, one ``Tm`` per item, glyphs from the embedded, subset TrueType font
(reportlab's subsetting, so every output that draws through :mod:`cardgen.render.draw` — print
sheets, one-card and shop PDFs, and the PNG / TTS exports rasterised from them — embeds only the
glyphs used): an upright character with the font's vertical form, placed from the font's
vertical origin (:mod:`cardgen.fonts.vertical_forms`); a ``Tr`` character (or ―…‥) the font has
no form for turned 90° clockwise, as UAX #50 says; a turned run with the matrix ``0 -1 1 0`` (90°
clockwise, its em box centred on the column); tate-chu-yoko digits upright across the column,
squeezed horizontally to one em when wider. The items are written top to bottom and each code
maps back to its character (``ToUnicode``), so the column's text is selectable and searchable
in reading order.
"""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont

from cardgen.fonts.vertical_forms import forms
from cardgen.layout.ops import VerticalText
from cardgen.layout.vertical import TCY, TURNED, turns_without_form


def vertical_code(c, op: VerticalText, font_name: str) -> str:
    """The operators (``BT … ET``) of one column ``op`` in registered font ``font_name``."""
    font = getFont(font_name)
    vf = forms(font_name)
    doc = c._doc
    s = op.size
    origin = vf.origin  # em from the top of a square down to the baseline
    turned_x = op.x - (origin - 0.5) * s  # a turned run's baseline: its em box centred on the column
    parts = ["BT"]
    current = -1

    def show(text: str, a: float, b: float, cc: float, d: float, e: float, f: float) -> None:
        nonlocal current
        parts.append(f"{fp_str(a, b, cc, d, e, f)} Tm")
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                parts.append(f"{font.getSubsetInternalName(subset, doc)} {fp_str(s)} Tf")
                current = subset
            parts.append(f"({c._escape(chunk)}) Tj")

    for mode, text, off in op.items:
        top = op.y - off
        if mode == TURNED:
            show(text, 0, -1, 1, 0, turned_x, top)
        elif mode == TCY:
            w = font.stringWidth(text, s)
            k = min(1.0, s / w) if w > 0 else 1.0
            show(text, k, 0, 0, 1, op.x - w * k / 2, top - origin * s)
        else:
            u = vf.upright(text)
            if not u.form and turns_without_form(text):
                show(text, 0, -1, 1, 0, turned_x, top)
            else:
                show(u.text, 1, 0, 0, 1, op.x + u.dx * s, top + u.dy * s)
    parts.append("ET")
    return " ".join(parts)


def draw_vertical(c, op: VerticalText, font_name: str) -> None:
    """Append the column's operators to canvas ``c`` (its fill colour set by the caller)."""
    c._code.append(vertical_code(c, op, font_name))
    c._fontname, c._fontsize, c._leading = font_name, op.size, op.size * 1.2
