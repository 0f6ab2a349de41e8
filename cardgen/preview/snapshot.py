"""What the preview page shows, computed in the budgeted child process of each rebuild.

:func:`card_snapshot` checks the game (:func:`cardgen.steps.game_check.check_game`, the same checks
as ``cardgen validate`` short of the rulebook) with the faces laid out through a
:class:`cardgen.preview.faces.FaceCache`, and rasterises only the faces whose raster key the
parent does not hold yet. Given ``early``, it first lays out and rasterises the faces of the
edition shown (:func:`shown_faces`) and hands them to ``early`` before the check starts, so the
page shows a changed card while the check of every edition still runs; the check then finds
those faces in the cache. :func:`page_snapshot` builds the print sheets and the rulebook into a
private temporary folder with :func:`cardgen.api.build_game` and rasterises their pages.

Both return plain data (JSON-ready dicts and PNG bytes by key) that travel back to the parent
pickled (:func:`cardgen.core.budget.run_limited`). Nothing here serves or writes outside the
temporary folder.
"""
from __future__ import annotations

import hashlib
import io
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from cardgen.check.print_setup import find_template
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.editions import apply_edition
from cardgen.data.expand import printable_components
from cardgen.data.fields import as_mm
from cardgen.data.game import load_game
from cardgen.data.project import Project
from cardgen.fonts.fontset import fonts_for
from cardgen.layout import western
from cardgen.preview.faces import FaceCache
from cardgen.render.images import ImageCache
from cardgen.steps.component_plans import plan_component
from cardgen.steps.game_check import check_game

#: Screen resolution of card images, dots per inch (the large view shows them at this size).
CARD_DPI = 150
#: Resolution of rulebook and print-sheet page images, dots per inch.
PAGE_DPI = 72
#: JPEG quality of card images (1–95).
JPEG_QUALITY = 92


def _problem_json(p: Problem, cards: list[dict] | None = None) -> dict[str, Any]:
    return {"severity": p.severity, "text": p.format(), "message": p.message, "file": p.file, "line": p.line,
            "field": p.field, "code": p.code, "cards": cards or []}


def _card_json(ref, field: str = "") -> dict[str, str]:
    return {"component": ref.component, "id": ref.card_id, "face": ref.face, "field": field}


def problems_json(problems: list[Problem], face_findings: list[Problem]) -> list[dict[str, Any]]:
    """``problems`` as JSON, each with the card faces it is about: its own card, or — for a finding
    :func:`cardgen.steps.layout_findings.layout_problems` grouped over several cards — every face finding
    it stands for (same code, element and message). Each linked card names the element (``field``)."""
    out = []
    for p in problems:
        if p.card is not None:
            cards = [_card_json(p.card, p.field)]
        else:
            cards = [_card_json(f.card, f.field) for f in face_findings
                     if f.card is not None and f.code == p.code and f.field == p.field and f.severity == p.severity
                     and p.message.startswith(f.message)]
        out.append(_problem_json(p, list({tuple(c.values()): c for c in cards}.values())))
    return out


def _deck_math(report) -> list[dict[str, Any]]:
    return [{"players": pc.players, "deck": pc.deck, "removed": pc.removed, "hand": pc.hand, "dead_wall": pc.dead_wall,
             "draw_pile": pc.draw_pile, "turns": pc.turns, "declared_turns": pc.declared_turns, "ok": pc.ok,
             "arithmetic": pc.arithmetic, "derived": {k: str(v) for k, v in pc.derived.items()}}
            for pc in report.player_counts]


def _boxes(template) -> list[dict[str, Any]]:
    """Every element's box of ``template``: name, kind and ``[x, y, w, h]`` mm from the trim's top-left."""
    return [{"name": el.name or el.kind, "kind": el.kind, "box": [as_mm(v) for v in el.box]}
            for el in template.elements]


def rasterise_faces(plans: list, fonts, images, dpi: float) -> list[bytes]:
    """JPEG bytes (quality :data:`JPEG_QUALITY`, no chroma subsampling) of each face of ``plans``
    with its bleed at ``dpi``: drawn with the print's :func:`cardgen.render.draw.draw_ops` into
    one PDF, a page per face (fonts embedded once), and rasterised page by page with pdfium, as
    the PNG export does. JPEG, not PNG: encoding is about ten times faster, and this is a screen
    preview (the PNG export stays lossless)."""
    import pypdfium2 as pdfium  # lazy: +32 ms of imports here (measured)

    from cardgen.render.draw import draw_ops  # lazy: +65 ms of imports here (measured)
    from cardgen.render.pdf_doc import print_canvas  # lazy: +87 ms of imports here (measured)
    from cardgen.render.png_cards import MM_PER_IN, px  # lazy: +99 ms of imports here (measured)

    if not plans:
        return []
    buf = io.BytesIO()
    c = print_canvas(buf, fonts, pagesize=(plans[0].width + 2 * plans[0].bleed, plans[0].height + 2 * plans[0].bleed))
    for plan in plans:
        b = plan.bleed
        c.setPageSize((plan.width + 2 * b, plan.height + 2 * b))
        c.saveState()
        c.translate(b, b)
        draw_ops(c, plan.ops, fonts, images)
        c.restoreState()
        c.showPage()
    c.save()
    out = []
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        for i, plan in enumerate(plans):
            b = plan.bleed
            size = tuple(px((v + 2 * b) / 72 * MM_PER_IN, dpi) for v in (plan.width, plan.height))
            page = doc[i]
            img = page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255), draw_annots=False).to_pil().convert("RGB")
            page.close()
            if img.size != size:
                img = img.crop((0, 0, *size))
            jpeg = io.BytesIO()
            img.save(jpeg, "JPEG", quality=JPEG_QUALITY, subsampling=0)
            out.append(jpeg.getvalue())
    finally:
        doc.close()
    return out


def card_snapshot(game_dir: Path, cache: FaceCache, known: set[str], dpi: float = CARD_DPI,
                  templates: dict | None = None, early: Callable[[dict], None] | None = None) -> dict[str, Any]:
    """Check ``game_dir`` and lay out its faces through ``cache``; rasterise the faces whose raster
    key is not in ``known``. ``templates``: loaded templates kept between rebuilds
    (:func:`cardgen.data.template.remember_templates`); the ones loaded now are returned in
    ``templates`` for the parent to keep. ``early``: called with the faces of the edition shown
    (``{"components", "images"}``, as below) before the game is checked (:func:`shown_faces`);
    its images are in ``images`` again (a caller whose ``early`` reached nobody still has them).

    Returns a dict: ``state`` (``game, title, game_version, ok, deck_math, problems, components``: per
    component ``id, name, size_mm, bleed_mm, boxes`` (front/back element boxes, mm) and ``cards``
    (``id, count, front, back`` raster keys, ``marks``: element → finding code per face)),
    ``images`` (raster key → JPEG bytes, new ones only), ``entries`` (the cache's new entries),
    ``used`` (every input key this rebuild used), ``fonts`` (``(file, face index)`` of each
    font role, for the parent to load once: :func:`cardgen.fonts.fontset.preload`), ``languages``
    (hyphenation dictionaries loaded) and ``modules`` (the modules this rebuild imported, for the
    parent to import once). ``state["components"]`` is None when the game could not be read (the
    page keeps showing the last good faces).
    """
    from cardgen.data.template import remember_templates  # lazy: +27 ms of imports here (measured)

    start = time.perf_counter()
    modules = set(sys.modules)
    memo = templates if templates is not None else {}
    had = set(memo)
    before = remember_templates(memo)
    try:
        sent = shown_faces(game_dir, cache, known, dpi, early) if early is not None else {}
        got = _cards(game_dir, cache, known | set(sent), dpi)
    finally:
        remember_templates(before)
    got["images"] = {**sent, **got["images"]}
    got["templates"] = {k: v for k, v in memo.items() if k not in had}
    got["modules"] = sorted(set(sys.modules) - modules)
    stats = got.setdefault("stats", {})
    stats["child_s"] = round(time.perf_counter() - start, 4)
    stats["rasterised"] = len(got["images"])
    return got


def shown_faces(game_dir: Path, cache: FaceCache, known: set[str], dpi: float,
                early: Callable[[dict], None]) -> dict[str, bytes]:
    """Lay out (through ``cache``) and rasterise the faces of the edition shown, as the check
    will (the same loading, edition, fonts and layout calls), and hand them to ``early``
    (``{"components": [...], "images": {key: JPEG}}``, the components as in :func:`card_snapshot`'s
    state; a component that cannot be laid out is left out, the check says why). → the images
    sent. A game that cannot be read or whose fonts do not load sends nothing: the check reports it.

    The cache's record of this rebuild (what was laid out, :meth:`FaceCache.start`) is kept for
    the check that follows, which finds these faces in it."""
    try:
        game = apply_edition(load_game(game_dir), None)
        fonts = fonts_for(game)
    except (CardgenError, OSError):
        return {}
    cache.start(game, fonts)
    plans = []
    for cid in printable_components(game):
        try:
            plans.append(plan_component(game, cid, fonts, plan=cache))
        except (CardgenError, OSError):  # the check reports it (its component keeps its last good faces)
            continue
    components, images = _components(game, plans, cache, known, dpi, fonts)
    cache.keep_added()
    early({"components": components, "images": images})
    return images


def _components(game, plans: list, cache: FaceCache, known: set[str], dpi: float,
                fonts) -> tuple[list[dict[str, Any]], dict[str, bytes]]:
    """The page's components of ``plans`` (the shown edition's faces, looked up in ``cache``) and
    the JPEG images of the faces whose raster key is not in ``known``."""
    project, drawn = Project.for_game(game.root), ImageCache()
    edition = game.edition.id if game.edition is not None else ""  # the faces shown: the default edition's
    components, images = [], {}
    for cp in plans:
        idx = next(i for i, c in enumerate(game.manifest.components) if c.id == cp.component)
        comp = game.manifest.components[idx]
        boxes = {"front": _boxes(find_template(project, game, comp.template, ("components", idx, "template")))}
        if comp.back:
            boxes["back"] = _boxes(find_template(project, game, comp.back, ("components", idx, "back")))
        counts: dict[str, int] = {}
        first: dict[str, Any] = {}
        for card in cp.cards:
            counts[card.row.id] = counts.get(card.row.id, 0) + 1
            first.setdefault(card.row.id, card)
        cards = []
        todo: dict[str, Any] = {}  # raster key → plan, drawn together below
        for rid, card in first.items():
            entry: dict[str, Any] = {"id": rid, "count": counts[rid], "marks": {}}
            for face in ("front", "back") if comp.back else ("front",):
                key = cache.shown(edition, card.ref(face))
                if key is None:
                    continue
                e = cache.entries[key]
                if e.raster not in known:
                    todo.setdefault(e.raster, e.result.plan)
                entry[face] = e.raster
                # one mark a box: an error's (text-overflow) over a warning's (text-overlap, text-shrunk)
                entry["marks"][face] = {f.field: f.code for f in sorted(e.result.findings, key=lambda f: f.severity == "error")
                                        if f.field}
            cards.append(entry)
        images.update(zip(todo, rasterise_faces(list(todo.values()), fonts, drawn, dpi)))
        components.append({"id": cp.component, "name": cp.name, "size_mm": list(cp.size_mm),
                           "bleed_mm": cp.fronts[0].bleed / 72 * 25.4 if len(cp.cards) else 0.0,
                           "boxes": boxes, "cards": cards})
    return components, images


def _cards(game_dir: Path, cache: FaceCache, known: set[str], dpi: float) -> dict[str, Any]:
    chk = check_game(game_dir, rulebook=False, plan=cache, on_fonts=cache.start)
    report, game = chk.report, chk.game
    face_findings = [f for cp in chk.plans for f in cp.findings] + (chk.preflight.face_findings if chk.preflight else [])
    state: dict[str, Any] = {
        "game": report.game, "title": report.title, "game_version": report.version, "ok": not chk.errors,
        "deck_math": _deck_math(report),
        "problems": problems_json(chk.errors + chk.warnings, face_findings), "components": None}
    if game is None or chk.fonts is None:
        return {"state": state, "images": {}, "entries": {}, "used": set()}
    state["components"], images = _components(game, chk.plans, cache, known, dpi, chk.fonts)
    fonts = sorted({(str(f.source), f.index) for f in chk.fonts.faces.values()})
    return {"state": state, "images": images, "entries": cache.new_entries(), "used": set(cache.used), "fonts": fonts,
            "languages": sorted(western.LOADED_LANGUAGES),
            "stats": {"laid_out": len(cache.added), "reused": len(cache.used - cache.added), "rasterised": len(images)}}


def _pages(pdf: Path, dpi: float) -> list[bytes]:
    import pypdfium2 as pdfium  # lazy: +33 ms of imports here (measured)

    out = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            page = doc[i]
            img = page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
            page.close()
            buf = io.BytesIO()
            img.save(buf, "PNG", compress_level=1)
            out.append(buf.getvalue())
    finally:
        doc.close()
    return out


def page_snapshot(game_dir: Path, dpi: float = PAGE_DPI, options=None) -> dict[str, Any]:
    """Build the print sheets and the rulebook of ``game_dir`` (forced: a game that fails
    validation comes out marked DRAFT, as ``cardgen build --force`` prints it) into a temporary
    folder and rasterise every page at ``dpi``.

    Returns ``{"pages": {"rulebook": [key…], "sheets": [key…]}, "images": {key: PNG bytes},
    "problems": [JSON problems of the rulebook and the build]}``.
    """
    from cardgen.api import build_game  # lazy: +154 ms of imports here (measured)

    pages: dict[str, list[str]] = {"rulebook": [], "sheets": []}
    images: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="cardgen-preview-") as tmp:
        try:
            res = build_game(game_dir, tmp, options=options, force=True, steps=("sheets", "rulebook"))
        except CardgenError as exc:
            return {"pages": None, "images": {}, "problems": problems_json(exc.problems, [])}
        for f in res.files:
            kind = "rulebook" if f.name == "rulebook.pdf" else "sheets" if f.suffix == ".pdf" else None
            if kind is None:
                continue
            for png in _pages(f, dpi):
                key = hashlib.sha1(png).hexdigest()
                images[key] = png
                pages[kind].append(key)
        rules = [p for p in res.report.errors + res.report.warnings + res.layout
                 if {"rules", "rulebook"} & set(Path(p.file).parts) or p.code.startswith("rules")]
    return {"pages": pages, "images": images, "problems": problems_json(rules, [])}
