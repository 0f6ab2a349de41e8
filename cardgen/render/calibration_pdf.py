"""Render the duplex calibration sheet (:mod:`cardgen.layout.calibration`) to PDF."""
from __future__ import annotations

from pathlib import Path

from cardgen.fonts.fontset import FontSet
from cardgen.layout.calibration import CalibrationPage
from cardgen.render.draw import draw_ops
from cardgen.render.pdf_doc import print_canvas


def render_calibration(path: Path, pages: list[CalibrationPage], fonts: FontSet, duplex: str | None = None) -> int:
    """Write ``pages`` (front, back) to ``path``; returns the page count. ``invariant=1``;
    embedded fonts only, PrintScaling None (and ``/Duplex`` for ``duplex``)."""
    c = print_canvas(path, fonts, duplex)
    c.setTitle("cardgen duplex calibration")
    for page in pages:
        c.setPageSize((page.width, page.height))
        c.setLineCap(0)
        draw_ops(c, page.ops, fonts)
        c.showPage()
    c.save()
    return len(pages)
