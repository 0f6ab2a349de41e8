"""What the rulebook's title block and page furniture print (:class:`BookInfo`), apart from the
story (:mod:`cardgen.rulebook.story`) so the validate check can key it without loading reportlab's
Platypus."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class BookInfo:
    """What the title page and the page furniture print and the PDF metadata says."""

    title: str
    subtitle: str
    version: str
    source: str = ""
    draft: bool = False  #: validation failed (a forced build): every page carries the draft mark
    language: str = "ja"  #: the edition's language: a Latin-script one is set with Western line breaking
    words: dict = field(default_factory=dict)  #: the rulebook's own words (:func:`cardgen.rulebook.words.book_words`)
