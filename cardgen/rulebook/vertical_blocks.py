"""Rulebook blocks set vertically (縦書き), opted into with ``<!-- vertical -->`` before them:

- :class:`VerticalCover` — the book title on a page of its own: the title in one or two large
  columns right of the page's centre, the subtitle and version in a smaller column to its left,
  in the title's and subtitle's styles (fonts, colours) of the page design;
- :class:`VerticalColumn` — a paragraph set in columns from the frame's right edge (a column or
  a caption beside a figure): columns of :data:`COLUMN_CHARS` characters, shrunk (to ¾ of the
  body size at most) to fit the frame's width; inline icons upright.

Both are laid out by :mod:`cardgen.layout.vertical` / :func:`cardgen.layout.vertical_text.column_ops`
and drawn by :func:`cardgen.render.draw.draw_ops`, as a card's vertical text is: the same vertical
forms, embedded subset glyphs and searchable text.
"""
from __future__ import annotations

from reportlab.platypus import Flowable

from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import Icon
from cardgen.layout.vertical import FittedColumns, fit_columns
from cardgen.layout.vertical_text import column_ops
from cardgen.render.draw import draw_ops
from cardgen.rulebook.design import PageDesign, TextStyle

COVER_SCALE = 2.0  #: the cover's title size, × the design's title size
TOP = 0.12  #: the cover's columns start this far down the frame (a fraction of its height)
COLUMN_CHARS = 25  #: the length of a vertical paragraph's columns, in characters of its size


def _fit(text: str, style: TextStyle, size: float, w: float, h: float, fonts: FontSet,
         min_size: float) -> FittedColumns:
    return fit_columns(text, w, h, style.font, size, min_size, fonts.width, style.leading)


class VerticalCover(Flowable):
    """The book title set vertically on a page of its own (see the module doc)."""

    def __init__(self, title: str, sub: str, design: PageDesign, fonts: FontSet) -> None:
        super().__init__()
        self.title, self.sub, self.d, self.fonts = title, sub, design, fonts

    def wrap(self, aw: float, ah: float):  # noqa: D102 - Flowable's protocol
        self.width, self.height = aw, ah - 1  # the whole frame (a point to spare for reportlab's check)
        return self.width, self.height

    def draw(self) -> None:  # noqa: D102 - Flowable's protocol
        d, w, h = self.d, self.width, self.height
        length = h * (1 - 2 * TOP)
        top = h * (1 - TOP)
        title = _fit(self.title, d.title, d.title.size * COVER_SCALE, w * 0.4, length, self.fonts, d.title.size)
        x = w * 0.55 - title.width() / 2
        ops, (left, _, _, _) = column_ops(title, x, top - length, title.width(), length, "right", "top",
                                          d.title.font, d.title.color, _icon)
        if self.sub:
            sub = _fit(self.sub, d.subtitle, d.subtitle.size * 1.4, left - w * 0.1, length * 0.8, self.fonts,
                       d.subtitle.size)
            gap = d.subtitle.size * 2
            more, _ = column_ops(sub, left - gap - sub.width(), top - length, sub.width(), length - d.title.size * 2,
                                 "right", "top", d.subtitle.font, d.subtitle.color, _icon)
            ops += more
        draw_ops(self.canv, ops, self.fonts)


class VerticalColumn(Flowable):
    """A paragraph's plain text set in columns from the frame's right edge (see the module doc)."""

    def __init__(self, text: str, style: TextStyle, fonts: FontSet) -> None:
        super().__init__()
        self.text, self.style, self.fonts = text, style, fonts
        self._fitted: FittedColumns | None = None

    def wrap(self, aw: float, ah: float):  # noqa: D102 - Flowable's protocol
        s = self.style
        self._fitted = _fit(self.text, s, s.size, aw, COLUMN_CHARS * s.size, self.fonts, s.size * 0.75)
        self.width, self.height = aw, max(c.length for c in self._fitted.columns) + s.size * 0.5
        self.spaceBefore = self.spaceAfter = s.space_after * MM
        return self.width, self.height

    def draw(self) -> None:  # noqa: D102 - Flowable's protocol
        s = self.style
        fitted = self._fitted
        ops, _ = column_ops(fitted, 0, 0, self.width, self.height, "right", "top", s.font, s.color, _icon)
        draw_ops(self.canv, ops, self.fonts)


def _icon(name: str, x: float, y: float, size: float) -> Icon:
    """An inline icon of a vertical block: the built-in vector icon, upright in its square."""
    return Icon(name, x, y, size)
