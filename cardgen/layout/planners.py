"""The planner of each template element kind, registered in one table (:data:`PLANNERS`): an
element and its box (pt) → ops (and findings) added to the :class:`~cardgen.layout.face.Face`.

Pure: no file is read (an image's path is resolved and checked through the face's callables)
and nothing is drawn. Text boxes are planned by :mod:`cardgen.layout.card_text`.
"""
from __future__ import annotations

from typing import Any, Callable

from cardgen.core.units import EPS, MM
from cardgen.core.unicode_text import forms
from cardgen.data.template_expr import eval_expr, render_text
from cardgen.data.template_model import (CircleElement, IconElement, IconsElement, ImageElement, LineElement,
                                         RectElement, TextElement)
from cardgen.layout.card_text import plan_text
from cardgen.layout.face import Face
from cardgen.layout.ops import Circle, Image, Line, Rect
from cardgen.layout.vertical_text import plan_vertical_text, vertical_form_problems

MAX_ICONS = 100  #: icons one `icons` box may repeat

#: ``(element, box, name, face)``: add the element's ops (and findings) to ``face``; ``box`` is
#: ``(x, y, w, h)`` in pt, trim-relative, y up (:func:`cardgen.layout.card._box`), ``name`` names it in findings.
Planner = Callable[[Any, tuple[float, float, float, float], str, Face], None]
#: The planner of each element kind (one per model in :data:`cardgen.data.template_model.ELEMENT_KINDS`).
PLANNERS: dict[str, Planner] = {}


def planner(kind: str) -> Callable[[Planner], Planner]:
    """Decorator: register the planner of element ``kind``."""
    def register(fn: Planner) -> Planner:
        PLANNERS[kind] = fn
        return fn
    return register


@planner("rect")
def _plan_rect(el: RectElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    face.ops.append(Rect(X, Y, W, H, el.fill, el.stroke, el.stroke_width, el.radius))


@planner("circle")
def _plan_circle(el: CircleElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    r = min(W, H) / 2
    face.ops.append(Circle(X + W / 2, Y + H / 2, r, el.fill, el.stroke, el.stroke_width))


@planner("line")
def _plan_line(el: LineElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    face.ops.append(Line(X, Y + H, X + W, Y, el.stroke_width or 0.5, el.stroke or el.color))


@planner("icon")
def _plan_icon(el: IconElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    icon = el.icon or ""
    if "{" in icon:
        icon = render_text(icon, face.ctx)
    s = min(W, H)
    face.ops.append(face.icon(icon, name, X + (W - s) / 2, Y + (H - s) / 2, s))


@planner("icons")
def _plan_icons(el: IconsElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    n = max(0, int(eval_expr(el.repeat, face.ctx))) if el.repeat else 1
    if n > MAX_ICONS:
        face.found("error", name, f"`repeat` gives {n} icons; a box holds at most {MAX_ICONS}", "icons-overflow")
        n = 0
    s = H
    gap = el.gap
    total = n * s + max(0, n - 1) * gap
    x0 = X + {"left": 0, "center": (W - total) / 2, "right": W - total}[el.align]
    for i in range(n):  # an unknown name is reported once, with the first icon
        face.ops.append(face.icon(el.icon or "power", name, x0 + i * (s + gap), Y, s, check=i == 0))
    if total > W + EPS:
        face.found("warning", name, f"{n} icons need {total / MM:.1f} mm, the box is {W / MM:.1f} mm", "icons-overflow")


@planner("image")
def _plan_image(el: ImageElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    src = render_text(el.file or "", face.ctx)
    if src:
        path = face.resolve_file(src) if face.resolve_file else src
        if face.exists is not None and not face.exists(path):
            face.found("error", name, f"the image {src!r} does not exist{forms(src)}", "missing-file")
        else:
            face.ops.append(Image(path, X, Y, W, H, clip=(X, Y, W, H), fit=el.fit))


@planner("text")
def _plan_text_element(el: TextElement, box, name: str, face: Face) -> None:
    X, Y, W, H = box
    text = render_text(el.text or "", face.ctx)
    if face.prepare is not None:
        text = face.prepare(el.font, text)
    if face.missing_chars is not None:
        lacking = face.missing_chars(el.font, text.replace("\\n", "\n"))
        face.found_chars("error", name, f"the {el.font} font has no glyph for", lacking, "", "missing-glyph")
    if el.direction == "vertical":
        vertical_form_problems(text, el.font, name, face)
        plan_vertical_text(el, text, X, Y, W, H, name, face)
    else:
        plan_text(el, text, X, Y, W, H, name, face)
