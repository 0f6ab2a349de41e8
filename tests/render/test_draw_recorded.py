"""render/draw.py records the operators of a rounded rectangle, a circle and a built-in icon the
first time a canvas draws them and replays them when the same shape recurs (issue 19: reportlab
formats every curve coordinate again on each call). The file must be byte for byte what
reportlab's own calls write, including when the opacity in force differs between two draws of
the same icon (its colour then writes an opacity change) and inside a form."""
from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.layout.ops import Circle, Icon, Rect, Text
from cardgen.render.draw import color, draw_ops
from cardgen.render.icons import draw_icon
from tests.conftest import IPAEX, needs_fonts

pytestmark = needs_fonts


class _Roles:
    def name(self, role: str) -> str:
        return "_draw_recorded_probe"


def _ops() -> list:
    frame = Rect(11.3, 19.8, 155.9, 79.4, "#f3e6c4", "#8c1c13", 0.8, 5.67)
    return [
        frame,
        Rect(0, 0, 50, 50, None, "#23395b", 0.8, 5.67),  # the same path stroked only
        Circle(30, 30, 9.5, "#e8a317", "#7a5200", 0.5),
        Icon("power", 111.06, 144.91, 8.5),
        Icon("pon", 20, 20, 12),
        Icon("power_empty", 40, 20, 12),
        Icon("ron_off", 60, 20, 4),
        Text(10, 10, "天雀", "body", 8, "#d0021b80"),  # half opaque: the next icon's colour restores 1
        Icon("power", 111.06, 144.91, 8.5),
        Rect(0, 0, 50, 50, "#ffffff80", None, 0, 5.67),
        frame,
        Circle(30, 30, 9.5, "#e8a317", "#7a5200", 0.5),
        Circle(30, 30, 9.5, None, "#000000", 1),  # the same circle, stroked only
    ]


def _by_reportlab(c: Canvas, ops: list, fonts: _Roles) -> None:
    """What draw_ops drew before: reportlab's calls, op by op."""
    for op in ops:
        if isinstance(op, (Rect, Circle)):
            if op.fill:
                c.setFillColor(color(op.fill))
            if op.stroke:
                c.setStrokeColor(color(op.stroke))
                c.setLineWidth(op.stroke_width)
            stroke, fill = int(bool(op.stroke and op.stroke_width)), int(bool(op.fill))
            if isinstance(op, Circle):
                c.circle(op.cx, op.cy, op.r, stroke=stroke, fill=fill)
            else:
                c.roundRect(op.x, op.y, op.w, op.h, op.radius, stroke=stroke, fill=fill)
        elif isinstance(op, Icon):
            draw_icon(c, op.name, op.x, op.y, op.size, fonts.name("heading"))
        else:
            c.setFillColor(color(op.color))
            c.setFont(fonts.name(op.font), op.size)
            c.drawString(op.x, op.y, op.text)


@pytest.fixture(scope="module")
def roles() -> _Roles:
    if "_draw_recorded_probe" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("_draw_recorded_probe", str(IPAEX)))
    return _Roles()


@pytest.mark.parametrize("form", [False, True])
def test_recorded_shapes_and_icons_write_reportlabs_bytes(roles, form):
    def pdf(draw) -> tuple[bytes, Canvas]:
        out = io.BytesIO()
        c = Canvas(out, invariant=1, pageCompression=0)
        if form:
            c.beginForm("face", lowerx=0, lowery=0, upperx=200, uppery=200)
        draw(c, _ops(), roles)
        c.saveState()
        c.setFillAlpha(0.5)  # the same icon again under another opacity
        draw(c, _ops()[::-1], roles)
        c.restoreState()
        if form:
            c.endForm()
            c.doForm("face")
        c.showPage()
        c.save()
        return out.getvalue(), c

    ours, c = pdf(draw_ops)
    theirs, _ = pdf(_by_reportlab)
    assert ours == theirs
    recorded = c.__dict__["_cardgen_ops"]
    assert sum(key[0] == "icon" and key[1].name == "power" for key in recorded) >= 2  # one per opacity
    assert any(key[0] == "roundRect" for key in recorded) and any(key[0] == "circle" for key in recorded)
