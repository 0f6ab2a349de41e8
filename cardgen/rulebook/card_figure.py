"""Drawing a laid-out card figure (:class:`cardgen.rulebook.figures.FigureLayout`) as a Platypus
flowable: each card from the same :class:`CardPlan` as the print sheets, scaled to its size on
the figure, clipped to its trim with rounded corners, outlined, turned as the layout says; the
captions and labels upright in the caption font.
"""
from __future__ import annotations

from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable

from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.render.draw import draw_ops
from cardgen.rulebook.figures import CardSpec, FigureLayout, Placed

#: Corner radius of a card (mm at real size), scaled with the card.
CORNER = 3.0


class CardFigure(Flowable):
    """A card figure. ``plan_of(spec)`` gives the face to draw (None: a plain grey card);
    ``font``: the registered font name of captions and labels; ``scale`` shrinks the whole figure
    (so it fits the text frame)."""

    def __init__(self, layout: FigureLayout, plan_of: Callable[[CardSpec], CardPlan | None], fonts: FontSet,
                 font: str, images=None, scale: float = 1.0):
        super().__init__()
        self.layout, self.plan_of, self.fonts, self.font, self.images = layout, plan_of, fonts, font, images
        self.scale = scale

    def wrap(self, aw, ah):
        """The figure's size (pt): the layout's, scaled."""
        self.width, self.height = self.layout.width * self.scale, self.layout.height * self.scale
        return self.width, self.height

    def draw(self):
        """Cards first, then captions and labels over them."""
        c = self.canv
        c.saveState()
        c.scale(self.scale, self.scale)
        for p in self.layout.cards:
            self._card(p)
        c.setFillColor(HexColor("#333333"))
        for lb in self.layout.labels:
            c.setFont(self.font, lb.size)
            {"middle": c.drawCentredString, "end": c.drawRightString}.get(lb.anchor, c.drawString)(lb.x, lb.y, lb.text)
        c.restoreState()

    def _card(self, p: Placed) -> None:
        c = self.canv
        plan = self.plan_of(p.spec)
        c.saveState()
        c.translate(*origin(p))
        c.rotate(p.rotation)
        if plan is not None:
            s = p.w / plan.width
            c.saveState()
            c.scale(s, s)
            path = c.beginPath()
            path.roundRect(0, 0, plan.width, plan.height, CORNER * MM)
            c.clipPath(path, stroke=0, fill=0)
            draw_ops(c, plan.ops, self.fonts, self.images)
            c.restoreState()
        r = CORNER * MM * p.w / (plan.width if plan is not None else 63 * MM)
        c.setStrokeColor(HexColor("#999999"))
        c.setFillColor(HexColor("#dddddd"))
        c.setLineWidth(0.3)
        c.roundRect(0, 0, p.w, p.h, r, stroke=1, fill=int(plan is None))
        c.restoreState()


def origin(p: Placed) -> tuple[float, float]:
    """Where the card's own bottom-left corner goes so that, turned by ``p.rotation`` degrees
    counter-clockwise about it, the card fills its box (pt)."""
    return {0: (p.x, p.y), 90: (p.x + p.h, p.y), 180: (p.x + p.w, p.y + p.h), 270: (p.x, p.y + p.w)}[p.rotation]
