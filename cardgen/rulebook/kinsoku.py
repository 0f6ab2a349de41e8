"""Japanese line breaking of the rulebook's Platypus paragraphs (:class:`KinsokuParagraph`).

reportlab's own CJK wrapping lets one 、 or 。 hang past the right edge and does not keep a line
from ending with （「 or Latin words whole. :class:`KinsokuParagraph` breaks lines with the
kinsoku classes of :mod:`cardgen.layout.text` (JIS X 4051): a character that may not start a line
pulls the previous character down with it (追い出し), so no line starts with 、。）」… and no text
runs past the frame. Glyph widths carry the JLREQ adjustments (punctuation compression, the
Japanese–Latin quarter em), ruby bases stay whole, and a last line of fewer than
:data:`MIN_LAST_LINE` characters is pulled in where a break allows. The lines are drawn by
:mod:`cardgen.rulebook.justify`.
"""
from __future__ import annotations

import re

from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import _FUZZ, ParaLines, _handleBulletWidth, cjkU, makeCJKParaLine

from cardgen.layout import jlreq
from cardgen.layout.text import NO_END, NO_START
from cardgen.rulebook.justify import can_justify, draw_justified
from cardgen.rulebook.ruby import is_begin, is_end

#: One character of a Latin word or number (the same set as :mod:`cardgen.layout.text`): never
#: broken inside (``abc<def``, ``abc_def``, ``32,000``).
_WORD = re.compile(r"[!-~\u00C0-\u024F’×]")


_NO_SPLIT = set("―—…‥")


def _zero(u) -> bool:
    return hasattr(u.frag, "cbDefn") and not getattr(u.frag.cbDefn, "width", 0)


def can_break(U, b: int) -> bool:
    """May a line end between glyphs ``U[b-1]`` and ``U[b]``?"""
    prev, nxt = U[b - 1], U[b]
    if nxt in NO_START or prev in NO_END or (_zero(prev) and not is_end(prev)):
        return False
    if prev == nxt and prev in _NO_SPLIT:
        return False  # ―― and …… stay together (分離禁止)
    if _WORD.match(prev or "") and _WORD.match(nxt or ""):
        return False  # inside a Latin word or number
    return True


def _units(frags) -> list:
    """The paragraph's frags as reportlab CJK units (one per character or image), each unit's
    width changed by the JLREQ adjustment with the character after it
    (:func:`cardgen.layout.jlreq.adjustment`: punctuation compression, Japanese–Latin space)."""
    U = []
    for f in frags:
        if f.text:
            U.extend(cjkU(t, f, "utf8") for t in f.text)
        else:
            U.append(cjkU(f.text, f, "utf8"))
    prev = None
    for u in U:
        if hasattr(u.frag, "cbDefn"):
            if getattr(u.frag.cbDefn, "width", 0) or hasattr(u.frag, "lineBreak"):
                prev = None
            continue
        if prev is not None:
            prev._adj = jlreq.adjustment(prev, u) * prev.frag.fontSize
            prev._width += prev._adj
        prev = u
    return U


def _adj(u) -> float:
    return getattr(u, "_adj", 0.0)


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


#: A last line may hold this many characters at least (not counting punctuation) when the
#: paragraph has more than one line (JLREQ §3.8 widow/orphan practice: no line of 1–2 characters).
MIN_LAST_LINE = 3
#: The most extra space per glyph gap (em) that pushing characters down to the last line may
#: give the line before it (追い出し).
MAX_PUSH_SPACE = 0.25


def kinsoku_split(frags, maxWidths, calcBounds, lines_wanted: bool = True):
    """Break ``frags`` into CJK lines (reportlab's ParaLines kind 1) with the JLREQ rules: kinsoku
    classes (:func:`can_break`), glyph widths with punctuation compression and Japanese–Latin
    spacing, ruby bases kept whole, and no last line of fewer than :data:`MIN_LAST_LINE`
    characters (:func:`_push_down`). ``lines_wanted=False`` (a check that only asks for the
    short last line): the breaks are found as always, but no line is built (``lines`` is empty)."""
    U = _units(frags)
    ruby = _ruby_inside(U)
    spans = []  # (start, end, forced line break, measure)
    start, n = 0, len(U)
    while start < n:
        max_w = maxWidths[min(len(spans), len(maxWidths) - 1)]
        if spans:
            while start < n and U[start] == " ":
                start += 1
            if start >= n:
                break
        width, i, line_break = 0.0, start, False
        while i < n:
            u = U[i]
            if hasattr(u.frag, "lineBreak"):
                i += 1
                line_break = True
                break
            if width + u.width - _adj(u) > max_w + _FUZZ and i > start:
                break
            width += u.width
            i += 1
        end = i
        if not line_break and end < n:
            b = end
            while b > start + 1 and not (can_break(U, b) and b not in ruby):
                b -= 1
            if can_break(U, b) and b not in ruby:
                end = b
        spans.append((start, end, line_break, max_w))
        start = end
    spans = _push_down(U, spans, ruby)
    short = short_last_line(U, spans)
    lines = []
    for start, end, line_break, max_w in spans if lines_wanted else ():
        seg = U[start:end]
        used = _used(seg)
        lines.append(makeCJKParaLine(seg, max_w, used, max_w - used, line_break, calcBounds))
    return ParaLines(kind=1, lines=lines, short_last=short)


def short_last_line(U, spans: list) -> str:
    """The text of the paragraph's last line when it is still shorter than :data:`MIN_LAST_LINE`
    characters after :func:`_push_down` (and the line before does not end at a forced break);
    "" otherwise."""
    if len(spans) < 2 or spans[-2][2]:
        return ""
    ls, le = spans[-1][0], spans[-1][1]
    tail = "".join(str(u) for u in U[ls:le] if not hasattr(u.frag, "lineBreak"))
    return tail if tail.strip() and jlreq.visible_count(tail) < MIN_LAST_LINE else ""


def _used(seg) -> float:
    """Natural width of a line's units (pt): the last glyph pairs with nothing."""
    text = [u for u in seg if not hasattr(u.frag, "lineBreak")]
    used = sum(u.width for u in text)
    return used - (_adj(text[-1]) if text else 0.0)


def _push_down(U, spans: list, ruby: set) -> list:
    """When the paragraph's last line holds fewer than :data:`MIN_LAST_LINE` characters (not
    counting punctuation), move characters from the end of the line before it down to it
    (追い出し), at the last legal break that gives the last line enough characters while the
    line before keeps at most :data:`MAX_PUSH_SPACE` em of extra space per glyph gap. Lines
    ending at a forced break are left alone; so is a paragraph where no such break exists
    (:func:`short_last_lines` in the tests lists those)."""
    if len(spans) < 2:
        return spans
    (ps, pe, pbreak, pw), (ls, le, lbreak, lw) = spans[-2], spans[-1]
    if pbreak or jlreq.visible_count("".join(str(u) for u in U[ls:le])) >= MIN_LAST_LINE:
        return spans
    size = max((u.frag.fontSize for u in U[ps:pe] if not hasattr(u.frag, "cbDefn")), default=0)
    for b in range(pe - 1, ps + 1, -1):
        if not can_break(U, b) or b in ruby:
            continue
        tail = U[b:le]
        if jlreq.visible_count("".join(str(u) for u in tail)) < MIN_LAST_LINE:
            continue
        head = U[ps:b]
        room = pw - _used(head)
        gaps = max(1, len(head) - 1)
        if room / gaps > MAX_PUSH_SPACE * size or _used(tail) > lw + _FUZZ:
            break
        return spans[:-2] + [(ps, b, False, pw), (b, le, lbreak, lw)]
    return spans


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
        lines = kinsoku_split(self.frags, maxWidths, auto not in ("", "off"), wanted)
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
