"""Reading a rulebook PDF back as a Japanese typesetter would check it (JLREQ): lines, the
characters each starts and ends with, short last lines of paragraphs, the advance between
consecutive punctuation marks. Used by tests/rulebook/test_rulebook_jlreq.py.

A *line* is a run of upright characters of one size on one baseline, split where two
neighbours are more than 1.5 em apart (table cells, TOC leaders, a page number). Ruby
(half-size characters above a line) forms lines of its own and is left out by size.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


from cardgen.layout import jlreq
from cardgen.layout.text import NO_END, NO_START
from tests.pdfread import column_chars, open_pdf

MM = 72 / 25.4


@dataclass
class Line:
    page: int
    chars: list  #: pdfplumber char dicts, left to right

    @property
    def text(self) -> str:
        return "".join(c["text"] for c in self.chars)

    @property
    def size(self) -> float:
        return round(self.chars[0]["size"], 1)

    @property
    def x0(self) -> float:
        return self.chars[0]["x0"]

    @property
    def x1(self) -> float:
        return self.chars[-1]["x1"]

    @property
    def baseline(self) -> float:
        return self.chars[0]["bottom"]


def read_lines(pdf_path: Path, min_size: float = 6.0) -> list[Line]:
    """Every line of the PDF in reading order (pages, then top to bottom, then left to right)."""
    out: list[Line] = []
    with open_pdf(str(pdf_path)) as pdf:
        for pno, page in enumerate(pdf.pages, 1):
            vertical = column_chars(page.chars)  # vertical text (a cover, a column) has no lines to read
            chars = [c for c in page.chars if c.get("upright", True) and min_size <= c["size"] <= 30
                     and c["text"].strip() and id(c) not in vertical]
            rows: dict[tuple[float, float], list] = {}
            for c in chars:
                rows.setdefault((round(c["bottom"], 0), round(c["size"], 1)), []).append(c)
            for (_y, size), row in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1])):
                row.sort(key=lambda c: c["x0"])
                cur = [row[0]]
                for c in row[1:]:
                    if c["x0"] - cur[-1]["x1"] > 1.5 * size:
                        out.append(Line(pno, cur))
                        cur = []
                    cur.append(c)
                out.append(Line(pno, cur))
    return out


def bad_line_starts(lines: list[Line]) -> list[str]:
    """Lines that start with a line-start-prohibited character or end with an opening bracket."""
    bad = []
    for ln in lines:
        if ln.text[:1] in NO_START:
            bad.append(f"p{ln.page} starts with {ln.text[:1]!r}: {ln.text}")
        if ln.text[-1:] in NO_END:
            bad.append(f"p{ln.page} ends with {ln.text[-1:]!r}: {ln.text}")
    return bad


def short_last_lines(lines: list[Line], size: float, right: float, leading: float) -> list[str]:
    """Last lines of paragraphs (``size`` pt text) with fewer than 3 characters besides
    punctuation: a line that follows a line of the same paragraph reaching the right edge of the
    text (``right``, pt) at one ``leading`` (pt) below it, and itself stops short of that edge."""
    body = [ln for ln in lines if ln.size == size]
    bad = []
    for prev, ln in zip(body, body[1:]):
        same_para = (prev.page == ln.page and abs((ln.baseline - prev.baseline) - leading) < 0.6) \
            or (prev.page + 1 == ln.page)
        if same_para and prev.x1 > right - 0.6 and ln.x1 < right - size and abs(prev.x0 - ln.x0) < size \
                and jlreq.visible_count(ln.text) < 3:
            bad.append(f"p{ln.page}: {prev.text[-12:]} / {ln.text}")
    return bad


def punctuation_advances(lines: list[Line]) -> list[tuple[str, float]]:
    """For every pair of consecutive punctuation marks that JLREQ compresses (``」「`` ``。」``
    ``（「`` …): ``(pair, advance in em)`` — the distance from the first mark to the second, less
    the line's own letter spacing (justification), measured from the PDF."""
    out = []
    for ln in lines:
        cs = _letter_spacing(ln)
        for a, b in zip(ln.chars, ln.chars[1:]):
            if jlreq.squeeze(a["text"], b["text"]):
                out.append((a["text"] + b["text"], (b["x0"] - a["x0"] - cs) / a["size"]))
    return out


def _letter_spacing(ln: Line) -> float:
    """The line's justification spacing (pt): the median space between two neighbouring
    full-width letters that JLREQ does not adjust."""
    gaps = sorted(b["x0"] - a["x1"] for a, b in zip(ln.chars, ln.chars[1:])
                  if not jlreq.adjustment(a["text"], b["text"]) and abs(a["x1"] - a["x0"] - a["size"]) < 0.01)
    return gaps[len(gaps) // 2] if gaps else 0.0
