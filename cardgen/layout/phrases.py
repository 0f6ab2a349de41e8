"""Phrase (文節) boundaries of Japanese text, from BudouX (Google's phrase segmenter, the model
Chrome uses for ``word-break: auto-phrase``). Pure: text in, offsets out.

Line breaking (:mod:`cardgen.layout.compose`) breaks card text between phrases first and inside
a phrase only when the phrase is longer than the line; the rulebook uses the boundaries to avoid
splitting a short word at a line end. JLREQ (:mod:`cardgen.layout.jlreq`) still decides which
places may take a break at all.
"""
from __future__ import annotations

from functools import lru_cache

import budoux


@lru_cache(maxsize=1)
def _parser() -> budoux.Parser:
    """BudouX's Japanese model, loaded once (about 20 ms)."""
    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=8192)
def boundaries(text: str) -> frozenset[int]:
    """Offsets into ``text`` (0 < offset < len) at which a new phrase begins. Texts without a
    Japanese letter have no boundaries here (their spaces are their breaks)."""
    if not text or not any(ord(c) > 0x2FFF for c in text):
        return frozenset()
    out, at = set(), 0
    for phrase in _parser().parse(text):
        at += len(phrase)
        if 0 < at < len(text):
            out.add(at)
    return frozenset(out)


def phrases(text: str) -> list[str]:
    """``text`` cut into its phrases (the pieces between :func:`boundaries`)."""
    cuts = [0, *sorted(boundaries(text)), len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]
