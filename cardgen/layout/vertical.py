"""Vertical text (縦書き): text → columns, top to bottom, columns right to left. Pure, pt.

Set as W3C JLREQ describes vertical writing (§3.1–3.2, §3.3 ruby, §3.4 tate-chu-yoko):

- **Orientation per character** by Unicode UAX #50 ``Vertical_Orientation`` (from
  ``unicodedataplus``): ``U`` (kana, kanji, full-width forms) and ``Tu`` / ``Tr`` (、。, small
  kana, brackets, ー, 〜: the font's vertical form) are set upright, one em each; ``R`` (Latin,
  digits, most symbols) is turned 90° clockwise. The inseparable ``…‥―—`` (``R``) are set as
  their vertical forms too, as Japanese text wants them.
- **Latin words** are turned 90° clockwise, one run as wide as the word; a word of one letter,
  or of all capitals up to ``upright_caps`` letters (``HP``, ``JIS``), is set upright letter by
  letter; a run of up to ``tcy_digits`` digits (``12``) is one tate-chu-yoko unit (縦中横): set
  horizontally across the column in one em; so are ``!!`` ``!?`` (a single ``!`` ``?`` stands upright).
- **Line breaking** uses the JLREQ classes of :mod:`cardgen.layout.jlreq` (no 、。」ー… at the start
  of a column, no 「（ at its end; a character that nothing can carry hangs and the text then
  does not fit), breaks between phrases (文節, BudouX: :mod:`cardgen.layout.phrases`) where the
  phrase fits the next column, the same punctuation compression (:func:`~cardgen.layout.jlreq.squeeze`) and
  the quarter em between Japanese and a turned Latin word (:func:`~cardgen.layout.jlreq.latin_gap`),
  and no last column of a paragraph holding one or two characters when the column before it can
  give one (:func:`~cardgen.layout.jlreq.visible_count`).
- **Ruby** sits on the right of its base (:func:`~cardgen.layout.text_atoms.ruby_size`), the
  column then needing that much more room; **inline icons** (``:name:``) stand upright.

Atoms come from :mod:`cardgen.layout.text_atoms` (the same unbreakable pieces as horizontal text);
widths of turned runs from the same ``measure(text, font, size)`` callable.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import unicodedataplus

from cardgen.core.units import EPS
from cardgen.layout import jlreq
from cardgen.layout.phrases import boundaries
from cardgen.layout.text_atoms import Atom, atoms, ruby_size

#: Pieces of a unit: how each is set in the column.
UPRIGHT, TURNED, TCY, ICON, RUBY, SPACE = "upright", "turned", "tcy", "icon", "ruby", "space"

#: Characters that may not begin a column (行頭禁則) and may not end one (行末禁則).
NO_START = jlreq.NO_START | set("…‥")
NO_END = jlreq.NO_END
#: ``R`` characters set as their vertical forms all the same (JLREQ: inseparable marks run along the column).
VERTICAL_R = set("…‥―—")
ICON_ADVANCE = 1.05  #: an inline icon's advance along the column (em), as in horizontal text

_DIGITS = re.compile(r"[0-9]+")
_MARKS = frozenset("!?")  #: half-width marks set upright, two of them across the column (JLREQ §3.4)
_CAPS = re.compile(r"[A-Z]+")


@lru_cache(maxsize=4096)
def orientation(ch: str) -> str:
    """UAX #50 ``Vertical_Orientation`` of ``ch``: ``U``, ``R``, ``Tu`` or ``Tr``."""
    return unicodedataplus.vertical_orientation(ch)


def is_upright(ch: str) -> bool:
    """``ch`` stands upright in a column (``U``, ``Tu``, ``Tr``, or one of :data:`VERTICAL_R`)."""
    return ch in VERTICAL_R or orientation(ch) != "R"


def needs_form(ch: str) -> bool:
    """``ch`` (``Tu``: 、。, small kana, ゛゜) is drawn wrongly without the font's vertical form:
    upright in its horizontal place (validate warns of a font that lacks one). Not ！？ (``Tu``
    too): their full-width glyphs stand centred in the square, right in a column as they are."""
    return orientation(ch) == "Tu" and ch not in jlreq.DIVIDING


def turns_without_form(ch: str) -> bool:
    """``ch`` (``Tr``: brackets, ー, 〜; and :data:`VERTICAL_R`) is turned 90° clockwise where the
    font has no vertical form for it (UAX #50's fallback for ``Tr``), which sets it correctly."""
    return ch in VERTICAL_R or orientation(ch) == "Tr"


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a unit: ``mode`` (:data:`UPRIGHT` one character, :data:`TURNED` a run turned
    90° clockwise, :data:`TCY` digits across the column, :data:`ICON` an icon name, :data:`RUBY`
    a base with its ``ruby`` reading, :data:`SPACE`), its ``text`` and ``advance`` along the
    column (pt)."""

    mode: str
    text: str
    advance: float
    ruby: str = ""


@dataclass(frozen=True, slots=True)
class Unit:
    """An unbreakable run of pieces (one atom of :mod:`cardgen.layout.text_atoms`)."""

    pieces: tuple[Piece, ...]
    newline: bool = False

    @property
    def first(self) -> str:
        """The unit's first character (empty for an icon or a space)."""
        p = self.pieces[0] if self.pieces else None
        return "" if p is None or p.mode in (ICON, SPACE) else p.text[:1]

    @property
    def last(self) -> str:
        """The unit's last character (empty for an icon or a space)."""
        p = self.pieces[-1] if self.pieces else None
        return "" if p is None or p.mode in (ICON, SPACE) else p.text[-1:]

    @property
    def is_space(self) -> bool:
        """The unit is a space (it takes no room at a column's start or end)."""
        return all(p.mode == SPACE for p in self.pieces)


def gap(a: Piece, b: Piece, size: float) -> float:
    """The change (pt) of ``a``'s advance when ``b`` follows it in a column: punctuation
    compression between two upright marks, a quarter em between Japanese and a turned word."""
    if a.mode == UPRIGHT and b.mode == UPRIGHT:
        return -jlreq.squeeze(a.text, b.text) * size
    if (a.mode, b.mode) in ((UPRIGHT, TURNED), (TURNED, UPRIGHT)):
        return jlreq.latin_gap(a.text[-1], b.text[0]) * size
    return 0.0


def _word_pieces(word: str, font: str, size: float, measure, tcy_digits: int, upright_caps: int) -> list[Piece]:
    """The pieces of a Latin word or number (or a word joined by U+2060, which may hold Japanese)."""
    if len(word) == 1 or (_CAPS.fullmatch(word) and len(word) <= upright_caps):
        return [Piece(UPRIGHT, ch, size) for ch in word]
    if _DIGITS.fullmatch(word) and len(word) <= tcy_digits:
        return [Piece(TCY, word, size)]
    if word.isascii():
        return [Piece(TURNED, word, measure(word, font, size))]
    out: list[Piece] = []
    run = ""
    for ch in word + "\0":
        if ch != "\0" and not is_upright(ch):
            run += ch
            continue
        if run:
            out.extend(_word_pieces(run, font, size, measure, tcy_digits, upright_caps))
            run = ""
        if ch != "\0":
            out.append(Piece(UPRIGHT, ch, size))
    return out


def units(text: str, font: str, size: float, measure, tcy_digits: int = 2, upright_caps: int = 3) -> list[Unit]:
    """``text`` as units of a column at ``size`` pt (see the module doc)."""
    out: list[Unit] = []
    rs = ruby_size(size)
    seq = atoms(text)
    i = 0
    while i < len(seq):
        a = seq[i]
        if a.kind == "cjk" and a.text in _MARKS:  # ! ? stand upright; !! !? ?! ?? are one tate-chu-yoko unit
            if i + 1 < len(seq) and seq[i + 1].kind == "cjk" and seq[i + 1].text in _MARKS:
                out.append(Unit((Piece(TCY, a.text + seq[i + 1].text, size),)))
                i += 2
                continue
            out.append(Unit((Piece(UPRIGHT, a.text, size),)))
        else:
            out.append(_unit(a, font, size, rs, measure, tcy_digits, upright_caps))
        i += 1
    return out


def _unit(a: Atom, font: str, size: float, rs: float, measure, tcy_digits: int, upright_caps: int) -> Unit:
    if a.kind == "newline":
        return Unit((), newline=True)
    if a.kind == "icon":
        return Unit((Piece(ICON, a.text, size * ICON_ADVANCE),))
    if a.kind == "space":
        return Unit((Piece(SPACE, " ", measure(" ", font, size)),))
    if a.kind == "ruby":
        base = len(a.text) * size
        return Unit((Piece(RUBY, a.text, max(base, len(a.ruby) * rs - rs), a.ruby),))
    if a.kind == "cjk":
        ch = a.text
        if ch == "\t":
            return Unit((Piece(SPACE, " ", measure(" ", font, size)),))
        if is_upright(ch):
            return Unit((Piece(UPRIGHT, ch, size),))
        return Unit((Piece(TURNED, ch, measure(ch, font, size)),))
    return Unit(tuple(_word_pieces(a.text, font, size, measure, tcy_digits, upright_caps)))


@dataclass
class Column:
    """A laid-out column: its units and its length along the column (pt); ``has_ruby``: a
    ruby reading stands on its right (the column needs :func:`ruby_size` more room there)."""

    units: list[Unit]
    length: float

    def __post_init__(self) -> None:
        self.has_ruby = any(p.mode == RUBY for u in self.units for p in u.pieces)
        self.short = False  #: a paragraph's last column of 1-2 characters that no break avoided

    def pieces(self) -> list[Piece]:
        """The column's pieces, top to bottom."""
        return [p for u in self.units for p in u.pieces]

    def text(self) -> str:
        """The column's text (icons as ``:name:``)."""
        return "".join(f":{p.text}:" if p.mode == ICON else p.text for p in self.pieces())


def placed(pieces: list[Piece], size: float) -> list[tuple[Piece, float]]:
    """Each piece with its offset from the column's start (pt, down), compression applied."""
    out: list[tuple[Piece, float]] = []
    y = 0.0
    for i, p in enumerate(pieces):
        out.append((p, y))
        y += p.advance + (gap(p, pieces[i + 1], size) if i + 1 < len(pieces) else 0.0)
    return out


def length(pieces: list[Piece], size: float) -> float:
    """The length (pt) of ``pieces`` set in a column, compression applied."""
    total = sum(p.advance for p in pieces)
    return total + sum(gap(a, b, size) for a, b in zip(pieces, pieces[1:]))


def _column(cur: list[Unit], size: float) -> Column:
    while cur and cur[-1].is_space:
        cur.pop()
    return Column(list(cur), length([p for u in cur for p in u.pieces], size))


def _no_start(u: Unit) -> bool:
    return u.first in NO_START


def _no_end(u: Unit) -> bool:
    return u.last in NO_END


def phrase_starts(us: list[Unit]) -> set[int]:
    """The ``id`` of each unit that begins a phrase (文節, :func:`cardgen.layout.phrases.boundaries`)."""
    starts, at, text = {}, 0, []
    for u in us:
        starts[at] = id(u)
        piece = "\n" if u.newline else "".join(f":{p.text}:" if p.mode == ICON else p.text for p in u.pieces)
        text.append(piece)
        at += len(piece)
    return {starts[b] for b in boundaries("".join(text)) if b in starts}


def break_columns(us: list[Unit], height: float, size: float, phrases: bool = False) -> list[Column]:
    """Break units into columns no longer than ``height`` pt (when possible), with kinsoku and
    the short-last-column rule (see the module doc); ``phrases``: between phrases (文節) where
    the phrase fits the next column, as horizontal card text breaks."""
    starts = phrase_starts(us) if phrases else set()
    columns: list[Column] = []
    paragraph_starts: list[int] = []
    cur: list[Unit] = []
    start_par = True

    def flush() -> None:
        nonlocal start_par
        if start_par:
            paragraph_starts.append(len(columns))
            start_par = False
        columns.append(_column(cur, size))
        cur.clear()

    def pieces_of(run: list[Unit]) -> list[Piece]:
        return [p for u in run for p in u.pieces]

    for u in us:
        if u.newline:
            flush()
            _short_last(columns, paragraph_starts[-1], height, size)
            start_par = True
            continue
        if u.is_space and not cur:
            continue
        if cur and not u.is_space and length(pieces_of(cur + [u]), size) > height + EPS:
            carry: list[Unit] = []
            if _no_start(u):  # carry the characters before it down with it (」、 moves with its character)
                while len(cur) > 1:
                    carry.insert(0, cur.pop())
                    if not _no_start(carry[0]) and not carry[0].is_space:
                        break
                if not carry or _no_start(carry[0]) or carry[0].is_space:
                    cur.extend(carry)  # nothing may begin the column: it hangs (ぶら下げ), the text then overflows
                    cur.append(u)
                    continue
            j = len(cur)
            while j > 0 and (cur[j - 1].is_space or _no_end(cur[j - 1])):
                j -= 1
            k = next((i for i in range(j, len(cur)) if _no_end(cur[i])), None)
            if k is not None:
                carry = cur[k:] + carry
                del cur[k:]
            for j in range(len(cur) - 1, 0, -1) if starts else ():  # the phrase moves down whole
                if id(cur[j]) in starts:
                    if not (_no_start(cur[j]) or _no_end(cur[j - 1]) or cur[j].is_space) \
                            and length(pieces_of(cur[j:] + carry + [u]), size) <= height + EPS:
                        carry = cur[j:] + carry
                        del cur[j:]
                    break
            if cur:
                flush()
            cur.extend(c for c in carry if not (c.is_space and not cur))
        if u.is_space and (not cur or _no_end(cur[-1]) or cur[-1].is_space):
            continue
        cur.append(u)
    if cur or not columns:
        flush()
    _short_last(columns, paragraph_starts[-1] if paragraph_starts else 0, height, size)
    return columns


def _visible(us: list[Unit]) -> int:
    return jlreq.visible_count("".join(p.text for u in us for p in u.pieces if p.mode != SPACE))


def _short_last(columns: list[Column], first: int, height: float, size: float) -> None:
    """A paragraph's last column of one or two characters takes units from the column before
    it (of the same paragraph) while that one keeps three or more, neither column then starting
    with a :data:`NO_START` character nor ending with a :data:`NO_END` one."""
    if len(columns) - first < 2:
        return
    prev, last = list(columns[-2].units), list(columns[-1].units)
    columns[-1].short = 0 < _visible(last) <= 2
    moved = False
    while 0 < _visible(last) <= 2 and len(prev) > 3:
        u, rest = prev[-1], prev[:-1]
        while rest and rest[-1].is_space:
            rest.pop()
        if not rest or _no_start(u) or _no_end(rest[-1]) \
                or length([p for x in [u] + last for p in x.pieces], size) > height + EPS:
            break
        prev, last = rest, [u] + last
        moved = True
    if moved:
        columns[-2] = _column(prev, size)
        columns[-1] = _column(last, size)
        columns[-1].short = 0 < _visible(last) <= 2


@dataclass
class FittedColumns:
    """Vertical text fitted into a box: the size used, the columns, the pitch from one column's
    centre to the next (pt), whether it fits, whether it was shrunk."""

    size: float
    columns: list[Column]
    pitch: float
    fits: bool
    shrunk: bool

    @property
    def short(self) -> list[str]:
        """The text of each paragraph's last column that stays at one or two characters."""
        return [c.text() for c in self.columns if c.short]

    def width(self) -> float:
        """The width of the block of columns (pt): the columns, the room between them, the ruby."""
        n = len(self.columns)
        return self.size + (n - 1) * self.pitch + sum(ruby_size(self.size) for c in self.columns if c.has_ruby)


def fit_columns(text: str, width: float, height: float, font: str, size: float, min_size: float, measure,
                leading: float = 1.35, tcy_digits: int = 2, upright_caps: int = 3, phrases: bool = False,
                step: float = 0.5) -> FittedColumns:
    """The largest size in ``[min_size, size]`` (steps of ``step`` pt, from ``size`` down) at which
    ``text`` set vertically fits ``width`` × ``height`` pt: every column no longer than
    ``height`` and the block no wider than ``width`` (``leading``: the column pitch as a multiple
    of the size; ``phrases``: break between phrases, :func:`break_columns`). ``fits`` is False when
    even ``min_size`` overflows."""
    def attempt(s: float) -> FittedColumns:
        cols = break_columns(units(text, font, s, measure, tcy_digits, upright_caps), height, s, phrases)
        got = FittedColumns(s, cols, s * leading, True, s < size - 1e-9)
        got.fits = got.width() <= width + EPS and all(c.length <= height + EPS for c in cols)
        return got

    s = size
    got = attempt(s)
    tries = 0
    while not got.fits and s - step >= min_size - 1e-9 and tries < 200:
        s = round(s - step, 3)
        got = attempt(s)
        tries += 1
    if not got.fits:
        got.shrunk = True
    return got
