"""Print-shop PDF: one card face per page at trim + bleed, with TrimBox and BleedBox.

Print shops (and their preflight software) want each face on its own page, the page being the
bleed box, with ``/TrimBox`` telling where the knife goes and ``/BleedBox`` how far the art
runs. Pages go front 1, back 1, front 2, back 2… (or only fronts / only backs). Faces are form
XObjects drawn once (:class:`FormCache`), so repeated faces cost nothing. ``invariant=1``.
"""
from __future__ import annotations

from typing import Callable, Sequence

from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.render.pdf_doc import print_canvas
from cardgen.render.pdf_sheets import FormCache


def shop_pages(fronts: Sequence[CardPlan], backs: Sequence[CardPlan | None], sides: str = "both") -> list[CardPlan]:
    """The faces in page order: front 1, back 1, front 2, back 2… (``sides`` front|back|both).
    Cards without a back get only their front."""
    pages: list[CardPlan] = []
    for f, b in zip(fronts, backs):
        if sides in ("front", "both"):
            pages.append(f)
        if sides in ("back", "both") and b is not None:
            pages.append(b)
    return pages


def render_shop(path, pages: Sequence[CardPlan], fonts: FontSet, images=None, metadata: dict | None = None,
                on_page: Callable[[], None] | None = None, bleed: float | None = None,
                turned: Sequence[bool] = ()) -> int:
    """Write one page per face to ``path`` (a path or a file object). MediaBox = CropBox =
    BleedBox = trim + bleed; TrimBox = trim. ``bleed`` (pt) cuts the page to a shop's bleed when it
    is less than the faces' own (None: the faces' bleed); ``turned[i]``: page ``i`` is drawn turned
    180° (a shop that wants the backs upside down). Returns the page count."""
    c = print_canvas(path, fonts)
    meta = metadata or {}
    c.setTitle(meta.get("title", ""))
    c.setAuthor(meta.get("author", ""))
    c.setSubject(meta.get("subject", ""))
    forms = FormCache(c, fonts, images)
    for i, plan in enumerate(pages):
        b = plan.bleed if bleed is None else min(bleed, plan.bleed)
        W, H = plan.width + 2 * b, plan.height + 2 * b
        c.setPageSize((W, H))
        c.setCropBox((0, 0, W, H))
        c.setBleedBox((0, 0, W, H))
        c.setTrimBox((b, b, b + plan.width, b + plan.height))
        if i < len(turned) and turned[i]:
            c.translate(W, H)
            c.rotate(180)
        forms.place(plan, b, b)
        c.showPage()
        if on_page:
            on_page()
    c.save()
    return len(pages)
