"""Print sheets PDF: imposed card faces, crop marks, page labels, mirrored backs.

Crop marks are a form XObject per page layout (:class:`MarkForms`), placed on every page that
has those slots.

Each distinct face (same template, same values) is drawn once as a PDF form XObject and placed
with ``doForm`` wherever it appears, so a 4,000-card deck with one back stores that back once.
The canvas is created with ``invariant=1``: the same input gives the same bytes.

Streaming: reportlab keeps every page and form of a document in memory until ``save()``. To keep
memory flat at any deck size, each form XObject and each page's content stream is compressed and
formatted as soon as it is finished (:func:`_freeze_form`, :func:`_freeze_page`); the document
then holds only compressed bytes (about the size of the final file) and slim page objects (their
XObject and transition dictionaries formatted too, attributes that are None left to the class),
and the fonts, which can only be subset at the end, are written once by ``save()``. Streams are Flate-compressed without
the ASCII85 layer reportlab adds by default (25 % smaller, and faster).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import (PDFDictionary, PDFObject, PDFPage, PDFResourceDictionary, PDFStream, PDFZCompress,
                                     xObjectName)
from reportlab.pdfbase.pdfdoc import format as pdf_format
from reportlab.pdfgen.canvas import Canvas

from cardgen.core.units import MM
from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.layout.sheet import PagePlan
from cardgen.render.draw import color, draw_ops
from cardgen.render.pdf_doc import print_canvas


@dataclass
class SheetRun:
    """One deck to print: its pages and the face plan of every card position."""

    title: str  #: e.g. "天雀牌 draft 3 · 闘牌カード"
    pages: list[PagePlan]
    fronts: Sequence[CardPlan]
    backs: Sequence[CardPlan | None]


class _Frozen(PDFObject):
    """An object already formatted to PDF bytes (a compressed stream)."""

    def __init__(self, data: bytes):
        self.data = data

    def format(self, document) -> bytes:
        return self.data


def _form_resources(form) -> None:
    """Give a finished form XObject the resource dictionary reportlab's ``PDFFormXObject.format``
    would make — fonts, procedure sets, XObjects — plus its ``/ExtGState``, which that method
    leaves out (reportlab 5.1): a form drawing a ``#rrggbbaa`` colour said ``/gRLs0 gs`` with no
    such resource, so it printed opaque and poppler reported "ExtGState 'gRLs0' is unknown"."""
    if form.Resources or not getattr(form, "ExtGState", None):
        return
    resources = PDFResourceDictionary()
    resources.basicFonts()
    if form.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources


def _freeze_form(c: Canvas, name: str) -> None:
    """Replace the just-finished form XObject ``name`` by its formatted, compressed bytes."""
    doc = c._doc
    xname = xObjectName(name)
    form = doc.idToObject[xname]
    _form_resources(form)
    doc.idToObject[xname] = _Frozen(form.format(doc))


class _FinishedPage(PDFPage):
    """A page whose content is frozen (:func:`_freeze_page`): an attribute a page holds as None
    is None on this class instead, so the page keeps only the attributes that are not None (its
    dictionary of ~31 keys, 1.6 KB, is about 1 KB smaller; 4,000 cards make ~900 pages)."""


def _freeze_page(c: Canvas) -> None:
    """Format the content stream of the page just shown; the page keeps a reference to it. Its
    XObject and transition dictionaries (which refer only to objects already numbered) are
    formatted now too, and it keeps only the attributes that are not None: what ``save()``
    writes for the page is unchanged, byte for byte."""
    doc = c._doc
    page = doc.Pages.pages[-1]
    if page.stream and not page.Contents:
        s = PDFStream(content=page.stream, filters=[PDFZCompress] if page.compression else [])
        page.Contents = doc.Reference(_Frozen(s.format(doc)))
        page.stream = None
    for name in ("XObjects", "Trans"):
        value = getattr(page, name, None)
        if isinstance(value, PDFDictionary):
            setattr(page, name, _Frozen(pdf_format(value, doc)))
    if type(page) is PDFPage:
        kept = {}
        for k, v in page.__dict__.items():
            if v is not None:
                kept[k] = v
            elif k not in _FinishedPage.__dict__:
                setattr(_FinishedPage, k, None)
        page.__class__ = _FinishedPage
        page.__dict__ = kept


class FormCache:
    """Draws card faces: a face used more than once becomes a form XObject (named by first
    appearance, deterministic) placed with ``doForm``; a face used once is drawn in place, clipped
    to its bleed box like a form would be (a form costs a stream and a resource dictionary, and
    compresses worse than the page stream it would sit in)."""

    def __init__(self, canvas: Canvas, fonts: FontSet, images=None, uses: dict[str, int] | None = None):
        self.canvas, self.fonts, self.images = canvas, fonts, images
        self.names: dict[str, str] = {}
        self.uses = uses  #: face key → number of placements; None: every face is a form

    def place(self, plan: CardPlan | Callable[[], CardPlan], x: float, y: float, key: str | None = None,
              clip: tuple[float, float, float, float] | None = None, turn: tuple[float, float] | None = None) -> None:
        """Draw ``plan`` with its trim's bottom-left at ``x, y`` (pt).

        ``plan`` may be a callable returning the plan, called only when ``key`` (the face key) has
        not been drawn yet. ``clip``: the page rectangle ``(x0, y0, x1, y1)`` the face is cut to
        (a shared-cut sheet: the bleed only where there is no neighbour); None: its bleed box.
        ``turn``: the trim's ``(w, h)`` of a face turned 180° in its slot (the backs of a sheet
        folded about a horizontal line).
        """
        c = self.canvas
        if clip is not None:
            c.saveState()
            path = c.beginPath()
            path.rect(clip[0], clip[1], clip[2] - clip[0], clip[3] - clip[1])
            c.clipPath(path, stroke=0, fill=0)
            try:
                self.place(plan, x, y, key, turn=turn)
            finally:
                c.restoreState()
            return
        key = key if key is not None else plan.key  # type: ignore[union-attr]
        name = self.names.get(key)
        if name is None:
            if callable(plan):
                plan = plan()
            b = plan.bleed
            if self.uses is not None and self.uses.get(key, 0) <= 1:
                c.saveState()
                c.translate(x, y)
                _turn(c, turn)
                clip = c.beginPath()
                clip.rect(-b, -b, plan.width + 2 * b, plan.height + 2 * b)
                c.clipPath(clip, stroke=0, fill=0)
                draw_ops(c, plan.ops, self.fonts, self.images)
                c.restoreState()
                return
            name = self.names[key] = f"card{len(self.names)}"
            c.beginForm(name, lowerx=-b, lowery=-b, upperx=plan.width + b, uppery=plan.height + b)
            draw_ops(c, plan.ops, self.fonts, self.images)
            c.endForm()
            _freeze_form(c, name)
        c.saveState()
        c.translate(x, y)
        _turn(c, turn)
        c.doForm(name)
        c.restoreState()


def _turn(c: Canvas, turn: tuple[float, float] | None) -> None:
    """Turn the drawing 180° inside a trim of ``turn = (w, h)`` whose bottom-left is the origin."""
    if turn is not None:
        c.translate(turn[0], turn[1])
        c.rotate(180)


class MarkForms:
    """Crop marks drawn once per page layout: the marks of a page (:attr:`PagePlan.marks`, pt)
    become a form XObject the first time that set of marks appears and are placed with
    ``doForm`` on every page with the same slots (a 4,000-card deck has one or two layouts, and
    about 40 mark lines a card). The form's space is the page's, so each line lies exactly
    where it would if drawn on the page."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.names: dict[tuple, str] = {}
        self.seen: dict[tuple, tuple[list, str]] = {}  #: (id of a marks list, page size) → (the list, its form)

    def place(self, page: PagePlan) -> None:
        """Draw the crop marks of ``page`` (nothing when it has none)."""
        if not page.marks:
            return
        c = self.canvas
        seen = self.seen.get((id(page.marks), page.width, page.height))
        if seen is not None and seen[0] is page.marks:  # pages of one deck share their marks list
            c.doForm(seen[1])
            return
        key = (page.width, page.height, tuple((ln.x1, ln.y1, ln.x2, ln.y2, ln.width, ln.color) for ln in page.marks))
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"marks{len(self.names)}"
            c.beginForm(name, lowerx=0, lowery=0, upperx=page.width, uppery=page.height)
            c.setLineCap(0)
            pen = None
            for ln in page.marks:
                if (ln.color, ln.width) != pen:  # set once per run of equal lines
                    pen = (ln.color, ln.width)
                    c.setStrokeColor(color(ln.color))
                    c.setLineWidth(ln.width)
                c.line(ln.x1, ln.y1, ln.x2, ln.y2)
            c.endForm()
            _freeze_form(c, name)
        self.seen[(id(page.marks), page.width, page.height)] = (page.marks, name)
        c.doForm(name)


def face_uses(runs: list[SheetRun]) -> dict[str, int]:
    """How many times each face key is placed on the sheets of ``runs``."""
    uses: dict[str, int] = {}
    for run in runs:
        for page in run.pages:
            sides = [run.fronts if page.side == "front" else run.backs] + ([run.backs] if page.fold_backs else [])
            for faces in sides:
                key_at = getattr(faces, "key_at", None)
                for idx in page.card_indexes:
                    if key_at is not None:
                        k = key_at(idx)
                    else:
                        plan = faces[idx]
                        if plan is None:
                            continue
                        k = plan.key
                    uses[k] = uses.get(k, 0) + 1
    return uses


def draw_label(c: Canvas, text: str, box: tuple[float, float, float, float], fonts: FontSet,
               vertical: bool = False, extra_ops: Sequence = (), limit: float | None = None) -> None:
    """The page label, 7 pt, on a baseline 1.2 mm inside its band ``box`` (pt) from the band's
    bottom edge (or, ``vertical``, reading upwards along a band at the page side, baseline
    1.2 mm from the band's right edge). ``extra_ops`` (band coordinates, see
    :mod:`cardgen.layout.scale_bar`) are drawn in the band with it; the label then ends before
    ``limit`` (pt along the band): set smaller (down to 5 pt), then cut with "…"."""
    size = 7.0
    if limit is not None:
        width = fonts.width(text, "body", size)
        if width > limit:
            size = max(5.0, size * limit / width)
            while len(text) > 1 and fonts.width(text, "body", size) > limit:
                text = text[:-2] + "…"
    c.saveState()
    if vertical:
        c.translate(box[0] + box[2], box[1])
        c.rotate(90)
    else:
        c.translate(box[0], box[1])
    c.setFillColor(color("#555555"))
    c.setFont(fonts.name("body"), size)
    c.drawString(0, 1.2 * MM, text)
    if extra_ops:
        c.setLineCap(0)
        draw_ops(c, extra_ops, fonts)
    c.restoreState()


def band_length(page: PagePlan) -> float:
    """Length of the page's label band along its text (pt)."""
    return page.label_box[3] if page.label_vertical else page.label_box[2]


def draw_draft_mark(c: Canvas, page_w: float, page_h: float, fonts: FontSet) -> None:
    """A large diagonal "DRAFT – validation failed" across the page, sized so it spans about 70 %
    of the page diagonal on any paper: the rulebook's pages of a forced build. (Print sheets carry
    the small per-card mark of :mod:`cardgen.layout.draft_mark` instead, so no card back gets a
    fragment of its own.)"""
    text = "DRAFT – validation failed"
    diagonal = math.hypot(page_w, page_h)
    size = min(48.0, 0.7 * diagonal / max(fonts.width(text, "heading", 1.0), 1e-6))
    c.saveState()
    c.setFillColor(color("#d0021b"))
    c.setFillAlpha(0.35)
    c.translate(page_w / 2, page_h / 2)
    c.rotate(math.degrees(math.atan2(page_h, page_w)))
    c.setFont(fonts.name("heading"), size)
    c.drawCentredString(0, -size * 0.35, text)
    c.restoreState()


def render_sheets(path: Path, runs: list[SheetRun], fonts: FontSet, label: Callable[[SheetRun, PagePlan, int], str],
                  draft: bool = False, images=None, metadata: dict | None = None,
                  on_page: Callable[[], None] | None = None, paper: str = "a4", duplex: str | None = None,
                  scale_note: str | None = None) -> int:
    """Write the print sheets of every run into one PDF.

    Args:
        path: output file. runs: decks in order. label: page label text for (run, page, sheets).
        draft: the build is a draft (the page labels say so; the card faces carry their own mark).
        on_page: called after each page (progress).
        paper: names the scale bar on page 1 (100 mm; 4 in on Letter).
        duplex: the flip the back pages are mirrored for (``/Duplex`` viewer preference), or
            ``simplex`` for a file printed on one side, or None.

    Returns:
        the number of pages written.
    """
    a85 = rl_config.useA85
    rl_config.useA85 = 0
    try:
        return _render(path, runs, fonts, label, draft, images, metadata, on_page, paper, duplex, scale_note)
    finally:
        rl_config.useA85 = a85


def _place_faces(forms: FormCache, faces, slots, indexes, shared_cut: bool) -> None:
    """Draw the face of card ``indexes[i]`` of ``faces`` in ``slots[i]`` (cut to the slot's box on
    a shared-cut sheet)."""
    key_at = getattr(faces, "key_at", None)
    for slot, idx in zip(slots, indexes):
        clip = slot.box if shared_cut else None
        turn = (slot.w, slot.h) if slot.turned else None
        if key_at is not None:  # a FacePlans: read the plan only if its face is new
            forms.place(lambda i=idx: faces[i], slot.x, slot.y, key=key_at(idx), clip=clip, turn=turn)
            continue
        plan = faces[idx]
        if plan is not None:
            forms.place(plan, slot.x, slot.y, clip=clip, turn=turn)


def _render(path, runs, fonts, label, draft, images, metadata, on_page, paper, duplex, scale_note=None) -> int:
    from cardgen.layout.scale_bar import scale_bar  # lazy: +17 ms of imports here (measured)

    c = print_canvas(path, fonts, duplex)
    meta = metadata or {}
    c.setTitle(meta.get("title", ""))
    c.setAuthor(meta.get("author", ""))
    c.setSubject(meta.get("subject", ""))
    forms = FormCache(c, fonts, images, face_uses(runs))
    marks = MarkForms(c)
    pages = 0
    for run in runs:
        sheets = max((p.number for p in run.pages), default=0)
        for page in run.pages:
            c.setPageSize((page.width, page.height))
            faces = run.fronts if page.side == "front" else run.backs
            _place_faces(forms, faces, page.slots, page.card_indexes, page.shared_cut)
            if page.fold_backs:  # a fold-over sheet: the backs on the other half
                _place_faces(forms, run.backs, page.fold_backs, page.card_indexes, page.shared_cut)
            marks.place(page)
            bar = scale_bar(band_length(page), paper, fonts.width, note=scale_note) if pages == 0 else None
            draw_label(c, label(run, page, sheets), page.label_box, fonts, page.label_vertical,
                       bar.ops if bar else (), bar.start - 2 * MM if bar else None)
            c.showPage()
            _freeze_page(c)
            pages += 1
            if on_page:
                on_page()
    c.save()
    return pages
