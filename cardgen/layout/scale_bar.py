"""The 100 % scale bar of the first print-sheet page: a bar of known length in the page label
band, with the note 「100%（実際のサイズ）で印刷」, so a sheet printed "fit to page" (cards at
94–97 %) shows at once — lay a ruler on the bar.

Pure geometry in *band coordinates* (pt): ``u`` runs along the band from its start, ``v`` across
it from the side the label text sits on (the renderer maps them onto the page, turning them for a
band that runs up the page side). The bar sits at the far end of the band, the note just before
it; the page label starts at ``u = 0`` and must end before :attr:`ScaleBar.start`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.layout.ops import Line, Text
from cardgen.layout.text import Measure
from cardgen.core.units import MM

NOTE = "100%（実際のサイズ）で印刷"
NOTE_EN = "print at 100% (actual size)"  #: the note of a Western edition, whose fonts may have no kana
LABEL_SIZE = 7.0  #: pt, the page label and the note
BAR_WIDTH = 0.5  #: pt, the bar's stroke (the crop marks are 0.25 pt)
GAP = 2 * MM


def bar_length_mm(paper: str) -> tuple[float, str]:
    """The bar's length in mm and its caption: 4 in on Letter (a US ruler), 100 mm elsewhere."""
    return (101.6, "4 in") if paper.lower() == "letter" else (100.0, "100 mm")


@dataclass
class ScaleBar:
    """The scale bar's ops in band coordinates and where they start along the band (pt)."""

    ops: list = field(default_factory=list)
    start: float = 0.0  #: u of the note's first character: the page label must end before it
    length: float = 0.0  #: the bar's length, pt


def scale_bar(band_length: float, paper: str, measure: Measure, font: str = "body", note: str | None = None) -> ScaleBar:
    """The bar for a band of ``band_length`` pt: ``Line`` ops — the bar at ``v`` = 0.5 mm, its end
    ticks up to 3.4 mm — with the caption and the note
    (「100 mm · 100%（実際のサイズ）で印刷」) set between the end ticks above the bar, at the far end
    of the band. Length 100 mm (4 in on Letter), exact to the pt."""
    mm, caption = bar_length_mm(paper)
    length = mm * MM
    u1 = band_length
    u0 = u1 - length
    v0, v1 = 0.5 * MM, 3.4 * MM
    ops: list = [
        Line(u0, v0, u1, v0, BAR_WIDTH, "#000000"),
        Line(u0, v0, u0, v1, BAR_WIDTH, "#000000"),
        Line(u1, v0, u1, v1, BAR_WIDTH, "#000000"),
    ]
    text = f"{caption} · {note or NOTE}"  # ``note``: a Western edition's words (NOTE_EN)
    size = LABEL_SIZE
    width = measure(text, font, size)
    if width > length - 2 * GAP:  # (a wide font) keep the text between the ticks
        size *= (length - 2 * GAP) / width
        width = measure(text, font, size)
    ops.append(Text(u0 + (length - width) / 2, 1.2 * MM, text, font, size, "#000000"))
    return ScaleBar(ops, u0, length)
