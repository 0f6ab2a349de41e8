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
from reportlab.platypus import Frame, KeepTogether, PageTemplate
from reportlab.platypus.doctemplate import BaseDocTemplate

from cardgen.core.errors import CardgenError, Problem
from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.rulebook.book_info import BookInfo
from cardgen.rulebook.design import PageDesign
from cardgen.rulebook.markup import canvas_class
from cardgen.rulebook.story import StoryBuilder
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
    _x, _y, w, h = frame_box(design, page_mm)
    builder = StoryBuilder(design, fonts, w, card_plan, resolve_image, images, h)
    try:
        builder.story(blocks, info)
    except CardgenError as exc:  # what building the story raises (as the build would)
        return exc.problems
    if builder.problems:
        return builder.problems
    canv = _measuring_canvas(design, fonts, page_mm, icons)
    for flowable in builder.reported:
        flowable.wrapOn(canv, w, h)
    return builder.findings


def _measuring_canvas(design: PageDesign, fonts: FontSet, page_mm: tuple[float, float], icons):
    """The canvas the reported flowables are wrapped on (nothing is drawn on it)."""
    canv = canvas_class(fonts.name("heading"), fonts.name(design.body.font), icons)(
        io.BytesIO(), pagesize=(page_mm[0] * MM, page_mm[1] * MM), invariant=1)
    canv.short_last_lines_only = True  # paragraphs wrapped on it find their breaks but build no lines
    return canv


def _check_by_block(blocks, design, fonts, info, page_mm, card_plan, resolve_image, images, icons, memo) -> list[Problem]:
    """:func:`check_story`, one top-level block at a time, with what ``memo`` holds for a block
    taken instead of building and laying it out. The same problems, in the same order: what
    building raises or finds as errors (no block holding one is ever kept, so those are always
    found again); else every block's findings while it is built, in block order, then every
    block's short last lines, in block order, each once. A block's findings depend only on the
    block (its text, numbers, source file:line) and on what ``memo`` is keyed by — the page
    design, the paper, the book info, the fonts and cardgen's code; a block that asks for a card
    face or an image file (a figure) is built every time, and ``memo.keep`` is told so."""
    _x, _y, w, h = frame_box(design, page_mm)
    builder = StoryBuilder(design, fonts, w, card_plan, resolve_image, images, h)
    parts = []  # per block: (block, flows to lay out, findings while built, asked) or (None, kept findings)
    for b in blocks:
        kept = memo.get(b)
        if kept is not None:
            parts.append((None, kept))
            continue
        asked, found, before = memo.asked(), len(builder.findings), builder._with_where
        try:
            flows = builder.block(b, info)
        except CardgenError as exc:  # what building the story raises (as the build would)
            return exc.problems
        parts.append((b, (flows if builder._with_where > before else [], builder.findings[found:],
                          memo.asked() != asked)))
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
        for flowable in flows:
            canv = canv or _measuring_canvas(design, fonts, page_mm, icons)
            flowable.wrapOn(canv, w, h)
        found_short = builder.findings[n:]
        memo.keep(b, found_built, found_short, asked)
        built += found_built
        short += found_short
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
    characters wide)."""
    pw, ph = page_mm[0] * MM, page_mm[1] * MM
    m = page_margins(design, page_mm)
    return m["left"], m["bottom"], pw - m["left"] - m["right"], ph - m["top"] - m["bottom"]


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
    frame = Frame(*frame_box(design, page_mm), leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                  id="body")
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
    builder = StoryBuilder(design, fonts, frame._width, card_plan, resolve_image, images, frame._height)
    story = builder.story(blocks, info)
    if builder.problems:
        raise CardgenError(builder.problems)
    maker = canvas_class(fonts.name("heading"), fonts.name(design.body.font), icons)
    doc.multiBuild(story, canvasmaker=maker)
    if findings is not None:  # after drawing: short last lines are found while lines are broken
        findings.extend(builder.findings)
    return doc.page
