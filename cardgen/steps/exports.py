"""Exports beyond the print sheets: per-card PNGs, Tabletop Simulator sheets, print-shop PDFs.

Orchestration only: faces come from :func:`cardgen.steps.component_plans.plan_component`, drawing from
:mod:`cardgen.render`. Every writer takes an :class:`~cardgen.core.atomic.AtomicOutput` and returns
the paths it wrote, relative to the game's output folder.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Callable

from PIL import Image as PILImage

from cardgen.core.errors import CardgenError, Problem
from cardgen.core.units import MM
from cardgen.data.game import Game
from cardgen.fonts.fontset import FontSet
from cardgen.data.edition_model import LATIN_LANGUAGES
from cardgen.layout.icon_names import icon_words, plain_icons
from cardgen.layout.tts import (CARD_TYPE, SPACING, TOKEN_TYPE, card_id, custom_deck, deck_object, saved_object,
                                token_scale, tts_sheets)
from cardgen.render.images import ImageCache
from cardgen.render.png_cards import FaceTask, face_id, png_bytes, px, render_face_files, render_faces
from cardgen.steps.export_options import ExportOptions

SIDES = ("front", "back", "both")
#: Largest card face cardgen rasterises (width × height in pixels): about 800 MB while it is
#: drawn, encoded and written. A 63 × 88 mm card at 1200 dpi is 17 megapixels.
MAX_FACE_PIXELS = 100_000_000


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("._") or "card"


def card_file(component: str, index: int, card_id: str, back: bool = False) -> str:
    """Stable PNG name: ``cards/<component>-<NNN>-<id>[-back].png`` (index 1-based, deck order)."""
    return f"cards/{_safe(component)}-{index:03d}-{_safe(card_id)}{'-back' if back else ''}.png"


def _distinct(tasks: list[FaceTask]) -> tuple[list[FaceTask], list[int]]:
    """Unique tasks and, per input task, the index of its unique task."""
    seen: dict[tuple, int] = {}
    uniq: list[FaceTask] = []
    where = []
    for t in tasks:
        k = face_id(t.plan) + (t.scale, t.size, t.bleed)
        if k not in seen:
            seen[k] = len(uniq)
            uniq.append(t)
        where.append(seen[k])
    return uniq, where


def write_pngs(game: Game, fonts: FontSet, plans, out, opts: ExportOptions,
               progress: Callable[[str, int], Callable[[], None]] | None = None) -> list[str]:
    """One PNG per physical card face under ``cards/`` (see :func:`card_file`).

    Size: ``px(trim + 2 × bleed, dpi)`` per axis (``px(trim, dpi)`` without bleed).
    """
    names: list[str] = []
    tasks: list[FaceTask] = []
    scale = opts.dpi / 72.0
    for p in plans:
        for i, (card, f, b) in enumerate(zip(p.cards, p.fronts, p.backs), 1):
            for plan, is_back in ((f, False), (b, True)):
                if plan is None or (is_back and opts.png_sides == "front") or (not is_back and opts.png_sides == "back"):
                    continue
                bl = plan.bleed if opts.bleed else 0.0
                size = (px((plan.width + 2 * bl) / MM, opts.dpi), px((plan.height + 2 * bl) / MM, opts.dpi))
                if size[0] * size[1] > MAX_FACE_PIXELS:
                    raise CardgenError(Problem(
                        game.manifest_file, None, f"components → {p.component}",
                        f"one card face at {opts.dpi:g} dpi would be {size[0]:,} × {size[1]:,} pixels, more than "
                        f"the limit of {MAX_FACE_PIXELS:,} per face", "use a lower --dpi (300 is print quality) or "
                        "a smaller card size", code="face-too-large"))
                tasks.append(FaceTask(plan, scale, size, opts.bleed, opts.dpi))
                names.append(card_file(p.component, i, card.row.id, is_back))
    uniq, where = _distinct(tasks)
    tick = progress("png", len(uniq)) if progress else None
    dests: list[list] = [[] for _ in uniq]
    for name, w in zip(names, where):
        dests[w].append(out.path(name))
    render_face_files(uniq, dests, fonts, game.root, opts.jobs, on_done=tick)
    return names


def backless_note(plans, sides: str) -> str | None:
    """For ``png --sides back|both``: which components have no back (so no ``…-back.png``), as
    one sentence, or None when every component has one. ``plans``: ComponentPlans of the game."""
    backless = [p for p in plans if p.cards and all(b is None for b in p.backs)]
    if not backless:
        return None
    names = ", ".join(f"{p.name} ({p.component})" for p in backless)
    if sides == "back" and len(backless) == len([p for p in plans if p.cards]):
        return (f"--sides back wrote no card PNGs: no component has a back ({names}); "
                "give a component a back with `back: TEMPLATE` in game.yaml")
    return f"no back PNGs for {names}: no back template (`back:` in game.yaml)"


def tts_icon_words(game: Game) -> dict[str, str]:
    """The words a TTS name or description writes for each ``:icon:`` of the card text (TTS shows
    text only): :func:`~cardgen.layout.icon_names.icon_words` from the game's icons and terms (the
    edition's terms over the game's; a non-default edition's only)."""
    ed = game.edition
    terms = dict(ed.terms) if ed is not None else {}
    if ed is None or ed.default:
        terms = {**game.manifest.terms, **terms}
    return icon_words(game.manifest.icons, terms, latin=game.language in LATIN_LANGUAGES)


def write_tts(game: Game, fonts: FontSet, plans, out, opts: ExportOptions,
              progress: Callable[[str, int], Callable[[], None]] | None = None) -> list[str]:
    """Tabletop Simulator images under ``tts/`` for each ``deck`` and ``tokens`` component — face
    sheets (10 across, 2–7 rows as the cards need, last slot = hidden card), one back image (a back
    sheet when backs differ) — and ``tts/<game>.json``, the saved object (:mod:`cardgen.layout.tts`):
    one deck per component, each card named from the manifest's ``tts`` fields. Tokens are a deck
    of square-cornered pieces at their size beside the cards (:func:`~cardgen.layout.tts.token_scale`);
    a token without a back shows its face on both sides. Images are referred to by their file://
    path, or under ``opts.tts_base_url`` when they are hosted."""
    comps = {c.id: c for c in game.manifest.components}
    decks = [p for p in plans if comps[p.component].kind in ("deck", "tokens")]
    if not decks:
        return []
    written: list[str] = []

    def url(name: str) -> str:
        if opts.tts_base_url:
            return f"{opts.tts_base_url.rstrip('/')}/{Path(name).name}"
        return (Path(out.final_dir).resolve() / name).as_uri()

    jobs: list[tuple] = []  # (deck, sheets, tasks for faces, back tasks)
    tasks: list[FaceTask] = []
    for p in decks:
        sheets = tts_sheets(len(p.fronts), p.size_mm[0], p.size_mm[1])
        cell = sheets[0].cell
        scale = max(cell[0] / (p.size_mm[0] * MM), cell[1] / (p.size_mm[1] * MM))
        mk = lambda plan: FaceTask(plan, scale, cell, False)  # noqa: E731
        start = len(tasks)
        tasks.extend(mk(f) for f in p.fronts)
        backs = [b for b in p.backs if b is not None]
        unique_backs = len({face_id(b) for b in backs}) > 1
        tasks.extend(mk(b) for b in (p.backs if unique_backs else backs[:1]))
        jobs.append((p, sheets, start, unique_backs, bool(backs)))
    uniq, where = _distinct(tasks)
    tick = progress("tts", len(uniq)) if progress else None
    data = render_faces(uniq, fonts, game.root, opts.jobs, on_done=tick)
    cells = [PILImage.open(io.BytesIO(d), formats=["PNG"]).convert("RGB") for d in data]

    def cell_img(task_index: int):
        return cells[where[task_index]]

    objects: list[dict] = []
    next_id = 1
    words = tts_icon_words(game)
    for p, sheets, start, unique_backs, has_back in jobs:
        fields = comps[p.component].tts
        token = comps[p.component].kind == "tokens"
        back_first = start + len(p.fronts)
        faces_both_sides = token and not has_back  # a one-sided token: its face up or down
        hidden = cell_img(back_first) if has_back else cell_img(start) if faces_both_sides else \
            PILImage.new("RGB", sheets[0].cell, (255, 255, 255))
        back_name = f"tts/{_safe(p.component)}-back.png"
        if not unique_backs and not faces_both_sides:
            out.path(back_name).write_bytes(png_bytes(hidden))
            written.append(back_name)
        cards: list[tuple] = []
        entries: dict[int, dict] = {}
        for sh in sheets:
            files = {}
            for side in ("face", "back") if unique_backs else ("face",):
                img = PILImage.new("RGB", sh.size, (255, 255, 255))
                for slot, deck_pos in enumerate(sh.cards):
                    src = start + deck_pos if side == "face" else back_first + deck_pos
                    img.paste(cell_img(src), sh.slot_box(slot))
                img.paste(hidden, sh.slot_box(sh.hidden_slot))
                name = f"tts/{_safe(p.component)}-{sh.number}{'' if side == 'face' else '-backs'}.png"
                out.path(name).write_bytes(png_bytes(img))
                written.append(name)
                files[side] = name
            back_url = url(files["face"]) if faces_both_sides else url(files.get("back", back_name))
            entry = custom_deck(url(files["face"]), back_url, sh, unique_backs or faces_both_sides,
                                TOKEN_TYPE if token else CARD_TYPE)
            entries[next_id] = entry
            for slot, deck_pos in enumerate(sh.cards):
                values = p.cards[deck_pos].row.values
                nick = plain_icons(str(values.get(fields.name) or p.cards[deck_pos].row.id), words)
                desc = "\n".join(plain_icons(str(values[f]), words) for f in fields.description
                                 if values.get(f) not in (None, ""))
                cards.append((card_id(next_id, slot), {str(next_id): entry}, nick, desc))
            next_id += 1
        objects.append(deck_object(p.name, cards, entries, SPACING * len(objects),
                                   token_scale(p.size_mm[0]) if token else 1.0))
    name = f"tts/{_safe(game.id)}.json"
    title = f"{game.manifest.game.title} {game.manifest.game.version}"
    out.path(name).write_text(json.dumps(saved_object(title, objects), ensure_ascii=False, indent=1) + "\n",
                              encoding="utf-8")
    written.append(name)
    return written


def write_shop(game: Game, fonts: FontSet, plans, out, opts: ExportOptions,
               progress: Callable[[str, int], Callable[[], None]] | None = None) -> list[str]:
    """One print-shop PDF per component: ``shop/<component>.pdf`` (see :mod:`cardgen.render.shop_pdf`),
    or, with a print-shop preset (``opts.preset`` or the manifest's ``print.shop``), the files that
    shop asks for (:mod:`cardgen.steps.shop`)."""
    from cardgen.render.shop_pdf import render_shop, shop_pages  # lazy: +132 ms of imports here (measured)
    from cardgen.steps.shop import resolve_preset, write_preset_shop  # lazy: +263 ms of imports here (measured)

    preset = resolve_preset(game, opts.preset)
    if preset is not None:
        return write_preset_shop(game, fonts, plans, out, opts, preset, progress)
    m = game.manifest
    images = ImageCache()
    written = []
    for p in plans:
        pages = shop_pages(p.fronts, p.backs, opts.sides)
        if not pages:
            continue
        name = f"shop/{_safe(p.component)}.pdf"
        tick = progress(f"shop {p.component}", len(pages)) if progress else None
        render_shop(out.path(name), pages, fonts, images,
                    metadata={"title": f"{m.game.title} {m.game.version} · {p.name} (print shop)",
                              "author": "cardgen", "subject": m.game.source}, on_page=tick)
        written.append(name)
    return written
