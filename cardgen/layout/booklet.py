"""Booklet imposition of a rulebook, pure: which page goes where on which sheet side.

A saddle-stitched booklet is printed two pages up on a sheet twice the page size (A5 pages on
A4, B5 on B4, A4 on A3, Letter on Tabloid), both sides, then the stack is folded in the middle
and stapled on the fold. The page count is padded with blank pages to a multiple of 4 (one
sheet holds 4 pages). Sheet ``s`` (0-based) of ``n`` pages (1-based) carries, seen from its
front: ``n − 2s`` left and ``2s + 1`` right; on its back ``2s + 2`` left and ``n − 2s − 1``
right. Printed double-sided with the flip on the short edge (landscape sheets), each back reads
the right way up. Blank pages are added at the end of the book (before folding: they are the
last pages, inside the back cover), so the text never moves.
"""
from __future__ import annotations

#: Source paper → (sheet name, sheet width, sheet height) in mm, landscape (ISO 216, JIS P 0138, ANSI).
SHEETS = {
    "a5": ("A4", 297.0, 210.0),
    "b5": ("B4", 364.0, 257.0),
    "a4": ("A3", 420.0, 297.0),
    "letter": ("Tabloid", 431.8, 279.4),
}


def padded(pages: int) -> int:
    """``pages`` rounded up to a multiple of 4 (at least 4)."""
    return max(4, -(-pages // 4) * 4)


def saddle_stitch(pages: int) -> list[tuple[int | None, int | None]]:
    """The sides of the printed sheets in print order (sheet 1 front, sheet 1 back, sheet 2 front…),
    each as (left page, right page), 1-based source page numbers, ``None`` for a blank page
    (one past the source's ``pages``).

    >>> saddle_stitch(5)
    [(None, 1), (2, None), (None, 3), (4, 5)]
    """
    n = padded(pages)

    def page(k: int) -> int | None:
        return k if k <= pages else None

    sides: list[tuple[int | None, int | None]] = []
    for s in range(n // 4):
        sides.append((page(n - 2 * s), page(2 * s + 1)))
        sides.append((page(2 * s + 2), page(n - 2 * s - 1)))
    return sides


def sheet_for(paper: str) -> tuple[str, float, float]:
    """The booklet sheet (name, width, height in mm, landscape) for rulebook pages of ``paper``.

    Raises:
        KeyError: a paper with no booklet sheet.
    """
    return SHEETS[paper.lower()]
