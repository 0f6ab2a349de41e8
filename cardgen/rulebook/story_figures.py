"""Rulebook images and card figures as Platypus flowables (part of the story,
:mod:`cardgen.rulebook.story`).

File images at their own size (pixels ÷ dpi) within the text frame; card images (``card:``) in
one captioned row; ``card_row`` / ``table_layout`` figures of the rules text laid out by
:mod:`cardgen.rulebook.figures` and drawn from the card plans by
:class:`cardgen.rulebook.card_figure.CardFigure`. Each function takes the
:class:`cardgen.rulebook.story.StoryBuilder` (its design, fonts, frame size, card plans, images and
the warnings it collects).
"""
from __future__ import annotations

from functools import partial

from reportlab.platypus import Flowable, Image as RLImage

from cardgen.core.errors import Problem
from cardgen.core.units import MM
from cardgen.render.images import image_dpi, image_size
from cardgen.rulebook import blocks as L
from cardgen.rulebook.card_figure import CardFigure
from cardgen.rulebook.figures import CardSpec, row_layout, table_layout

#: Captions and labels of card figures (pt).
CAPTION_SIZE = 7.0


def image(builder, f: L.Figure) -> RLImage:
    """A file image at its own size (pixels ÷ dpi; 72 dpi when the file says none), or the
    width written as its title (mm); scaled down to fit the text frame, with a warning."""
    path = builder.resolve_image(f.src)
    (px_w, px_h), dpi = image_size(path), image_dpi(path)
    w = f.width_mm * MM if f.width_mm else px_w / dpi * 72
    h = w * px_h / px_w
    max_h = builder.height * 0.9  # room for the space around it and a line of text
    k = min(1.0, builder.width / w, max_h / h)
    if k < 1.0:
        builder.findings.append(Problem(
            f.where[0] if f.where else "", f.where[1] if f.where else None, "rulebook → image",
            f"{f.src}: {w / MM:.1f} × {h / MM:.1f} mm ({px_w} × {px_h} px at {dpi:g} dpi) is larger than the "
            f"text frame ({builder.width / MM:.1f} × {max_h / MM:.1f} mm); scaled down to "
            f"{w * k / MM:.1f} × {h * k / MM:.1f} mm", "save it at a higher dpi or give its width in mm as "
            "the image title: ![図](file.png \"60\")", severity="warning", code="rules-image-scaled"))
    img = RLImage(str(path), width=w * k, height=h * k)
    img.spaceBefore, img.spaceAfter = 1 * MM, 3 * MM
    return img


def figures(builder, b: L.Figures) -> list:
    """A paragraph of images: file images at their size, card images (``card:``) in one
    captioned row (the alt text is the caption) shrunk to the frame."""
    cards, out = [], []
    for f in b.images:
        if f.src.startswith("card:"):
            comp, _, cid = f.src[5:].partition("/")
            cards.append((CardSpec(comp, cid, caption=f.alt), f.width_mm or 22))
        else:
            out.append(image(builder, f))
    if cards:
        out.insert(0, card_row(builder, [s for s, _w in cards], [w for _s, w in cards]))
    return out


def card_row(builder, specs: list, widths_mm: list, title: str = "") -> Flowable:
    """Cards side by side (:func:`cardgen.rulebook.figures.row_layout`), each ``widths_mm``
    wide (the first card's width for all: one row, one size), centred, within the frame."""
    d = builder.d
    plan = builder.card_plan(specs[0].component, specs[0].card_id)
    w = widths_mm[0] * MM
    lay = row_layout(specs, w, w * plan.height / plan.width, d.figure_gap, CAPTION_SIZE, title)
    return _figure(builder, lay)


def card_figure(builder, b: L.CardFigureBlock) -> list:
    """``card_row`` / ``table_layout`` of the rules text, laid out and drawn from the card plans."""
    data = b.data
    comp = data["component"]
    spec = [CardSpec(comp, c["id"], c["sideways"], c["caption"]) for c in data.get("cards", [])]
    if data["kind"] == "row":
        return [card_row(builder, spec, [data["width"]] * len(spec), data.get("title", ""))]
    first = next((c["id"] for r in data["rivers"] for c in r), None)
    plan = builder.card_plan(comp, first)
    w = data["width"] * MM
    back = CardSpec(comp, first, back=True)
    words = builder.words
    names = {"seat": words["seat"], "first": words["first_dealer"], "river": words["river"], "hand": words["hand"],
             "wall": words["wall"] if first else words["wall_count"].format(n=data["wall"]),  # mid-round the 山 has fewer
             "dead_wall": words["dead_wall"].format(n=data["dead_wall"])}
    lay = table_layout([[CardSpec(comp, c["id"], c["sideways"]) for c in r] for r in data["rivers"]],
                       [back] * data["hand"], back, back if data["dead_wall"] else None, w, w * plan.height / plan.width,
                       builder.d.figure_gap * 0.5, CAPTION_SIZE, names, data.get("title", ""))
    return [_figure(builder, lay)]


def _figure(builder, lay) -> Flowable:
    k = min(1.0, builder.width / lay.width) if lay.width else 1.0
    room = builder.height - 4 * MM  # the figure's space before and after
    if lay.height * k > room:  # a tall component: the figure fits the page's height too
        k = room / lay.height
    fig = CardFigure(lay, partial(_face, builder), builder.fonts, builder.fonts.name("heading"), builder.images, k)
    fig.hAlign = "CENTER"
    fig.spaceBefore, fig.spaceAfter = 1 * MM, 3 * MM
    return fig


def _face(builder, spec: CardSpec):
    """The face plan a figure draws: the front, or the back (None when the component has none)."""
    return builder.card_plan(spec.component, spec.card_id, "back" if spec.back else "front")
