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

from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import ParaLines, _handleBulletWidth, cjkU, makeCJKParaLine

from cardgen.fonts.fontset import string_width
from cardgen.layout.compose import Piece, compose
from cardgen.rulebook.justify import can_justify, draw_justified
from cardgen.rulebook.ruby import BEGIN, END


def _word_char(c: str) -> bool:
    """Is ``c`` one character of a Latin word or number (the same set as :mod:`cardgen.layout.text`:
    printable ASCII but the space, Latin-1/Extended-A letters, ’ and ×)? Such characters are never
    broken between (``abc<def``, ``abc_def``, ``32,000``). ``""`` is not."""
    return bool(c) and ("!" <= c <= "~" or "\u00C0" <= c <= "\u024F" or c == "’" or c == "×")


def _units(frags) -> tuple[list[str], list, list[float]]:
    """The paragraph's frags as CJK units, one per character or image, as three lists: each
    unit's text (one character; ``""`` for an image, a marker or a break), its frag, and its
    natural width in pt as reportlab's ``cjkU`` has it (the composer adds the JLREQ adjustments).
    A character's width is measured once per font and size (:func:`cardgen.fonts.fontset.string_width`)."""
    chars: list[str] = []
    owners: list = []
    widths: list[float] = []
    for f in frags:
        text = f.text
        n = len(text) if text else 1
        if hasattr(f, "cbDefn"):
            widths.extend([getattr(f.cbDefn, "width", 0)] * n)
        else:
            name, size = f.fontName, f.fontSize
            widths.extend([string_width(c, name, size) for c in text] if text else [string_width(text, name, size)])
        if text:
            chars.extend(text)
        else:
            chars.append(text)
        owners.extend([f] * n)
    return chars, owners, widths


def _frag_facts(f) -> tuple:
    """What :func:`pieces` asks of a unit's frag: its size, a forced break?, an image or marker
    (``cbDefn``)?, the image's width, a ruby begin / end marker?, zero-width (a marker)?"""
    size = getattr(f, "fontSize", 0.0) or 0.0
    cb = hasattr(f, "cbDefn")
    width = getattr(f.cbDefn, "width", 0) if cb else 0
    kind = getattr(f.cbDefn, "kind", "") if cb and f.cbDefn is not None else ""
    name = getattr(f.cbDefn, "name", "") if kind == "onDraw" else ""
    return size, hasattr(f, "lineBreak"), cb, width, name == BEGIN, name == END, cb and not width


def pieces(chars: list[str], owners: list, widths: list[float]) -> list[Piece]:
    """The composer's pieces (:mod:`cardgen.layout.compose`) for the units of :func:`_units`:
    glyphs, spaces, images and inline icons (set like a kanji), forced breaks, zero-width markers;
    no break inside a Latin word or number, inside a ruby run (from its begin marker to its end
    marker), or after a ruby begin marker. One pass; each frag's facts are asked once."""
    out: list[Piece] = []
    prev = ""
    depth = False  # inside a ruby run
    after_open = False  # the unit before is a zero-width marker other than a ruby end
    last = facts = None
    for b, f in enumerate(owners):
        if f is not last:
            last, facts = f, _frag_facts(f)
        size, line_break, cb, width, begin, end, zero = facts
        inside = False
        if begin:
            depth = True
        elif depth:
            inside = True
            if end:
                depth = False
        glue, after_open = inside or after_open, zero and not end
        if line_break:
            out.append(Piece("", 0.0, size, "newline"))
            prev = ""
        elif cb:
            if width:
                out.append(Piece("〓", widths[b], size, "icon", glue))
                prev = ""
            else:
                out.append(Piece("", 0.0, size, "mark", glue))
        else:
            ch = chars[b]
            if ch == " ":
                out.append(Piece(" ", widths[b], size, "space", glue))
            else:
                out.append(Piece(ch, widths[b], size, "text", glue or (_word_char(prev) and _word_char(ch))))
            prev = ch
    return out


#: The kinds of piece that are a glyph of a frag's text (their advance change is drawn: ``jlreq_adjust``).
_DRAWN = ("text", "space")


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
    chars, owners, widths = _units(frags)
    ps = pieces(chars, owners, widths)
    comp = compose(ps, maxWidths[0], widths=list(maxWidths), phrases=phrases, justify=justify,
                   min_last=MIN_LAST_LINE, max_expand=MAX_PUSH_SPACE)
    short = comp.short[-1] if comp.short else ""
    lines = []
    for k, ln in enumerate(comp.lines if lines_wanted else ()):
        max_w = maxWidths[min(k, len(maxWidths) - 1)]
        seg = [cjkU(chars[j], owners[j], "utf8") for j in range(ln.start, ln.end)]
        line = makeCJKParaLine(seg, max_w, ln.width, max_w - ln.width, ln.forced, calcBounds)
        line.jlreq_adjust = [a - widths[j] for j, a in zip(range(ln.start, ln.end), ln.advances)
                             if ps[j].kind in _DRAWN]
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
