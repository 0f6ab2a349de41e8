"""Faces keyed by their inputs, so a live preview lays out and rasterises only what a save touched.

A face's *input key* hashes what its layout reads: the card row's values, the template (its
file, lines and every setting), the manifest's ``game`` and ``design`` sections, the other
card tables when the template mentions ``tables``, the edition's words and language (``terms``,
``edition``, a bilingual face's ``also``), the card frame (trim, bleed, safe area, pt), the card
reference findings point at (component, id, row file and line, face) and the font set the face
is measured with (each role's file, its size and modification time; an edition may name other
fonts). Images a face draws are checked after the
fact: their size and modification time are stored with the face and a change lays it out again.

:class:`FaceCache` is handed to :func:`cardgen.steps.component_plans.plan_component` as its ``plan``
function: a hit returns the stored :class:`cardgen.layout.card.LayoutResult` (plan and
findings), a miss calls :func:`cardgen.layout.card.plan_card`. The *raster key* of a face hashes
its laid-out ops (and the fonts and images), so an edit that changes a value the face does not
show rasterises nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from cardgen.core import disk_cache
from cardgen.layout.card import LayoutResult, plan_card
from cardgen.layout.ops import GameIcon, Image


def _sha(data: Any) -> str:
    return hashlib.sha1(json.dumps(data, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def _stat(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return disk_cache.stamp(st)


def _ref_fields(card) -> tuple:
    """A card reference (:class:`cardgen.core.errors.CardRef`, or a plain label) as a plain tuple
    (its dataclass repr is slow; 2,000 faces ask for it on every rebuild)."""
    if isinstance(card, str):
        return (card,)
    return (card.component, card.card_id, card.file, card.line, card.face)


def font_key(fonts) -> str:
    """Identity of a :class:`cardgen.fonts.fontset.FontSet`: each role's font file with its size
    and modification time (a font saved again lays every face out again)."""
    parts = []
    for role in fonts.roles():
        src = str(fonts.path(role))
        parts.append((role, fonts.name(role), src, _stat(src)))
    return _sha(parts)


@dataclass
class Entry:
    """One laid-out face: the layout result, the images it draws with their ``(size, mtime)``,
    and its raster key."""

    result: LayoutResult
    images: dict[str, tuple[int, int] | None]
    raster: str

    def fresh(self) -> bool:
        """True while every image the face draws is unchanged on disk."""
        return all(_stat(p) == s for p, s in self.images.items())


@dataclass
class FaceCache:
    """Layout results by input key (see the module doc). ``entries`` persists between rebuilds;
    ``added`` holds the keys laid out since :meth:`start` (what a budgeted child sends back);
    ``used`` the keys the current rebuild asked for (the rest can be dropped)."""

    entries: dict[str, Entry] = field(default_factory=dict)
    added: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)
    by_ref: dict = field(default_factory=dict)  #: (edition id, CardRef) → input key, this rebuild (:meth:`shown`)
    hits: int = 0
    misses: int = 0
    _fonts: str = ""
    _game: str = ""
    _tables: str = ""
    _templates: dict[int, tuple[object, str, bool]] = field(default_factory=dict)
    _font_keys: dict[int, tuple[object, str]] = field(default_factory=dict)  #: id(FontSet) → (it, font_key), this rebuild
    _kept: set[str] = field(default_factory=set)  #: ``added`` carried over the next :meth:`start` (:meth:`keep_added`)

    def start(self, game, fonts) -> None:
        """Begin a rebuild of ``game`` (a loaded :class:`cardgen.data.game.Game`) with ``fonts``."""
        m = game.manifest
        self._fonts = font_key(fonts)
        self._game = _sha([m.game.model_dump(mode="json"), dict(m.design),
                           {n: d.model_dump(mode="json") for n, d in m.icons.items()}])  # the game's own icons
        self._tables = _sha({cid: [dict(r.values) for r in rows] for cid, rows in game.tables.items()})
        self._templates = {}
        self._font_keys = {id(fonts): (fonts, self._fonts)}
        self.added, self.used, self.by_ref, self.hits, self.misses = self._kept, set(), {}, 0, 0
        self._kept = set()

    def keep_added(self) -> None:
        """Count what this rebuild laid out so far as laid out by the next :meth:`start` too: the
        live preview lays out the faces shown first, then checks the game, which starts again
        (:func:`cardgen.preview.snapshot.shown_faces`)."""
        self._kept = set(self.added)

    def _template(self, template) -> tuple[str, bool]:
        got = self._templates.get(id(template))
        if got is None or got[0] is not template:
            text = template.model_dump_json()
            file, lines = template.source(0)[0], [template.source(i)[1] for i in range(len(template.elements) + 1)]
            # the content by Template.digest (lengths as held, pt), not the JSON dump (mm rounded to 1/1000)
            got = self._templates[id(template)] = (template, _sha([file, lines, template.digest()]), "tables" in text)
        return got[1], got[2]

    def _font_key(self, measure) -> str:
        """The :func:`font_key` of the font set ``measure`` (its ``width``) belongs to: the game's,
        or an edition's own fonts (checked through the same cache, :func:`cardgen.steps.game_check.check_game`)."""
        fonts = getattr(measure, "__self__", None)
        if fonts is None:
            return self._fonts
        got = self._font_keys.get(id(fonts))
        if got is None or got[0] is not fonts:
            got = self._font_keys[id(fonts)] = (fonts, font_key(fonts))
        return got[1]

    def key(self, template, ctx: dict, frame, card, fonts: str | None = None) -> str:
        """The input key of one face (hex); ``fonts``: the :func:`font_key` it is measured with
        (default: the game's, from :meth:`start`)."""
        tkey, uses_tables = self._template(template)
        values = ctx.get("card") or {}
        edition = (ctx.get("edition") or {}, ctx.get("terms") or {}, ctx.get("also") or {})
        return hashlib.sha1(repr((tkey, tuple(values.items()), self._game, self._tables if uses_tables else "",
                                  _sha(edition), fonts or self._fonts,
                                  (frame.width, frame.height, frame.bleed, frame.safe, frame.cut_tolerance),
                                  _ref_fields(card))).encode()).hexdigest()

    def shown(self, edition: str, card) -> str | None:
        """The input key of face ``card`` (a :class:`cardgen.core.errors.CardRef`) laid out for
        edition ``edition`` (its id; ``""`` for a game without editions) in this rebuild. A check
        lays out every edition's faces of the same cards; the page shows the edition asked for."""
        return self.by_ref.get((edition, card))

    def __call__(self, template, ctx, frame, measure, card, **kw) -> LayoutResult:
        """Same arguments and result as :func:`cardgen.layout.card.plan_card`, from the cache when
        the inputs are unchanged."""
        fonts = self._font_key(measure)
        key = self.key(template, ctx, frame, card, fonts)
        self.used.add(key)
        self.by_ref[((ctx.get("edition") or {}).get("id", ""), card)] = key
        hit = self.entries.get(key)
        if hit is not None and hit.fresh():
            self.hits += 1
            return hit.result
        self.misses += 1
        res = plan_card(template, ctx, frame, measure, card, **kw)
        images = {p: _stat(p) for p in (op.path if isinstance(op, Image) else op.file for op in res.plan.ops
                                         if isinstance(op, (Image, GameIcon)))}  # art and icon files
        raster = _sha([repr(res.plan.ops), res.plan.width, res.plan.height, res.plan.bleed, fonts,
                       sorted(images.items())])
        self.entries[key] = Entry(res, images, raster)
        self.added.add(key)
        return res

    def raster_key(self, key: str) -> str:
        """The raster key of the face with input key ``key``."""
        return self.entries[key].raster

    def new_entries(self) -> dict[str, Entry]:
        """The entries laid out since :meth:`start` (a budgeted child returns these to the parent)."""
        return {k: self.entries[k] for k in self.added}

    def merge(self, entries: dict[str, Entry], keep: set[str] | None = None) -> None:
        """Add ``entries`` (from a child); with ``keep``, drop every entry not in it (faces no card shows any more)."""
        self.entries.update(entries)
        if keep is not None:
            for k in [k for k in self.entries if k not in keep]:
                del self.entries[k]
