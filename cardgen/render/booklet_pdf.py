"""A rulebook PDF imposed as a saddle-stitched booklet (order from :mod:`cardgen.layout.booklet`):
pypdf places each page of the rulebook on a landscape sheet twice its size, left or right of
the fold, and leaves blank halves blank.
"""
from __future__ import annotations

from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject

from cardgen.core.units import MM
from cardgen.layout.booklet import saddle_stitch


def write_booklet(source: Path, path: Path, sheet_mm: tuple[float, float]) -> int:
    """Write the booklet of the PDF ``source`` to ``path`` on sheets of ``sheet_mm`` (w, h in mm,
    landscape): the pages meet at the sheet's centre (the fold) and are centred vertically.
    The PDF asks for double-sided printing flipped on the short edge (``/Duplex``) at 100 %
    (``/PrintScaling /None``). Returns the number of booklet pages (the sheet sides, 2 per sheet).
    """
    reader = PdfReader(str(source))
    pages = reader.pages
    sw, sh = sheet_mm[0] * MM, sheet_mm[1] * MM
    writer = PdfWriter()
    for left, right in saddle_stitch(len(pages)):
        side = PageObject.create_blank_page(width=sw, height=sh)
        for number, at_left in ((left, True), (right, False)):
            if number is None:
                continue
            src = pages[number - 1]
            pw, ph = float(src.mediabox.width), float(src.mediabox.height)
            x = sw / 2 - pw if at_left else sw / 2
            side.merge_transformed_page(src, Transformation().translate(x, (sh - ph) / 2))
        writer.add_page(side)
    writer.add_metadata({k: v for k, v in (reader.metadata or {}).items() if isinstance(v, str)})
    prefs = writer.create_viewer_preferences()
    prefs.duplex = NameObject("/DuplexFlipShortEdge")
    prefs.print_scaling = NameObject("/None")
    with open(path, "wb") as fh:
        writer.write(fh)
    return len(writer.pages)
