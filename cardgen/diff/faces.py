"""Laid-out card faces compared between two drafts: which cards *look* different, and which
boxes of their templates changed.

A face is compared as its plan (made by :func:`cardgen.steps.game_check.check_game`, the checks of `cardgen validate`: the drawing ops, pt),
not as its data: a template colour change alters every face of that component while no card
value changed, and a value no template shows alters none. Ops are compared as JSON (floats to
1/1000 pt, :func:`cardgen.layout.ops.to_json`); an image op and a game icon are compared by the
file's bytes (SHA-1), not by its path, so two folders holding the same art compare equal.

Changed boxes: each template element is laid out on its own for the card in both drafts
(elements are matched by ``name``, else kind and position); an element whose ops differ is a
changed box, and its box (the template's ``[x, y, w, h]`` in mm, as pt, y up) is what diff.pdf
outlines. ``background`` names the face's background colour.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.core.errors import CardgenError
from cardgen.core.units import MM
from cardgen.data.game import Game, safe_path
from cardgen.data.project import Project
from cardgen.layout.ops import CardPlan, GameIcon, Image, to_json

BACKGROUND = "background"  #: the pseudo-box for a template's background colour


@lru_cache(maxsize=256)
def _file_hash(path: str) -> str:
    try:
        return hashlib.sha1(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "missing:" + Path(path).name


def normal_ops(ops: list) -> list:
    """Ops as comparable JSON data: floats to 1/1000 pt, the files of images and of the game's own
    icons replaced by their content hash (two folders holding the same files compare equal)."""
    out = []
    for op in ops:
        data = to_json(op)
        if isinstance(op, Image):
            data["path"] = _file_hash(op.path)
        elif isinstance(op, GameIcon):
            data["file"] = _file_hash(op.file)
        out.append(data)
    return out


def signature(plan: CardPlan | None) -> str:
    """A face's look as a short hash of its normalised ops ("" for no face)."""
    if plan is None:
        return ""
    return hashlib.sha1(json.dumps(normal_ops(plan.ops), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass
class Faces:
    """The laid-out faces of one draft: per component, the plans of each card id."""

    game: Game
    fonts: Any  #: the game's FontSet
    plans: dict[str, Any] = field(default_factory=dict)  #: component id → ComponentPlans
    errors: dict[str, list[str]] = field(default_factory=dict)  #: component id → why it could not be laid out

    def front(self, cid: str, card_id: str) -> CardPlan | None:
        """The front plan of card ``card_id`` of component ``cid`` (None: no such card or plan)."""
        cp = self.plans.get(cid)
        if cp is None or card_id not in cp.fronts.keys:
            return None
        return cp.fronts.plans[cp.fronts.keys[card_id]]

    def back(self, cid: str, card_id: str) -> CardPlan | None:
        """The back plan of card ``card_id`` of component ``cid`` (None: no back, or no such card)."""
        cp = self.plans.get(cid)
        backs = getattr(cp, "backs", None) if cp is not None else None
        if backs is None or not hasattr(backs, "keys") or card_id not in backs.keys:
            return None
        return backs.plans[backs.keys[card_id]]


# ------------------------------------------------------------------ templates and boxes

def _element_keys(template) -> list[str]:
    """A stable key per element: its name (``name#2`` for a repeat), else ``kind@index``."""
    keys, seen = [], {}
    for i, el in enumerate(template.elements):
        base = el.name or f"{el.kind}@{i}"
        seen[base] = seen.get(base, 0) + 1
        keys.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return keys


def template_of(faces: Faces, cid: str, side: str):
    """The template of component ``cid``'s ``side`` ("front"/"back") in this draft, or None."""
    from cardgen.check.print_setup import find_template  # lazy: +64 ms of imports here (measured)

    game = faces.game
    comp = game.component(cid)
    name = (comp.template if side == "front" else comp.back) if comp else None
    if not name:
        return None
    idx = next(i for i, c in enumerate(game.manifest.components) if c.id == cid)
    try:
        return find_template(Project.for_game(game.root), game, name, ("components", idx, "template" if side == "front" else "back"))
    except CardgenError:
        return None


def template_changes(old, new) -> dict[str, Any]:
    """A template's changes: ``{"background": {"old", "new"}?, "added": [key], "removed": [key],
    "changed": {key: {property: {"old", "new"}}}}`` over its elements (matched by key); None
    templates compare as empty."""
    a = dict(zip(_element_keys(old), old.elements)) if old is not None else {}
    b = dict(zip(_element_keys(new), new.elements)) if new is not None else {}
    out: dict[str, Any] = {}
    bg_a, bg_b = getattr(old, "background", None), getattr(new, "background", None)
    if bg_a != bg_b:
        out["background"] = {"old": bg_a, "new": bg_b}
    out["added"] = [k for k in b if k not in a]
    out["removed"] = [k for k in a if k not in b]
    changed = {}
    for k in b:
        if k in a:
            x, y = a[k].model_dump(by_alias=True), b[k].model_dump(by_alias=True)  # compared as held (pt)
            xs, ys = a[k].model_dump(mode="json", by_alias=True), b[k].model_dump(mode="json", by_alias=True)  # shown in mm
            props = {p: {"old": xs[p], "new": ys[p]} for p in y if x.get(p) != y[p]}
            if props:
                changed[k] = props
    out["changed"] = changed
    return out


def element_box(el, frame_h: float) -> tuple[float, float, float, float]:
    """An element's box ``[x, y, w, h]`` (pt, y down from the trim's top-left) as pt, y up."""
    x, y, w, h = el.box
    return x, frame_h - y - h, w, h


class BoxPlanner:
    """Lays out each element of a component's template on its own, for one card at a time
    (the ops of one box), in one draft."""

    def __init__(self, faces: Faces, cid: str, side: str):
        from cardgen.check.print_setup import piece_size_mm  # lazy: +73 ms of imports here (measured)
        from cardgen.layout.face import Frame  # lazy: +21 ms of imports here (measured)
        from cardgen.steps.component_plans import context, table_context  # lazy: +211 ms of imports here (measured)

        game = faces.game
        self.faces, self.cid, self.side = faces, cid, side
        self.template = template_of(faces, cid, side)
        comp = game.component(cid)
        w, h = piece_size_mm(game, comp.size)
        m = game.manifest
        self.frame = Frame(w * MM, h * MM, m.print.bleed, m.print.safe, m.print.cut_tolerance)
        self.base = context(game, {}, table_context(game))
        self.rows = {r.id: r for r in game.tables.get(cid, [])}
        self.keys = _element_keys(self.template) if self.template is not None else []
        from cardgen.check.icons import icon_specs  # lazy: +164 ms of imports here (measured)
        self.icons = icon_specs(game)

    def _resolve(self, name: str) -> str:
        game = self.faces.game
        return str(safe_path(game.root, name, game.manifest_file, None, f"{self.cid} → image"))

    def boxes(self, card_id: str) -> dict[str, tuple[list, tuple[float, float, float, float]]]:
        """``{element key: (normalised ops, box pt)}`` for card ``card_id`` (``background`` too)."""
        from cardgen.layout.card import plan_card  # lazy: +89 ms of imports here (measured)

        t = self.template
        row = self.rows.get(card_id)
        if t is None or row is None:
            return {}
        ctx = {**self.base, "card": row.values}
        fonts = self.faces.fonts
        out = {}
        parts = [(BACKGROUND, t.model_copy(update={"elements": []}), (0.0, 0.0, self.frame.width, self.frame.height))]
        parts += [(k, t.model_copy(update={"elements": [el], "background": None}), element_box(el, self.frame.height))
                  for k, el in zip(self.keys, t.elements)]
        for key, part, box in parts:
            res = plan_card(part, ctx, self.frame, fonts.width, card_id, resolve_file=self._resolve,
                            exists=lambda p: Path(p).is_file(), missing_chars=fonts.missing_chars,
                            prepare=fonts.prepare, icons=self.icons)
            out[key] = (normal_ops(res.plan.ops), box)
        return out


def changed_boxes(old: dict, new: dict) -> dict[str, list]:
    """Keys of the boxes whose ops differ between two :meth:`BoxPlanner.boxes` results, in the
    new template's order then removed ones, with the boxes to outline:
    ``{"keys": [key], "old": [box pt], "new": [box pt]}``."""
    keys = [k for k in [*new, *(k for k in old if k not in new)]
            if (old.get(k) or ([], None))[0] != (new.get(k) or ([], None))[0]]
    return {"keys": keys,
            "old": [old[k][1] for k in keys if k in old and old[k][0]],
            "new": [new[k][1] for k in keys if k in new and new[k][0]]}
