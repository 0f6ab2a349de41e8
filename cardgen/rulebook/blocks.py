"""Rulebook blocks: the neutral form of the rules text, between Markdown and the PDF. Pure.

The parser (:mod:`cardgen.rulebook.markdown`) turns the rendered rules text into these blocks;
they know nothing of reportlab: :class:`Heading`, :class:`Para`, :class:`ListBlock`,
:class:`Table`, :class:`Figures`, :class:`CardFigureBlock` (``card_row``, ``table_layout``),
:class:`Quote`, :class:`Rule`, :class:`PageBreak` (``<!-- pagebreak -->``), :class:`Toc`,
:class:`OpenQuestion` and :class:`OpenQuestionIndex`. Inline text is a list of runs: :class:`Span`
(text + bold/italic/code, an optional ruby reading) and :class:`IconRun` (``:pon:`` ``:chi:``
``:power:``…). Images: ``card:<component>/<card id>`` sources are card faces drawn from the card
templates (width in mm as the image title); other sources are files relative to the rules folder.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass
class Span:
    """A run of text with its emphasis and an optional ruby reading."""
    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    ruby: str = ""  #: reading set above the text (ふりがな), "" for none


@dataclass
class IconRun:
    """An inline icon by name (``:pon:``), drawn at the text size."""
    name: str


Run = Union[Span, IconRun]


@dataclass
class Heading:
    """A heading with its runs, its number and its place in the table of contents."""
    level: int  #: Markdown level 1–6
    runs: list
    number: str = ""  #: "1.2", "第3条"… ("" when not numbered)
    toc_level: int | None = None  #: 0-based level in the table of contents, None = not listed
    title: bool = False  #: the book title (a level-1 heading above the numbered levels)
    vertical: bool = False  #: set vertically (``<!-- vertical -->`` before it): the title becomes a cover page

    @property
    def text(self) -> str:
        """The heading's plain text (no markup), as the table of contents shows it."""
        return plain(self.runs)


@dataclass
class Para:
    """A paragraph: a list of runs."""
    runs: list
    where: tuple = ()  #: (rules file, line), set by the rulebook assembly (for a short last line)
    vertical: bool = False  #: set vertically in columns (``<!-- vertical -->`` before it): a column or a caption


@dataclass
class ListBlock:
    """A bulleted or numbered list; each item is a list of blocks."""
    ordered: bool
    start: int
    items: list  #: each item: a list of blocks
    circled: bool = False  #: ordered, marked ① ② ③ (statute style) instead of 1. 2. 3.


@dataclass
class Table:
    """A pipe table: header cells, rows, column alignment and where it was written."""
    head: list  #: cells, each a list of runs
    rows: list  #: rows of cells
    align: list  #: per column "left" | "center" | "right"
    where: tuple = ()  #: (rules file, line) of the table's header, set by the rulebook assembly


@dataclass
class Figure:
    """An image: a card (``card:<component>/<id>``) or a file in the rules folder, with its width in mm."""
    src: str  #: "card:<component>/<id>" or a file path relative to the rules folder
    alt: str
    width_mm: float | None = None
    where: tuple = ()  #: (rules file, line), set by the rulebook assembly


@dataclass
class Figures:
    """A paragraph made only of images: shown side by side."""

    images: list


@dataclass
class CardFigureBlock:
    """A figure of cards asked for by ``card_row(…)`` or ``table_layout(…)`` in the rules text
    (the JSON of :func:`cardgen.rulebook.figures.marker`: ``kind`` "row" or "table", the
    component, the cards…), laid out by :mod:`cardgen.rulebook.figures`."""

    data: dict


@dataclass
class Quote:
    """A block quote holding other blocks."""
    blocks: list


@dataclass
class Rule:
    """A thematic break (``---``): a thin rule across the column."""
    pass


@dataclass
class PageBreak:
    """A forced page break (``<!-- pagebreak -->``)."""
    pass


@dataclass
class OpenQuestion:
    """A boxed 【未確定】 note: the draft leaves this open; the build uses ``use``."""

    id: str
    question: str = ""
    use: str = ""
    options: list = None  #: every option, as printed
    why: str = ""


@dataclass
class OpenQuestionIndex:
    """The appendix: every open question with the pages its notes are on."""

    items: list  #: OpenQuestion blocks, manifest order


@dataclass
class Toc:
    """Where the table of contents goes (after the book title)."""


Block = Union[Heading, Para, ListBlock, Table, Figures, CardFigureBlock, Quote, Rule, PageBreak, Toc, OpenQuestion,
              OpenQuestionIndex]


def plain(runs: list) -> str:
    """Runs as plain text (icons as ``:name:``)."""
    return "".join(r.text if isinstance(r, Span) else f":{r.name}:" for r in runs)


def outline(blocks: list) -> list[dict[str, Any]]:
    """Headings as ``{level, number, text}`` (for tests and a JSON dump)."""
    return [{"level": b.level, "number": b.number, "text": b.text} for b in blocks if isinstance(b, Heading)]


def set_source(block, file: str) -> None:
    """Record the rules file ``block`` (a top-level block) was read from (the rulebook assembly
    does; the layout charges its time to that file, :class:`cardgen.core.file_clock.FileClock`)."""
    block.source_file = file


def source_of(block) -> str | None:
    """The rules file a top-level block was read from, or None (the title, contents, glossary, appendix)."""
    return getattr(block, "source_file", None)
