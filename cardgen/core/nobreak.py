"""The no-break mark: a reference like ``（第20条①）`` is never broken across lines.

Shared by the card-template sandbox (the ``nobreak`` filter, :mod:`cardgen.data.template_expr`) and
line breaking (:mod:`cardgen.layout.text`, which joins atoms across the mark and never draws it).
"""
from __future__ import annotations

#: U+2060 WORD JOINER: no line break here (Unicode UAX #14 class WJ); never drawn.
NOBREAK = "\u2060"


def nobreak(text: str, attach: bool = False) -> str:
    """``text`` with :data:`NOBREAK` between its characters: it will not be broken across lines
    (a jinja2 filter of card templates: ``{{ '（' ~ q.article ~ '）' | nobreak }}``). ``attach``:
    also no break before it, so it stays on the line of the text it follows (an article reference
    after its sentence: ``{{ ('（' ~ q.article ~ '）') | nobreak(attach=true) }}``)."""
    joined = NOBREAK.join(str(text))
    return NOBREAK + joined if attach and joined else joined
