"""Two drafts of a game compared: :func:`diff_games` loads and validates both, lays out their
faces, and assembles every difference into one JSON-ready report (``cardgen diff --format
json``) plus what diff.pdf draws.

Report shape (docs/ARCHITECTURE.md → Data shapes)::

    {"old": {"path", "game", "title", "version"}, "new": {...},
     "summary": {"added", "removed", "renamed", "changed", "faces_changed", "appearance_only"},
     "game": {field: {"old", "new"}},
     "components": [{"id", "name", "status", "settings", "columns", "added", "removed", "renamed",
                     "changed", "counts", "templates", "faces"}],
     "deck_math": [...], "validation": {...}, "design": {...}, "choices": {...},
     "rules": {"changes": [...], "problems": {"old": [...], "new": [...]}},
     "editions": [...]}   # per edition but the default: cardgen/diff/editions.py
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.core.errors import CardgenError, Problem
from cardgen.data.expand import printable_components
from cardgen.diff import manifest as mf
from cardgen.diff.faces import BoxPlanner, Faces, changed_boxes, signature, template_changes, template_of
from cardgen.diff.editions import edition_changes
from cardgen.diff.rulebook_text import diff_paragraphs, rendered_paragraphs
from cardgen.diff.tables import diff_rows


@dataclass
class FacePair:
    """One face to show old beside new in diff.pdf: boxes in pt (y up, trim-relative)."""

    component: str
    side: str  #: "front" | "back"
    old_id: str
    new_id: str
    title: str  #: e.g. "闘牌カード b3-pon" or "闘牌カード back (42 cards)"
    notes: list[str]  #: what changed, one line each
    old_boxes: list = field(default_factory=list)
    new_boxes: list = field(default_factory=list)


@dataclass
class GameDiff:
    """The report (``data``) and the faces diff.pdf draws."""

    data: dict[str, Any]
    old: Faces
    new: Faces
    old_report: Any = None  #: the old draft's validator Report (schema, deck math, design rules; no layout)
    new_report: Any = None  #: the new draft's validator Report
    pairs: list[FacePair] = field(default_factory=list)
    added: list[tuple[str, str]] = field(default_factory=list)  #: (component, card id) in the new draft
    removed: list[tuple[str, str]] = field(default_factory=list)  #: (component, card id) in the old draft


def load_draft(game_dir: Path | str, label: str, which: str,
               why: str = "so there is nothing to compare") -> tuple[Faces, Any]:
    """Every check ``cardgen validate`` makes (:func:`cardgen.steps.game_check.check_game`) and
    the laid-out faces they produced. Returns ``(faces, check)`` (a ``GameCheck``); ``which``
    ("old"/"new") and ``label`` name the draft in the error.

    Raises:
        CardgenError: the draft does not load, or its fonts cannot be loaded."""
    from cardgen.steps.game_check import check_game  # lazy: +24 ms of imports here (measured)

    chk = check_game(game_dir)
    if chk.game is None or chk.fonts is None:
        problems = chk.report.errors if chk.game is None else chk.fatal
        raise CardgenError(problems + [Problem(
            str(label), None, "", f"the {which} draft could not be read, {why}",
            f"fix the errors above in the {which} draft (or compare other revisions)", code="diff-unreadable")])
    faces = Faces(chk.game, chk.fonts, {p.component: p for p in chk.plans})
    for cid in printable_components(chk.game):
        if cid not in faces.plans:
            faces.errors[cid] = [p.format().splitlines()[0] for p in chk.fatal
                                 if cid in p.path or not p.path] or ["the component could not be laid out"]
    return faces, chk


def _value_text(v: Any) -> str:
    return "—" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def _field_notes(fields: dict) -> list[str]:
    return [f"{k}: {_value_text(c['old'])} → {_value_text(c['new'])}" for k, c in fields.items()]


def _component(old: Faces, new: Faces, entry: dict, gd: GameDiff) -> None:
    """Fill one component entry (cards, templates, faces) and the diff.pdf pairs."""
    cid = entry["id"]
    og, ng = old.game, new.game
    rows = diff_rows(og.tables.get(cid, []), ng.tables.get(cid, []))
    entry.update({k: rows[k] for k in ("columns", "added", "removed", "renamed", "changed")})
    entry["counts"] = rows["counts"]
    name = entry["name"]
    entry["templates"] = {}
    for side in ("front", "back"):
        a, b = template_of(old, cid, side), template_of(new, cid, side)
        comp_a, comp_b = og.component(cid), ng.component(cid)
        names = [getattr(c, "template" if side == "front" else "back", None) if c else None for c in (comp_a, comp_b)]
        if a is None and b is None:
            continue
        ch = template_changes(a, b)
        if names[0] != names[1] or ch.get("background") or ch["added"] or ch["removed"] or ch["changed"]:
            entry["templates"][side] = {"old": names[0], "new": names[1], **ch}
    errors = {k: v for k, v in (("old", old.errors.get(cid)), ("new", new.errors.get(cid))) if v}
    faces: dict[str, Any] = {"changed": [], "appearance_only": [], "data_only": []}
    if errors:
        faces["errors"] = errors
    entry["faces"] = faces
    gd.added += [(cid, r["id"]) for r in rows["added"]]
    gd.removed += [(cid, r["id"]) for r in rows["removed"]]
    entry["counts"]["faces_changed"] = 0
    if errors or entry["status"] in ("added", "removed"):
        return
    data_changed = {c["id"]: c["fields"] for c in rows["changed"]}
    renamed = {r["new"]: r["old"] for r in rows["renamed"]}
    planners = {(d, s): None for d in ("old", "new") for s in ("front", "back")}
    back_pairs: dict[tuple[str, str], list[str]] = {}
    for r in ng.tables.get(cid, []):
        nid = r.id
        oid = renamed.get(nid, nid)
        if oid not in {x.id for x in og.tables.get(cid, [])}:
            continue
        sides = [s for s in ("front", "back")
                 if signature(getattr(old, s)(cid, oid)) != signature(getattr(new, s)(cid, nid))]
        if not sides:
            if nid in data_changed:
                faces["data_only"].append(nid)
            continue
        item: dict[str, Any] = {"id": nid}
        if oid != nid:
            item["old_id"] = oid
        item["sides"] = sides
        item["boxes"] = {}
        for s in sides:
            for d in ("old", "new"):
                if planners[(d, s)] is None:
                    planners[(d, s)] = BoxPlanner(old if d == "old" else new, cid, s)
            boxes = changed_boxes(planners[("old", s)].boxes(oid), planners[("new", s)].boxes(nid))
            item["boxes"][s] = boxes["keys"]
            notes = _field_notes(data_changed.get(nid, {})) if s == "front" else []
            if oid != nid and s == "front":
                notes.insert(0, f"id: {oid} → {nid}")
            notes.append("changed boxes: " + (", ".join(boxes["keys"]) or "(order of drawing)"))
            if s == "front":
                gd.pairs.append(FacePair(cid, s, oid, nid, f"{name} {nid}", notes, boxes["old"], boxes["new"]))
            else:
                key = (signature(old.back(cid, oid)), signature(new.back(cid, nid)))
                if key not in back_pairs:
                    back_pairs[key] = []
                    gd.pairs.append(FacePair(cid, s, oid, nid, f"{name} back", notes, boxes["old"], boxes["new"]))
                back_pairs[key].append(nid)
        item["data"] = nid in data_changed or oid != nid
        faces["changed"].append(item)
        if not item["data"]:
            faces["appearance_only"].append(nid)
    mine = [p for p in gd.pairs if p.component == cid]
    gd.pairs[len(gd.pairs) - len(mine):] = [p for p in mine if p.side == "front"] + [p for p in mine if p.side == "back"]
    for p in mine:
        if p.side == "back":
            ids = back_pairs[(signature(old.back(cid, p.old_id)), signature(new.back(cid, p.new_id)))]
            p.title = f"{name} back ({len(ids)} card{'s' if len(ids) > 1 else ''}: " \
                      + (", ".join(ids[:4]) + (f" and {len(ids) - 4} more" if len(ids) > 4 else "")) + ")"
    entry["counts"]["faces_changed"] = len(faces["changed"])
    k = entry["counts"]
    if entry["status"] == "same" and (k["added"] or k["removed"] or k["renamed"] or k["changed"] or faces["changed"]
                                      or entry["templates"] or entry["columns"]["added"] or entry["columns"]["removed"]):
        entry["status"] = "changed"


def diff_games(old_dir: Path | str, new_dir: Path | str, old_label: str | None = None,
               new_label: str | None = None) -> GameDiff:
    """Compare two drafts of a game (two game folders; for a git revision extract it first with
    :func:`cardgen.diff.sources.game_at_revision`). ``*_label`` name the drafts in the report
    (default: the folder paths).

    Raises:
        CardgenError: a draft that cannot be loaded (its problems, and which draft it is), or
            fonts that cannot be loaded.
    """
    old_label = old_label or str(old_dir)
    new_label = new_label or str(new_dir)
    old, ochk = load_draft(old_dir, old_label, "old")
    new, nchk = load_draft(new_dir, new_label, "new")
    og, ng = old.game, new.game
    orep, nrep = ochk.merged_report(), nchk.merged_report()  # what `cardgen validate` reports
    data: dict[str, Any] = {
        "old": {"path": old_label, "game": og.id, "title": og.manifest.game.title, "version": og.manifest.game.version},
        "new": {"path": new_label, "game": ng.id, "title": ng.manifest.game.title, "version": ng.manifest.game.version},
    }
    gd = GameDiff(data, old, new, ochk.report, nchk.report)
    components = mf.component_changes(og, ng)
    for entry in components:
        _component(old, new, entry, gd)
    totals = {k: sum(c["counts"][k] for c in components) for k in ("added", "removed", "renamed", "changed")}
    totals["faces_changed"] = sum(c["counts"].get("faces_changed", 0) for c in components)
    totals["appearance_only"] = sum(len(c["faces"]["appearance_only"]) for c in components)
    old_rules, old_problems = rendered_paragraphs(og, orep)
    new_rules, new_problems = rendered_paragraphs(ng, nrep)
    data.update({
        "summary": totals,
        "game": mf.game_changes(og, ng),
        "components": components,
        "deck_math": mf.deck_math_changes(orep, nrep),
        "validation": mf.validation_changes(orep, nrep),
        "design": mf.design_changes(og, ng),
        "choices": mf.choice_changes(og, ng),
        "rules": {"changes": diff_paragraphs(old_rules, new_rules),
                  "problems": {"old": old_problems, "new": new_problems}},
    })
    editions = edition_changes(og, ng, orep, nrep)
    if editions:  # a game with editions: one entry per edition but the default
        data["editions"] = editions
    return gd
