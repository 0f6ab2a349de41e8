"""One card face as a one-page PDF: the drawing every raster export starts from.

The page is the bleed box (or the trim box with ``bleed=False``); the face is drawn with the
same :func:`cardgen.render.draw.draw_ops` as the print sheets, so a PNG rasterised from it shows
exactly what prints. ``invariant=1``: the same plan gives the same bytes.
"""
from __future__ import annotations

import io
from typing import Sequence

from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.render.draw import draw_ops
from cardgen.render.pdf_doc import print_canvas


def card_pdf(plan: CardPlan, fonts: FontSet, images=None, bleed: bool = True) -> bytes:
    """PDF bytes of one face; page size = trim + 2 × bleed (pt), or the trim when ``bleed`` is False."""
    return cards_pdf([(plan, bleed)], fonts, images)


def cards_pdf(faces: Sequence[tuple[CardPlan, bool]], fonts: FontSet, images=None) -> bytes:
    """PDF bytes of several faces, one page each, in order (``(plan, bleed)`` as for
    :func:`card_pdf`): each page is the page :func:`card_pdf` makes of that face, and the fonts
    are subset once for all of them (a raster export renders a few faces from one file)."""
    buf = io.BytesIO()
    c = print_canvas(buf, fonts)
    for plan, bleed in faces:
        b = plan.bleed if bleed else 0.0
        c.setPageSize((plan.width + 2 * b, plan.height + 2 * b))
        c.translate(b, b)
        draw_ops(c, plan.ops, fonts, images)
        c.showPage()
    c.save()
    return buf.getvalue()
