"""The rulebook's baseline grid (JLREQ: the 基本版面, kihon-hanmen, is a number of lines of one
line pitch, 行送り; a heading takes a whole number of those lines, 行取り, and so do the other
blocks here).

The grid's lines are the frame top minus every whole multiple of the body leading (the body's
size × leading). :class:`GridFrame` puts the top of every flowable it is given on the first
grid line at or below where reportlab would put it, so a block whose height and spaces are not
whole lines (a heading with its space, a table, a figure, a note) takes whole lines, the space
after it rounding up, and the body text after it is back on the grid. A body paragraph draws
its first baseline one em below its top and its lines a leading apart; the frame is raised one
leading less one em above the design's top margin (:func:`grid_offset`), so that the first
line of a page prints where it did without a grid and every body baseline lies on a grid line.
A flowable marked ``grid_attached`` (a heading's rule) follows the one before it directly; a
heading marked ``grid_follow`` (the height of what is attached under it, pt) is centred in the
whole lines it takes with it, as a 行取り heading is.
Inside a list (a container the frame does not place item by item) a box, table or figure is
wrapped in :class:`WholeLines`, which takes it with its spaces as whole lines.
"""
from __future__ import annotations

import math

from reportlab.platypus import Flowable, Frame

from cardgen.core.units import EPS


def grid_pitch(design) -> float:
    """The grid's line pitch (pt): the body text's leading."""
    return design.body.size * design.body.leading


def grid_offset(design) -> float:
    """How far (pt) the frame top lies above the top of a flowable set on the first grid line: one
    leading less one em (a paragraph's first baseline is one em below its top)."""
    return grid_pitch(design) - design.body.size


def whole_lines(length: float, pitch: float) -> float:
    """``length`` (pt) rounded up to whole lines of ``pitch`` pt."""
    return math.ceil(length / pitch - 1e-6) * pitch if length > EPS else 0.0


class GridFrame(Frame):
    """A Platypus frame whose flowables start on grid lines ``pitch`` pt apart, the first one
    ``offset`` pt below the frame top (see the module docstring)."""

    def __init__(self, *args, pitch: float, offset: float, **kw):
        super().__init__(*args, **kw)
        self.grid_pitch, self.grid_first = pitch, offset

    def _top(self) -> float:
        return self._y1 + self._height - self._topPadding

    def snap(self, y: float) -> float:
        """The first grid line at or below ``y`` (pt, page coordinates)."""
        top = self._top() - self.grid_first
        return top - whole_lines(top - y, self.grid_pitch) if y < top - EPS else top

    def _space_before(self, flowable) -> float:
        """The space the frame puts before ``flowable`` (as :meth:`Frame._add` works it out)."""
        if self._atTop:
            return 0.0
        s = flowable.getSpaceBefore()
        if self._oASpace:
            if getattr(flowable, "_SPACETRANSFER", False) or getattr(flowable, "_ZEROSIZE", False):
                s = self._prevASpace
            s = max(s - self._prevASpace, 0)
        return s

    def add(self, flowable, canv, trySplit=0):
        """reportlab hook: ``flowable`` laid down with its top on a grid line (unless it is a frame
        action or ``grid_attached``)."""
        before = self._y
        if self.grid_pitch and not getattr(flowable, "frameAction", None) \
                and not getattr(flowable, "grid_attached", False):
            s = self._space_before(flowable)
            top = self.snap(self._y - s)
            follow = getattr(flowable, "grid_follow", None)
            if follow is not None:  # a heading: centred in the whole lines it and its rule take (行取り)
                flowable.canv = canv
                _w, h = flowable.wrap(self._getAvailableWidth(), max(0.0, top - self._y1p))
                total = h + flowable.getSpaceAfter() + follow
                top -= (whole_lines(total, self.grid_pitch) - total) / 2
            self._y = top + s
        if Frame._add(self, flowable, canv, trySplit):
            return 1
        self._y = before  # not laid down (a group that asks to be split, no room): nothing moved
        return 0

    _add = add

    def split(self, flowable, canv):
        """reportlab hook: split ``flowable`` in the room below the grid line it would start on."""
        before = self._y
        if self.grid_pitch and not getattr(flowable, "grid_attached", False):
            self._y = self.snap(self._y - self._space_before(flowable)) + self._space_before(flowable)
        try:
            return super().split(flowable, canv)
        finally:
            self._y = before


class WholeLines(Flowable):
    """``inner`` with its space before and after, as a whole number of grid lines of ``pitch`` pt
    (drawn at the top; the rest of the last line stays blank). For a box, table or figure inside
    a list, whose items the list stacks itself; splits as ``inner`` does."""

    def __init__(self, inner, pitch: float):
        super().__init__()
        self.inner, self.pitch = inner, pitch
        self.spaceBefore = self.spaceAfter = 0.0
        self.keepWithNext = getattr(inner, "keepWithNext", 0)

    def wrap(self, aw, ah):
        """reportlab hook: the inner flowable's size, its height with its spaces in whole lines."""
        sb, sa = self.inner.getSpaceBefore(), self.inner.getSpaceAfter()
        self.width, h = self.inner.wrapOn(self.canv, aw, max(0.0, ah - sb))
        self._inner_h = h
        self.height = whole_lines(sb + h + sa, self.pitch)
        return self.width, self.height

    def split(self, aw, ah):
        """reportlab hook: the inner flowable's parts, each in whole lines."""
        parts = self.inner.splitOn(self.canv, aw, max(0.0, ah - self.inner.getSpaceBefore()))
        return [WholeLines(p, self.pitch) for p in parts]

    def draw(self):
        """reportlab hook: the inner flowable at the top of the whole lines."""
        self.inner.drawOn(self.canv, 0, self.height - self.inner.getSpaceBefore() - self._inner_h)
