"""Western line breaking for the card text of a Latin-script edition (English, French…).

Japanese text breaks between any two characters the JLREQ classes allow (:mod:`cardgen.layout.text`);
Western text breaks only at spaces, and a word that does not fit the rest of the line is
hyphenated where the language's hyphenation dictionary allows (pyphen: the LibreOffice/Hunspell
patterns, at least 2 letters before the hyphen and 3 after), else it moves to the next line
whole. Inline icons (``:power:``) are one em wide and stay with the punctuation after them.

:func:`western_quotes` sets typewriter quotes as typographic ones (“…”, ‘…’, ’) and ``--`` as an
en dash, as a Western typesetter would; the rulebook gets the same from markdown-it's typographer.

Pure: widths come from the ``measure(text, font_role, size_pt)`` callable of the caller.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pyphen

from cardgen.core.units import EPS
from cardgen.layout.text import LaidLine, Measure
from cardgen.layout.text_atoms import Atom, atoms

#: Letters kept before and after a hyphen (the usual English minimum: "re-", "-ing" stays whole).
HYPHEN_LEFT, HYPHEN_RIGHT = 2, 3
#: Words shorter than this are never hyphenated.
MIN_HYPHENATED = 6
ICON_EM = 1.05  #: an inline icon's advance in em, as in Japanese text
_WORD = re.compile(r"^[A-Za-z\u00C0-\u024F’']+$")


#: The dictionary of a bare language tag (``en`` → en_US).
_REGION = {"en": "en_US", "de": "de_DE", "fr": "fr_FR", "es": "es_ES", "it": "it_IT", "nl": "nl_NL", "pt": "pt_PT",
           "sv": "sv", "da": "da_DK", "nb": "nb_NO", "fi": "fi_FI", "pl": "pl_PL", "cs": "cs_CZ"}


def pyphen_language(language: str) -> str | None:
    """pyphen's dictionary name for a BCP 47 tag (``en`` → en_US, ``en-GB`` → en_GB), or None."""
    tag = language.replace("-", "_")
    for name in (tag, _REGION.get(tag.split("_")[0], tag)):
        found = pyphen.language_fallback(name)
        if found:
            return found
    return None


#: The languages whose dictionary this process loaded (:func:`_dictionary`; a watch loads them
#: ahead for its next save, :mod:`cardgen.steps.warm_state`).
LOADED_LANGUAGES: set[str] = set()


@lru_cache(maxsize=16)
def _dictionary(language: str) -> pyphen.Pyphen | None:
    """pyphen's dictionary for a BCP 47 tag, or None (:func:`pyphen_language`)."""
    LOADED_LANGUAGES.add(language)
    name = pyphen_language(language)
    return pyphen.Pyphen(lang=name, left=HYPHEN_LEFT, right=HYPHEN_RIGHT) if name else None


def preload(languages) -> None:
    """Load the hyphenation dictionaries of ``languages`` (pyphen's own files) into this process."""
    for language in languages:
        _dictionary(language)


def _width(a: Atom, font: str, size: float, measure: Measure) -> float:
    if a.kind == "icon":
        return size * ICON_EM
    if a.kind == "newline":
        return 0.0
    return measure(a.text, font, size)


def _groups(text: str) -> list[list[Atom] | str]:
    """The text as words (runs of atoms between spaces: ``:power:.`` is one) and the markers
    ``" "`` (a space) and ``"\\n"`` (a forced break)."""
    out: list[list[Atom] | str] = []
    cur: list[Atom] = []
    for a in atoms(western_quotes(text)):
        if a.kind in ("space", "newline"):
            if cur:
                out.append(cur)
                cur = []
            out.append(" " if a.kind == "space" else "\n")
        else:
            cur.append(a)
    if cur:
        out.append(cur)
    return out


def _hyphenate(word: list[Atom], room: float, font: str, size: float, measure: Measure,
               language: str) -> tuple[list[Atom], list[Atom]] | None:
    """``(head + "-", tail)`` of a word whose head with its hyphen fits ``room`` pt, at the
    hyphenation point nearest the end; None when the word may not or cannot be broken."""
    letters = [a for a in word if a.kind == "word"]
    if not letters:
        return None
    first = word.index(letters[0])
    core = letters[0].text
    m = re.match(r"^(.*?)([.,;:!?)\]’”]*)$", core)
    stem = m.group(1) if m else core
    if len(stem) < MIN_HYPHENATED or not _WORD.match(stem):
        return None
    dic = _dictionary(language)
    if dic is None:
        return None
    before = sum(_width(a, font, size, measure) for a in word[:first])
    for head, tail in dic.iterate(stem):
        if before + measure(head + "-", font, size) <= room + EPS:
            rest = tail + core[len(stem):]
            return (word[:first] + [Atom(head + "-", "word")],
                    [Atom(rest, "word")] + word[first + 1:])
    return None


def break_western(text: str, width: float, font: str, size: float, measure: Measure,
                  language: str = "en") -> list[LaidLine]:
    """Break ``text`` into lines no wider than ``width`` pt: at spaces, hyphenating a word that
    does not fit where ``language``'s dictionary allows. A word wider than a whole line and not
    hyphenable gets a line of its own (the fit then reports it overflowing)."""
    space = measure(" ", font, size)
    lines: list[LaidLine] = []
    cur: list[Atom] = []
    adv: list[float] = []  # each atom's advance (pt), as LaidLine keeps them
    pending_space = False

    def add(group: list[Atom], gap: bool) -> None:
        if gap:
            cur.append(Atom(" ", "space"))
            adv.append(space)
        for a in group:
            cur.append(a)
            adv.append(_width(a, font, size, measure))

    def flush() -> None:
        lines.append(LaidLine(list(cur), sum(adv), list(adv)))
        cur.clear()
        adv.clear()

    queue = _groups(text)
    i = 0
    while i < len(queue):
        g = queue[i]
        i += 1
        if g == "\n":
            flush()
            pending_space = False
            continue
        if g == " ":
            pending_space = bool(cur)
            continue
        w = sum(_width(a, font, size, measure) for a in g)
        gap = space if pending_space and cur else 0.0
        used = sum(adv)
        if used + gap + w <= width + EPS:
            add(g, bool(gap))
            pending_space = False
            continue
        split = _hyphenate(g, width - used - gap, font, size, measure, language)
        pending_space = False
        if split is not None and (cur or w > width + EPS):
            head, tail = split
            add(head, bool(gap))
            flush()
            queue.insert(i, tail)
            continue
        if cur:  # the word starts the next line
            flush()
            queue.insert(i, g)
            continue
        add(g, False)  # alone, too wide and not hyphenable: a line of its own, which overflows
        flush()
    if cur or not lines:
        flush()
    return lines


_DOUBLE = re.compile(r'"([^"\n]*)"')
_SINGLE_OPEN = re.compile(r"(^|[\s(\[{“])'")


def western_quotes(text: str) -> str:
    """Typewriter quotes and dashes as typographic ones: ``"Ron"`` → “Ron”, ``'tsumo'`` →
    ‘tsumo’, ``don't`` → don’t, ``--`` → – (en dash). Text inside ``:icon:`` names is left alone
    (they hold no quotes)."""
    text = _DOUBLE.sub("“\\1”", text)
    text = _SINGLE_OPEN.sub("\\1‘", text)
    return text.replace("'", "’").replace("--", "–")
