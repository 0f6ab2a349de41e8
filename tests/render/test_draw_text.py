"""render/draw.py writes a Text op's colour, font and string operators itself (issue 19: reportlab's
``drawString`` builds a text object and re-encodes the string on every call). The bytes must be
exactly those of ``setFillColor`` + ``setFont`` + ``drawString``: the same content stream, the same
font subsets, the same file — for recurring lines (served from the per-canvas cache), more
characters than one 256-glyph subset holds, an empty string, a colour with opacity, and a
standard Type 1 font (which takes reportlab's own path)."""
from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.layout.ops import Rect, Text
from cardgen.render.draw import color, draw_ops
from tests.conftest import IPAEX, needs_fonts

pytestmark = needs_fonts

#: 400 distinct kana and kanji: more than one subset (256 codes) of the TrueType font.
MANY = "".join(chr(c) for c in range(0x3041, 0x3097)) + "".join(chr(c) for c in range(0x4E00, 0x4E00 + 314))


class _Roles:
    """The two methods draw_ops reads of a FontSet: role → registered font name."""

    def __init__(self, names: dict[str, str]):
        self.names = names

    def name(self, role: str) -> str:
        return self.names[role]


def _ops() -> list:
    return [
        Text(10, 80, "天雀牌ベンチ", "body", 8.5, "#000000"),  # first: its colour alone makes the file PDF 1.4
        Rect(0, 0, 100, 100, fill="#fbf7ee"),
        Text(10, 70, "天雀牌ベンチ", "body", 8.5, "#23395b"),  # the same line again: from the cache
        Text(10.123456, 60.5, "手札1枚を捨てて使う・1手番1回", "body", 6, "#6b5a44"),
        Text(10, 50, "", "body", 7, "#000000"),
        Text(10, 40, MANY, "body", 5, "#d0021b80"),  # half opaque, two subsets
        Text(10, 30, "ASCII (and) back\\slash", "latin", 9, "#ffffff"),  # Helvetica: reportlab's path
        Text(10, 20, MANY[::-1], "body", 5.25, "#000000"),
        Text(10, 10, "天雀牌ベンチ", "body", 8.5, "#000000"),
    ]


def _by_reportlab(c: Canvas, ops: list, fonts: _Roles) -> None:
    """What draw_ops drew before: reportlab's public calls, op by op."""
    for op in ops:
        if isinstance(op, Text):
            c.setFillColor(color(op.color))
            c.setFont(fonts.name(op.font), op.size)
            c.drawString(op.x, op.y, op.text)
        else:
            draw_ops(c, [op], fonts)


@pytest.fixture(scope="module")
def roles() -> _Roles:
    if "_draw_text_probe" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("_draw_text_probe", str(IPAEX)))
    return _Roles({"body": "_draw_text_probe", "latin": "Helvetica"})


def _pdf(draw, roles: _Roles, form: bool = False) -> tuple[bytes, Canvas]:
    out = io.BytesIO()
    c = Canvas(out, invariant=1, pageCompression=0)
    if form:  # a face drawn as a form XObject, as the print sheets do for repeated faces
        c.beginForm("face", lowerx=0, lowery=0, upperx=100, uppery=100)
    draw(c, _ops(), roles)
    draw(c, _ops()[1:][::-1], roles)  # the second page of a document: every line is known by now
    if form:
        c.endForm()
        c.doForm("face")
    c.showPage()
    c.save()
    return out.getvalue(), c


@pytest.mark.parametrize("form", [False, True])
def test_text_bytes_equal_reportlabs_drawstring(roles, form):
    ours, c1 = _pdf(draw_ops, roles, form)
    theirs, c2 = _pdf(_by_reportlab, roles, form)
    assert b"/F2+1" in theirs or b"+1 " in theirs  # the long line did need a second subset
    assert b"/gRLs" in theirs  # and the half-opaque colour an opacity state
    assert ours == theirs
    assert (c1._fontname, c1._fontsize, c1._leading) == (c2._fontname, c2._fontsize, c2._leading)


def test_fast_path_is_taken(roles):
    """The TrueType lines are encoded once per canvas (the cache holds them), the Type 1 line is not."""
    _, c = _pdf(draw_ops, roles)
    cached = c.__dict__["_cardgen_text"]
    assert ("_draw_text_probe", 8.5, "天雀牌ベンチ") in cached
    assert not any(font == "Helvetica" for font, _size, _text in cached)


def test_text_alone_marks_the_file_like_reportlab(roles):
    """A page with nothing but opaque text: reportlab's setFillColor marks the file PDF 1.4 (it sets
    the opacity), and so must the fast path, or the header would differ."""
    def page(draw) -> bytes:
        out = io.BytesIO()
        c = Canvas(out, invariant=1, pageCompression=0)
        draw(c, [Text(10, 10, "天雀", "body", 8, "#000000")], roles)
        c.showPage()
        c.save()
        return out.getvalue()

    assert page(draw_ops) == page(_by_reportlab)
    assert page(draw_ops).startswith(b"%PDF-1.4")
