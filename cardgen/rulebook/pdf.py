"""The rulebook PDF: the story (:mod:`cardgen.rulebook.story`) set on pages → PDF.

The document is built with ``multiBuild`` (two passes, so the table of contents knows its
page numbers) and ``invariant=1`` (same input, same bytes). Every page but the first has a
running header (game title and manifest version); every page a page number. Headings are also
PDF bookmarks. Card images are drawn from the same :class:`CardPlan` as the print sheets.
:func:`check_story` sets the book in memory to find the same problems without writing (validate).
"""
from __future__ import annotations

from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.platypus import Frame, KeepTogether, PageTemplate
from reportlab.platypus.doctemplate import BaseDocTemplate

from cardgen.core.errors import CardgenError, Problem
from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.rulebook.design import PageDesign
from cardgen.rulebook.markup import canvas_class
from cardgen.rulebook.story import BookInfo, StoryBuilder


class _KeepTogether(KeepTogether):
    """A keepWithNext group (a heading, its rule and its first text). reportlab's KeepTogether
    checks that the group fits without its first flowable's space before, though the frame puts
    that space in when the group is laid down: a heading near the foot of a page stayed there
    while the text it keeps with went over. Asking for that space up front closes the gap."""

    def getSpaceBefore(self):
        """The space before the group: its first flowable's (pt)."""
        return self._content[0].getSpaceBefore() if self._content else 0



def _not_drawn(*_args, **_kwargs) -> None:
    """A flowable's ``drawOn`` while the book is only being checked."""


class _LayoutFrame(Frame):
    """A frame that lays its flowables out — wrap and split, so lines, tables and pages break
    exactly as in the PDF — without drawing them (:func:`check_story`): every finding of the
    rulebook comes from laying out (line breaking, table widths, image sizes), none from drawing,
    and drawing was a third of the check's time."""

    def add(self, flowable, canv, trySplit=0):
        """``Frame.add`` with the flowable's ``drawOn`` a no-op for this one call."""
        own = vars(flowable).get("drawOn") if hasattr(flowable, "__dict__") else None
        try:
            flowable.drawOn = _not_drawn
        except AttributeError:  # a flowable that takes no attributes is drawn (into memory)
            return Frame.add(self, flowable, canv, trySplit)
        try:
            return Frame.add(self, flowable, canv, trySplit)
        finally:
            if own is None:
                del flowable.drawOn
            else:
                flowable.drawOn = own

    _add = add


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
                card_plan: Callable, resolve_image: Callable, images=None, icons: dict | None = None) -> list[Problem]:
    """The problems :func:`render_rulebook` would raise or report (for ``cardgen validate``):
    words too wide for a table column; else the warnings of laying the book out in memory, one
    pass, nothing drawn (images scaled down, short last lines that could not be pulled in — only
    line breaking finds those)."""
    import io

    try:
        findings: list[Problem] = []
        render_rulebook(io.BytesIO(), blocks, design, fonts, info, page_mm, card_plan, resolve_image, images,
                        findings, icons, one_pass=True, draw=False)
    except CardgenError as exc:
        return exc.problems
    return findings


def render_rulebook(path, blocks: list, design: PageDesign, fonts: FontSet, info: BookInfo,
                    page_mm: tuple[float, float], card_plan: Callable, resolve_image: Callable,
                    images=None, findings: list | None = None, icons: dict | None = None,
                    one_pass: bool = False, draw: bool = True) -> int:
    """Write the rulebook PDF to ``path`` (a file path or a binary file object). ``page_mm``: paper
    (w, h) in mm. Returns the page count. ``icons``: the game's own icons (name → IconSpec), drawn
    where the text names them (``:coin:``). Warnings (images scaled down to the frame, a paragraph's
    last line that stays short, :meth:`cardgen.rulebook.story.StoryBuilder.short_last_line`) are appended to ``findings``.
    ``one_pass``: one layout pass only (for checking: the lines break the same, page references
    in the contents stay unresolved). ``draw=False``: flowables are laid out but not drawn (the
    pages written hold only their header and footer; for checking).

    Raises:
        CardgenError: a number or Latin word too wide for its table column even at
            :data:`cardgen.rulebook.story_tables.MIN_TABLE_SIZE` (naming the table's file:line and the row); nothing is written.
    """
    pw, ph = page_mm[0] * MM, page_mm[1] * MM
    m = {k: v * MM for k, v in design.margins.items()}
    frame = (_LayoutFrame if not draw else Frame)(m["left"], m["bottom"], pw - m["left"] - m["right"],
                                                  ph - m["top"] - m["bottom"], leftPadding=0, rightPadding=0,
                                                  topPadding=0, bottomPadding=0, id="body")
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
