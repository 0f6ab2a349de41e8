"""Render the duplex calibration sheet (:mod:`cardgen.layout.calibration`) to PDF."""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.fonts.fontset import FontSet
from cardgen.layout.calibration import CalibrationPage
from cardgen.render.draw import draw_ops


def render_calibration(path: Path, pages: list[CalibrationPage], fonts: FontSet) -> int:
    """Write ``pages`` (front, back) to ``path``; returns the page count. ``invariant=1``."""
    c = Canvas(str(path), invariant=1, pageCompression=1)
    c.setTitle("cardgen duplex calibration")
    c.setCreator("cardgen")
    for page in pages:
        c.setPageSize((page.width, page.height))
        c.setLineCap(0)
        draw_ops(c, page.ops, fonts)
        c.showPage()
    c.save()
    return len(pages)
