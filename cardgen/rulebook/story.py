"""Rulebook blocks (:mod:`cardgen.rulebook.blocks`) → reportlab Platypus flowables (the story).

:class:`StoryBuilder` turns each block into flowables with the styles of a
:class:`cardgen.rulebook.design.PageDesign`: headings (their number, rule and table-of-contents
entry), paragraphs (JLREQ line breaking, 字下げ, justified), lists, quotes, rules, page breaks and
the table of contents. Tables are made by :mod:`cardgen.rulebook.story_tables`, images and card
figures by :mod:`cardgen.rulebook.story_figures`, open-question notes by
:mod:`cardgen.rulebook.notes`; the document around the story is :mod:`cardgen.rulebook.pdf`.
"""
from __future__ import annotations

from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (CondPageBreak, Flowable, ListFlowable, ListItem, PageBreak as RLPageBreak, Paragraph,
                                Spacer, TableStyle)
from reportlab.platypus.tableofcontents import TableOfContents

from cardgen.core.errors import Problem
from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.rulebook import blocks as L
from cardgen.rulebook.book_info import BookInfo
from cardgen.rulebook.design import PageDesign, TextStyle
from cardgen.rulebook.grid import WholeLines, grid_pitch, whole_lines
from cardgen.rulebook.kinsoku import KinsokuParagraph
from cardgen.rulebook.markup import markup
from cardgen.rulebook.notes import OpenQuestionIndex, note
from cardgen.rulebook.numbering import circled
from cardgen.rulebook.story_figures import card_figure, figures
from cardgen.rulebook.story_tables import row_split_table, table
from cardgen.rulebook.words import BOOK_WORDS
from cardgen.data.editions import is_latin
from cardgen.layout.western import MIN_HYPHENATED, pyphen_language
from cardgen.rulebook.vertical_blocks import VerticalColumn, VerticalCover


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
        self._with_where = 0  #: paragraphs made so far whose short last line is reported
        #: the story's top-level flowables (in order) holding such a paragraph (a body paragraph,
        #: a list or quote of them): what the check lays out (:func:`cardgen.rulebook.pdf.check_story`)
        self.reported: list = []
        self._keys = 0
        self._short_seen: set = set()
        self.words: dict = BOOK_WORDS["ja"]  #: the rulebook's own words (the book info's, from story/block)
        self.latin = False  #: a Latin-script edition: Western paragraphs (reportlab's, hyphenated)
        self.hyphenation = ""  #: pyphen's dictionary name for them (``en_US``)
        #: the baseline grid's pitch (pt; 0: no grid): body paragraphs' spaces are whole lines of it
        self.pitch = grid_pitch(design) if design.baseline_grid else 0.0
        self._tight = 0  #: inside a list: its paragraphs have no space before or after (one line pitch apart)

    def style(self, ts: TextStyle, name: str, **kw) -> ParagraphStyle:
        """A ParagraphStyle for ``ts`` (sizes in pt, spaces in mm converted to pt), cached by name and options."""
        key = (name, self.latin, tuple(sorted(kw.items())))
        if key not in self._styles:
            before, after = ts.space_before, ts.space_after
            if self.pitch and ts is self.d.body:  # body text on the grid: its spaces are whole lines
                before, after = whole_lines(before, self.pitch), whole_lines(after, self.pitch)
            kw = {"spaceBefore": before, "spaceAfter": after, "leading": ts.size * ts.leading, **kw}
            # a Latin-script edition: words broken at spaces and hyphenated by reportlab with pyphen
            wrap = {"wordWrap": None, "hyphenationLang": self.hyphenation, "embeddedHyphenation": 1,
                    "hyphenationMinWordLength": MIN_HYPHENATED} if self.latin else {"wordWrap": "CJK"}
            self._styles[key] = ParagraphStyle(
                name, fontName=self.fonts.name(ts.font), fontSize=ts.size,
                textColor=HexColor(ts.color), **wrap, **kw)
        return self._styles[key]

    def para(self, runs, ts: TextStyle, name: str = "body", where: tuple | None = None, **kw) -> Paragraph:
        """A line-breaking (JLREQ) paragraph of ``runs`` in style ``ts``; ``where`` (rules file,
        line): a last line that stays short is reported there (:meth:`short_last_line`). In a
        Latin-script edition, a Western paragraph: reportlab's own breaking at spaces with pyphen
        hyphenation (no JLREQ classes, no short-last-line report)."""
        grid_body = bool(self.pitch) and ts is self.d.body
        if self._tight and grid_body:
            kw = {**kw, "spaceBefore": 0.0, "spaceAfter": 0.0}
        if self.latin:
            p = Paragraph(markup(runs, self.d, self.fonts, ts.size), self.style(ts, name, **kw))
            p._grid_body = grid_body
            return p
        p = KinsokuParagraph(markup(runs, self.d, self.fonts, ts.size), self.style(ts, name, **kw))
        p._grid_body = grid_body
        if ts is self.d.title or ts is self.d.subtitle or any(ts is h for h in self.d.headings):
            p.phrases = "strict"  # a title or heading breaks only between phrases (文節)
        if where is not None:
            p.on_short_last = lambda text: self.short_last_line(where, text)
            self._with_where += 1
        return p

    def short_last_line(self, where: tuple, text: str) -> None:
        """A warning (once per paragraph and text): the paragraph ends in a line of fewer than
        :data:`cardgen.rulebook.kinsoku.MIN_LAST_LINE` characters that no break could pull in."""
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

    def story(self, blocks: list, info: BookInfo, clock=None) -> list:
        """The flowables of the whole book, in order; lead-in paragraphs keep with their table or figure.

        Each top-level flowable is marked with the rules file its block came from (``_rules_file``,
        "" for none: :func:`cardgen.rulebook.blocks.source_of`); ``clock``
        (:class:`cardgen.core.file_clock.FileClock`) is switched to that file while its blocks are built."""
        out: list = []
        for i, b in enumerate(blocks):
            before = self._with_where
            source = L.source_of(b)
            if clock is not None:
                clock.switch(source)
            flows = self.block(b, info)
            for f in flows:
                f._rules_file = source or ""
            if self._with_where > before:
                self.reported.extend(flows)
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
        self.words = {**BOOK_WORDS["ja"], **info.words}
        self.latin = is_latin(info.language)
        self.hyphenation = pyphen_language(info.language) or ""
        d = self.d
        if isinstance(b, L.Heading):
            if b.title:
                sub = " ".join(x for x in (info.subtitle, info.version) if x)
                if b.vertical:  # <!-- vertical -->: a cover page, the title set vertically
                    return [VerticalCover(L.plain(b.runs), sub, d, self.fonts), RLPageBreak()]
                out = [self.para(b.runs, d.title, "title")]
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
            need = (ts.space_before + ts.size * ts.leading + 2 * d.body.size * d.body.leading
                    + ((RULE_GAP + 1.2) * MM + ts.space_after if ts.rule else ts.space_after)
                    + 2 * self.pitch)  # on the grid, the heading's lines and the text's start round up
            out = [CondPageBreak(need), p]
            if self.pitch:  # centred in the whole grid lines it takes with its rule and space after
                p.grid_follow = (1.2 * MM + ts.space_after) if ts.rule else 0.0
            if b.toc_level is not None:
                self._keys += 1
                p._toc = (b.toc_level, toc_text(b), f"h{self._keys}")
            if ts.rule:
                rule = _Rule(self.width, HexColor(ts.rule))
                rule.spaceAfter = ts.space_after
                rule.keepWithNext = 1  # the chain heading → rule → first text stays on one page
                rule.grid_attached = True  # right under its heading, not on the next grid line
                out.append(rule)
            return out
        if isinstance(b, L.Para):
            if b.vertical:  # <!-- vertical -->: the paragraph set in columns
                return [VerticalColumn(_plain_with_icons(b.runs), d.body, self.fonts)]
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
            return [table(self, b)]
        if isinstance(b, L.Figures):
            return figures(self, b)
        if isinstance(b, L.CardFigureBlock):
            return card_figure(self, b)
        if isinstance(b, L.Quote):
            inner = [f for x in b.blocks for f in self.block(x, info)]
            t = row_split_table(self, [[inner]], colWidths=[self.width - d.quote.indent])
            t.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), HexColor(d.quote.fill)),
                                   ("FONTNAME", (0, 0), (-1, -1), self.fonts.name(d.body.font)),
                                   ("LINEBEFORE", (0, 0), (0, -1), 2, HexColor(d.quote.bar)),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 2.5 * MM)]))
            t.hAlign = "RIGHT"
            if self.pitch:  # the box takes whole lines; the space after it rounds up to the grid
                t.spaceAfter = d.body.space_after
                return [t]
            return [t, Spacer(1, d.body.space_after)]
        if isinstance(b, L.Rule):
            if self.pitch:  # one grid line with the rule across its middle
                return [_Rule(self.width, HexColor("#bbbbbb"), self.pitch)]
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
        grid = [("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)] if self.pitch else []
        toc = TableOfContents(dotsMinLevel=0, tableStyle=TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("FONTNAME", (0, 0), (-1, -1), body), *grid]))
        # on the grid, each entry is one grid line (its rows lie on the body's lines)
        lead = {"leading": self.pitch, "spaceBefore": 0.0, "spaceAfter": 0.0} if self.pitch else {}
        toc.levelStyles = [self.style(d.toc, f"toc{i}", leftIndent=i * d.toc.indent * 2,
                                      firstLineIndent=0, **lead) for i in range(4)]
        return [Spacer(1, 6 * MM), self.para([L.Span(self.words["contents"] if d.toc.title == BOOK_WORDS["ja"]["contents"] else d.toc.title)],
                                                  d.heading(0), "toctitle"), toc, RLPageBreak()]

    def list_block(self, b: L.ListBlock, info: BookInfo):
        """A list's flowables: bullets, numbers or circled numbers, nested lists indented."""
        d = self.d
        items = []
        for it in b.items:
            self._tight += bool(self.pitch)
            try:
                flows = [f for x in it for f in self.block(x, info)]
            finally:
                self._tight -= bool(self.pitch)
            if self.pitch:  # a box, table or figure in the item takes whole lines, so the text after it is on the grid
                spaced = []
                for f in flows:  # two paragraphs of one item: a blank grid line between them
                    if spaced and isinstance(f, Paragraph) and isinstance(spaced[-1], Paragraph):
                        spaced.append(Spacer(1, self.pitch))
                    spaced.append(f)
                flows = [f if _on_grid(f) or isinstance(f, Spacer) else WholeLines(f, self.pitch) for f in spaced]
            if it and isinstance(it[-1], L.ListBlock) and not self.pitch:
                # a nested list ends the item: reportlab drops its last paragraph's space after,
                # so the next item would touch it; give it the gap items have between them
                flows.append(Spacer(1, d.body.space_after))
            items.append(ListItem(flows))
        kw = dict(bulletFontName=self.fonts.name(d.body.font), bulletFontSize=d.body.size,
                  leftIndent=d.list_indent, bulletColor=HexColor(d.strong.color))
        if self.pitch and not self._tight:  # on the grid: items one line apart, a whole line after the list
            kw.update(spaceBefore=0.0, spaceAfter=whole_lines(d.body.space_after, self.pitch))
        if b.ordered and b.circled:
            return ListFlowable(items, bulletType="1", start=str(b.start),
                                bulletFormat=lambda s: circled(int(s)), **kw)
        if b.ordered:
            return ListFlowable(items, bulletType="1", start=str(b.start), bulletFormat="%s.", **kw)
        return ListFlowable(items, bulletType="bullet", start="•", **kw)


#: A paragraph right after a table of at most this many characters is its note: kept with it.
SHORT_NOTE = 60

def is_caption(b: L.Para) -> bool:
    """A short line naming the table or figure after it (``**ロン**（放銃者が払う点数）``): at most
    :data:`CAPTION_CHARS` characters and not a sentence (no closing 。)."""
    text = L.plain(b.runs).strip()
    return len(text) <= CAPTION_CHARS and not text.endswith("。")


#: The longest caption line (characters), see :func:`is_caption`.
CAPTION_CHARS = 30

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


class _Rule(Flowable):
    """A horizontal rule ``height`` pt high (default 1.2 mm: under a heading, near its top; a grid
    line's height: across its middle)."""

    def __init__(self, width: float, color, height: float | None = None):
        super().__init__()
        self.width, self.color = width, color
        self.height = height or 1.2 * MM
        self.at = self.height / 2 if height else self.height - 0.3 * MM

    def wrap(self, aw, ah):
        return aw, self.height

    def draw(self):
        self.canv.setStrokeColor(self.color)
        self.canv.setLineWidth(0.6)
        self.canv.line(0, self.at, self.width, self.at)


def _on_grid(f) -> bool:
    """Is ``f`` body text on the grid by itself: a paragraph whose lines are one grid pitch apart
    (list paragraphs, with no space around them), or a nested list of them?"""
    if isinstance(f, ListFlowable):
        return True
    return isinstance(f, Paragraph) and getattr(f, "_grid_body", False) and not f.style.spaceBefore \
        and not f.style.spaceAfter


def _plain_with_icons(runs: list) -> str:
    """The runs of a vertical paragraph as card text: icons as ``:name:``, ruby as ``{base|reading}``."""
    return "".join(f":{r.name}:" if isinstance(r, L.IconRun) else (f"{{{r.text}|{r.ruby}}}" if r.ruby else r.text)
                   for r in runs)
