"""Print sheets read back from their content streams (pikepdf): where every card face is placed
(its printed box: the face form's bleed box, cut to the clip around it) and every crop mark line,
in pt, y up from the page's bottom-left corner.

cardgen draws a face as a form XObject (``q … cm /FormXob.cardN Do Q``) or, used once, in place
(``q … cm x y w h re W n … Q``); the crop marks of a page are one form (``/FormXob.marksN``). A
shared-cut sheet puts a clip rectangle around each face. This reader follows the operators, not
cardgen's layout code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pikepdf

Box = tuple[float, float, float, float]


@dataclass
class SheetPage:
    width: float
    height: float
    boxes: list[Box] = field(default_factory=list)  #: printed box of every face (x0, y0, x1, y1)
    marks: list[Box] = field(default_factory=list)  #: crop mark lines (x1, y1, x2, y2)


def _mul(a, b):
    """Matrix product a × b of PDF matrices [a b c d e f]."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _rect(m, x, y, w, h) -> Box:
    pts = [_apply(m, x, y), _apply(m, x + w, y + h)]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def _meet(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _lines(stream_owner, m) -> list[Box]:
    out, cur = [], None
    for operands, op in pikepdf.parse_content_stream(stream_owner):
        op = str(op)
        if op == "m":
            cur = _apply(m, float(operands[0]), float(operands[1]))
        elif op == "l" and cur is not None:
            nxt = _apply(m, float(operands[0]), float(operands[1]))
            out.append((cur[0], cur[1], nxt[0], nxt[1]))
            cur = nxt
    return out


def read_sheets(path: Path) -> list[SheetPage]:
    """Every page's face boxes and crop mark lines."""
    pages = []
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.mediabox)
            sp = SheetPage(x1 - x0, y1 - y0)
            xobjects = page.resources.get("/XObject", {})
            ctm = [1.0, 0, 0, 1.0, 0, 0]
            stack: list[tuple[list, list]] = []
            clips: list[Box] = []
            ops = pikepdf.parse_content_stream(page)
            prev: list[str] = []
            pending_rect: Box | None = None
            skip_to = None  # depth whose Q ends an inline face
            for operands, op in ops:
                op = str(op)
                if op == "q":
                    stack.append((ctm, list(clips)))
                elif op == "Q":
                    if skip_to is not None and len(stack) == skip_to:
                        skip_to = None
                    ctm, clips = stack.pop()
                elif skip_to is not None:
                    pass
                elif op == "cm":
                    ctm = _mul([float(v) for v in operands], ctm)
                elif op == "re":
                    pending_rect = _rect(ctm, *(float(v) for v in operands))
                elif op in ("W", "W*") and pending_rect is not None:
                    if prev[-2:] == ["cm", "re"] and len(prev) >= 3 and prev[-3] == "q":  # a face drawn in place
                        box = pending_rect
                        for c in clips:
                            box = _meet(box, c)
                        sp.boxes.append(box)
                        skip_to = len(stack)
                    clips.append(pending_rect)
                elif op == "Do":
                    name = str(operands[0])
                    xo = xobjects.get(name)
                    if name.startswith("/FormXob.card") and xo is not None:
                        box = _rect(ctm, *_bbox(xo))
                        for c in clips:
                            box = _meet(box, c)
                        sp.boxes.append(box)
                    elif name.startswith("/FormXob.marks") and xo is not None:
                        sp.marks += _lines(xo, ctm)
                if op not in ("n",):
                    prev.append(op)
            sp.boxes.sort()
            pages.append(sp)
    return pages


def _bbox(xo) -> tuple[float, float, float, float]:
    a, b, c, d = (float(v) for v in xo.BBox)
    return a, b, c - a, d - b


def crosses(line: Box, box: Box, stroke: float = 0.25, eps: float = 0.01) -> bool:
    """The stroked ``line`` (axis-aligned, ``stroke`` pt wide) shares interior area with ``box``."""
    half = stroke / 2
    lx0, lx1 = sorted((line[0], line[2]))
    ly0, ly1 = sorted((line[1], line[3]))
    if lx0 == lx1:
        lx0, lx1 = lx0 - half, lx1 + half
    if ly0 == ly1:
        ly0, ly1 = ly0 - half, ly1 + half
    return lx0 < box[2] - eps and box[0] + eps < lx1 and ly0 < box[3] - eps and box[1] + eps < ly1
