"""The one Japanese line composer of cardgen (JLREQ), shared by card text and the rulebook. Pure:
pieces with their natural widths in, lines with every piece's advance out; no font or PDF library.

A caller turns its text into :class:`Piece` s (a card's atoms, the rulebook's reportlab units) and
calls :func:`compose` with the measure. What it does, in JLREQ's terms:

- **Break classes** (§3.1.7, :func:`cardgen.layout.jlreq.may_break`): line-start and line-end
  prohibition, ``――`` / ``……`` kept together; a piece marked ``glue`` never starts a line (inside
  a Latin word, a ruby base, a no-break run).
- **Punctuation compression** (§3.1.4): each piece's advance carries
  :func:`~cardgen.layout.jlreq.adjustment` with the piece after it (``）。`` and ``、「`` advance one
  em together, a quarter em between Japanese and Latin where nothing was typed); a closing bracket,
  full stop or comma at a line end drops its trailing blank (:func:`~cardgen.layout.jlreq.line_end_trim`).
- **追い込み before 追い出し** (§3.8.2): a line takes the furthest break that fits when its spaces
  are reduced as far as JLREQ allows (:func:`~cardgen.layout.jlreq.shrinkable`: Japanese–Latin
  space first, then punctuation blanks); only then does text move to the next line.
- **ぶら下げ** (§3.8.3, ``hang=True``): 、。 may hang past the measure instead of moving down with
  the character before it.
- **Phrases** (``phrases="strict"``: cards): break between phrases (BudouX,
  :mod:`cardgen.layout.phrases`) and inside one only when it is longer than the line (then the
  line before it is filled first, rather than left short at the last phrase boundary);
  ``"soft"`` (the rulebook): a break that would leave ≤ 2 characters of a phrase on either side
  moves back to the phrase boundary when that costs at most ``max_expand`` em per gap.
- **Short last lines**: a paragraph's last line of fewer than ``min_last`` characters (not counting
  punctuation) is avoided by breaking its last two (three, four) lines again on a measure up to a
  few em narrower (spreading their text over the same lines); justified text allows that only while
  no line gets more than ``max_expand`` em per gap. When nothing works the line is reported (:attr:`Composition.short`).

Never letter-spaces a whole line to avoid a short last line: justification (the caller's) spreads
only what is left of each line, and :func:`compose` keeps that at most ``max_expand`` em per gap
where it chose the breaks for it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from cardgen.core.units import EPS
from cardgen.layout import jlreq, phrases as phrase_mod


@dataclass(frozen=True)
class Piece:
    """One unbreakable piece of text: ``text`` (the characters; ``""`` for a zero-width mark),
    ``width`` its natural advance in pt, ``size`` its em in pt, ``kind`` ``"text"``, ``"space"``,
    ``"icon"`` (an inline picture, set like a kanji), ``"newline"`` (a forced break) or ``"mark"``
    (zero width, e.g. a ruby begin/end marker); ``glue``: no break before it."""

    text: str
    width: float
    size: float
    kind: str = "text"
    glue: bool = False


@dataclass
class Line:
    """A composed line: pieces ``start:end`` of the paragraph, the ``advances`` (pt) of those
    pieces, ``width`` their sum, ``hang`` how far the line reaches past the measure (ぶら下げ),
    ``forced``: it ends at a forced break (the newline piece is its last piece), ``indent``: where
    it starts (``label_indent``: under the first character after its paragraph's 【…】 label)."""

    start: int
    end: int
    advances: list[float]
    width: float
    hang: float = 0.0
    forced: bool = False
    indent: float = 0.0  #: pt from the measure's start (a paragraph's continuation line under its label)


@dataclass
class Composition:
    """What :func:`compose` made of a paragraph: its lines, and the short last lines it could not avoid."""

    lines: list[Line]
    short: list[str] = field(default_factory=list)  #: short last lines nothing could avoid


_ICON_CH = "〓"  # an inline icon is set like an ideograph


def _first(p: Piece) -> str:
    return _ICON_CH if p.kind == "icon" else p.text[:1]


def _last(p: Piece) -> str:
    return _ICON_CH if p.kind == "icon" else p.text[-1:]


@cache
def _pair(ca: str, cb: str) -> tuple[float, float, float]:
    """The JLREQ facts (em) of character ``ca`` followed by ``cb``: the advance change
    (:func:`~cardgen.layout.jlreq.adjustment`) and the two tiers of reducible space
    (:func:`~cardgen.layout.jlreq.shrinkable`). A function of the two characters only, so worked
    out once per pair in a process (a paragraph's setup asks it for every pair of pieces)."""
    return (jlreq.adjustment(ca, cb), *jlreq.shrinkable(ca, cb))


#: :func:`cardgen.layout.jlreq.may_break` once per pair of characters (a function of the two only).
_may_break = cache(jlreq.may_break)
#: :func:`cardgen.layout.jlreq.line_end_trim` once per character.
_line_end_trim = cache(jlreq.line_end_trim)


class _Para:
    """The precomputed facts of one run of pieces: pair adjustments, reducible spaces, legal breaks,
    phrase boundaries, as prefix sums so a line's width is two subtractions."""

    def __init__(self, pieces: list[Piece], phrases: str):
        self.p = pieces
        n = len(pieces)
        # One pass forward: the text character before each break (across spaces and zero-width
        # marks), each piece's pair facts with the piece after it, its line-end blank, the sums.
        prev_ch, last = [""] * (n + 1), ""
        adj = self.adj = [0.0] * n  # advance change of piece i from the piece after it
        cap1 = self.cap1 = [0.0] * n  # reducible space after piece i, tier 1 / tier 2 (pt)
        cap2 = self.cap2 = [0.0] * n
        trim = self.trim = [0.0] * n
        P = self.P = [0.0] * (n + 1)
        C = self.C = [0.0] * (n + 1)
        for i, pc in enumerate(pieces):
            prev_ch[i] = last
            kind, text = pc.kind, pc.text
            if kind == "text" and text:
                last = text[-1]
                trim[i] = _line_end_trim(last) * pc.size
                if i + 1 < n:
                    b = pieces[i + 1]
                    if b.kind == "text" and b.text:  # an icon's advance stays whole
                        a_em, t1, t2 = _pair(last, b.text[0])
                        adj[i] = a_em * pc.size
                        cap1[i], cap2[i] = t1 * pc.size, t2 * pc.size
            elif kind == "icon" and text:
                last = _ICON_CH
            elif kind == "newline":
                last = ""
            P[i + 1] = P[i] + pc.width + adj[i]
            C[i + 1] = C[i] + cap1[i] + cap2[i]
        prev_ch[n] = last
        next_ch, nxt = [""] * (n + 1), ""
        for i in range(n - 1, -1, -1):
            pc = pieces[i]
            if pc.kind in ("text", "icon") and pc.text:
                nxt = _first(pc)
            elif pc.kind == "newline":
                nxt = ""
            next_ch[i] = nxt
        legal = self.legal = [False] * (n + 1)
        for b in range(1, n):
            pc = pieces[b]
            if pc.glue or pieces[b - 1].kind == "newline":
                continue
            legal[b] = pc.kind == "newline" or _may_break(prev_ch[b], next_ch[b])
        legal[n] = True
        self.phrase = [True] * (n + 1)
        if phrases != "off":
            text, starts, at = [], [], 0
            for pc in pieces:  # each piece's offset in the joined text (a running sum: linear in the text)
                starts.append(at)
                text.append(_ICON_CH if pc.kind == "icon" else (" " if pc.kind == "newline" else pc.text))
                at += len(text[-1])
            joined = "".join(text)
            bounds = phrase_mod.boundaries(joined)
            if bounds:
                for b in range(1, n):
                    if not (pieces[b].kind in ("space", "newline") or pieces[b - 1].kind in ("space", "newline")
                            or starts[b] in bounds):
                        self.phrase[b] = False

    def natural(self, s: int, e: int) -> float:
        """Width (pt) of pieces ``s:e`` as one line: adjustments inside, none after the last,
        the last one's line-end blank dropped."""
        return self.P[e] - self.P[s] - self.adj[e - 1] - self.trim[e - 1]

    def reducible(self, s: int, e: int) -> float:
        return self.C[e - 1] - self.C[s] if e - 1 > s else 0.0

    def hang_width(self, e: int) -> float:
        """How much of the last piece of a line ending at ``e`` may hang past the measure."""
        pc = self.p[e - 1]
        return pc.width - self.trim[e - 1] if pc.kind == "text" and pc.text[-1:] in jlreq.HANGING else 0.0

    def fits(self, s: int, e: int, width: float, hang: bool) -> bool:
        need = self.natural(s, e) - self.reducible(s, e) - width
        if need <= EPS:
            return True
        return hang and need - self.hang_width(e) <= EPS and self.natural(s, e - 1) - self.reducible(s, e - 1) <= width + EPS

    def gaps(self, s: int, e: int) -> int:
        return sum(1 for k in range(s, e - 1) if self.p[k].kind != "mark" and self.p[k + 1].kind != "mark")


def _trailing(para: _Para, s: int, e: int) -> int:
    """``e`` moved back over the spaces at the end of pieces ``s:e``."""
    while e > s + 1 and para.p[e - 1].kind == "space":
        e -= 1
    return e


def _breaks(para: _Para, lo: int, hi: int, rest: float, hang: bool, phrases: str, max_expand: float,
            justify: bool, first: float | None = None) -> list[tuple[int, int]]:
    """Greedy 追い込み-first breaking of pieces ``lo:hi`` (no forced break inside) into
    ``(start, end)`` spans: the first line ``first`` pt wide (default ``rest``), the others ``rest``."""
    p = para.p
    spans, s = [], lo
    while s < hi:
        width = rest if spans or first is None else first
        while s < hi and p[s].kind == "space" and spans:
            s += 1  # a line does not start with the space it broke at
        if s >= hi:
            break
        best = best_phrase = first_legal = None
        e = s + 1
        while e <= hi:
            if para.legal[e] or e == hi:
                end = _trailing(para, s, e)
                if first_legal is None:
                    first_legal = e
                if para.fits(s, end, width, hang):
                    best = e
                    if para.phrase[e] or e == hi:
                        best_phrase = e
                elif (first_legal is not None
                      and para.natural(s, end) - para.reducible(s, end) > width + 2 * p[s].size):
                    break
            e += 1
        if best is None:
            choice = first_legal if first_legal is not None else hi  # wider than the line: overflows
        elif phrases == "strict" and best_phrase is not None and best_phrase > s:
            choice = best_phrase
            if best != best_phrase and _phrase_wider(para, best_phrase, width):
                choice = best  # the next phrase is split anyway (longer than a line): fill this line first
        elif phrases == "soft" and best_phrase is not None and best != best_phrase and best < hi:
            choice = best
            if _short_split(para, best_phrase, best):
                end = _trailing(para, s, best_phrase)
                extra = width - para.natural(s, end)
                g = para.gaps(s, end)
                if not justify or (g and extra / g <= max_expand * p[s].size + EPS):
                    choice = best_phrase
        else:
            choice = best
        spans.append((s, choice))
        s = choice
    return spans


def _phrase_wider(para: _Para, start: int, width: float) -> bool:
    """Is the phrase beginning at piece ``start`` (up to the next phrase boundary a line may
    break at) wider than a line of ``width`` pt?"""
    e = start + 1
    while e < len(para.p) and not (para.phrase[e] and para.legal[e]) and para.p[e].kind != "newline":
        e += 1
    return para.natural(start, _trailing(para, start, e)) - para.reducible(start, e) > width + EPS


def _short_split(para: _Para, phrase_start: int, b: int) -> bool:
    """A break at ``b`` inside the phrase beginning at ``phrase_start`` leaves two characters or
    fewer of it on one side (a short word cut at a line end)."""
    left = sum(len(para.p[k].text) for k in range(phrase_start, b))
    e = b
    while e < len(para.p) and not para.phrase[e]:
        e += 1
    right = sum(len(para.p[k].text) for k in range(b, min(e + 1, len(para.p))) if para.p[k].kind == "text")
    return left <= 2 or right <= 2


def _text(para: _Para, s: int, e: int) -> str:
    return "".join(pc.text for pc in para.p[s:e] if pc.kind in ("text", "space"))


def _split_phrase_that_fits(para: _Para, spans: list[tuple[int, int]], width: float) -> bool:
    """Does a break of ``spans`` fall inside a phrase that would fit on a line of ``width`` pt?"""
    for _s, e in spans[:-1]:
        if para.phrase[e]:
            continue
        a = e
        while a > 0 and not para.phrase[a]:
            a -= 1
        b = e
        while b < len(para.p) and not para.phrase[b]:
            b += 1
        if para.natural(a, _trailing(para, a, b)) <= width + EPS:
            return True
    return False


def _short_last(para: _Para, spans: list[tuple[int, int]], min_last: int) -> bool:
    if len(spans) < 2:
        return False
    s, e = spans[-1]
    return jlreq.visible_count(_text(para, s, e)) < min_last


def _expansion_ok(para: _Para, spans: list[tuple[int, int]], width: float, max_expand: float) -> bool:
    """Every line of ``spans`` but the last, justified to ``width``, gets at most ``max_expand`` em
    per gap."""
    for s, e in spans[:-1]:
        end = _trailing(para, s, e)
        g = para.gaps(s, end)
        extra = width - para.natural(s, end)
        if g and extra > EPS and extra / g > max_expand * para.p[s].size + EPS:
            return False
    return True


def _ragged_ok(para: _Para, spans: list[tuple[int, int]], shortest: float) -> bool:
    """Every line of ``spans`` but the last is at least ``shortest`` pt wide (a re-break of ragged
    text that moves a long word down would leave a line half empty)."""
    return all(para.natural(s, _trailing(para, s, e)) >= shortest - EPS for s, e in spans[:-1])


#: How far (em) :func:`compose` narrows the measure to break a paragraph again when its last line
#: is short, in steps of half an em.
MAX_NARROWING = 6.0


def label_width(para: "_Para", lo: int, hi: int) -> float:
    """The advance (pt) of the 【…】 label a paragraph ``lo:hi`` begins with, its closing bracket
    included (0 when it begins with none). The label's spaces are made irreducible, so the first
    line sets it at this width however tight the line (its continuation lines hang under it)."""
    if lo >= hi or not para.p[lo].text.startswith(LABEL_OPEN):
        return 0.0
    for k in range(lo, hi):
        if para.p[k].text.endswith(LABEL_CLOSE):
            for j in range(lo, k + 1):
                para.cap1[j] = para.cap2[j] = 0.0
            for j in range(lo, hi):  # only this paragraph's sums (no line crosses its forced break)
                para.C[j + 1] = para.C[j] + para.cap1[j] + para.cap2[j]
            return para.P[k + 1] - para.P[lo]
    return 0.0


LABEL_OPEN, LABEL_CLOSE = "【", "】"  #: the label brackets of ``label_indent``


def compose(pieces: list[Piece], width: float, *, hang: bool = False, phrases: str = "off",
            justify: bool = False, min_last: int = 3, max_expand: float = 0.125,
            widths: list[float] | None = None, label_indent: bool = False) -> Composition:
    """Break ``pieces`` into lines of ``width`` pt (``widths``: per line, the last one repeating,
    for the rulebook's frames) and set each line's advances. ``label_indent``: a paragraph that
    begins with a 【…】 label continues under the first character after the label (a hanging
    indent the label's width). See the module docstring."""
    para = _Para(pieces, phrases)
    n = len(pieces)
    measure = (lambda k: widths[min(k, len(widths) - 1)]) if widths else (lambda k: width)
    out = Composition([])
    lo = 0
    while lo < n or not out.lines:
        hi = lo
        while hi < n and pieces[hi].kind != "newline":
            hi += 1
        forced = hi < n
        w = measure(len(out.lines))
        ind = label_width(para, lo, hi) if label_indent else 0.0
        if ind > w / 2:  # a label wider than half the line: no hanging indent under it
            ind = 0.0
        first = w if ind else None
        spans = _breaks(para, lo, hi, w - ind, hang, phrases, max_expand, justify, first) if hi > lo else [(lo, lo)]
        if _short_last(para, spans, min_last):
            spans = _rebreak(para, lo, hi, spans, w - ind, hang, phrases, justify, min_last, max_expand, first) \
                or spans
            if _short_last(para, spans, min_last):
                out.short.append(_text(para, *spans[-1]))
        for k, (s, e) in enumerate(spans):
            last = k == len(spans) - 1
            end = hi + 1 if (last and forced) else e
            indent = ind if k else 0.0
            line = _set_line(para, s, end, measure(len(out.lines)) - indent, hang, forced and last)
            line.indent = indent
            out.lines.append(line)
        lo = hi + 1 if forced else hi
        if not forced:
            break
    return out


def _rebreak(para: _Para, lo: int, hi: int, spans, width: float, hang: bool, phrases: str, justify: bool,
             min_last: int, max_expand: float, first: float | None = None):
    """The paragraph ``lo:hi`` with its last lines broken again on a narrower measure so its last
    line is not short: the last two lines first, then three, four; each time the first narrowing
    (half an em at a time) that keeps the number of lines, gives the last line ``min_last``
    characters, splits no phrase that fits ``width`` and (justified) spreads no line by more than
    ``max_expand`` em per gap. When there is none: the one that lengthens the last line most
    (still short, and reported), else None. The lines before stay as they were. ``first``: the
    paragraph's first line's width when it differs (a hanging indent under a label)."""
    em = para.p[lo].size or 1.0
    steps = int(min(MAX_NARROWING * em, width * 0.3) / (em / 2))
    last_len = jlreq.visible_count(_text(para, *spans[-1]))
    better = None  # a last line still short, but longer than before (です。 rather than す。)
    for k in range(2, min(len(spans), 4) + 1):
        keep, start = spans[:-k], spans[-k][0]
        for step in range(1, steps + 1):
            narrow = width - step * em / 2
            head = first - step * em / 2 if first is not None and start == lo else None
            cand = keep + _breaks(para, start, hi, narrow, hang, phrases, max_expand, justify, head)
            if len(cand) > len(spans):
                break
            if phrases == "strict" and _split_phrase_that_fits(para, cand, width):
                continue
            if justify and not _expansion_ok(para, cand[len(keep):], width, max_expand):
                continue
            if not justify and not _ragged_ok(para, cand[len(keep):], width - MAX_NARROWING * em):
                continue
            if _short_last(para, cand, min_last):
                n = jlreq.visible_count(_text(para, *cand[-1]))
                if n > last_len and (better is None or n > better[0]):
                    better = (n, cand)
                continue
            return cand
    return better[1] if better else None


def _set_line(para: _Para, s: int, e: int, width: float, hang: bool, forced: bool) -> Line:
    """The advances of pieces ``s:e`` set on a line of ``width`` pt: adjustments, the last text
    piece's line-end blank dropped, reduced spaces where the line needs them (tier 1 first, then
    tier 2, each in proportion), what still reaches past ``width`` hanging."""
    p = para.p
    end = e - 1 if forced else e
    end = _trailing(para, s, end) if end > s else end
    adv = [p[k].width + para.adj[k] for k in range(s, e)]
    if end > s:
        adv[end - 1 - s] = p[end - 1].width - para.trim[end - 1]
        for k in range(end, e):
            adv[k - s] = 0.0  # trailing spaces and the newline take no room
        need = sum(adv[:end - s]) - width
        if need > EPS:
            for cap in (para.cap1, para.cap2):
                room = sum(cap[k] for k in range(s, end - 1))
                if room <= EPS:
                    continue
                take = min(need, room) / room
                for k in range(s, end - 1):
                    adv[k - s] -= cap[k] * take
                need -= min(need, room)
                if need <= EPS:
                    break
    total = sum(adv)
    return Line(s, e, adv, total, max(0.0, total - width) if hang else 0.0, forced)
