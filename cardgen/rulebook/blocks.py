"""Rulebook layout: rendered rules text (Markdown) → a neutral list of blocks. Pure.

:func:`parse_blocks` parses the Markdown (rendered by :mod:`cardgen.rulebook.assemble` with the
context of :mod:`cardgen.rulebook.context`)
with markdown-it-py (CommonMark + tables) and returns :class:`Block` objects that know nothing
of reportlab: :class:`Heading`, :class:`Para`, :class:`ListBlock`, :class:`Table`,
:class:`Figures`, :class:`CardFigureBlock` (``card_row``, ``table_layout``), :class:`Quote`, :class:`Rule`, :class:`PageBreak` (``<!-- pagebreak -->``).
Inline text is a list of runs: :class:`Span` (text + bold/italic/code) and :class:`IconRun`
(``:pon:`` ``:chi:`` ``:power:``…). Images: ``card:<component>/<card id>`` sources are card
faces drawn from the card templates (width in mm as the image title); other sources are
files relative to the rules folder.

Heading numbers (manifest ``rulebook.numbering``) are computed here (:class:`Numberer`):
``plain`` none; ``decimal`` ``1.`` / ``1.1`` / ``1.1.1``; ``statute`` ``第1章`` / ``第1条``
(articles count on across chapters) / ``1項`` or ``①``; in statute style ordered lists are
marked ① ② ③ (and a bullet list whose items begin with ① ② … typed by hand becomes one). ``number_from`` is the Markdown level
that gets the first number (level 2 by default: ``#`` is the book title), ``depth`` how many
levels are numbered.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Union

from markdown_it import MarkdownIt

from cardgen.data.manifest import RulebookSettings
from cardgen.check.open_questions import marker_id
from cardgen.rulebook.figures import marker_data as figure_data
from cardgen.layout import jlreq

_ICON = re.compile(r":([a-z][a-z0-9_]*):")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@dataclass
class Span:
    """A run of text with its emphasis and an optional ruby reading."""
    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    ruby: str = ""  #: reading set above the text (ふりがな), "" for none


@dataclass
class IconRun:
    """An inline icon by name (``:pon:``), drawn at the text size."""
    name: str


Run = Union[Span, IconRun]


@dataclass
class Heading:
    """A heading with its runs, its number and its place in the table of contents."""
    level: int  #: Markdown level 1–6
    runs: list
    number: str = ""  #: "1.2", "第3条"… ("" when not numbered)
    toc_level: int | None = None  #: 0-based level in the table of contents, None = not listed
    title: bool = False  #: the book title (a level-1 heading above the numbered levels)

    @property
    def text(self) -> str:
        """The heading's plain text (no markup), as the table of contents shows it."""
        return plain(self.runs)


@dataclass
class Para:
    """A paragraph: a list of runs."""
    runs: list
    where: tuple = ()  #: (rules file, line), set by the rulebook assembly (for a short last line)


@dataclass
class ListBlock:
    """A bulleted or numbered list; each item is a list of blocks."""
    ordered: bool
    start: int
    items: list  #: each item: a list of blocks
    circled: bool = False  #: ordered, marked ① ② ③ (statute style) instead of 1. 2. 3.


@dataclass
class Table:
    """A pipe table: header cells, rows, column alignment and where it was written."""
    head: list  #: cells, each a list of runs
    rows: list  #: rows of cells
    align: list  #: per column "left" | "center" | "right"
    where: tuple = ()  #: (rules file, line) of the table's header, set by the rulebook assembly


@dataclass
class Figure:
    """An image: a card (``card:<component>/<id>``) or a file in the rules folder, with its width in mm."""
    src: str  #: "card:<component>/<id>" or a file path relative to the rules folder
    alt: str
    width_mm: float | None = None
    where: tuple = ()  #: (rules file, line), set by the rulebook assembly


@dataclass
class Figures:
    """A paragraph made only of images: shown side by side."""

    images: list


@dataclass
class CardFigureBlock:
    """A figure of cards asked for by ``card_row(…)`` or ``table_layout(…)`` in the rules text
    (the JSON of :func:`cardgen.rulebook.figures.marker`: ``kind`` "row" or "table", the
    component, the cards…), laid out by :mod:`cardgen.rulebook.figures`."""

    data: dict


@dataclass
class Quote:
    """A block quote holding other blocks."""
    blocks: list


@dataclass
class Rule:
    """A thematic break (``---``): a thin rule across the column."""
    pass


@dataclass
class PageBreak:
    """A forced page break (``<!-- pagebreak -->``)."""
    pass


@dataclass
class OpenQuestion:
    """A boxed 【未確定】 note: the draft leaves this open; the build uses ``use``."""

    id: str
    question: str = ""
    use: str = ""
    options: list = None  #: every option, as printed
    why: str = ""


@dataclass
class OpenQuestionIndex:
    """The appendix: every open question with the pages its notes are on."""

    items: list  #: OpenQuestion blocks, manifest order


@dataclass
class Toc:
    """Where the table of contents goes (after the book title)."""


Block = Union[Heading, Para, ListBlock, Table, Figures, CardFigureBlock, Quote, Rule, PageBreak, Toc, OpenQuestion,
              OpenQuestionIndex]


def plain(runs: list) -> str:
    """Runs as plain text (icons as ``:name:``)."""
    return "".join(r.text if isinstance(r, Span) else f":{r.name}:" for r in runs)


# ------------------------------------------------------------------ numbering

_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


class Numberer:
    """Heading numbers per :class:`cardgen.data.manifest.RulebookSettings`."""

    def __init__(self, settings: RulebookSettings):
        self.s = settings
        self.counts = [0] * 6
        self.article = 0  # statute: articles count on across chapters

    def number(self, level: int) -> tuple[str, int | None]:
        """The label of the next heading at Markdown ``level`` and its 0-based depth (None: unnumbered)."""
        d = level - self.s.number_from
        if d < 0:
            return "", None
        if d >= len(self.counts):
            return "", d
        self.counts[d] += 1
        for i in range(d + 1, len(self.counts)):
            self.counts[i] = 0
        if d == 1:
            self.article += 1
        if self.s.numbering == "plain" or d >= self.s.depth:
            return "", d
        if self.s.numbering == "decimal":
            nums = self.counts[: d + 1]
            return (f"{nums[0]}." if d == 0 else ".".join(str(n) for n in nums)), d
        # statute
        if d == 0:
            return f"第{self.counts[0] + self.s.first_chapter - 1}章", d
        if d == 1:
            return f"第{self.article + self.s.first_article - 1}条", d
        n = self.counts[d]
        if self.s.item_style == "circled" and n <= len(_CIRCLED):
            return _CIRCLED[n - 1], d
        return f"{n}項", d


# ------------------------------------------------------------------ markdown → blocks

#: Stands for an ideographic space (U+3000) typed at the start of a line while the Markdown is
#: parsed: markdown-it strips Unicode white space at the start of a paragraph, and a
#: paragraph-initial 全角スペース is the author's 字下げ (indent). A private-use character.
INDENT_MARK = "\ue3a0"
_LINE_INDENT = re.compile(r"(?m)^(\u3000+)")


def keep_indent(markdown: str) -> str:
    """``markdown`` with the ideographic spaces at line starts replaced by :data:`INDENT_MARK`
    (turned back into U+3000 in the text runs)."""
    return _LINE_INDENT.sub(lambda m: INDENT_MARK * len(m.group(1)), markdown)


def parser() -> MarkdownIt:
    """CommonMark with tables and CJK-friendly emphasis (``**「ポン」**を``, ``攻撃力**+2**を``:
    the mdit-py-cjk-friendly plugin, after the markdown-it "cjk-friendly" specification); raw
    HTML is not passed through (only ``<!-- pagebreak -->`` counts)."""
    from mdit_py_cjk_friendly import cjk_friendly

    return MarkdownIt("commonmark", {"html": True}).enable("table").use(cjk_friendly)


def _text_runs(text: str, bold: bool, italic: bool) -> list:
    """Text → spans, inline icons (``:pon:``) and ruby spans (:func:`cardgen.layout.ruby_text.split_ruby`)."""
    from cardgen.layout.ruby_text import split_ruby

    out: list = []
    for piece, reading in split_ruby(text.replace(INDENT_MARK, "\u3000")):
        if reading:
            out.append(Span(piece, bold, italic, ruby=reading))
            continue
        pos = 0
        for m in _ICON.finditer(piece):
            if m.start() > pos:
                out.append(Span(piece[pos:m.start()], bold, italic))
            out.append(IconRun(m.group(1)))
            pos = m.end()
        if pos < len(piece):
            out.append(Span(piece[pos:], bold, italic))
    return out


def _soft_break(before: str, after: str) -> str:
    """Line breaks inside a paragraph: none between Japanese characters, a space otherwise."""
    return "" if (_CJK.match(before[-1:] or " ") or _CJK.match(after[:1] or " ")) else " "


def inline_runs(children: list) -> tuple[list, list]:
    """Inline tokens → (runs, figures). Images inside text become figures (shown after it)."""
    runs: list = []
    figures: list = []
    bold = italic = False
    pending_break = False
    for t in children or []:
        if t.type == "text":
            if pending_break:
                prev = plain(runs)
                sep = _soft_break(prev, t.content)
                if sep:
                    runs.append(Span(sep))
                pending_break = False
            runs.extend(_text_runs(t.content, bold, italic))
        elif t.type == "softbreak":
            pending_break = True
        elif t.type == "hardbreak":
            runs.append(Span("\n"))
        elif t.type == "strong_open":
            bold = True
        elif t.type == "strong_close":
            bold = False
        elif t.type == "em_open":
            italic = True
        elif t.type == "em_close":
            italic = False
        elif t.type == "code_inline":
            runs.append(Span(t.content, bold, italic, code=True))
        elif t.type == "image":
            title = t.attrs.get("title") or ""
            try:
                width = float(str(title).replace("mm", "")) if title else None
            except ValueError:
                width = None
            figures.append(Figure(str(t.attrs.get("src", "")), t.content, width))
        elif t.type == "html_inline":
            continue
        # link_open/close: the link text stays as text
    runs = absorb_run_spaces(runs)
    # merge neighbouring spans with the same style
    merged: list = []
    for r in runs:
        if merged and isinstance(r, Span) and isinstance(merged[-1], Span) and not r.ruby and \
                (r.bold, r.italic, r.code, r.ruby) == (merged[-1].bold, merged[-1].italic, merged[-1].code, merged[-1].ruby):
            merged[-1] = Span(merged[-1].text + r.text, r.bold, r.italic, r.code)  # neither has ruby
        else:
            merged.append(r)
    return merged, figures


def absorb_run_spaces(runs: list) -> list:
    """``runs`` without the ASCII spaces typed next to Japanese text or an inline icon (JLREQ
    §3.2.4: the space between Japanese and Latin text is the typesetter's, not typed; see
    :func:`cardgen.layout.jlreq.absorb_spaces`). Looks across run boundaries (``**ポン** を``);
    code spans keep their spaces."""
    out = list(runs)
    for i, r in enumerate(out):
        if not isinstance(r, Span) or r.code or " " not in r.text:
            continue
        before = _edge(out, i, -1)
        after = _edge(out, i, +1)
        text = jlreq.absorb_spaces(before + r.text + after)
        text = text[len(before):len(text) - len(after)] if after else text[len(before):]
        out[i] = Span(text, r.bold, r.italic, r.code, r.ruby)
    return [r for r in out if not (isinstance(r, Span) and not r.text)]


def _edge(runs: list, i: int, step: int) -> str:
    """The character next to ``runs[i]`` on the side ``step`` (an icon counts as full-width: "＿")."""
    j = i + step
    if not 0 <= j < len(runs):
        return ""
    r = runs[j]
    if isinstance(r, IconRun):
        return "\uff3f"
    if r.code or not r.text:
        return ""
    return r.text[-1] if step < 0 else r.text[0]


def _inline_blocks(tok) -> list:
    runs, figures = inline_runs(tok.children)
    out: list = []
    if plain(runs).strip():
        out.append(Para(runs))
    if figures:
        out.append(Figures(figures))
    # open_question() written inside a paragraph: its note follows the paragraph
    out.extend(OpenQuestion(q) for c in tok.children or [] if c.type == "html_inline" and (q := marker_id(c.content)))
    return out


def parse_blocks(markdown: str, numberer: Numberer | None = None) -> list:
    """Markdown text → blocks (headings numbered by ``numberer``, when given)."""
    tokens = parser().parse(keep_indent(markdown))
    pos = 0

    def walk(end_type: str | None) -> list:
        nonlocal pos
        out: list = []
        while pos < len(tokens):
            t = tokens[pos]
            if end_type and t.type == end_type:
                pos += 1
                return out
            pos += 1
            if t.type == "heading_open":
                level = int(t.tag[1])
                runs, _ = inline_runs(tokens[pos].children)
                pos += 2  # inline, heading_close
                number, depth = numberer.number(level) if numberer else ("", None)
                toc = depth if (numberer and depth is not None and depth < numberer.s.toc_depth) else None
                is_title = bool(numberer and level < numberer.s.number_from and level == 1)
                out.append(Heading(level, runs, number, toc, is_title))
            elif t.type == "paragraph_open":
                out.extend(_inline_blocks(tokens[pos]))
                pos += 2
            elif t.type in ("bullet_list_open", "ordered_list_open"):
                ordered = t.type == "ordered_list_open"
                start = int(t.attrs.get("start", 1)) if ordered else 1
                items = []
                close = t.type.replace("_open", "_close")
                while tokens[pos].type != close:
                    assert tokens[pos].type == "list_item_open"
                    pos += 1
                    items.append(walk("list_item_close"))
                pos += 1
                circled = ordered and bool(numberer and numberer.s.numbering == "statute")
                if not ordered and _typed_circled(items):  # "- ① …" written by hand: ① is the marker
                    ordered, circled, start = True, True, _CIRCLED.index(_first_text(items[0])[0]) + 1
                    items = [_strip_marker(it) for it in items]
                out.append(ListBlock(ordered, start, items, circled))
            elif t.type == "table_open":
                out.append(_table(tokens, pos))
                while tokens[pos].type != "table_close":
                    pos += 1
                pos += 1
            elif t.type == "blockquote_open":
                out.append(Quote(walk("blockquote_close")))
            elif t.type == "hr":
                out.append(Rule())
            elif t.type in ("fence", "code_block"):
                out.append(Para([Span(t.content.rstrip("\n"), code=True)]))
            elif t.type == "html_block":
                qid = marker_id(t.content)
                fig = figure_data(t.content)
                if qid:
                    out.append(OpenQuestion(qid))
                elif fig is not None:
                    out.append(CardFigureBlock(fig))
                elif "pagebreak" in t.content:
                    out.append(PageBreak())
        return out

    return walk(None)


def _first_text(item: list) -> str:
    """The text an item starts with ("" when it starts with anything but a paragraph)."""
    return plain(item[0].runs) if item and isinstance(item[0], Para) else ""


def _typed_circled(items: list) -> bool:
    """True when every item starts with the next circled number (① ② ③…, from any start)."""
    firsts = [_first_text(it)[:1] for it in items]
    if not items or not firsts[0] or firsts[0] not in _CIRCLED:
        return False
    k = _CIRCLED.index(firsts[0])
    return firsts == list(_CIRCLED[k:k + len(items)])


def _strip_marker(item: list) -> list:
    """The item without its typed circled number and the spaces after it."""
    runs = list(item[0].runs)
    first = runs[0]
    runs[0] = Span(first.text[1:].lstrip(" \u3000"), first.bold, first.italic, first.code)
    return [Para([r for r in runs if not (isinstance(r, Span) and not r.text)])] + item[1:]


def circled(n: int) -> str:
    """``n`` as a circled number (① for 1 … ⑳ for 20; ``(n)`` beyond)."""
    return _CIRCLED[n - 1] if 1 <= n <= len(_CIRCLED) else f"({n})"


def _table(tokens, pos: int) -> Table:
    head: list = []
    rows: list = []
    align: list = []
    row: list | None = None
    in_head = False
    while tokens[pos].type != "table_close":
        t = tokens[pos]
        if t.type == "thead_open":
            in_head = True
        elif t.type == "thead_close":
            in_head = False
        elif t.type == "tr_open":
            row = []
        elif t.type == "tr_close":
            (head if in_head else rows).append(row)
        elif t.type in ("th_open", "td_open"):
            style = t.attrs.get("style", "") or ""
            if in_head:
                align.append("center" if "center" in style else "right" if "right" in style else "left")
            runs, _ = inline_runs(tokens[pos + 1].children)
            row.append(runs)
        pos += 1
    return Table(head[0] if head else [], rows, align)


def outline(blocks: list) -> list[dict[str, Any]]:
    """Headings as ``{level, number, text}`` (for tests and a JSON dump)."""
    return [{"level": b.level, "number": b.number, "text": b.text} for b in blocks if isinstance(b, Heading)]
