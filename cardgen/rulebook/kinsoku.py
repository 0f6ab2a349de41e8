"""Japanese line breaking of the rulebook's Platypus paragraphs (:class:`KinsokuParagraph`).

reportlab's own CJK wrapping lets one 、 or 。 hang past the right edge and does not keep a line
from ending with （「 or Latin words whole. :class:`KinsokuParagraph` breaks lines with the same
composer as card text (:mod:`cardgen.layout.compose`, JLREQ): break classes, punctuation
compression, 追い込み before 追い出し, ruby bases and Latin words whole, BudouX phrases used to
keep short words whole at line ends, and no last line of fewer than :data:`MIN_LAST_LINE`
characters where breaking again costs no line more than :data:`MAX_PUSH_SPACE` em per gap. The
lines are drawn by :mod:`cardgen.rulebook.justify` at the composer's advances.
"""
from __future__ import annotations

import re

from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import ParaLines, _handleBulletWidth, cjkU, makeCJKParaLine

from cardgen.layout.compose import Piece, compose
from cardgen.rulebook.justify import can_justify, draw_justified
from cardgen.rulebook.ruby import is_begin, is_end

#: One character of a Latin word or number (the same set as :mod:`cardgen.layout.text`): never
#: broken inside (``abc<def``, ``abc_def``, ``32,000``).
_WORD = re.compile(r"[!-~\u00C0-\u024F’×]")


def _zero(u) -> bool:
    return hasattr(u.frag, "cbDefn") and not getattr(u.frag.cbDefn, "width", 0)


def _units(frags) -> list:
    """The paragraph's frags as reportlab CJK units (one per character or image), at their
    natural widths (the composer adds the JLREQ adjustments)."""
    U = []
    for f in frags:
        if f.text:
            U.extend(cjkU(t, f, "utf8") for t in f.text)
        else:
            U.append(cjkU(f.text, f, "utf8"))
    return U


def _ruby_inside(U) -> set[int]:
    """Indexes ``b`` at which a line may not break because ``U[b-1]`` and ``U[b]`` are both in a
    ruby run (from its begin marker to its end marker)."""
    inside, depth = set(), False
    for b, u in enumerate(U):
        if is_begin(u):
            depth = True
        elif depth:
            inside.add(b)
            if is_end(u):
                depth = False
    return inside


def pieces(U) -> list[Piece]:
    """The composer's pieces (:mod:`cardgen.layout.compose`) for reportlab units ``U``: glyphs,
    spaces, images and inline icons (set like a kanji), forced breaks, zero-width markers; no
    break inside a Latin word or number, inside a ruby run, or after a ruby begin marker."""
    ruby = _ruby_inside(U)
    out: list[Piece] = []
    prev = ""
    for b, u in enumerate(U):
        f = u.frag
        size = getattr(f, "fontSize", 0.0) or 0.0
        if hasattr(f, "lineBreak"):
            out.append(Piece("", 0.0, size, "newline"))
            prev = ""
            continue
        glue = b in ruby or (b > 0 and _zero(U[b - 1]) and not is_end(U[b - 1]))
        if hasattr(f, "cbDefn"):
            w = getattr(f.cbDefn, "width", 0) or 0
            out.append(Piece("〓", u.width, size, "icon", glue) if w else Piece("", 0.0, size, "mark", glue))
            if w:
                prev = ""
            continue
        ch = str(u)
        if ch == " ":
            out.append(Piece(" ", u.width, size, "space", glue))
        else:
            glue = glue or bool(_WORD.match(prev) and _WORD.match(ch))
            out.append(Piece(ch, u.width, size, "text", glue))
        prev = ch
    return out


#: A last line may hold this many characters at least (not counting punctuation) when the
#: paragraph has more than one line (JLREQ §3.8 widow/orphan practice: no line of 1–2 characters).
MIN_LAST_LINE = 3
#: The most extra space per glyph gap (em) the composer may leave a justified line with where it
#: chose the break for it (a short word kept whole, a short last line avoided).
MAX_PUSH_SPACE = 0.125


def kinsoku_split(frags, maxWidths, calcBounds, lines_wanted: bool = True, justify: bool = True,
                  phrases: str = "soft"):
    """Break ``frags`` into CJK lines (reportlab's ParaLines kind 1) with the one JLREQ composer of
    :func:`cardgen.layout.compose.compose` (break classes, punctuation compression, 追い込み
    before 追い出し, phrases kept whole where a short word would be split, no last line of fewer
    than :data:`MIN_LAST_LINE` characters while no line gets more than :data:`MAX_PUSH_SPACE` em
    per gap). Each line carries ``jlreq_adjust``: per glyph, its advance's change in pt, which
    :mod:`cardgen.rulebook.justify` draws. ``lines_wanted=False`` (a check that only asks for the
    short last line): the breaks are found as always, but no line is built (``lines`` is empty).
    ``phrases="strict"`` (titles and headings): break only between phrases, inside one only when
    it is longer than the line, as card text does."""
    U = _units(frags)
    comp = compose(pieces(U), maxWidths[0], widths=list(maxWidths), phrases=phrases, justify=justify,
                   min_last=MIN_LAST_LINE, max_expand=MAX_PUSH_SPACE)
    short = comp.short[-1] if comp.short else ""
    lines = []
    for k, ln in enumerate(comp.lines if lines_wanted else ()):
        max_w = maxWidths[min(k, len(maxWidths) - 1)]
        seg = U[ln.start:ln.end]
        line = makeCJKParaLine(seg, max_w, ln.width, max_w - ln.width, ln.forced, calcBounds)
        line.jlreq_adjust = [a - u.width for u, a in zip(seg, ln.advances)
                             if not hasattr(u.frag, "cbDefn") and not hasattr(u.frag, "lineBreak")]
        lines.append(line)
    return ParaLines(kind=1, lines=lines, short_last=short)


def _split_lines(blPara, start: int, stop: int) -> list:
    """The frags of lines ``start:stop``, for the two parts of a paragraph split across frames.
    reportlab's own version appends a space to the last frag of every line (for Latin text
    broken at spaces) and so puts spaces into Japanese text; :func:`kinsoku_split` keeps a
    line's own spaces, so the lines are joined as they are, and no frag is changed."""
    return [w for ln in blPara.lines[start:stop] for w in ln.words]


class KinsokuParagraph(Paragraph):
    """A Paragraph that always breaks lines with :func:`kinsoku_split` (Japanese and mixed text).
    ``on_short_last(text)``, when set, is called with the last line's text when it stays shorter
    than :data:`MIN_LAST_LINE` characters (no legal break could pull it in)."""

    on_short_last = None
    phrases = "soft"  #: how BudouX phrases are used (:func:`kinsoku_split`); titles and headings: ``"strict"``

    def breakLinesCJK(self, maxWidths):
        """reportlab hook: break the paragraph into lines under JLREQ rules at ``maxWidths`` (pt)."""
        if not isinstance(maxWidths, (list, tuple)):
            maxWidths = [maxWidths]
        _handleBulletWidth(self.bulletText, self.style, maxWidths)
        if hasattr(self, "blPara") and getattr(self, "_splitpara", 0):
            return self.blPara
        if not self.frags:
            s = self.style
            return ParaLines(kind=0, fontSize=s.fontSize, fontName=s.fontName, textColor=s.textColor, lines=[],
                             ascent=s.fontSize, descent=-0.2 * s.fontSize)
        auto = getattr(self, "autoLeading", getattr(self.style, "autoLeading", ""))
        # wrapped on a canvas that asks only for short last lines (the rulebook check): no lines are built
        wanted = not getattr(getattr(self, "canv", None), "short_last_lines_only", False)
        justify = self.style.alignment == TA_JUSTIFY
        # reportlab wraps one paragraph again and again at the same width (a table measures its
        # cells for their heights, then to split and draw; multiBuild lays the story out twice):
        # its frags never change, so the lines of a width are found once per paragraph
        key = (tuple(maxWidths), auto not in ("", "off"), wanted, justify, self.phrases)
        memo = self.__dict__.setdefault("_lines_by_width", {})
        lines = memo.get(key)
        if lines is None:
            lines = memo[key] = kinsoku_split(self.frags, maxWidths, key[1], wanted, justify=justify,
                                              phrases=self.phrases)
        if lines.short_last and self.on_short_last is not None:
            self.on_short_last(lines.short_last)
        return lines

    def breakLines(self, width):  # every paragraph gets the same rules, Latin-only ones too
        """reportlab hook: every paragraph goes through the JLREQ breaker, Latin-only ones too."""
        return self.breakLinesCJK(width)

    def _get_split_blParaFunc(self):
        return _split_lines

    def drawPara(self, debug=0):
        """Every glyph at its JLREQ position (:mod:`cardgen.rulebook.justify`); ``alignment=TA_JUSTIFY``
        sets the lines justified, other alignments as reportlab would."""
        if can_justify(self):
            return draw_justified(self, justify=self.style.alignment == TA_JUSTIFY)
        return super().drawPara(debug)
