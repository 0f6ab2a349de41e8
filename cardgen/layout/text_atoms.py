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

from cardgen.core.nobreak import NOBREAK
from cardgen.layout.ruby_text import split_ruby

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

