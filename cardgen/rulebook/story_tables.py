"""Rulebook tables as Platypus flowables (part of the story, :mod:`cardgen.rulebook.story`).

Column widths from the cells' natural widths (JLREQ adjustments included), capped when the table
is wider than the frame (:func:`fit_widths`); a cell whose number or Latin word does not fit its
column is set smaller, down to :data:`MIN_TABLE_SIZE` pt — such a word is never split; wider
still is an error naming the table's ``file:line`` and row. Each function takes the
:class:`cardgen.rulebook.story.StoryBuilder` (its design, fonts, frame width and the problems it collects).
"""
from __future__ import annotations

import math
import re

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.platypus import Table as RLTable, TableStyle

from cardgen.core.errors import Problem
from cardgen.core.units import MM
from cardgen.layout import jlreq
from cardgen.rulebook import blocks as L
from cardgen.rulebook.design import TextStyle


#: Smallest table text (pt) a cell shrinks to so a number or Latin word is not split.
MIN_TABLE_SIZE = 6.0
_WORDS = re.compile(r"[!-~\u00C0-\u024F’×]+")


def table(builder, b: L.Table):
    """A table's flowable: cells shrunk within the floor to keep numbers and words whole (else an error)."""
    d, ts = builder.d, builder.d.table
    body = TextStyle(font=ts.font, size=ts.size, leading=ts.leading, color=d.body.color)
    head = TextStyle(font="heading", size=ts.size, leading=ts.leading, color=d.body.color)
    aligns = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
    ncol = max(len(b.head), *(len(r) for r in b.rows)) if b.rows else len(b.head)
    al = [aligns[a] for a in (b.align + ["left"] * ncol)[:ncol]]
    pad = ts.padding
    widths = [0.0] * ncol
    naturals: list[list[float]] = []  # per row, per cell: the text's width on one line (pt)
    for r in ([b.head] if b.head else []) + b.rows:
        naturals.append([])
        for i, cell in enumerate(r):
            text = "".join(x.text for x in cell if isinstance(x, L.Span))
            icons = sum(1 for x in cell if isinstance(x, L.IconRun))
            natural = builder.fonts.width(text, "heading", ts.size) + icons * ts.size \
                + sum(jlreq.adjustments(text)) * ts.size  # the quarter em beside Latin, compression
            widths[i] = max(widths[i], natural + 2 * pad + 1)
            naturals[-1].append(natural)
    widths = fit_widths(widths, builder.width)
    rows = []
    too_wide: list[tuple[int, str, float, float]] = []
    for r, cells in enumerate(([b.head] if b.head else []) + b.rows):
        is_head = bool(b.head) and r == 0
        row = []
        for i, c in enumerate(cells):
            st = cell_style(builder, b, r, c, widths[i] - 2 * pad, head if is_head else body, too_wide)
            row.append(builder.para(c, st, f"{'th' if is_head else 'td'}{al[i]}{st.size}", alignment=al[i]))
        rows.append(row)
    if too_wide:
        builder.problems.append(_too_wide_problem(b, too_wide))
    tall = _too_tall_row(rows, naturals, widths, pad, ts.size * ts.leading, bool(b.head), builder.height)
    if tall:
        builder.problems.append(_too_tall_problem(b, *tall))
    t = row_split_table(builder, rows, colWidths=widths, repeatRows=1 if b.head else 0, hAlign="LEFT")
    t.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, HexColor(ts.grid)),
        ("FONTNAME", (0, 0), (-1, -1), builder.fonts.name(ts.font)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), pad), ("BOTTOMPADDING", (0, 0), (-1, -1), pad + 0.5),
        ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        *([("BACKGROUND", (0, 0), (-1, 0), HexColor(ts.header_fill))] if b.head else []),
    ]))
    t.spaceBefore, t.spaceAfter = 1 * MM, 2.5 * MM
    return t


def cell_style(builder, b: L.Table, r: int, cell: list, room: float, ts: TextStyle,
               too_wide: list[tuple[int, str, float, float]]) -> TextStyle:
    """The cell's text style: ``ts``, or smaller (down to :data:`MIN_TABLE_SIZE` pt) when a
    number or Latin word of the cell is wider than ``room`` (pt) — such a word is never
    split. Wider still: ``(row, word, need pt, room pt)`` is added to ``too_wide`` (row 1 is the
    first row under the header)."""
    words = [w for x in cell if isinstance(x, L.Span) for w in _WORDS.findall(x.text)]
    if not words:
        return ts
    word = max(words, key=lambda w: builder.fonts.width(w, "heading", ts.size))
    need = builder.fonts.width(word, "heading", ts.size)
    if need <= room + 0.01:
        return ts
    size = math.floor(ts.size * room / need * 4) / 4
    if size >= MIN_TABLE_SIZE:
        return ts.model_copy(update={"size": size})
    too_wide.append((r if b.head else r + 1, word, need, room))
    return ts


def _too_wide_problem(b: L.Table, too_wide: list[tuple[int, str, float, float]]) -> Problem:
    """One error for a table whose cells hold words wider than their columns, at the table's
    ``file:line``, naming the first such cell and how many more there are."""
    file, line = b.where or ("", None)
    head = " | ".join(L.plain(c) for c in b.head[:3])
    r, word, need, room = too_wide[0]
    more = len(too_wide) - 1
    others = f" ({more} more cell{'s' if more > 1 else ''} of this table too)" if more else ""
    return Problem(
        file, line, "rulebook → table",
        f"the table ({head[:40]}) row {r}: {word!r} needs {need / MM:.1f} mm but its column is "
        f"{room / MM:.1f} mm wide even at {MIN_TABLE_SIZE:g} pt; a number or word is never split{others}",
        "give the table fewer columns, shorten the word, or print the rulebook on larger paper (`rulebook: {paper: a4}` in game.yaml)",
        code="rules-table-word")


class RowSplitTable(RLTable):
    """A Platypus table that splits inside its rows only when one of them is taller than a whole
    text frame: such a row would otherwise stop the build (reportlab's LayoutError). reportlab's own
    ``splitInRow`` also splits rows that merely reach the bottom of a page, which would move every
    table that fits today. ``frame_height``: the text frame's height (pt)."""

    frame_height = float("inf")

    def split(self, availWidth, availHeight):
        """reportlab's split (sizes in pt), splitting inside a row only when one is taller than a frame."""
        self._calc(availWidth, availHeight)
        head = sum(self._rowHeights[:self.repeatRows])  # repeated above the row on every page
        self.splitInRow = 1 if max(self._rowHeights[self.repeatRows:], default=0) + head > self.frame_height else 0
        parts = super().split(availWidth, availHeight)
        for part in parts:
            if isinstance(part, RowSplitTable):
                part.frame_height = self.frame_height
        return parts


def row_split_table(builder, rows: list, **kwargs) -> RowSplitTable:
    """:class:`RowSplitTable` of ``rows`` for the builder's text frame (its ``height``, pt);
    ``kwargs`` go to reportlab's Table."""
    t = RowSplitTable(rows, **kwargs)
    t.frame_height = builder.height
    return t


def _too_tall_row(rows: list, naturals: list[list[float]], widths: list[float], pad: float, leading: float,
                  head: bool, frame_height: float) -> tuple[int, float, float] | None:
    """``(row number, height, room)`` (pt) of the first row taller than the room a page has for
    it — ``frame_height`` pt, less the header row repeated above it when ``head`` — or None.
    Rows are numbered as the width error numbers them (the header is row 0 when there is one).

    A table row is never split across pages, so such a row cannot be printed. Cells are wrapped
    only when a cheap bound (the cell's one-line width over its column, twice over, for the
    lines Latin words and kinsoku waste) says the row might not fit: ordinary tables cost nothing.
    """
    def height(row) -> float:
        return max(p.wrap(w - 2 * pad, 1e9)[1] for p, w in zip(row, widths)) + 2 * pad + 0.5

    room, head_room = frame_height, None
    for r, (row, nat) in enumerate(zip(rows, naturals), 0 if head else 1):
        bound = max((2 * math.ceil(n / max(1.0, w - 2 * pad)) + 2) * leading + 2 * pad + 0.5
                    for n, w in zip(nat, widths)) if nat else 0.0
        if head and r > 0 and head_room is None:
            head_room = room = frame_height - height(rows[0])
        if bound <= room:
            continue
        h = height(row)
        if h > room:
            return r, h, room
    return None


def _too_tall_problem(b: L.Table, r: int, height: float, room: float) -> Problem:
    """One error for a table row taller than a page has room for, at the table's ``file:line``."""
    file, line = b.where or ("", None)
    head = " | ".join(L.plain(c) for c in b.head[:3])
    below = " below the table's header" if b.head else ""
    return Problem(
        file, line, "rulebook → table",
        f"the table ({head[:40]}) row {r} is {height / MM:.0f} mm tall but a page holds {room / MM:.0f} mm "
        f"of text{below}; a table row is never split across pages",
        "move the long text out of the table into a paragraph below it, or spread it over several rows",
        code="rules-table-row-too-tall")


def fit_widths(widths: list[float], avail: float) -> list[float]:
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
