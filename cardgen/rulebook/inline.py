"""Markdown inline tokens → runs of the rulebook text (:class:`cardgen.rulebook.blocks.Span`,
:class:`cardgen.rulebook.blocks.IconRun`). Pure.

Emphasis and code spans, inline icons (``:pon:``), ruby (``｜聴牌《テンパイ》``), soft line breaks
(none between Japanese characters), the spaces typed next to Japanese text absorbed (JLREQ), and
images inside text as :class:`cardgen.rulebook.blocks.Figure` (shown after it).
"""
from __future__ import annotations

from contextvars import ContextVar
import re

from cardgen.layout import jlreq
from cardgen.rulebook.blocks import Figure, IconRun, Span, plain

_ICON = re.compile(r":([a-z][a-z0-9_]*):")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


#: Stands for an ideographic space (U+3000) typed at the start of a line while the Markdown is
#: parsed: markdown-it strips Unicode white space at the start of a paragraph, and a
#: paragraph-initial 全角スペース is the author's 字下げ (indent). A private-use character.
INDENT_MARK = "\ue3a0"


def _text_runs(text: str, bold: bool, italic: bool) -> list:
    """Text → spans, inline icons (``:pon:``) and ruby spans (:func:`cardgen.layout.ruby_text.split_ruby`)."""
    from cardgen.layout.ruby_text import split_ruby  # lazy: +5 ms of imports here (measured)

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
    runs = runs if WESTERN.get() else absorb_run_spaces(runs)
    # merge neighbouring spans with the same style
    merged: list = []
    for r in runs:
        if merged and isinstance(r, Span) and isinstance(merged[-1], Span) and not r.ruby and \
                (r.bold, r.italic, r.code, r.ruby) == (merged[-1].bold, merged[-1].italic, merged[-1].code, merged[-1].ruby):
            merged[-1] = Span(merged[-1].text + r.text, r.bold, r.italic, r.code)  # neither has ruby
        else:
            merged.append(r)
    return merged, figures


#: True while the text of a Latin-script edition is parsed (:func:`cardgen.rulebook.assemble.rulebook_blocks`
#: sets it): its typed spaces are all the writer's, next to icons too, and none is absorbed.
WESTERN: ContextVar[bool] = ContextVar("western", default=False)


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
