"""Rulebook Markdown → blocks (:mod:`cardgen.rulebook.blocks`). Pure.

:func:`parse_blocks` parses the Markdown (rendered by :mod:`cardgen.rulebook.assemble` with the
context of :mod:`cardgen.rulebook.context`) with markdown-it-py (CommonMark + tables, CJK-friendly
emphasis); inline text becomes runs (:mod:`cardgen.rulebook.inline`), headings are numbered by a
:class:`cardgen.rulebook.numbering.Numberer`. ``open_question()`` and figure markers (HTML
comments) become their blocks; ``<!-- pagebreak -->`` a page break; ``<!-- vertical -->`` sets the
heading or paragraph after it vertically (縦書き: the title as a cover, a paragraph as a column).
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt

from cardgen.check.open_questions import marker_id
from cardgen.rulebook.blocks import (
    CardFigureBlock,
    Figures,
    Heading,
    ListBlock,
    OpenQuestion,
    PageBreak,
    Para,
    Quote,
    Rule,
    Span,
    Table,
    plain,
)
from cardgen.rulebook.figures import marker_data as figure_data
from cardgen.rulebook.inline import INDENT_MARK, inline_runs
from cardgen.rulebook.numbering import CIRCLED, Numberer

_LINE_INDENT = re.compile(r"(?m)^(\u3000+)")
_VERTICAL = re.compile(r"<!--\s*vertical\s*-->")


def keep_indent(markdown: str) -> str:
    """``markdown`` with the ideographic spaces at line starts replaced by :data:`INDENT_MARK`
    (turned back into U+3000 in the text runs)."""
    return _LINE_INDENT.sub(lambda m: INDENT_MARK * len(m.group(1)), markdown)


def parser(typographer: bool = False) -> MarkdownIt:
    """CommonMark with tables and CJK-friendly emphasis (``**「ポン」**を``, ``攻撃力**+2**を``:
    the mdit-py-cjk-friendly plugin, after the markdown-it "cjk-friendly" specification); raw
    HTML is not passed through (only ``<!-- pagebreak -->`` counts). ``typographer`` (a
    Latin-script edition): markdown-it's smart quotes (“…” ‘…’ ’) and replacements (-- → –,
    ... → …) in the text, never in comments or code."""
    from mdit_py_cjk_friendly import cjk_friendly  # lazy: +6 ms of imports here (measured)

    md = MarkdownIt("commonmark", {"html": True, "typographer": typographer}).enable("table").use(cjk_friendly)
    return md.enable(["replacements", "smartquotes"]) if typographer else md


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


def parse_tokens(markdown: str, typographer: bool = False) -> list:
    """markdown-it's tokens of ``markdown`` as :func:`parse_blocks` reads it (indents kept:
    :func:`keep_indent`; ``typographer``: see :func:`parser`)."""
    return parser(typographer).parse(keep_indent(markdown))


def parse_blocks(markdown: str, numberer: Numberer | None = None, tokens: list | None = None) -> list:
    """Markdown text → blocks (headings numbered by ``numberer``, when given). ``tokens``:
    :func:`parse_tokens` of ``markdown`` when the caller has them (else parsed here)."""
    if tokens is None:
        tokens = parse_tokens(markdown)
    pos = 0
    vertical = False  # a <!-- vertical --> waits for the next heading or paragraph

    def walk(end_type: str | None) -> list:
        nonlocal pos, vertical
        out: list = []
        while pos < len(tokens):
            t = tokens[pos]
            if end_type and t.type == end_type:
                pos += 1
                return out
            pos += 1
            mark = None
            if vertical and t.type in ("heading_open", "paragraph_open"):
                vertical, mark = False, len(out)
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
                    ordered, circled, start = True, True, CIRCLED.index(_first_text(items[0])[0]) + 1
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
                elif _VERTICAL.search(t.content):
                    vertical = True
            if mark is not None and len(out) > mark and isinstance(out[mark], (Heading, Para)):
                out[mark].vertical = True
        return out

    return walk(None)


def _first_text(item: list) -> str:
    """The text an item starts with ("" when it starts with anything but a paragraph)."""
    return plain(item[0].runs) if item and isinstance(item[0], Para) else ""


def _typed_circled(items: list) -> bool:
    """True when every item starts with the next circled number (① ② ③…, from any start)."""
    firsts = [_first_text(it)[:1] for it in items]
    if not items or not firsts[0] or firsts[0] not in CIRCLED:
        return False
    k = CIRCLED.index(firsts[0])
    return firsts == list(CIRCLED[k:k + len(items)])


def _strip_marker(item: list) -> list:
    """The item without its typed circled number and the spaces after it."""
    runs = list(item[0].runs)
    first = runs[0]
    runs[0] = Span(first.text[1:].lstrip(" \u3000"), first.bold, first.italic, first.code)
    return [Para([r for r in runs if not (isinstance(r, Span) and not r.text)])] + item[1:]


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
