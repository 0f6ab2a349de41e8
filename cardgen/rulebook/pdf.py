"""The rulebook PDF: the story (:mod:`cardgen.rulebook.story`) set on pages → PDF.

The document is built with ``multiBuild`` (two passes, so the table of contents knows its
page numbers) and ``invariant=1`` (same input, same bytes). Every page but the first has a
running header (game title and manifest version); every page a page number. Headings are also
PDF bookmarks. Card images are drawn from the same :class:`CardPlan` as the print sheets.
:func:`check_story` sets the book in memory to find the same problems without writing (validate).
"""
from __future__ import annotations

import io
from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.platypus import KeepTogether, PageTemplate, Table
from reportlab.platypus.doctemplate import BaseDocTemplate

from cardgen.core.errors import CardgenError, Problem
from cardgen.core.file_clock import FileClock
from cardgen.core.sandbox import BudgetExceeded
from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.rulebook.book_info import BookInfo
from cardgen.rulebook.design import PageDesign
from cardgen.rulebook.grid import GridFrame, grid_offset, grid_pitch
from cardgen.rulebook.markup import canvas_class
from cardgen.rulebook.blocks import source_of
from cardgen.rulebook.story import StoryBuilder
from cardgen.rulebook.story_tables import MIN_TABLE_SIZE
from cardgen.rulebook.vertical_blocks import VerticalCover
from cardgen.data.editions import is_latin


class _KeepTogether(KeepTogether):
    """A keepWithNext group (a heading, its rule and its first text). reportlab's KeepTogether
    checks that the group fits without its first flowable's space before, though the frame puts
    that space in when the group is laid down: a heading near the foot of a page stayed there
    while the text it keeps with went over. Asking for that space up front closes the gap."""

    def getSpaceBefore(self):
        """The space before the group: its first flowable's (pt)."""
        return self._content[0].getSpaceBefore() if self._content else 0

    def wrap(self, aW, aH):
        """reportlab hook; on the baseline grid each flowable of the group may start up to a line
        lower than reportlab reckons (:class:`cardgen.rulebook.grid.GridFrame`): the group asks
        for that much more room, so a heading does not stay at a page foot without its text."""
        out = super().wrap(aW, aH)
        self._H += getattr(getattr(self, "_frame", None), "grid_pitch", 0.0) * len(self._content)
        return out



#: What the layout's budget per rules file is called in its message.
LAYING_OUT = "laying out"
#: CPU seconds the layout of one rules file may take in all (None: the evaluation budget,
#: :data:`cardgen.core.sandbox.MAX_SECONDS`, 20 s).
LAYOUT_SECONDS: float | None = None


def layout_stopped(clock: FileClock) -> Problem:
    """The finding for a rules file whose layout used its whole budget (``rules-budget``)."""
    return Problem(clock.stopped_in or "", None, "rulebook", clock.message(),
                   "split this file's long tables (a table of hundreds of rows), deep lists or long paragraphs "
                   "into smaller ones, or over several files", code="rules-budget")


class _Doc(BaseDocTemplate):
    """Notifies the table of contents and adds PDF bookmarks for headings; charges the layout's
    time to the rules file of each flowable (``clock``, :class:`cardgen.core.file_clock.FileClock`)."""

    clock: FileClock | None = None

    def handle_flowable(self, flowables):
        """Lay out the next flowable, its time charged to its rules file (the parts of a split
        flowable carry no mark: they go on the file before them)."""
        if self.clock is not None and flowables:
            source = getattr(flowables[0], "_rules_file", None)
            if source is not None:
                self.clock.switch(source or None)
        super().handle_flowable(flowables)

    def afterFlowable(self, flowable):
        entry = getattr(flowable, "_toc", None)
        if entry is None:
            return
        level, text, key = entry
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(text, key, level=level, closed=False)
        self.notify("TOCEntry", (level, text, self.page, key))



def check_story(blocks: list, design: PageDesign, fonts: FontSet, info: BookInfo, page_mm: tuple[float, float],
                card_plan: Callable, resolve_image: Callable, images=None, icons: dict | None = None,
                memo=None) -> list[Problem]:
    """The problems :func:`render_rulebook` would raise or report (for ``cardgen validate``), in
    its order: words too wide for a table column (found while the story is built); else the
    warnings: images scaled down to the frame (found while the story is built), then the short
    last lines that could not be pulled in (found only by breaking lines).

    Nothing is paginated or drawn: only the story's flowables that hold a paragraph whose short
    last line is reported (body paragraphs, also inside lists and quotes,
    :attr:`cardgen.rulebook.story.StoryBuilder.reported`) are wrapped, each once at the text
    frame's width (pt) as the page frame wraps it. Lines break by width alone, and a paragraph
    split over two pages keeps the lines it was broken into, so these are the lines of the PDF.
    Tables, notes, figures and the table of contents hold no such paragraph and are not laid out.
    ``icons`` is accepted for the signature of :func:`render_rulebook` (icons are drawn, never measured
    here: their widths are in the markup).

    ``memo`` (:class:`cardgen.rulebook.block_memo.BlockMemo`, or None): what each top-level
    block found before, by the block itself (:func:`_check_by_block`): a block found there is
    neither built nor laid out again."""
    if memo is not None:
        return _check_by_block(blocks, design, fonts, info, page_mm, card_plan, resolve_image, images, icons, memo)
    _x, _y, w, _h = frame_box(design, page_mm)
    h = text_height(design, page_mm)
    builder = StoryBuilder(design, fonts, w, card_plan, resolve_image, images, h)
    with FileClock(LAYING_OUT, LAYOUT_SECONDS) as clock:  # each rules file under its own budget, as the build lays it out
        try:
            story = builder.story(blocks, info, clock)
            if builder.problems:
                return builder.problems
            canv = _measuring_canvas(design, fonts, page_mm, icons)
            for flowable in builder.reported:
                clock.switch(getattr(flowable, "_rules_file", "") or None)
                flowable.wrapOn(canv, w, h)
            _split_tables(story, lambda: _measuring_canvas(design, fonts, page_mm, icons, lines=True), w, h, clock)
        except CardgenError as exc:  # what building the story raises (as the build would)
            return exc.problems
        except BudgetExceeded:
            return [layout_stopped(clock)]
    return builder.findings


def _measuring_canvas(design: PageDesign, fonts: FontSet, page_mm: tuple[float, float], icons, lines: bool = False):
    """The canvas the reported flowables are wrapped on (nothing is drawn on it); ``lines``: one
    whose paragraphs build their lines (for tables, whose row heights need them)."""
    canv = canvas_class(fonts.name("heading"), fonts.name(design.body.font), icons)(
        io.BytesIO(), pagesize=(page_mm[0] * MM, page_mm[1] * MM), invariant=1)
    canv.short_last_lines_only = not lines  # paragraphs wrapped on it find their breaks but build no lines
    return canv


#: Most pages one table is split over while it is checked (a table holds at most 1,000 rows).
MAX_TABLE_PAGES = 1_000


def _split_tables(flows: list, new_canvas: Callable, w: float, h: float, clock: FileClock) -> None:
    """The top-level tables among ``flows`` split over pages of the text frame (``w`` × ``h`` pt)
    as the build splits them, each under its rules file's clock: a table longer than a page is
    laid out again for each page, which is what makes a long table's layout long — so validate
    stops where the build would, naming the same file. A table whose rows could all fit on one
    page at the smallest table text (:data:`cardgen.rulebook.story_tables.MIN_TABLE_SIZE` a row)
    is not laid out here: the check stays as cheap as before for every ordinary table."""
    canv = None
    for f in flows:
        if not isinstance(f, Table) or len(f._cellvalues) * MIN_TABLE_SIZE <= h:
            continue
        clock.switch(getattr(f, "_rules_file", "") or None)
        canv = canv or new_canvas()
        part = f
        for _ in range(MAX_TABLE_PAGES):
            if part.wrapOn(canv, w, h)[1] <= h:
                break
            pieces = part.splitOn(canv, w, h)
            if len(pieces) < 2:
                break
            part = pieces[-1]


def _check_by_block(blocks, design, fonts, info, page_mm, card_plan, resolve_image, images, icons, memo) -> list[Problem]:
    """:func:`check_story`, one top-level block at a time, with what ``memo`` holds for a block
    taken instead of building and laying it out. The same problems, in the same order: what
    building raises or finds as errors (no block holding one is ever kept, so those are always
    found again); else every block's findings while it is built, in block order, then every
    block's short last lines, in block order, each once. A block's findings depend only on the
    block (its text, numbers, source file:line) and on what ``memo`` is keyed by — the page
    design, the paper, the book info, the fonts and cardgen's code; a block that asks for a card
    face or an image file (a figure) is built every time, and ``memo.keep`` is told so."""
    with FileClock(LAYING_OUT, LAYOUT_SECONDS) as clock:  # each rules file under its own budget, as the build lays it out
        try:
            return _check_blocks(blocks, design, fonts, info, page_mm, card_plan, resolve_image, images, icons, memo,
                                 clock)
        except BudgetExceeded:
            return [layout_stopped(clock)]


def _check_blocks(blocks, design, fonts, info, page_mm, card_plan, resolve_image, images, icons, memo,
                  clock: FileClock) -> list[Problem]:
    """:func:`_check_by_block` under ``clock``."""
    _x, _y, w, _h = frame_box(design, page_mm)
    h = text_height(design, page_mm)
    builder = StoryBuilder(design, fonts, w, card_plan, resolve_image, images, h)
    parts = []  # per block: (block, flows to lay out, findings while built, asked) or (None, kept findings)
    tables: list = []  # the tables of the blocks built, split over pages below
    for b in blocks:
        kept = memo.get(b)
        if kept is not None:
            parts.append((None, kept))
            continue
        asked, found, before = memo.asked(), len(builder.findings), builder._with_where
        clock.switch(source_of(b))
        try:
            flows = builder.block(b, info)
        except CardgenError as exc:  # what building the story raises (as the build would)
            return exc.problems
        parts.append((b, (flows if builder._with_where > before else [], builder.findings[found:],
                          memo.asked() != asked)))
        for f in flows:
            f._rules_file = source_of(b) or ""
        tables += [f for f in flows if isinstance(f, Table)]
    if builder.problems:
        return builder.problems
    canv = None
    built, short = [], []
    for b, part in parts:
        if b is None:
            built += part[0]
            short += part[1]
            continue
        flows, found_built, asked = part
        n = len(builder.findings)
        clock.switch(source_of(b))
        for flowable in flows:
            canv = canv or _measuring_canvas(design, fonts, page_mm, icons)
            flowable.wrapOn(canv, w, h)
        found_short = builder.findings[n:]
        memo.keep(b, found_built, found_short, asked)
        built += found_built
        short += found_short
    _split_tables(tables, lambda: _measuring_canvas(design, fonts, page_mm, icons, lines=True), w, h, clock)
    seen: set = set()
    once = []
    for p in short:  # a paragraph's short last line is reported once (StoryBuilder.short_last_line)
        if (p.file, p.line, p.message) not in seen:
            seen.add((p.file, p.line, p.message))
            once.append(p)
    return built + once


def _latin_spaces(text: str, info: BookInfo) -> str:
    """A header or footer of a Latin-script edition with the design's ideographic spaces as plain
    ones (its fonts may have no U+3000)."""
    return text.replace("\u3000", " ") if is_latin(info.language) else text


def page_margins(design: PageDesign, page_mm: tuple[float, float]) -> dict[str, float]:
    """The page margins in pt: the design's, the left and right ones moved alike so the text
    frame holds a whole number of body characters (JLREQ §4.2: the line length of the 基本版面 is
    a whole number of characters; 120 mm at 9 pt would be 37.8 em, it becomes 38 em)."""
    pw = page_mm[0] * MM
    m = dict(design.margins)
    width = pw - m["left"] - m["right"]
    em = design.body.size
    whole = max(1, round(width / em)) * em
    if whole > pw - 2 * MM:  # a page too small for the design's margins: left as they are
        return m
    shift = (width - whole) / 2
    return {**m, "left": m["left"] + shift, "right": m["right"] + shift}


def frame_box(design: PageDesign, page_mm: tuple[float, float]) -> tuple[float, float, float, float]:
    """The text frame on a page of ``page_mm`` (w, h in mm) inside :func:`page_margins`:
    ``(x, y, width, height)`` in pt, from the page's lower left corner (a whole number of body
    characters wide). On the baseline grid (``design.baseline_grid``) its top is
    :func:`cardgen.rulebook.grid.grid_offset` above the top margin, so the first line of a page
    prints at the margin and every body baseline is a whole number of leadings below the frame top."""
    pw, ph = page_mm[0] * MM, page_mm[1] * MM
    m = page_margins(design, page_mm)
    raised = grid_offset(design) if design.baseline_grid else 0.0
    return m["left"], m["bottom"], pw - m["left"] - m["right"], ph - m["top"] - m["bottom"] + raised


def text_height(design: PageDesign, page_mm: tuple[float, float]) -> float:
    """The height (pt) a block may take on a page: the frame's below its first grid line (the top
    and bottom margins' distance), the largest an image or figure is scaled to."""
    return frame_box(design, page_mm)[3] - (grid_offset(design) if design.baseline_grid else 0.0)


def render_rulebook(path, blocks: list, design: PageDesign, fonts: FontSet, info: BookInfo,
                    page_mm: tuple[float, float], card_plan: Callable, resolve_image: Callable,
                    images=None, findings: list | None = None, icons: dict | None = None) -> int:
    """Write the rulebook PDF to ``path`` (a file path or a binary file object). ``page_mm``: paper
    (w, h) in mm. Returns the page count. ``icons``: the game's own icons (name → IconSpec), drawn
    where the text names them (``:coin:``). Warnings (images scaled down to the frame, a paragraph's
    last line that stays short, :meth:`cardgen.rulebook.story.StoryBuilder.short_last_line`) are appended to ``findings``.

    Raises:
        CardgenError: a number or Latin word too wide for its table column even at
            :data:`cardgen.rulebook.story_tables.MIN_TABLE_SIZE` (naming the table's file:line and the row); nothing is written.
    """
    pw, ph = page_mm[0] * MM, page_mm[1] * MM
    m = page_margins(design, page_mm)
    on_grid = design.baseline_grid
    frame = GridFrame(*frame_box(design, page_mm), leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                      id="body", pitch=grid_pitch(design) if on_grid else 0.0,
                      offset=grid_offset(design) if on_grid else 0.0)
    fmt = {"title": info.title, "subtitle": info.subtitle, "version": info.version}

    def furniture(c, doc):
        if doc.page == 1 and story and isinstance(story[0], VerticalCover):
            return  # a cover page: its number counts, but no running header or folio is printed on it
        c.saveState()
        h, f = design.header, design.footer
        if doc.page > 1 and h.text:
            y = ph - m["top"] + 4 * MM
            c.setFont(fonts.name(h.font), h.size)
            c.setFillColor(HexColor(h.color))
            c.drawString(m["left"], y, _latin_spaces(h.text.format(page=doc.page, **fmt), info))
            if h.rule:
                c.setStrokeColor(HexColor(h.rule))
                c.setLineWidth(0.4)
                c.line(m["left"], y - 1.5 * MM, pw - m["right"], y - 1.5 * MM)
        if f.text:
            c.setFont(fonts.name(f.font), f.size)
            c.setFillColor(HexColor(f.color))
            c.drawCentredString(pw / 2, m["bottom"] - 8 * MM, _latin_spaces(f.text.format(page=doc.page, **fmt), info))
        c.restoreState()

    def draft_mark(c, doc):
        """Drawn when the page is finished, so the mark lies over text and card images alike."""
        if info.draft:
            from cardgen.render.pdf_sheets import draw_draft_mark
            draw_draft_mark(c, pw, ph, fonts)

    doc = _Doc(path if hasattr(path, "write") else str(path), keepTogetherClass=_KeepTogether, pagesize=(pw, ph), invariant=1, title=f"{info.title} {info.version} {info.words.get('rulebook', 'ルールブック')}",
               author="cardgen", subject=info.source, creator="cardgen")
    doc.addPageTemplates([PageTemplate("page", [frame], onPage=furniture, onPageEnd=draft_mark)])
    builder = StoryBuilder(design, fonts, frame._width, card_plan, resolve_image, images, text_height(design, page_mm))
    # each rules file is laid out under its own budget (its flowables, over every pass), named when it runs out
    with FileClock(LAYING_OUT, LAYOUT_SECONDS) as clock:
        try:
            story = builder.story(blocks, info, clock)
            if builder.problems:
                raise CardgenError(builder.problems)
            maker = canvas_class(fonts.name("heading"), fonts.name(design.body.font), icons)
            doc.clock = clock
            doc.multiBuild(story, canvasmaker=maker)
        except BudgetExceeded:
            raise CardgenError(layout_stopped(clock)) from None
    if findings is not None:  # after drawing: short last lines are found while lines are broken
        findings.extend(builder.findings)
    return doc.page
