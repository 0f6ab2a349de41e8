"""The optional glossary at the back of the rulebook (``rulebook.glossary`` in game.yaml): every
term the rules text gives a reading with ruby (``｜聴牌《テンパイ》``, ``{聴牌|テンパイ}``), once,
as a two-column table (term, reading) in the order of the readings — 五十音順, katakana read as
hiragana (JIS X 4061 collation, simplified: by kana, then by the term). Pure: blocks in, blocks out.
"""
from __future__ import annotations

from cardgen.rulebook.blocks import Heading, ListBlock, Para, Quote, Span, Table

#: Title of the glossary appendix.
GLOSSARY_TITLE = "付録　用語と読み"


def ruby_terms(blocks: list) -> list[tuple[str, str]]:
    """Every ``(term, reading)`` pair of ``blocks`` (headings, paragraphs, lists, quotes, table
    cells), each once, in 五十音順 of the reading."""
    found: set[tuple[str, str]] = set()

    def runs(rs: list) -> None:
        found.update((r.text, r.ruby) for r in rs if isinstance(r, Span) and r.ruby)

    def walk(bs: list) -> None:
        for b in bs:
            if isinstance(b, (Heading, Para)):
                runs(b.runs)
            elif isinstance(b, ListBlock):
                for item in b.items:
                    walk(item)
            elif isinstance(b, Quote):
                walk(b.blocks)
            elif isinstance(b, Table):
                for cell in [*b.head, *(c for row in b.rows for c in row)]:
                    runs(cell)
    walk(blocks)
    return sorted(found, key=lambda tr: (kana_key(tr[1]), tr[0]))


def kana_key(reading: str) -> str:
    """``reading`` with katakana as hiragana (ァ–ヶ → ぁ–ゖ), for sorting in 五十音順."""
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in reading)


def glossary_blocks(blocks: list) -> list:
    """The glossary appendix of ``blocks``: a heading (listed in the contents, unnumbered) and the
    table; nothing when the text has no ruby."""
    terms = ruby_terms(blocks)
    if not terms:
        return []
    return [Heading(2, [Span(GLOSSARY_TITLE)], "", 0),
            Table([[Span("用語")], [Span("読み")]], [[[Span(t)], [Span(r)]] for t, r in terms], ["left", "left"])]
