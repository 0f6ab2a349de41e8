"""Page layout of diff.pdf (pure geometry, pt, page origin bottom-left, y up).

A4 portrait pages. First every changed face: a row holding the old face and the new face side
by side at real size (the trim, no bleed), the changed boxes outlined, and a column of notes
(what changed) to the right. Then the added cards and the removed cards, at real size, in rows.
A face too wide for the page (two faces of more than ~90 mm) is scaled down to fit, and its
caption says so.

The layout returns :class:`DiffPage` objects: faces to place (:class:`Placed`) and ops
(captions, notes, outlines) in the vocabulary of :mod:`cardgen.layout.ops`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardgen.layout.ops import Icon, Line, Rect, Text
from cardgen.layout.card_text import ASCENT, ruby_ops
from cardgen.layout.text import fit_text, runs
from cardgen.layout.text_atoms import ruby_size
from cardgen.core.units import MM

PAGE_W, PAGE_H = 210 * MM, 297 * MM
MARGIN = 7 * MM
GAP = 3 * MM  #: between the two faces of a pair, and between cards in a row
CAPTION = 5 * MM  #: band above a face for its caption
ROW_GAP = 6 * MM
HEADER = 9 * MM  #: band at the top of every page for the title
OUTLINE = "#e6007e"  #: changed boxes (magenta: shows on light and dark faces)
OUTLINE_WIDTH = 1.2  #: pt
TRIM_LINE = "#9a9a9a"
NOTE_SIZE = 7.0  #: pt
CAPTION_SIZE = 7.5  #: pt
TITLE_SIZE = 9.0  #: pt


@dataclass
class Placed:
    """A face placed on a page: ``draft`` ("old"/"new"), its plan, trim bottom-left ``x, y``
    (pt) and ``scale`` (1 = real size)."""

    draft: str
    plan: Any
    x: float
    y: float
    scale: float = 1.0


@dataclass
class DiffPage:
    """One page of diff.pdf: card faces placed on it, and the ops drawn around them (pt)."""
    faces: list[Placed] = field(default_factory=list)
    ops: list = field(default_factory=list)  #: captions, notes, outlines, trim lines (pt, page coordinates)


@dataclass
class PairItem:
    """An old/new pair: plans, changed boxes (pt, trim-relative, y up) and note lines."""

    title: str
    old: Any
    new: Any
    old_boxes: list
    new_boxes: list
    notes: list[str]
    old_label: str
    new_label: str


@dataclass
class CardItem:
    """A single card (added or removed)."""

    draft: str  #: "new" (added) or "old" (removed)
    plan: Any
    caption: str


class _Pages:
    def __init__(self, title: str):
        self.title = title
        self.pages: list[DiffPage] = []
        self.y = 0.0
        self.new_page()

    def new_page(self) -> None:
        page = DiffPage()
        page.ops.append(Text(MARGIN, PAGE_H - MARGIN - TITLE_SIZE, self.title, "heading", TITLE_SIZE, "#333333"))
        self.pages.append(page)
        self.y = PAGE_H - MARGIN - HEADER  # top of the free area

    @property
    def page(self) -> DiffPage:
        return self.pages[-1]

    def room(self, height: float) -> None:
        """Start a new page unless ``height`` fits below the current position."""
        if self.y - height < MARGIN and self.y < PAGE_H - MARGIN - HEADER - 1e-6:
            self.new_page()

    def heading(self, text: str) -> None:
        self.room(8 * MM + CAPTION)
        self.page.ops.append(Text(MARGIN, self.y - TITLE_SIZE, text, "heading", TITLE_SIZE, "#000000"))
        self.y -= 8 * MM


def _frame(page: DiffPage, x: float, y: float, w: float, h: float) -> None:
    page.ops.append(Rect(x, y, w, h, stroke=TRIM_LINE, stroke_width=0.3))


def _outline(page: DiffPage, x: float, y: float, s: float, boxes: list) -> None:
    for bx, by, bw, bh in boxes:
        page.ops.append(Rect(x + bx * s, y + by * s, bw * s, bh * s, stroke=OUTLINE, stroke_width=OUTLINE_WIDTH))


def _notes(page: DiffPage, x: float, top: float, width: float, height: float, notes: list[str],
           measure: Callable[[str, str, float], float]) -> None:
    """Note lines wrapped (kinsoku) to ``width``, inline icons and ruby (its reading above the
    base, :func:`cardgen.layout.card_text.ruby_ops`) drawn as on the cards; lines that do not fit
    ``height`` are dropped after an ellipsis line."""
    y = top - NOTE_SIZE
    lead = NOTE_SIZE * 1.3
    for note in notes:
        fitted = fit_text(note, width, 10_000, "body", NOTE_SIZE, NOTE_SIZE, measure, 1.3)
        for i, line in enumerate(fitted.lines):
            if line.has_ruby:  # room for the reading above the line, as on the cards
                y -= ruby_size(NOTE_SIZE)
            if y < top - height + NOTE_SIZE:
                page.ops.append(Text(x, y, "…", "body", NOTE_SIZE, "#555555"))
                return
            lx = x + (0 if i == 0 else 2 * MM)
            for kind, v in runs(line):  # inline icons (:power:) and ruby as on the cards
                if kind == "icon":
                    page.ops.append(Icon(v, lx + NOTE_SIZE * 0.025, y - NOTE_SIZE * 0.12, NOTE_SIZE))
                    lx += NOTE_SIZE * 1.05
                elif kind == "ruby":
                    ops, advance = ruby_ops(v, lx, y, "body", NOTE_SIZE, "#222222", measure, ASCENT)
                    page.ops.extend(ops)
                    lx += advance
                else:
                    page.ops.append(Text(lx, y, v, "body", NOTE_SIZE, "#222222"))
                    lx += measure(v, "body", NOTE_SIZE)
            y -= lead
        y -= NOTE_SIZE * 0.4


def layout_diff(title: str, pairs: list[PairItem], added: list[CardItem], removed: list[CardItem],
                measure: Callable[[str, str, float], float], added_title: str = "added",
                removed_title: str = "removed") -> list[DiffPage]:
    """The pages of diff.pdf. ``measure(text, font_role, size_pt) -> pt`` measures note text.
    Returns at least one page (a title page saying nothing changed when all lists are empty)."""
    pages = _Pages(title)
    avail_w = PAGE_W - 2 * MARGIN
    if not (pairs or added or removed):
        pages.page.ops.append(Text(MARGIN, pages.y - CAPTION_SIZE, "no card looks different, none added or removed",
                                   "body", CAPTION_SIZE))
    for item in pairs:
        w, h = item.new.width, item.new.height
        ow, oh = item.old.width, item.old.height
        notes_w = 50 * MM
        s = min(1.0, (avail_w - notes_w - 2 * GAP) / max(w + ow, 1e-6),
                (PAGE_H - 2 * MARGIN - HEADER - 2 * CAPTION) / max(h, oh, 1e-6))
        row_h = CAPTION * 2 + max(h, oh) * s
        pages.room(row_h)
        page, top = pages.page, pages.y
        page.ops.append(Text(MARGIN, top - CAPTION_SIZE, item.title + ("" if s == 1 else f"  (shown at {s:.0%})"),
                             "heading", CAPTION_SIZE, "#000000"))
        face_top = top - 2 * CAPTION
        xo, xn = MARGIN, MARGIN + ow * s + GAP
        for x, label in ((xo, item.old_label), (xn, item.new_label)):
            page.ops.append(Text(x, top - CAPTION - CAPTION_SIZE, label, "body", CAPTION_SIZE - 1, "#555555"))
        page.faces.append(Placed("old", item.old, xo, face_top - oh * s, s))
        page.faces.append(Placed("new", item.new, xn, face_top - h * s, s))
        _frame(page, xo, face_top - oh * s, ow * s, oh * s)
        _frame(page, xn, face_top - h * s, w * s, h * s)
        _outline(page, xo, face_top - oh * s, s, item.old_boxes)
        _outline(page, xn, face_top - h * s, s, item.new_boxes)
        nx = xn + w * s + GAP
        _notes(page, nx, face_top, PAGE_W - MARGIN - nx, max(h, oh) * s, item.notes, measure)
        pages.y = top - row_h - ROW_GAP
        page.ops.append(Line(MARGIN, pages.y + ROW_GAP / 2, PAGE_W - MARGIN, pages.y + ROW_GAP / 2, 0.3, "#dddddd"))
    for heading, items in ((added_title, added), (removed_title, removed)):
        if not items:
            continue
        pages.heading(heading)
        x, row_h = MARGIN, 0.0
        for it in items:
            s = min(1.0, avail_w / it.plan.width, (PAGE_H - 2 * MARGIN - HEADER - CAPTION) / it.plan.height)
            w, h = it.plan.width * s, it.plan.height * s
            if x + w > PAGE_W - MARGIN + 1e-6:  # next row
                pages.y -= row_h + ROW_GAP
                x, row_h = MARGIN, 0.0
            if row_h == 0.0 or pages.y - (CAPTION + h) < MARGIN:
                pages.room(CAPTION + h)
            page = pages.page
            page.ops.append(Text(x, pages.y - CAPTION_SIZE, it.caption, "body", CAPTION_SIZE - 1, "#333333"))
            page.faces.append(Placed(it.draft, it.plan, x, pages.y - CAPTION - h, s))
            _frame(page, x, pages.y - CAPTION - h, w, h)
            row_h = max(row_h, CAPTION + h)
            x += w + GAP
        pages.y -= row_h + ROW_GAP
    return pages.pages
