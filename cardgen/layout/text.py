"""Japanese-first line breaking and text fitting.

Line breaking follows the kinsoku rules of JIS X 4051 (Japanese document composition method),
simplified: a line never starts with closing brackets, small kana, the prolonged sound mark or
punctuation (``、。）」ー…``), never ends with an opening bracket (``（「``); Latin words are
kept whole and break at spaces; ``:name:`` is an inline icon one em wide that sits on the
baseline. ``\\n`` (a real line break, or the two characters backslash-n typed in a spreadsheet
cell) forces a break. U+2060 WORD JOINER (:data:`NOBREAK`; the template filter ``nobreak``
puts one between every character) forbids a break where it stands and is not drawn, so a
reference like ``（第20条①）`` stays on one line. Ruby (``｜聴牌《テンパイ》``, ``聴牌《テンパイ》``,
``{聴牌|テンパイ}``, :mod:`cardgen.layout.ruby_text`) makes its base one unbreakable atom as wide
as the base, or as the reading (set at :func:`ruby_size` above it) less the half ruby em it may
overhang on each side (JLREQ §3.3.7); a line holding
ruby is that ruby size further from the line above.

Widths come from a ``measure(text, font_role, size_pt) -> width_pt`` callable, so this module
stays free of any font or PDF library.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from cardgen.core.nobreak import NOBREAK
from cardgen.core.units import EPS
from cardgen.layout import jlreq
from cardgen.layout.ruby_text import split_ruby

Measure = Callable[[str, str, float], float]

#: Line-start and line-end prohibition (行頭・行末禁則): the JLREQ classes of :mod:`cardgen.layout.jlreq`
#: (cl-02 … cl-11, cl-13 and half-width forms may not begin a line; cl-01, cl-12 may not end one).
#: ``…`` and ``‥`` (cl-08) do not begin one either, so a split ``……`` never starts a line.
NO_START = jlreq.NO_START | set("…‥")
NO_END = jlreq.NO_END

_ICON = re.compile(r":([a-z][a-z0-9_]*):")
#: A Latin word or number: any printable ASCII but the space (so ``abc<def``, ``abc_def``,
#: ``abc=def``, ``32,000`` stay whole), Latin-1/Extended-A letters, ’ and ×.
#: A word never starts with ASCII punctuation that may not begin a line (``,`` ``.`` ``)``…): that
#: character is an atom of its own, so kinsoku keeps it on the line before.
_LATIN = re.compile(r"(?![,.:;!?%)\]}])(?:(?!:[a-z][a-z0-9_]*:)[!-~\u00C0-\u024F’×])+")


#: Ruby size as a fraction of the base size (JIS X 4051: half).
RUBY_SCALE = 0.5
#: The smallest ruby (pt): the legibility floor of printed card text (6 pt, as the preflight's).
MIN_RUBY = 6.0


def ruby_size(size: float) -> float:
    """The ruby size (pt) over base text of ``size`` pt: half of it (JIS X 4051), but not below
    :data:`MIN_RUBY` (nor above the base). A line holding ruby moves this much further from the
    line above, so the reading clears it."""
    return max(RUBY_SCALE * size, min(MIN_RUBY, size))


@dataclass(frozen=True)
class Atom:
    """An unbreakable piece: a CJK character, a Latin word, a space, an icon, or a ruby base
    (``ruby``: its reading)."""

    text: str
    kind: str  # "cjk" | "word" | "space" | "icon" | "newline" | "ruby"
    ruby: str = ""


@dataclass
class LaidLine:
    """A laid-out line: atoms and total width in pt."""

    atoms: list[Atom]
    width: float

    @property
    def has_ruby(self) -> bool:
        """The line holds a ruby base (it needs :func:`ruby_size` more room above)."""
        return any(a.kind == "ruby" for a in self.atoms)


def atoms(text: str) -> list[Atom]:
    """Split text into unbreakable atoms (see module doc). Atoms joined by :data:`NOBREAK`
    become one atom (kind ``word``; icons are never joined)."""
    text = text.replace("\r\n", "\n").replace("\\n", "\n")
    out: list[Atom] = []
    for piece, reading in split_ruby(text):
        if reading:
            out.append(Atom(piece, "ruby", reading))
        else:
            _plain_atoms(piece, out)
    return out


def _plain_atoms(text: str, out: list[Atom]) -> None:
    """Append the atoms of ``text`` (no ruby in it) to ``out``."""
    glue = False
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == NOBREAK:
            glue = bool(out)
            i += 1
            continue
        i = _next_atom(text, i, out)
        if glue and len(out) > 1 and {out[-2].kind, out[-1].kind} <= {"cjk", "word", "space"}:
            joined = out.pop()
            out[-1] = Atom(out[-1].text + joined.text, "word")
        glue = False


def _next_atom(text: str, i: int, out: list[Atom]) -> int:
    """Append the atom starting at ``text[i]`` to ``out``; return the index after it."""
    ch = text[i]
    if ch == "\n":
        out.append(Atom("\n", "newline"))
        return i + 1
    m = _ICON.match(text, i)
    if m:
        out.append(Atom(m.group(1), "icon"))
        return m.end()
    if ch == " " or ch == "\t":
        out.append(Atom(" ", "space"))
        return i + 1
    m = _LATIN.match(text, i)
    if m:
        out.append(Atom(m.group(0), "word"))
        return m.end()
    out.append(Atom(ch, "cjk"))
    return i + 1


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
             measure: Measure, leading: float = 1.35, step: float = 0.5) -> Fitted:
    """Largest size in ``[min_size, size]`` (steps of ``step`` pt) at which ``text`` fits the box:
    each size in turn from ``size`` down, or, when the range holds more than
    :data:`MAX_FIT_ATTEMPTS` steps, by halving it (at most about 20 line breakings).

    Args:
        width, height: box in pt. size, min_size: font sizes in pt. leading: line height as a
        multiple of the size.

    Returns:
        :class:`Fitted`; ``fits`` is False when even ``min_size`` overflows (the caller reports it).
    """
    def attempt(s: float) -> Fitted:
        lines = break_lines(text, width, font, s, measure)
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
        return Fitted(size, break_lines(text, width, font, size, measure), size * leading, False, False)
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
