"""The shop files of a print-shop preset (:mod:`cardgen.data.shop_presets`): files as the shop asks.

For a preset: check the game against it first (card sizes, bleed, transparency in a PDF/X-1a preset,
font licences: every problem at once, nothing written on an error), then cut the faces into the
shop's files — a PDF per deck (a page per physical card, backs first for DriveThruCards), a PDF of
the distinct faces, or a file per distinct face with ASCII names giving the order — with
``shop/order.csv`` saying which card is on which page and how many of each to print. A CMYK preset's
PDFs are converted (:mod:`cardgen.render.press_pdf`), identified as PDF/X
(:mod:`cardgen.render.pdfx`) and checked by the PDF/X checker (:mod:`cardgen.check.pdfx_check`)
before they are kept: a finding there is an error of the build.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pikepdf

from cardgen.check.colour_preflight import colour_findings
from cardgen.check.pdfx_check import preflight_pdf
from cardgen.core.errors import CardgenError, Problem, card_problem
from cardgen.core.units import MM
from cardgen.data.game import Game, safe_path
from cardgen.data.shop_presets import ShopPreset, shop_preset
from cardgen.fonts.fontset import FontSet
from cardgen.fonts.licence import embedding_restriction
from cardgen.layout.ops import CardPlan, Image
from cardgen.presets import sizes as preset_sizes
from cardgen.render.cmyk import DEFAULT_PROFILE, InkModel, InkRules, ink_model
from cardgen.render.images import ImageCache, effective_dpi, image_size, load_upright
from cardgen.render.pdfx import make_pdfx, save_pdfx
from cardgen.render.png_cards import FaceTask, face_id, px, render_face_files
from cardgen.render.press_pdf import to_cmyk
from cardgen.render.shop_pdf import render_shop

#: The ink limit of a CMYK preset whose guide gives none: the default profile's own (SWOP, 300 %).
DEFAULT_TAC = 300.0


def ascii_name(text: str, fallback: str) -> str:
    """``text`` in ASCII letters, digits, ``-`` and ``.`` (others → ``_``), or ``fallback`` when nothing is left."""
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("._")
    return name or fallback


@dataclass
class ShopFile:
    """One file to write: its pages (faces), which are turned, and the order rows."""

    name: str
    pages: list[CardPlan] = field(default_factory=list)
    turned: list[bool] = field(default_factory=list)
    rows: list[tuple] = field(default_factory=list)  #: (page, component, card ids, side, count)


def resolve_preset(game: Game, name: str | None) -> ShopPreset | None:
    """The preset named on the command line, else the manifest's ``print.shop``, else None."""
    if name:
        return shop_preset(name)
    manifest_name = game.manifest.print.shop
    if manifest_name:
        return shop_preset(manifest_name, "print → shop", game.manifest_file, game.line("print", "shop"))
    return None


def ink_rules(game: Game, preset: ShopPreset) -> InkRules:
    """The ink rules of ``preset`` for ``game`` (its ``print.cmyk_profile`` and ``print.rich_black``
    when it names them)."""
    profile = DEFAULT_PROFILE
    if game.manifest.print.cmyk_profile:
        profile = safe_path(game.root, game.manifest.print.cmyk_profile, game.manifest_file,
                            game.line("print", "cmyk_profile"), "print → cmyk_profile")
    rich = game.manifest.print.rich_black or preset.rich_black
    if rich is None:
        return InkRules(profile=profile, tac=preset.tac or DEFAULT_TAC)
    return InkRules(profile=profile, tac=preset.tac or DEFAULT_TAC, rich_black=tuple(rich))


def _alpha_art(plan: CardPlan) -> list[str]:
    """The art images of ``plan`` with an alpha channel (a PDF/X-1a file cannot carry it)."""
    found = []
    for op in plan.ops:
        if isinstance(op, Image):
            try:
                if "A" in load_upright(op.path).getbands():
                    found.append(f"image {Path(op.path).name} (alpha)")
            except CardgenError:
                pass  # the preflight names art that cannot be opened
    return found


def _image_dpi(op: Image) -> float | None:
    try:
        return effective_dpi(op, *image_size(op.path))
    except (CardgenError, OSError, ValueError):
        return None


def preset_problems(game: Game, fonts: FontSet, plans, preset: ShopPreset) -> list[Problem]:
    """Everything that stops ``game`` from going to ``preset``'s shop: errors, and warnings for
    components left out (a size the shop does not print, on a component that is not a deck)."""
    out: list[Problem] = []
    m = game.manifest
    kinds = {c.id: c.kind for c in m.components}
    bleed_mm = m.print.bleed / MM
    if preset.bleed_mm is not None and bleed_mm + 0.005 < preset.bleed_mm:
        out.append(game.problem(("print", "bleed"), f"the bleed is {bleed_mm:g} mm; {preset.name} wants "
                                f"{preset.bleed_mm:g} mm", f"set print.bleed: {preset.bleed_mm:g}", "shop-bleed"))
    if preset.format == "png" and preset.bleed_mm is not None and bleed_mm > preset.bleed_mm + 0.005:
        out.append(game.problem(("print", "bleed"), f"the bleed is {bleed_mm:g} mm; {preset.name}'s images are "
                                f"{preset.bleed_mm:g} mm", f"set print.bleed: {preset.bleed_mm:g}", "shop-bleed"))
    safe_mm = m.print.safe / MM
    if preset.safe_mm is not None and safe_mm + 0.005 < preset.safe_mm:
        out.append(game.problem(("print", "safe"), f"the safe area is {safe_mm:g} mm inside the trim; {preset.name} "
                                f"keeps important text and art {preset.safe_mm:g} mm in",
                                f"set print.safe: {preset.safe_mm:g} (the preflight then warns of what reaches "
                                "outside it)", "shop-safe", "warning"))
    for p in plans:
        if not p.cards:
            continue
        if not preset.size_fits(p.size_mm):
            sizes = ", ".join(f"{a:g} × {b:g}" for a, b in preset.card_sizes or [])
            deck = kinds.get(p.component) == "deck"
            out.append(game.problem(("components", p.component),
                                    f"{p.name} is {p.size_mm[0]:g} × {p.size_mm[1]:g} mm; {preset.name} prints "
                                    f"{sizes} mm" + ("" if deck else ": left out of the shop files"),
                                    "set print.card_size (or the component's size) to the shop's size"
                                    + _named_sizes(preset.card_sizes or []),
                                    "shop-card-size", "error" if deck else "warning"))
        if preset.standard == "PDF/X-1a":
            seen: set = set()
            for card, f, b in zip(p.cards, p.fronts, p.backs):
                for plan, side in ((f, "front"), (b, "back")):
                    if plan is None or (plan.key, side) in seen:
                        continue
                    seen.add((plan.key, side))
                    for what in _alpha_art(plan):
                        out.append(card_problem("error", card.ref(side), "image", f"{what}: {preset.name} wants "
                                                "PDF/X-1a, which cannot carry transparency", "shop-transparency"))
    model = None
    if preset.colour == "cmyk" and preset.format == "pdf":
        try:
            model = ink_model(ink_rules(game, preset))
        except ValueError as exc:
            where = ("print", "cmyk_profile") if m.print.cmyk_profile else ("print",)
            out.append(game.problem(where, str(exc), "name a CMYK ICC profile (print.cmyk_profile), or install "
                                    "Ghostscript's (make install: libgs-common)", "cmyk-profile"))
    shown = [p for p in plans if p.cards and preset.size_fits(p.size_mm)]
    out += colour_findings(shown, model, preset.name, model.rules.tac if model else None,
                           preset.standard == "PDF/X-1a", preset.dpi, _image_dpi)
    for role, face in sorted(fonts.faces.items()):
        path = face.source
        why = embedding_restriction(path, face.index)
        if why:
            out.append(Problem(game.manifest_file, None, f"fonts → {role}", f"the font {Path(path).name} {why}: "
                               "a shop file must embed it", "choose a font whose licence allows embedding",
                               "error", "font-embedding"))
    return out


def _files(p, preset: ShopPreset, component_index: int) -> list[ShopFile]:
    """The shop files of one component, in the shop's order."""
    comp = ascii_name(p.component, f"component{component_index}")
    back_first = preset.page_order == "back-first"
    turn = preset.back_rotation == 180

    def sides(front, back):
        pair = [(front, "front"), (back, "back")]
        return [(pl, s) for pl, s in (reversed(pair) if back_first else pair) if pl is not None]

    if preset.files == "deck":
        f = ShopFile(f"shop/{comp}.pdf")
        for card, front, back in zip(p.cards, p.fronts, p.backs):
            for plan, side in sides(front, back):
                f.pages.append(plan)
                f.turned.append(turn and side == "back")
                f.rows.append((len(f.pages), p.component, card.row.id, side, 1))
        return [f]
    pairs: dict[tuple, list] = {}
    for card, front, back in zip(p.cards, p.fronts, p.backs):
        key = (face_id(front), face_id(back) if back is not None else None)
        pairs.setdefault(key, [front, back, []])[2].append(card.row.id)
    if preset.files == "distinct":
        f = ShopFile(f"shop/{comp}.pdf")
        for front, back, ids in pairs.values():
            for plan, side in sides(front, back):
                f.pages.append(plan)
                f.turned.append(turn and side == "back")
                f.rows.append((len(f.pages), p.component, " ".join(dict.fromkeys(ids)), side, len(ids)))
        return [f]
    # one file per distinct face: fronts in deck order, then each distinct back
    faces: dict[tuple, list] = {}
    for front, back, ids in pairs.values():
        for plan, side in sides(front, back):
            entry = faces.setdefault((face_id(plan), side), [plan, side, []])
            entry[2].extend(ids)
    first = "back" if back_first else "front"
    out = []
    ordered = sorted(faces.values(), key=lambda e: e[1] != first)  # stable: deck order within a side
    for n, (plan, side, ids) in enumerate(ordered, 1):
        uniq = list(dict.fromkeys(ids))
        label = ascii_name(uniq[0], "card") if len(uniq) == 1 else "all" if side == "back" else "cards"
        f = ShopFile(f"shop/{n:03d}_{comp}_{label}_{side}.{'png' if preset.format == 'png' else 'pdf'}")
        f.pages.append(plan)
        f.turned.append(turn and side == "back")
        f.rows.append((1, p.component, " ".join(uniq), side, len(ids)))
        out.append(f)
    return out


def _press(data: bytes, dest: Path, model: InkModel, preset: ShopPreset, title: str) -> None:
    """The drawn PDF ``data`` → CMYK, PDF/X, written to ``dest``."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        to_cmyk(pdf, model)
        if preset.standard:
            make_pdfx(pdf, preset.standard, model.profile_bytes, model.description, title)
            save_pdfx(pdf, dest, preset.standard)
        else:
            pdf.save(dest, deterministic_id=True)


def write_preset_shop(game: Game, fonts: FontSet, plans, out, opts, preset: ShopPreset,
                      progress: Callable[[str, int], Callable[[], None]] | None = None) -> list[str]:
    """The shop files of ``preset`` for ``game`` (see the module docstring); the paths written."""
    problems = preset_problems(game, fonts, plans, preset)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise CardgenError(errors)
    m = game.manifest
    skipped = {p.component for p in plans if not preset.size_fits(p.size_mm)}
    model = ink_model(ink_rules(game, preset)) if preset.colour == "cmyk" and preset.format == "pdf" else None
    bleed = preset.bleed_mm * MM if preset.bleed_mm is not None else None
    images = ImageCache()
    written: list[str] = []
    order: list[tuple] = []
    findings: list[Problem] = []
    for index, p in enumerate(plans, 1):
        if not p.cards or p.component in skipped:
            continue
        files = _files(p, preset, index)
        tick = progress(f"shop {p.component}", sum(len(f.pages) for f in files)) if progress else None
        if preset.format == "png":
            tasks, dests = [], []
            for f in files:
                plan = f.pages[0]
                size = (px((plan.width + 2 * plan.bleed) / MM, preset.dpi), px((plan.height + 2 * plan.bleed) / MM,
                                                                                preset.dpi))
                tasks.append(FaceTask(plan, preset.dpi / 72.0, size, True, preset.dpi))
                dests.append([out.path(f.name)])
            render_face_files(tasks, dests, fonts, game.root, opts.jobs, on_done=tick)
        for f in files:
            title = f"{m.game.title} {m.game.version} · {p.name} ({preset.name})"
            if preset.format == "pdf":
                buf = io.BytesIO()
                render_shop(buf, f.pages, fonts, images, metadata={"title": title, "author": "cardgen",
                                                                   "subject": m.game.source},
                            on_page=tick, bleed=bleed, turned=f.turned)
                dest = out.path(f.name)
                if model is not None:
                    _press(buf.getvalue(), dest, model, preset, title)
                    findings += preflight_pdf(dest, preset.standard, model.rules.tac)
                else:
                    dest.write_bytes(buf.getvalue())
            written.append(f.name)
            order += [(f.name, *row) for row in f.rows]
    if model is not None:
        model.store()
    if findings:
        raise CardgenError(findings)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["file", "page", "component", "cards", "side", "count"])
    w.writerows(order)
    out.path("shop/order.csv").write_text(buf.getvalue(), encoding="utf-8")
    written.append("shop/order.csv")
    return written


def _named_sizes(wanted: list) -> str:
    """``": card_size: poker-us"`` for the shop's sizes that have a preset name (sizes.yaml), or ""."""
    names = [name for name, (w, h) in preset_sizes()["cards"].items()
             if any(abs(w - a) < 0.05 and abs(h - b) < 0.05 for a, b in wanted)]
    return f" (card_size: {' or '.join(names)})" if names else ""
