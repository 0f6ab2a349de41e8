"""One card face as a one-page PDF: the drawing every raster export starts from.

The page is the bleed box (or the trim box with ``bleed=False``); the face is drawn with the
same :func:`cardgen.render.draw.draw_ops` as the print sheets, so a PNG rasterised from it shows
exactly what prints. ``invariant=1``: the same plan gives the same bytes.
"""
from __future__ import annotations

import io

from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.render.draw import draw_ops
from cardgen.render.pdf_doc import print_canvas


def card_pdf(plan: CardPlan, fonts: FontSet, images=None, bleed: bool = True) -> bytes:
    """PDF bytes of one face; page size = trim + 2 × bleed (pt), or the trim when ``bleed`` is False."""
    b = plan.bleed if bleed else 0.0
    buf = io.BytesIO()
    c = print_canvas(buf, fonts, pagesize=(plan.width + 2 * b, plan.height + 2 * b))
    c.translate(b, b)
    draw_ops(c, plan.ops, fonts, images)
    c.showPage()
    c.save()
    return buf.getvalue()
