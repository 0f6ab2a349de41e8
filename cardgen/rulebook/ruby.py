"""Ruby (ふりがな) in rulebook paragraphs: markup and drawing.

The base text of a ruby run is set between two zero-width reportlab ``<onDraw>`` markers
(:func:`ruby_markup`): ``ruby`` (its label is the reading) before it and ``rubyend`` after it.
Line breaking (:func:`cardgen.rulebook.kinsoku.kinsoku_split`) never breaks between the
markers, so a base word stays on one line. :class:`RubyDrawer` is fed the markers' positions
while :func:`cardgen.rulebook.justify.draw_justified` sets the line, and draws the reading
centred above the base: half the base size (JLREQ §3.3.2, ruby size 1/2 of the base),
its baseline 0.1 em above the base's em box (JLREQ: ruby is set touching the base).
"""
from __future__ import annotations

from html import escape

#: Ruby size as a fraction of the base size (JLREQ §3.3.2).
RUBY_SCALE = 0.5
#: The ruby baseline above the base baseline, in ems of the base (the base em box top is at
#: 0.88 em in Japanese fonts; the ruby descends ~0.12 of its own size).
RUBY_RISE = 0.94

BEGIN, END = "ruby", "rubyend"


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, exactly as ``xml.sax.saxutils.quoteattr`` writes
    it (``&``, ``<``, ``>``, newline, carriage return and tab as entities; in double quotes, or in
    single quotes when the text holds a double quote and no single one, else with ``&quot;``),
    without that module's import of ``urllib.request``, ``http.client`` and ``ssl``."""
    text = escape(text, quote=False).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def ruby_markup(base_markup: str, reading: str) -> str:
    """Paragraph markup of ``base_markup`` with ``reading`` above it."""
    return f'<onDraw name="{BEGIN}" label={quoteattr(reading)}/>{base_markup}<onDraw name="{END}" label="-"/>'


class RubyDrawer:
    """Collects ruby runs while a paragraph is set and draws them (pt, the paragraph's canvas)."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.open: tuple[float, str] | None = None
        self.runs: list[tuple[float, float, float, str, tuple]] = []  # x0, x1, baseline, reading, font
        #: the current line's start and end (pt): a reading is kept between them (JLREQ: ruby does
        #: not overhang the line's edge)
        self.line: tuple[float, float] | None = None
        self._edges: list[tuple[float, float] | None] = []

    def mark(self, cb, x: float, y: float, font: tuple | None) -> None:
        """A marker at ``x`` (pt, the end of the glyph before it) on the baseline ``y``; ``font``:
        ``(name, size, colour)`` of the text before it (for the end marker: the base text's)."""
        if cb.name == BEGIN:
            self.open = (x, cb.label)
        elif cb.name == END and self.open is not None and font is not None:
            x0, reading = self.open
            self.runs.append((x0, x, y, reading, font))
            self._edges.append(self.line)
            self.open = None

    def draw(self) -> None:
        """Draw every collected reading (in the base's face and colour, :data:`RUBY_SCALE` size)."""
        from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: +97 ms of imports here (measured)

        c = self.canvas
        for (x0, x1, y, reading, (name, size, color)), edges in zip(self.runs, self._edges):
            rs = size * RUBY_SCALE
            c.saveState()
            c.setFillColor(color)
            w = stringWidth(reading, name, rs)
            base = x1 - x0
            t = c.beginText()
            t.setFont(name, rs)
            if w < base and len(reading) > 1:  # spread the reading over the base (肩付きでなく中付き)
                space = (base - w) / len(reading)
                t.setCharSpace(space)
                t.setTextOrigin(x0 + space / 2, y + size * RUBY_RISE)
            else:
                rx = x0 + (base - w) / 2
                if edges is not None and w <= edges[1] - edges[0]:  # not past the line's start or end
                    rx = max(edges[0], min(rx, edges[1] - w))
                t.setTextOrigin(rx, y + size * RUBY_RISE)
            t.textOut(reading)
            c.drawText(t)
            c.restoreState()
