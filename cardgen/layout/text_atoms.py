"""Text → unbreakable atoms, the pieces line breaking (:mod:`cardgen.layout.text`) never splits.

An atom is one CJK character, a whole Latin word or number, a space, an inline icon
(``:name:``), a forced break (``\\n``, a real line break or the two characters backslash-n typed
in a spreadsheet cell), or a ruby base with its reading (``｜聴牌《テンパイ》``, ``聴牌《テンパイ》``,
``{聴牌|テンパイ}``, :mod:`cardgen.layout.ruby_text`). U+2060 WORD JOINER (:data:`NOBREAK`; the
template filter ``nobreak`` puts one between every character) joins the atoms on either side into
one and is not drawn, so a reference like ``（第20条①）`` stays on one line. The ruby size
(:func:`ruby_size`) is here too: a ruby atom's width depends on it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from cardgen.core.nobreak import NOBREAK
from cardgen.layout.ruby_text import split_ruby

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


#: One atom at a time, where the last one ended: the first of these that matches there — the
#: no-break mark (a marker, not an atom), a forced break, an icon, a space or tab, a Latin word
#: (:data:`_LATIN`), else one character (a CJK atom).
_ATOM = re.compile(f"({re.escape(NOBREAK)})" + r"|(\n)|:([a-z][a-z0-9_]*):|([ \t])|(" + _LATIN.pattern + r")|(.)",
                   re.DOTALL)
_GLUE, _NEWLINE, _ICON_NAME, _SPACE, _WORD, _CHAR = range(1, 7)
_JOINABLE = frozenset({"cjk", "word", "space"})


@lru_cache(maxsize=8192)
def _char_atom(ch: str) -> Atom:
    """The atom of one CJK character (atoms are immutable: one per character is shared)."""
    return Atom(ch, "cjk")


_NEWLINE_ATOM = Atom("\n", "newline")
_SPACE_ATOM = Atom(" ", "space")


def _plain_atoms(text: str, out: list[Atom]) -> None:
    """Append the atoms of ``text`` (no ruby in it) to ``out``: one pass of :data:`_ATOM` (the
    regular expression engine walks the text, not a Python loop per character)."""
    glue = False
    for m in _ATOM.finditer(text):
        kind = m.lastindex
        if kind == _GLUE:
            glue = bool(out)
            continue
        if kind == _CHAR:
            out.append(_char_atom(m.group(_CHAR)))
        elif kind == _WORD:
            out.append(Atom(m.group(_WORD), "word"))
        elif kind == _SPACE:
            out.append(_SPACE_ATOM)
        elif kind == _ICON_NAME:
            out.append(Atom(m.group(_ICON_NAME), "icon"))
        else:
            out.append(_NEWLINE_ATOM)
        if glue:
            if len(out) > 1 and out[-2].kind in _JOINABLE and out[-1].kind in _JOINABLE:
                joined = out.pop()
                out[-1] = Atom(out[-1].text + joined.text, "word")
            glue = False
