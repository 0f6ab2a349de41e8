"""What every PDF cardgen writes starts with: a reportlab canvas that prints as delivered.

- ``invariant=1`` and page compression: the same input gives the same bytes.
- The page preamble selects an embedded font (``initialFontName``), so no page refers to an
  unembedded base-14 font such as Helvetica (print shops reject those; PDF/X-1a §6.3.5).
- ``/ViewerPreferences << /PrintScaling /None >>`` (PDF 1.7, ISO 32000-1 §12.2 table 150):
  the print dialog opens at 100 % ("actual size") instead of "fit to page", which would print
  cards at 94–97 %. ``duplex`` adds ``/Duplex`` (``DuplexFlipLongEdge`` …) so the dialog also
  proposes the flip the back pages are mirrored for.
"""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from cardgen.fonts.fontset import FontSet

DUPLEX_PREF = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "simplex": "Simplex"}


def print_preferences(c: Canvas, duplex: str | None = None) -> None:
    """Set PrintScaling None (and ``/Duplex`` for ``duplex`` = long-edge | short-edge | simplex)."""
    c.setViewerPreference("PrintScaling", "None")
    if duplex is not None:
        c.setViewerPreference("Duplex", DUPLEX_PREF[duplex])


def print_canvas(target, fonts: FontSet, duplex: str | None = None, **kw) -> Canvas:
    """A canvas for ``target`` (path or file object) with the settings above; ``kw`` goes to
    reportlab's Canvas (``pagesize``…)."""
    c = Canvas(target if not hasattr(target, "__fspath__") else str(target), invariant=1, pageCompression=1,
               initialFontName=fonts.name("body"), **kw)
    c.setCreator("cardgen")
    print_preferences(c, duplex)
    return c
