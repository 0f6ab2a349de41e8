"""Open-question notes in the rulebook: the boxed 【未確定】 note and the appendix listing them.

A note (:class:`cardgen.rulebook.blocks.OpenQuestion`) is a one-cell table, red rule on the left
and a light fill, reading 「【未確定】 question」 then 「この版では：option in use」. Drawing a
note notifies the document ``OQEntry (id, page)``, and :class:`OpenQuestionIndex` (an indexing flowable, like the table of contents)
lists every open question with its options, the option in use, why, and the pages of its notes.
The document's ``multiBuild`` passes settle the page numbers.
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus import Table as RLTable, TableStyle
from reportlab.platypus.flowables import Flowable

from cardgen.core.units import MM
from cardgen.layout import jlreq
from cardgen.layout.western import western_quotes
from cardgen.rulebook import blocks as L
from cardgen.rulebook.design import TextStyle
from cardgen.rulebook.story_tables import row_split_table

#: Printed label of a note (the test reading the PDF back looks for it).
LABEL = "【未確定】"
USE_LABEL = "この版では："
NOTIFY_KIND = "OQEntry"
_BAR = "#b03a2e"
_FILL = "#fbf1ec"
_KEEP_WHOLE = 60 * MM  #: notes lower than this are never split over two pages


def _box(cells: list, width: float, fonts, font: str, cls=RLTable) -> RLTable:
    t = cls([[c] for c in cells], colWidths=[width])
    t.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, -1), HexColor(_FILL)),
        ("BOX", (0, 0), (-1, -1), 0.6, HexColor(_BAR)),
        ("LINEBEFORE", (0, 0), (0, -1), 2.2, HexColor(_BAR)),
        ("FONTNAME", (0, 0), (-1, -1), fonts.name(font)),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.5 * MM), ("RIGHTPADDING", (0, 0), (-1, -1), 2 * MM),
        ("TOPPADDING", (0, 0), (-1, -1), 0.8 * MM), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.8 * MM),
        ("TOPPADDING", (0, 0), (-1, 0), 1.6 * MM), ("BOTTOMPADDING", (0, -1), (-1, -1), 1.6 * MM),
    ]))
    return t


def _text(value: str, latin: bool = False) -> str:
    """A manifest text as set: the spaces YAML's folded lines (``>-``) leave next to Japanese go
    (:func:`cardgen.layout.jlreq.absorb_spaces`), as typed spaces do in the rules text; in a
    Latin-script edition (``latin``) the spaces stay and quotes are typographic, as markdown-it's
    typographer sets them in the rules text (:func:`cardgen.layout.western.western_quotes`)."""
    return western_quotes(value or "") if latin else jlreq.absorb_spaces(value or "")


def note(builder, b: L.OpenQuestion) -> list:
    """The boxed note of one open question (flowables for :class:`StoryBuilder`)."""
    d = builder.d
    size = d.body.size * 0.92
    ts = TextStyle(font=d.body.font, size=size, leading=d.body.leading, color=d.body.color,
                   space_before=0, space_after=0)
    w = builder.words
    head = builder.para([L.Span(w["open_question"], bold=True), L.Span(_text(b.question, builder.latin), bold=True)], ts, "oq-head-j",
                        alignment=TA_JUSTIFY)
    use = builder.para([L.Span(w["in_this_edition"], bold=True), L.Span(_text(b.use, builder.latin))], ts, "oq-use-j",
                       alignment=TA_JUSTIFY)
    box = _box([head, use], builder.width, builder.fonts, d.body.font, _NoteBox)
    box._open_question = b.id
    box.spaceBefore, box.spaceAfter = 0.5 * MM, d.body.space_after + 1 * MM
    return [box]


class _NoteBox(RLTable):
    """The note's table; drawing it notifies the document of its page (``OQEntry (id, page)``),
    so a note inside a list item is found too."""

    _open_question = None

    def wrap(self, aw, ah):
        self._argW = [aw]  # the width where it stands: the frame, or a list item's text column
        return super().wrap(aw, ah)

    def split(self, aw, ah):
        if getattr(self, "_height", 0) < _KEEP_WHOLE:  # a note is read as one: move it whole
            return []
        parts = super().split(aw, ah)
        for part in parts:  # a box split over two pages: both parts name their question
            part._open_question = self._open_question
        return parts

    def draw(self):
        doc = getattr(self.canv, "_doctemplate", None)
        if doc is not None and self._open_question:
            doc.notify(NOTIFY_KIND, (self._open_question, doc.page))
        super().draw()


class OpenQuestionIndex(Flowable):
    """The appendix: one boxed entry per open question, with the pages its notes are on.

    An indexing flowable: ``multiBuild`` calls :meth:`beforeBuild` and :meth:`isSatisfied` each
    pass; :meth:`notify` receives ``OQEntry (id, page)`` from the document template.
    """

    def __init__(self, builder, items: list):
        super().__init__()
        self.builder, self.items = builder, items
        self._entries: dict[str, list[int]] = {}
        self._last: dict[str, list[int]] = {}
        self._table = None

    # --- indexing protocol (reportlab.platypus.doctemplate.BaseDocTemplate.multiBuild)
    def isIndexing(self):
        """reportlab indexing protocol: this flowable takes part in multi-pass builds."""
        return 1

    def beforeBuild(self):
        """Start a pass: keep the last pass's page references to compare with."""
        self._last, self._entries = self._entries, {}

    def afterBuild(self):
        """End a pass: nothing to do."""
        pass

    def isSatisfied(self):
        """True when this pass found the same page references as the last one (the build may stop)."""
        return self._entries == self._last

    def notify(self, kind, stuff):
        """Record the page of an open-question note (``NOTIFY_KIND``) as it is drawn."""
        if kind == NOTIFY_KIND:
            qid, page = stuff
            pages = self._entries.setdefault(qid, [])
            if page not in pages:
                pages.append(page)

    # --- drawing: a table built from the last pass's pages
    def _build(self, width: float) -> RLTable:
        b = self.builder
        d = b.d
        size = d.body.size * 0.92
        ts = TextStyle(font=d.body.font, size=size, leading=d.body.leading, color=d.body.color,
                       space_before=0, space_after=0)
        rows = []
        w = b.words
        for i, q in enumerate(self.items, 1):
            pages = self._last.get(q.id, [])
            where = w["pages_sep"].join(w["page"].format(n=p) for p in pages) if pages else w["not_in_text"]
            rows.append([b.para([L.Span(f"{i}. {w['open_question']}", bold=True), L.Span(_text(q.question, b.latin), bold=True)], ts,
                                "oqi-head-j", alignment=TA_JUSTIFY)])
            rows.append([b.para([L.Span(w["options"], bold=True), L.Span(_text(w["options_sep"].join(q.options or []), b.latin))],
                                ts, "oqi-opt-j", alignment=TA_JUSTIFY)])
            rows.append([b.para([L.Span(w["in_this_edition"], bold=True), L.Span(_text(q.use, b.latin))], ts, "oqi-use-j",
                                alignment=TA_JUSTIFY)])
            rows.append([b.para([L.Span(w["why"], bold=True), L.Span(_text(q.why, b.latin))], ts, "oqi-why-j", alignment=TA_JUSTIFY)])
            rows.append([b.para([L.Span(w["where"], bold=True), L.Span(where)], ts, "oqi-pages")])
        t = row_split_table(b, rows, colWidths=[width])
        style = [("LEFTPADDING", (0, 0), (-1, -1), 2.5 * MM), ("RIGHTPADDING", (0, 0), (-1, -1), 2 * MM),
                 ("TOPPADDING", (0, 0), (-1, -1), 0.5 * MM), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5 * MM),
                 ("FONTNAME", (0, 0), (-1, -1), b.fonts.name(d.body.font))]
        for k in range(len(self.items)):
            top, bottom = 5 * k, 5 * k + 4
            style += [("LINEBEFORE", (0, top), (0, bottom), 2.2, HexColor(_BAR)),
                      ("LINEABOVE", (0, top), (-1, top), 0.6, HexColor(_BAR)),
                      ("BACKGROUND", (0, top), (-1, top), HexColor(_FILL)),
                      ("TOPPADDING", (0, top), (-1, top), 1.4 * MM),
                      ("BOTTOMPADDING", (0, bottom), (-1, bottom), 2.5 * MM)]
        t.setStyle(TableStyle(style))
        return t

    def wrap(self, aw, ah):
        """Flowable protocol: build the appendix table for width ``aw`` (pt) and return its size (pt)."""
        self._table = self._build(aw)
        self.width, self.height = self._table.wrapOn(self.canv, aw, ah)
        return self.width, self.height

    def split(self, aw, ah):
        """Flowable protocol: split the appendix table across pages."""
        self._table = self._build(aw)
        return self._table.splitOn(self.canv, aw, ah)

    def drawOn(self, canvas, x, y, _sW=0):
        """Flowable protocol: draw the table at (x, y) in pt."""
        self._table.drawOn(canvas, x, y, _sW)
