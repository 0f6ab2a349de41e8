"""Japanese-first line breaking and text fitting.

Line breaking follows the kinsoku rules of JIS X 4051 (Japanese document composition method),
simplified: a line never starts with closing brackets, small kana, the prolonged sound mark or
punctuation (``、。）」ー…``), never ends with an opening bracket (``（「``); Latin words are
kept whole and break at spaces; ``:name:`` is an inline icon one em wide that sits on the
baseline; ``\\n`` forces a break; text joined by U+2060 WORD JOINER never breaks (the atoms of
:mod:`cardgen.layout.text_atoms`). Ruby makes its base one unbreakable atom as wide as the base,
or as the reading (set at :func:`~cardgen.layout.text_atoms.ruby_size` above it) less the half
ruby em it may overhang on each side (JLREQ §3.3.7); a line holding ruby is that ruby size
further from the line above.

Widths come from a ``measure(text, font_role, size_pt) -> width_pt`` callable, so this module
stays free of any font or PDF library.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from cardgen.core.units import EPS
from cardgen.layout import jlreq
from cardgen.layout.compose import Piece, compose
from cardgen.layout.text_atoms import Atom, atoms, ruby_size

Measure = Callable[[str, str, float], float]


def measure_key(measure: Measure) -> object:
    """What stands for ``measure`` in a layout memo's key: the ``width_key()`` of the object it is
    a method of, when it has one (:meth:`cardgen.fonts.fontset.FontSet.width_key`: two font sets
    with the same fonts measure alike, so the same text in the same box is laid out once for both
    editions of a game that keep the default's fonts), else the measure itself."""
    key = getattr(getattr(measure, "__self__", None), "width_key", None)
    return key() if key is not None else measure

#: Line-start and line-end prohibition (行頭・行末禁則): the JLREQ classes of :mod:`cardgen.layout.jlreq`
#: (cl-02 … cl-11, cl-13 and half-width forms may not begin a line; cl-01, cl-12 may not end one).
#: ``…`` and ``‥`` (cl-08) do not begin one either, so a split ``……`` never starts a line.
NO_START = jlreq.NO_START | jlreq.NO_START_LEADERS
NO_END = jlreq.NO_END


@dataclass
class LaidLine:
    """A laid-out line: atoms, each atom's ``advances`` (pt: its width with the JLREQ adjustments
    of :mod:`cardgen.layout.compose`), ``width`` their sum, ``hang`` how far it reaches past the
    measure (ぶら下げ); ``has_ruby``: the line holds a ruby base (it needs :func:`ruby_size` more
    room above). A laid line is never changed: fitted lines are shared (``card_text.fit_cached``)."""

    atoms: list[Atom]
    width: float
    advances: list[float]
    hang: float = 0.0
    cuts: frozenset[int] = frozenset()  #: atoms whose advance is not their natural width
    forced: bool = False  #: the line ends at a forced break (the end of a paragraph)
    indent: float = 0.0  #: pt from the box's start edge (a continuation line under a 【…】 label)

    def __post_init__(self) -> None:
        self.has_ruby = any(a.kind == "ruby" for a in self.atoms)


def _atom_width(a: Atom, font: str, size: float, measure: Measure) -> float:
    if a.kind == "icon":
        return size * 1.05
    if a.kind == "newline":
        return 0.0
    if a.kind == "ruby":
        rs = ruby_size(size)  # a reading longer than its base overhangs the neighbours by up to half a ruby em each side
        return max(measure(a.text, font, size), measure(a.ruby, font, rs) - rs)
    return measure(a.text, font, size)


_KIND = {"cjk": "text", "word": "text", "ruby": "text", "space": "space", "icon": "icon", "newline": "newline"}


def pieces_of(text: str, font: str, size: float, measure: Measure) -> tuple[list[Atom], list[Piece]]:
    """The atoms of ``text`` and the engine's pieces for them (one each). A space typed after an
    opening bracket, after another space or at the start of a paragraph takes no room (JLREQ):
    it is left out."""
    kept: list[Atom] = []
    pieces: list[Piece] = []
    for a in atoms(text):
        if a.kind == "space" and (not kept or kept[-1].kind in ("space", "newline")
                                  or (kept[-1].kind != "icon" and kept[-1].text[-1:] in NO_END)):
            continue
        kept.append(a)
        pieces.append(Piece(a.text, _atom_width(a, font, size, measure), size, _KIND[a.kind]))
    return kept, pieces


def compose_text(text: str, width: float, font: str, size: float, measure: Measure, *, hang: bool = False,
                 phrases: bool = False, label_indent: bool = False) -> tuple[list[LaidLine], list[str]]:
    """``text`` set in lines of ``width`` pt by :func:`cardgen.layout.compose.compose`, and the
    short last lines nothing could avoid (``label_indent``: continuation lines under the first
    character after a paragraph's 【…】 label)."""
    kept, pieces = pieces_of(text, font, size, measure)
    comp = compose(pieces, width, hang=hang, phrases="strict" if phrases else "off", label_indent=label_indent)
    out = []
    for ln in comp.lines:
        idx = [k for k in range(ln.start, ln.end) if kept[k].kind != "newline"]
        while idx and kept[idx[-1]].kind == "space":
            idx.pop()
        adv = [ln.advances[k - ln.start] for k in idx]
        cuts = frozenset(j for j, k in enumerate(idx) if abs(adv[j] - pieces[k].width) > EPS)
        out.append(LaidLine([kept[k] for k in idx], sum(adv), adv, ln.hang, cuts, ln.forced, ln.indent))
    return out, comp.short


def break_lines(text: str, width: float, font: str, size: float, measure: Measure, *, hang: bool = False,
                phrases: bool = False) -> list[LaidLine]:
    """Break ``text`` into lines no wider than ``width`` pt (when possible), with the JLREQ rules
    of :mod:`cardgen.layout.compose` (``phrases``: between BudouX phrases first).

    A single atom wider than the line (a very long Latin word) gets a line of its own and is
    reported by :func:`fits` as overflowing; it is never split mid-word.
    """
    return compose_text(text, width, font, size, measure, hang=hang, phrases=phrases)[0]


@dataclass
class Fitted:
    """The result of fitting text into a box: the size used and the lines."""

    size: float
    lines: list[LaidLine]
    leading: float  #: baseline-to-baseline distance, pt
    fits: bool
    shrunk: bool  #: the size had to go below the template's preferred size
    short: tuple[str, ...] = ()  #: last lines of ≤ 2 characters that neither compression nor re-breaking avoided


#: Sizes tried one by one in a text box; a wider range is searched by halving (a cap on the
#: layout work of one box: ``size: 500, min_size: 1`` would otherwise try 998 sizes).
MAX_FIT_ATTEMPTS = 24


def fit_text(text: str, width: float, height: float, font: str, size: float, min_size: float,
             measure: Measure, leading: float = 1.35, step: float = 0.5, *, hang: bool = False,
             phrases: bool = False, breaker: Callable[..., list[LaidLine]] | None = None,
             label_indent: bool = False) -> Fitted:
    """Largest size in ``[min_size, size]`` (steps of ``step`` pt) at which ``text`` fits the box:
    each size in turn from ``size`` down, or, when the range holds more than
    :data:`MAX_FIT_ATTEMPTS` steps, by halving it (at most about 20 line breakings).

    Args:
        width, height: box in pt. size, min_size: font sizes in pt. leading: line height as a
        multiple of the size. breaker: the line breaker, ``breaker(text, width, font, size,
        measure)`` (default :func:`break_lines`; a Latin-script edition's is
        :func:`cardgen.layout.western.break_western`).

    Returns:
        :class:`Fitted`; ``fits`` is False when even ``min_size`` overflows (the caller reports it).
    """
    def attempt(s: float) -> Fitted:
        if breaker is not None:  # a Latin-script edition's lines (no JLREQ short-last-line report)
            lines, short = breaker(text, width, font, s, measure), []
        else:
            lines, short = compose_text(text, width, font, s, measure, hang=hang, phrases=phrases,
                                        label_indent=label_indent)
        total = s + (len(lines) - 1) * s * leading + sum(ln.has_ruby for ln in lines) * ruby_size(s)
        if total <= height + EPS and all(ln.indent + ln.width - ln.hang <= width + EPS for ln in lines):
            return Fitted(s, lines, s * leading, True, s < size - 1e-9, tuple(short))
        return Fitted(s, lines, s * leading, False, True, tuple(short))

    grid = []
    s = size
    while s >= min_size - 1e-9 and len(grid) <= 100_000:
        grid.append(s)
        s = round(s - step, 3)
    if not grid:
        lines = breaker(text, width, font, size, measure) if breaker is not None else \
            break_lines(text, width, font, size, measure, hang=hang, phrases=phrases)
        return Fitted(size, lines, size * leading, False, False)
    if len(grid) <= MAX_FIT_ATTEMPTS:  # the usual box (10 pt down to 6 pt): every size in turn
        for s in grid:
            got = attempt(s)
            if got.fits:
                return got
        return got
    # a wide range (500 pt down to 1 pt): the largest fitting size by halving, at most ~20 attempts
    first = attempt(grid[0])
    if first.fits:
        return first
    best = attempt(grid[-1])
    if not best.fits:
        return best
    lo, hi = 0, len(grid) - 1  # grid[lo] overflows, grid[hi] fits
    while hi - lo > 1:
        mid = (lo + hi) // 2
        got = attempt(grid[mid])
        if got.fits:
            hi, best = mid, got
        else:
            lo = mid
    return best


def line_text(line: LaidLine) -> str:
    """The plain text of a laid line (icons as ``:name:``)."""
    return "".join(f":{a.text}:" if a.kind == "icon" else a.text for a in line.atoms)


def placed_runs(line: LaidLine) -> Iterable[tuple[str, object, float]]:
    """Like :func:`runs`, with each run's advance (pt): a text run is cut after every atom whose
    advance differs from its natural width (a compressed 」, a Japanese–Latin space: ``cuts``),
    so each run is drawn at its own place and the next starts where JLREQ puts it. Yields
    ``(kind, value, advance)``."""
    buf, w = "", 0.0
    for i, (a, x) in enumerate(zip(line.atoms, line.advances)):
        if a.kind in ("icon", "ruby"):
            if buf:
                yield ("text", buf, w)
                buf, w = "", 0.0
            yield (a.kind, a.text if a.kind == "icon" else (a.text, a.ruby), x)
            continue
        buf += a.text
        w += x
        if i in line.cuts:
            yield ("text", buf, w)
            buf, w = "", 0.0
    if buf:
        yield ("text", buf, w)


def runs(line: LaidLine) -> Iterable[tuple[str, object]]:
    """Group a line's atoms into ``("text", s)``, ``("icon", name)`` and ``("ruby", (base,
    reading))`` runs."""
    buf = ""
    for a in line.atoms:
        if a.kind in ("icon", "ruby"):
            if buf:
                yield ("text", buf)
                buf = ""
            yield (a.kind, a.text if a.kind == "icon" else (a.text, a.ruby))
        else:
            buf += a.text
    if buf:
        yield ("text", buf)
