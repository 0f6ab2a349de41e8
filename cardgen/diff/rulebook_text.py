"""The rulebook's text compared paragraph by paragraph, as the rulebook prints it: each rulebook
source (rules file) is rendered with the game's data (so ``{{ deck_size }}`` reads ``42``), parsed
into blocks (:func:`cardgen.rulebook.assemble.rulebook_blocks`), and flattened into paragraphs — a heading,
a paragraph, a list item, a table row, a quoted paragraph. The two lists of paragraphs are
aligned with :class:`difflib.SequenceMatcher` (pure).
"""
from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any, Iterator

from cardgen.core.errors import CardgenError


def paragraphs(blocks: list) -> list[tuple[str, str]]:
    """``(section, text)`` per paragraph of ``blocks``; ``section`` is the numbered heading the
    paragraph is under ("" before the first). Headings are paragraphs of their own (``## …``)."""
    out: list[tuple[str, str]] = []
    section = ""
    for text, is_heading in _flatten(blocks):
        if is_heading:
            section = text.lstrip("# ")
        out.append((section, text))
    return out


def _flatten(blocks: list, prefix: str = "") -> Iterator[tuple[str, bool]]:
    from cardgen.rulebook.blocks import (  # lazy: +7 ms of imports here (measured)
        Figures,
        Heading,
        ListBlock,
        Para,
        Quote,
        Table,
        plain,
    )

    for b in blocks:
        if isinstance(b, Heading):
            yield "#" * b.level + " " + (f"{b.number} " if b.number else "") + plain(b.runs), True
        elif isinstance(b, Para):
            yield prefix + plain(b.runs), False
        elif isinstance(b, ListBlock):
            for i, item in enumerate(b.items):
                mark = f"{b.start + i}. " if b.ordered else "・"
                first = True
                for text, _ in _flatten(item):
                    yield prefix + (mark if first else "  ") + text, False
                    first = False
        elif isinstance(b, Table):
            yield prefix + "| " + " | ".join(plain(c) for c in b.head) + " |", False
            for row in b.rows:
                yield prefix + "| " + " | ".join(plain(c) for c in row) + " |", False
        elif isinstance(b, Quote):
            yield from _flatten(b.blocks, prefix + "> ")
        elif isinstance(b, Figures):
            yield prefix + " ".join(f"[図 {f.alt or f.src}]" for f in b.images), False


def rendered_paragraphs(game, report) -> tuple[list[tuple[str, str]], list[str]]:
    """The game's rules as ``(section, text)`` paragraphs, and the problems that stopped the
    rendering (formatted ``file:line: error: …`` lines; then the paragraphs are empty). A game
    without a rules folder has no paragraphs and no problems."""
    from cardgen.rulebook.assemble import rulebook_blocks  # lazy: +264 ms of imports here (measured)

    if not game.rules_dir.is_dir():
        return [], []
    try:
        blocks = rulebook_blocks(game, report, image_ok=lambda path: None)
    except CardgenError as exc:
        return [], [p.format().splitlines()[0] for p in exc.problems]
    return paragraphs(blocks), []


def diff_paragraphs(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Paragraphs added, removed or changed, in reading order of the new text:
    ``[{"op": "added"|"removed"|"changed", "section": heading, "old": text|None, "new": text|None}]``.
    A replaced run of paragraphs pairs old and new one to one; the rest are added or removed."""
    a, b = [t for _, t in old], [t for _, t in new]
    out: list[dict[str, Any]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for i, j in _pair(a, b, i1, i2, j1, j2):
            x = a[i] if i is not None else None
            y = b[j] if j is not None else None
            op = "changed" if x is not None and y is not None else ("added" if x is None else "removed")
            section = new[j][0] if j is not None else old[i][0]
            out.append({"op": op, "section": section, "old": x, "new": y})
    return out


#: Least similarity (difflib ratio) for an old and a new paragraph to count as one changed paragraph.
SIMILAR = 0.5


def _pair(a: list[str], b: list[str], i1: int, i2: int, j1: int, j2: int) -> list[tuple[int | None, int | None]]:
    """A replaced run ``a[i1:i2]`` → ``b[j1:j2]`` as pairs in reading order: an old paragraph is
    paired with the most similar new one still ahead (ratio ≥ :data:`SIMILAR`); the others are
    removed ``(i, None)`` or added ``(None, j)``."""
    out: list[tuple[int | None, int | None]] = []
    j = j1
    for i in range(i1, i2):
        best, score = None, SIMILAR
        for k in range(j, j2):
            m = SequenceMatcher(None, a[i], b[k], autojunk=False)
            if m.real_quick_ratio() >= score and m.quick_ratio() >= score:
                r = m.ratio()
                if r >= score:
                    best, score = k, r
        if best is None:
            out.append((i, None))
            continue
        out += [(None, k) for k in range(j, best)] + [(i, best)]
        j = best + 1
    return out + [(None, k) for k in range(j, j2)]
