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
from cardgen.layout.text_atoms import Atom, atoms, ruby_size

Measure = Callable[[str, str, float], float]

#: Line-start and line-end prohibition (行頭・行末禁則): the JLREQ classes of :mod:`cardgen.layout.jlreq`
#: (cl-02 … cl-11, cl-13 and half-width forms may not begin a line; cl-01, cl-12 may not end one).
#: ``…`` and ``‥`` (cl-08) do not begin one either, so a split ``……`` never starts a line.
NO_START = jlreq.NO_START | set("…‥")
NO_END = jlreq.NO_END


@dataclass
class LaidLine:
    """A laid-out line: atoms and total width in pt; ``has_ruby``: the line holds a ruby base (it
    needs :func:`ruby_size` more room above), worked out when the line is made (a laid line is
    never changed: fitted lines are shared, see ``card_text.fit_cached``)."""

    atoms: list[Atom]
    width: float

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


def _no_start(a: Atom) -> bool:
    return a.kind != "icon" and a.text[:1] in NO_START


def _no_end(a: Atom) -> bool:
    return a.kind != "icon" and a.text[-1:] in NO_END


def break_lines(text: str, width: float, font: str, size: float, measure: Measure) -> list[LaidLine]:
    """Break ``text`` into lines no wider than ``width`` pt (when possible).

    A single atom wider than the line (a very long Latin word) gets a line of its own and is
    reported by :func:`fits` as overflowing; it is never split mid-word.
    """
    lines: list[LaidLine] = []
    cur: list[Atom] = []
    widths: list[float] = []

    def flush() -> None:
        while cur and cur[-1].kind == "space":
            cur.pop()
            widths.pop()
        lines.append(LaidLine(list(cur), sum(widths)))
        cur.clear()
        widths.clear()

    for a in atoms(text):
        if a.kind == "newline":
            flush()
            continue
        if a.kind == "space" and not cur:
            continue
        w = _atom_width(a, font, size, measure)
        if cur and sum(widths) + w > width + EPS and a.kind != "space":
            # Kinsoku: carry atoms to the next line so it does not start with a NO_START
            # character and this line does not end with a NO_END character.
            carry: list[tuple[Atom, float]] = []
            if _no_start(a):
                # carry back until the carried run starts with an atom that may begin a line
                # (so 」、 or ）。 move down together with the character before them)
                while len(cur) > 1:
                    carry.insert(0, (cur.pop(), widths.pop()))
                    if not _no_start(carry[0][0]) and carry[0][0].kind != "space":
                        break
                if not carry or _no_start(carry[0][0]) or carry[0][0].kind == "space":
                    # Nothing before it may begin a line (one long word, or a run of 」」、):
                    # the character hangs at the end of this line (ぶら下げ), which makes the
                    # line too wide, so fit_text shrinks the text or reports that it overflows.
                    for ca, cw in carry:
                        cur.append(ca)
                        widths.append(cw)
                    cur.append(a)
                    widths.append(w)
                    continue
            # The trailing run of opening brackets (and the spaces among them) moves down too,
            # so no line ends with one, even when a space separates it from the next word.
            j = len(cur)
            while j > 0 and (cur[j - 1].kind == "space" or _no_end(cur[j - 1])):
                j -= 1
            k = next((i for i in range(j, len(cur)) if _no_end(cur[i])), None)
            if k is not None:
                carry = list(zip(cur[k:], widths[k:])) + carry
                del cur[k:], widths[k:]
            if cur:
                flush()
            for ca, cw in carry:
                cur.append(ca)
                widths.append(cw)
        if a.kind == "space" and (not cur or _no_end(cur[-1]) or cur[-1].kind == "space"):
            continue  # a space typed after an opening bracket (「 Ron) or another space takes no room (JLREQ)
        cur.append(a)
        widths.append(w)
    if cur or not lines:
        flush()
    return lines


@dataclass
class Fitted:
    """The result of fitting text into a box: the size used and the lines."""

    size: float
    lines: list[LaidLine]
    leading: float  #: baseline-to-baseline distance, pt
    fits: bool
    shrunk: bool  #: the size had to go below the template's preferred size


#: Sizes tried one by one in a text box; a wider range is searched by halving (a cap on the
#: layout work of one box: ``size: 500, min_size: 1`` would otherwise try 998 sizes).
MAX_FIT_ATTEMPTS = 24


def fit_text(text: str, width: float, height: float, font: str, size: float, min_size: float,
             measure: Measure, leading: float = 1.35, step: float = 0.5,
             breaker: Callable[..., list[LaidLine]] | None = None) -> Fitted:
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
    breaker = breaker or break_lines

    def attempt(s: float) -> Fitted:
        lines = breaker(text, width, font, s, measure)
        total = s + (len(lines) - 1) * s * leading + sum(ln.has_ruby for ln in lines) * ruby_size(s)
        if total <= height + EPS and all(ln.width <= width + EPS for ln in lines):
            return Fitted(s, lines, s * leading, True, s < size - 1e-9)
        return Fitted(s, lines, s * leading, False, True)

    grid = []
    s = size
    while s >= min_size - 1e-9 and len(grid) <= 100_000:
        grid.append(s)
        s = round(s - step, 3)
    if not grid:
        return Fitted(size, breaker(text, width, font, size, measure), size * leading, False, False)
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
