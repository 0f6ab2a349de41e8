"""Rulebook blocks (:mod:`cardgen.rulebook.blocks`) → reportlab Platypus story → PDF.

The document is built with ``multiBuild`` (two passes, so the table of contents knows its
page numbers) and ``invariant=1`` (same input, same bytes). Every page but the first has a
running header (game title and manifest version); every page a page number. Headings are also
PDF bookmarks. Card images are drawn from the same :class:`CardPlan` as the print sheets.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (CondPageBreak, Flowable, Frame, KeepTogether, Image as RLImage, ListFlowable, ListItem,
                                PageBreak as RLPageBreak, PageTemplate, Spacer, Table as RLTable, TableStyle)
from reportlab.platypus.doctemplate import BaseDocTemplate
from reportlab.platypus.tableofcontents import TableOfContents

from cardgen.core.errors import CardgenError, Problem
from cardgen.fonts.fontset import FontSet
from cardgen.rulebook import blocks as L
from cardgen.layout import jlreq
from cardgen.rulebook.card_figure import CardFigure
from cardgen.rulebook.figures import CardSpec, row_layout, table_layout
from cardgen.render.images import image_dpi, image_size
from cardgen.rulebook.notes import OpenQuestionIndex, note
from cardgen.rulebook.style import KinsokuParagraph, PageDesign, TextStyle, canvas_class, markup
from cardgen.core.units import MM


@dataclass
class BookInfo:
    """What the page furniture prints and the PDF metadata says."""

    title: str
    subtitle: str
    version: str
    source: str = ""
    draft: bool = False  #: validation failed (a forced build): every page carries the draft mark


class _KeepTogether(KeepTogether):
    """A keepWithNext group (a heading, its rule and its first text). reportlab's KeepTogether
    checks that the group fits without its first flowable's space before, though the frame puts
    that space in when the group is laid down: a heading near the foot of a page stayed there
    while the text it keeps with went over. Asking for that space up front closes the gap."""

    def getSpaceBefore(self):
        """The space before the group: its first flowable's (pt)."""
        return self._content[0].getSpaceBefore() if self._content else 0


class _Doc(BaseDocTemplate):
    """Notifies the table of contents and adds PDF bookmarks for headings."""

    def afterFlowable(self, flowable):
        entry = getattr(flowable, "_toc", None)
        if entry is None:
            return
        level, text, key = entry
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(text, key, level=level, closed=False)
        self.notify("TOCEntry", (level, text, self.page, key))


class StoryBuilder:
    """Blocks → flowables with the styles of a :class:`PageDesign`.

    Args:
        card_plan: ``(component, card_id) -> CardPlan`` for ``card:`` images.
        resolve_image: ``src -> path`` for file images (inside the rules folder).
    """

    def __init__(self, design: PageDesign, fonts: FontSet, width: float, card_plan: Callable, resolve_image: Callable,
                 images=None, height: float | None = None):
        self.d, self.fonts, self.width = design, fonts, width
        self.height = height or width * 1.5  #: the text frame's height (pt): no figure is taller
        self.problems: list[Problem] = []  #: errors found while building (raised before drawing)
        self.findings: list[Problem] = []  #: warnings
        self.card_plan, self.resolve_image, self.images = card_plan, resolve_image, images
        self._styles: dict = {}
        self._keys = 0
        self._short_seen: set = set()

    def style(self, ts: TextStyle, name: str, **kw) -> ParagraphStyle:
        """A ParagraphStyle for ``ts`` (sizes in pt, spaces in mm converted to pt), cached by name and options."""
        key = (name, tuple(sorted(kw.items())))
        if key not in self._styles:
            kw = {"spaceBefore": ts.space_before * MM, "spaceAfter": ts.space_after * MM, **kw}
            self._styles[key] = ParagraphStyle(
                name, fontName=self.fonts.name(ts.font), fontSize=ts.size, leading=ts.size * ts.leading,
                textColor=HexColor(ts.color), wordWrap="CJK", **kw)
        return self._styles[key]

    def para(self, runs, ts: TextStyle, name: str = "body", where: tuple | None = None, **kw) -> KinsokuParagraph:
        """A line-breaking (JLREQ) paragraph of ``runs`` in style ``ts``; ``where`` (rules file,
        line): a last line that stays short is reported there (:meth:`short_last_line`)."""
        p = KinsokuParagraph(markup(runs, self.d, self.fonts, ts.size), self.style(ts, name, **kw))
        if where is not None:
            p.on_short_last = lambda text: self.short_last_line(where, text)
        return p

    def short_last_line(self, where: tuple, text: str) -> None:
        """A warning (once per paragraph and text): the paragraph ends in a line of fewer than
        :data:`cardgen.rulebook.style.MIN_LAST_LINE` characters that no break could pull in."""
        key = (where, text)
        if key in self._short_seen:
            return
        self._short_seen.add(key)
        file, line = where or ("", None)
        self.findings.append(Problem(
            file, line, "rulebook → text", f"the paragraph ends in a line of only {text!r}: no line break before it "
            "leaves the line above evenly set (at most ¼ em more per gap)",
            "reword the end of the paragraph a little (a few characters longer or shorter), or end it at another word",
            severity="warning", code="rules-short-last-line"))

    def story(self, blocks: list, info: BookInfo) -> list:
        """The flowables of the whole book, in order; lead-in paragraphs keep with their table or figure."""
        out: list = []
        for i, b in enumerate(blocks):
            flows = self.block(b, info)
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            after = blocks[i + 2] if i + 2 < len(blocks) else None
            if isinstance(b, L.Para) and flows and (
                    isinstance(nxt, (L.Table, L.Figures, L.CardFigureBlock))
                    or (isinstance(nxt, L.Para) and is_caption(nxt)
                        and isinstance(after, (L.Table, L.Figures, L.CardFigureBlock)))):
                flows[-1].keepWithNext = 1  # a lead-in line stays with its table or figure (and a caption between)
            if isinstance(b, L.Table) and isinstance(nxt, L.Para) and len(L.plain(nxt.runs)) <= SHORT_NOTE and flows \
                    and not isinstance(after, (L.Table, L.Figures, L.CardFigureBlock)):
                flows[-1].keepWithNext = 1  # a one-line note under a table stays with it (not the next one's caption)
            out.extend(flows)
        return out

    def block(self, b, info: BookInfo) -> list:
        """The flowables of one block (heading, paragraph, list, table, figure, note…)."""
        d = self.d
        if isinstance(b, L.Heading):
            if b.title:
                out = [self.para(b.runs, d.title, "title")]
                sub = " ".join(x for x in (info.subtitle, info.version) if x)
                if sub:
                    out.append(self.para([L.Span(sub)], d.subtitle, "subtitle"))
                return out
            depth = max(0, b.level - 2)
            ts = d.heading(depth)
            runs = ([L.Span(b.number + number_gap(b.number))] if b.number else []) + b.runs
            if ts.rule:  # the rule belongs to its heading: close under it, the heading's space after below it
                p = self.para(runs, ts, f"h{b.level}-ruled", keepWithNext=1, spaceAfter=RULE_GAP * MM)
            else:
                p = self.para(runs, ts, f"h{b.level}", keepWithNext=1)
            # 泣き別れ: reportlab keeps no list with a heading (a list is a container KeepTogether
            # leaves out), so a heading also asks for room for itself and two lines of text
            need = (ts.space_before * MM + ts.size * ts.leading + 2 * d.body.size * d.body.leading
                    + ((RULE_GAP + 1.2) * MM + ts.space_after * MM if ts.rule else ts.space_after * MM))
            out = [CondPageBreak(need), p]
            if b.toc_level is not None:
                self._keys += 1
                p._toc = (b.toc_level, toc_text(b), f"h{self._keys}")
            if ts.rule:
                rule = _Rule(self.width, HexColor(ts.rule))
                rule.spaceAfter = ts.space_after * MM
                rule.keepWithNext = 1  # the chain heading → rule → first text stays on one page
                out.append(rule)
            return out
        if isinstance(b, L.Para):
            if all(getattr(r, "code", False) for r in b.runs):  # a code block keeps its own lines
                return [self.para(b.runs, d.body)]
            runs, indent = _indent(b.runs)
            where = b.where or ("", None)
            if indent:  # 字下げ: ideographic spaces typed at the paragraph start, one em each
                return [self.para(runs, d.body, "body-indented", where, alignment=TA_JUSTIFY,
                                  firstLineIndent=indent * d.body.size)]
            return [self.para(b.runs, d.body, "body-justified", where, alignment=TA_JUSTIFY)]
        if isinstance(b, L.ListBlock):
            return [self.list_block(b, info)]
        if isinstance(b, L.Table):
            return [self.table(b)]
        if isinstance(b, L.Figures):
            return self.figures(b)
        if isinstance(b, L.CardFigureBlock):
            return self.card_figure(b)
        if isinstance(b, L.Quote):
            inner = [f for x in b.blocks for f in self.block(x, info)]
            t = RLTable([[inner]], colWidths=[self.width - d.quote.indent * MM])
            t.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), HexColor(d.quote.fill)),
                                   ("FONTNAME", (0, 0), (-1, -1), self.fonts.name(d.body.font)),
                                   ("LINEBEFORE", (0, 0), (0, -1), 2, HexColor(d.quote.bar)),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 2.5 * MM)]))
            t.hAlign = "RIGHT"
            return [t, Spacer(1, d.body.space_after * MM)]
        if isinstance(b, L.Rule):
            return [Spacer(1, 2 * MM), _Rule(self.width, HexColor("#bbbbbb")), Spacer(1, 2 * MM)]
        if isinstance(b, L.PageBreak):
            return [RLPageBreak()]
        if isinstance(b, L.Toc):
            return self.toc()
        if isinstance(b, L.OpenQuestion):
            return note(self, b)
        if isinstance(b, L.OpenQuestionIndex):
            return [OpenQuestionIndex(self, b.items)]
        return []

    def toc(self) -> list:
        """The table of contents flowable, styled per level from the page design."""
        d = self.d
        body = self.fonts.name(d.body.font)
        toc = TableOfContents(dotsMinLevel=0, tableStyle=TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("FONTNAME", (0, 0), (-1, -1), body)]))
        toc.levelStyles = [self.style(d.toc, f"toc{i}", leftIndent=i * d.toc.indent * 2 * MM,
                                      firstLineIndent=0) for i in range(4)]
        return [Spacer(1, 6 * MM), self.para([L.Span(d.toc.title)], d.heading(0), "toctitle"), toc, RLPageBreak()]

    def list_block(self, b: L.ListBlock, info: BookInfo):
        """A list's flowables: bullets, numbers or circled numbers, nested lists indented."""
        d = self.d
        items = []
        for it in b.items:
            flows = [f for x in it for f in self.block(x, info)]
            if it and isinstance(it[-1], L.ListBlock):
                # a nested list ends the item: reportlab drops its last paragraph's space after,
                # so the next item would touch it; give it the gap items have between them
                flows.append(Spacer(1, d.body.space_after * MM))
            items.append(ListItem(flows))
        kw = dict(bulletFontName=self.fonts.name(d.body.font), bulletFontSize=d.body.size,
                  leftIndent=d.list_indent * MM, bulletColor=HexColor(d.strong.color))
        if b.ordered and b.circled:
            return ListFlowable(items, bulletType="1", start=str(b.start),
                                bulletFormat=lambda s: L.circled(int(s)), **kw)
        if b.ordered:
            return ListFlowable(items, bulletType="1", start=str(b.start), bulletFormat="%s.", **kw)
        return ListFlowable(items, bulletType="bullet", start="•", **kw)

    def table(self, b: L.Table):
        """A table's flowable: cells shrunk within the floor to keep numbers and words whole (else an error)."""
        d, ts = self.d, self.d.table
        body = TextStyle(font=ts.font, size=ts.size, leading=ts.leading, color=d.body.color)
        head = TextStyle(font="heading", size=ts.size, leading=ts.leading, color=d.body.color)
        aligns = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
        ncol = max(len(b.head), *(len(r) for r in b.rows)) if b.rows else len(b.head)
        al = [aligns[a] for a in (b.align + ["left"] * ncol)[:ncol]]
        pad = ts.padding * MM
        widths = [0.0] * ncol
        for r in ([b.head] if b.head else []) + b.rows:
            for i, cell in enumerate(r):
                text = "".join(x.text for x in cell if isinstance(x, L.Span))
                icons = sum(1 for x in cell if isinstance(x, L.IconRun))
                natural = self.fonts.width(text, "heading", ts.size) + icons * ts.size \
                    + sum(jlreq.adjustments(text)) * ts.size  # the quarter em beside Latin, compression
                widths[i] = max(widths[i], natural + 2 * pad + 1)
        widths = _fit_widths(widths, self.width)
        rows = []
        for r, cells in enumerate(([b.head] if b.head else []) + b.rows):
            is_head = bool(b.head) and r == 0
            row = []
            for i, c in enumerate(cells):
                st = self.cell_style(b, r, c, widths[i] - 2 * pad, head if is_head else body)
                row.append(self.para(c, st, f"{'th' if is_head else 'td'}{al[i]}{st.size}", alignment=al[i]))
            rows.append(row)
        t = RLTable(rows, colWidths=widths, repeatRows=1 if b.head else 0, hAlign="LEFT")
        t.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.4, HexColor(ts.grid)),
            ("FONTNAME", (0, 0), (-1, -1), self.fonts.name(ts.font)),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), pad), ("BOTTOMPADDING", (0, 0), (-1, -1), pad + 0.5),
            ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            *([("BACKGROUND", (0, 0), (-1, 0), HexColor(ts.header_fill))] if b.head else []),
        ]))
        t.spaceBefore, t.spaceAfter = 1 * MM, 2.5 * MM
        return t

    def image(self, f: L.Figure) -> RLImage:
        """A file image at its own size (pixels ÷ dpi; 72 dpi when the file says none), or the
        width written as its title (mm); scaled down to fit the text frame, with a warning."""
        path = self.resolve_image(f.src)
        (px_w, px_h), dpi = image_size(path), image_dpi(path)
        w = f.width_mm * MM if f.width_mm else px_w / dpi * 72
        h = w * px_h / px_w
        max_h = self.height * 0.9  # room for the space around it and a line of text
        k = min(1.0, self.width / w, max_h / h)
        if k < 1.0:
            self.findings.append(Problem(
                f.where[0] if f.where else "", f.where[1] if f.where else None, "rulebook → image",
                f"{f.src}: {w / MM:.1f} × {h / MM:.1f} mm ({px_w} × {px_h} px at {dpi:g} dpi) is larger than the "
                f"text frame ({self.width / MM:.1f} × {max_h / MM:.1f} mm); scaled down to "
                f"{w * k / MM:.1f} × {h * k / MM:.1f} mm", "save it at a higher dpi or give its width in mm as "
                "the image title: ![図](file.png \"60\")", severity="warning", code="rules-image-scaled"))
        img = RLImage(str(path), width=w * k, height=h * k)
        img.spaceBefore, img.spaceAfter = 1 * MM, 3 * MM
        return img

    def cell_style(self, b: L.Table, r: int, cell: list, room: float, ts: TextStyle) -> TextStyle:
        """The cell's text style: ``ts``, or smaller (down to :data:`MIN_TABLE_SIZE` pt) when a
        number or Latin word of the cell is wider than ``room`` (pt) — such a word is never
        split. Wider still: an error naming the table and row (:attr:`problems`)."""
        words = [w for x in cell if isinstance(x, L.Span) for w in _WORDS.findall(x.text)]
        if not words:
            return ts
        word = max(words, key=lambda w: self.fonts.width(w, "heading", ts.size))
        need = self.fonts.width(word, "heading", ts.size)
        if need <= room + 0.01:
            return ts
        size = math.floor(ts.size * room / need * 4) / 4
        if size >= MIN_TABLE_SIZE:
            return ts.model_copy(update={"size": size})
        file, line = b.where or ("", None)
        head = " | ".join(L.plain(c) for c in b.head[:3])
        self.problems.append(Problem(
            file, line, "rulebook → table",
            f"the table ({head[:40]}) row {r if b.head else r + 1}: {word!r} needs {need / MM:.1f} mm but its column is "
            f"{room / MM:.1f} mm wide even at {MIN_TABLE_SIZE:g} pt; a number or word is never split",
            "give the table fewer columns, shorten the word, or print the rulebook on larger paper (--paper a4)",
            code="rules-table-word"))
        return ts

    def figures(self, b: L.Figures) -> list:
        """A paragraph of images: file images at their size, card images (``card:``) in one
        captioned row (the alt text is the caption) shrunk to the frame."""
        cards, out = [], []
        for f in b.images:
            if f.src.startswith("card:"):
                comp, _, cid = f.src[5:].partition("/")
                cards.append((CardSpec(comp, cid, caption=f.alt), f.width_mm or 22))
            else:
                out.append(self.image(f))
        if cards:
            out.insert(0, self.card_row([s for s, _w in cards], [w for _s, w in cards]))
        return out

    def card_row(self, specs: list, widths_mm: list, title: str = "") -> Flowable:
        """Cards side by side (:func:`cardgen.rulebook.figures.row_layout`), each ``widths_mm``
        wide (the first card's width for all: one row, one size), centred, within the frame."""
        d = self.d
        plan = self.card_plan(specs[0].component, specs[0].card_id)
        w = widths_mm[0] * MM
        lay = row_layout(specs, w, w * plan.height / plan.width, d.figure_gap * MM, CAPTION_SIZE, title)
        return self._figure(lay)

    def card_figure(self, b: L.CardFigureBlock) -> list:
        """``card_row`` / ``table_layout`` of the rules text, laid out and drawn from the card plans."""
        data = b.data
        comp = data["component"]
        spec = [CardSpec(comp, c["id"], c["sideways"], c["caption"]) for c in data.get("cards", [])]
        if data["kind"] == "row":
            return [self.card_row(spec, [data["width"]] * len(spec), data.get("title", ""))]
        first = next((c["id"] for r in data["rivers"] for c in r), None)
        plan = self.card_plan(comp, first)
        w = data["width"] * MM
        back = CardSpec(comp, first, back=True)
        names = {"seat": "{n}番手", "first": "（起家）", "river": "河", "hand": "手札",
                 "wall": "山" if first else f"山（{data['wall']}枚）",  # mid-round the 山 has fewer
                 "dead_wall": f"王牌（{data['dead_wall']}枚）"}
        lay = table_layout([[CardSpec(comp, c["id"], c["sideways"]) for c in r] for r in data["rivers"]],
                           [back] * data["hand"], back, back, w, w * plan.height / plan.width,
                           self.d.figure_gap * MM * 0.5, CAPTION_SIZE, names, data.get("title", ""))
        return [self._figure(lay)]

    def _figure(self, lay) -> Flowable:
        k = min(1.0, self.width / lay.width) if lay.width else 1.0
        fig = CardFigure(lay, self._face, self.fonts, self.fonts.name("heading"), self.images, k)
        fig.hAlign = "CENTER"
        fig.spaceBefore, fig.spaceAfter = 1 * MM, 3 * MM
        return fig

    def _face(self, spec: CardSpec):
        """The face plan a figure draws: the front, or the back (None when the component has none)."""
        return self.card_plan(spec.component, spec.card_id, "back" if spec.back else "front")


#: A paragraph right after a table of at most this many characters is its note: kept with it.
SHORT_NOTE = 60

def is_caption(b: L.Para) -> bool:
    """A short line naming the table or figure after it (``**ロン**（放銃者が払う点数）``): at most
    :data:`CAPTION_CHARS` characters and not a sentence (no closing 。)."""
    text = L.plain(b.runs).strip()
    return len(text) <= CAPTION_CHARS and not text.endswith("。")


#: The longest caption line (characters), see :func:`is_caption`.
CAPTION_CHARS = 30

#: Captions and labels of card figures (pt).
CAPTION_SIZE = 7.0


#: The space (mm) between a heading and the rule under it; the heading's ``space_after`` goes
#: below the rule, so the rule reads as the heading's underline, not as part of the text.
RULE_GAP = 0.8


def number_gap(number: str) -> str:
    """What separates a heading's number from its text: a space after ``1.`` / ``1.2`` (Latin
    digits), an ideographic space after ``第1章`` / ``①`` (Japanese)."""
    return " " if number[-1:].isascii() else "\u3000"


def toc_text(b: L.Heading) -> str:
    """A heading's line in the table of contents: its number and text as the heading prints them."""
    return (b.number + number_gap(b.number) if b.number else "") + b.text


#: Smallest table text (pt) a cell shrinks to so a number or Latin word is not split.
MIN_TABLE_SIZE = 6.0
_WORDS = re.compile(r"[!-~\u00C0-\u024F’×]+")


def _indent(runs: list) -> tuple[list, int]:
    """``runs`` without the ideographic spaces (U+3000) they start with, and how many there were
    (reportlab drops white space at a paragraph start, so the indent becomes a first-line indent)."""
    first = runs[0] if runs else None
    if not isinstance(first, L.Span) or first.code or not first.text.startswith("\u3000"):
        return runs, 0
    text = first.text.lstrip("\u3000")
    n = len(first.text) - len(text)
    rest = [L.Span(text, first.bold, first.italic, first.code, first.ruby)] if text else []
    return rest + list(runs[1:]), n


def _fit_widths(widths: list[float], avail: float) -> list[float]:
    """Natural column widths; when they are too wide, the widest are capped at one common width
    (water-filling) so the table fits ``avail`` pt exactly and narrow columns keep their width."""
    widths = list(widths)
    if sum(widths) <= avail or not widths:
        return widths
    rest, n = avail, len(widths)
    for k, w in enumerate(sorted(widths)):  # the cap: narrow columns fit whole, the others share the rest
        cap = rest / (n - k)
        if w >= cap:
            break
        rest -= w
    return [min(w, cap) for w in widths]


class _Rule(Flowable):
    def __init__(self, width: float, color):
        super().__init__()
        self.width, self.color, self.height = width, color, 1.2 * MM

    def wrap(self, aw, ah):
        return aw, self.height

    def draw(self):
        self.canv.setStrokeColor(self.color)
        self.canv.setLineWidth(0.6)
        self.canv.line(0, self.height - 0.3 * MM, self.width, self.height - 0.3 * MM)


def check_story(blocks: list, design: PageDesign, fonts: FontSet, info: BookInfo, page_mm: tuple[float, float],
                card_plan: Callable, resolve_image: Callable, images=None, icons: dict | None = None) -> list[Problem]:
    """The problems :func:`render_rulebook` would raise or report (for ``cardgen validate``):
    words too wide for a table column; else the warnings of setting the book in memory (images
    scaled down, short last lines that could not be pulled in — only line breaking finds those)."""
    import io

    try:
        findings: list[Problem] = []
        render_rulebook(io.BytesIO(), blocks, design, fonts, info, page_mm, card_plan, resolve_image, images,
                        findings, icons, one_pass=True)
    except CardgenError as exc:
        return exc.problems
    return findings


def render_rulebook(path, blocks: list, design: PageDesign, fonts: FontSet, info: BookInfo,
                    page_mm: tuple[float, float], card_plan: Callable, resolve_image: Callable,
                    images=None, findings: list | None = None, icons: dict | None = None,
                    one_pass: bool = False) -> int:
    """Write the rulebook PDF to ``path`` (a file path or a binary file object). ``page_mm``: paper
    (w, h) in mm. Returns the page count. ``icons``: the game's own icons (name → IconSpec), drawn
    where the text names them (``:coin:``). Warnings (images scaled down to the frame, a paragraph's
    last line that stays short, :meth:`StoryBuilder.short_last_line`) are appended to ``findings``.
    ``one_pass``: one layout pass only (for checking: the lines break the same, page references
    in the contents stay unresolved).

    Raises:
        CardgenError: a number or Latin word too wide for its table column even at
            :data:`MIN_TABLE_SIZE` (naming the table's file:line and the row); nothing is written.
    """
    pw, ph = page_mm[0] * MM, page_mm[1] * MM
    m = {k: v * MM for k, v in design.margins.items()}
    frame = Frame(m["left"], m["bottom"], pw - m["left"] - m["right"], ph - m["top"] - m["bottom"],
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id="body")
    fmt = {"title": info.title, "subtitle": info.subtitle, "version": info.version}

    def furniture(c, doc):
        c.saveState()
        h, f = design.header, design.footer
        if doc.page > 1 and h.text:
            y = ph - m["top"] + 4 * MM
            c.setFont(fonts.name(h.font), h.size)
            c.setFillColor(HexColor(h.color))
            c.drawString(m["left"], y, h.text.format(page=doc.page, **fmt))
            if h.rule:
                c.setStrokeColor(HexColor(h.rule))
                c.setLineWidth(0.4)
                c.line(m["left"], y - 1.5 * MM, pw - m["right"], y - 1.5 * MM)
        if f.text:
            c.setFont(fonts.name(f.font), f.size)
            c.setFillColor(HexColor(f.color))
            c.drawCentredString(pw / 2, m["bottom"] - 8 * MM, f.text.format(page=doc.page, **fmt))
        c.restoreState()

    def draft_mark(c, doc):
        """Drawn when the page is finished, so the mark lies over text and card images alike."""
        if info.draft:
            from cardgen.render.pdf_sheets import draw_draft_mark
            draw_draft_mark(c, pw, ph, fonts)

    doc = _Doc(path if hasattr(path, "write") else str(path), keepTogetherClass=_KeepTogether, pagesize=(pw, ph), invariant=1, title=f"{info.title} {info.version} ルールブック",
               author="cardgen", subject=info.source, creator="cardgen")
    doc.addPageTemplates([PageTemplate("page", [frame], onPage=furniture, onPageEnd=draft_mark)])
    builder = StoryBuilder(design, fonts, frame._width, card_plan, resolve_image, images, frame._height)
    story = builder.story(blocks, info)
    if builder.problems:
        raise CardgenError(builder.problems)
    maker = canvas_class(fonts.name("heading"), fonts.name(design.body.font), icons)
    if one_pass:
        doc.build(story, canvasmaker=maker)
    else:
        doc.multiBuild(story, canvasmaker=maker)
    if findings is not None:  # after drawing: short last lines are found while lines are broken
        findings.extend(builder.findings)
    return doc.page
