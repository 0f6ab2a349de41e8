"""Manifest-level differences between two drafts (pure): game info, components, design
constants, open questions (``game.choices``), deck math per player count and validation
findings. Inputs are loaded :class:`cardgen.schema.Game` objects and their validator
:class:`cardgen.rules.Report`; outputs are JSON-ready dicts and lists.
"""
from __future__ import annotations

from typing import Any

from cardgen.check.deck_math import Report
from cardgen.data.game import Game

#: The deck-math columns compared per player count (cards; ``turns`` per player).
DECK_MATH = ("deck", "removed", "hand", "dead_wall", "draw_pile", "turns", "declared_turns")
#: Component settings compared (the card table itself is compared row by row).
COMPONENT_KEYS = ("name", "kind", "count", "template", "back", "size", "fields", "quantity", "note", "draft")
GAME_KEYS = ("id", "title", "subtitle", "version", "players", "source")


def changes(old: dict[str, Any], new: dict[str, Any], keys=None) -> dict[str, dict[str, Any]]:
    """``{key: {"old", "new"}}`` for every key (of ``keys``, else both dicts) whose value differs;
    a missing key reads as None."""
    keys = keys if keys is not None else list(dict.fromkeys([*old, *new]))
    return {k: {"old": old.get(k), "new": new.get(k)} for k in keys if old.get(k) != new.get(k)}


def game_changes(old: Game, new: Game) -> dict[str, dict[str, Any]]:
    """Changed ``game:`` fields (title, version, players…), choices aside."""
    return changes(old.manifest.game.model_dump(), new.manifest.game.model_dump(), GAME_KEYS)


def component_changes(old: Game, new: Game) -> list[dict[str, Any]]:
    """Per component id (new order, then removed ones): ``{"id", "name", "status"
    ("added"|"removed"|"changed"|"same" — settings only; the card comparison may turn "same"
    into "changed"), "settings": {key: {"old", "new"}}}``."""
    before = {c.id: c.model_dump(mode="json") for c in old.manifest.components}
    after = {c.id: c.model_dump(mode="json") for c in new.manifest.components}
    out = []
    for cid in [*after, *(c for c in before if c not in after)]:
        a, b = before.get(cid), after.get(cid)
        if a is None or b is None:
            out.append({"id": cid, "name": (b or a)["name"], "status": "added" if a is None else "removed",
                        "settings": {}})
            continue
        ch = changes(a, b, COMPONENT_KEYS)
        out.append({"id": cid, "name": b["name"], "status": "changed" if ch else "same", "settings": ch})
    return out


def design_changes(old: Game, new: Game) -> dict[str, Any]:
    """Design constants: ``{"added": {k: v}, "removed": {k: v}, "changed": {k: {"old", "new"}}}``."""
    a, b = dict(old.manifest.design), dict(new.manifest.design)
    return {"added": {k: v for k, v in b.items() if k not in a},
            "removed": {k: v for k, v in a.items() if k not in b},
            "changed": {k: {"old": a[k], "new": b[k]} for k in b if k in a and a[k] != b[k]}}


def _choice_text(c) -> str:
    """An open question as the diff shows it: the option in use, and 「（決定）」 once decided."""
    return c.use + ("（決定）" if c.decided else "")


def choice_changes(old: Game, new: Game) -> dict[str, list]:
    """Open questions (``game.choices``) matched by id: ``{"added": [{"what", "choice"}],
    "removed": [...], "changed": [{"what", "old", "new"}]}`` — ``what`` is 「id: question」,
    ``choice`` the option in use (「（決定）」 added once decided)."""
    a = {f"{c.id}: {c.question}": _choice_text(c) for c in old.manifest.game.choices}
    b = {f"{c.id}: {c.question}": _choice_text(c) for c in new.manifest.game.choices}
    return {"added": [{"what": w, "choice": c} for w, c in b.items() if w not in a],
            "removed": [{"what": w, "choice": c} for w, c in a.items() if w not in b],
            "changed": [{"what": w, "old": a[w], "new": c} for w, c in b.items() if w in a and a[w] != c]}


def _math(report: Report) -> dict[int, dict[str, Any]]:
    return {pc.players: {**{k: getattr(pc, k) for k in DECK_MATH}, "ok": pc.ok, "arithmetic": pc.arithmetic}
            for pc in report.player_counts}


def deck_math_changes(old: Report, new: Report) -> list[dict[str, Any]]:
    """Deck math per player count, before and after: ``[{"players", "old": {deck, removed, hand,
    dead_wall, draw_pile, turns, declared_turns, ok, arithmetic} | None, "new": {...} | None,
    "changed": [column…]}]``, ordered by player count. ``arithmetic`` is the validator's sum."""
    a, b = _math(old), _math(new)
    out = []
    for n in sorted(set(a) | set(b)):
        x, y = a.get(n), b.get(n)
        cols = [k for k in (*DECK_MATH, "ok") if (x or {}).get(k) != (y or {}).get(k)] if x and y else list(DECK_MATH)
        out.append({"players": n, "old": x, "new": y, "changed": cols})
    return out


def _finding(p) -> dict[str, Any]:
    return {"severity": p.severity, "code": p.code, "path": p.path, "message": p.message}


def validation_changes(old: Report, new: Report) -> dict[str, list]:
    """Validator findings (errors and warnings) that appeared or disappeared, compared by
    severity, code, data path and message (not by file, which differs between two folders):
    ``{"appeared": [{"severity", "code", "path", "message"}], "disappeared": [...],
    "errors": {"old": n, "new": n}, "warnings": {"old": n, "new": n}}``."""
    a = [_finding(p) for p in old.errors + old.warnings]
    b = [_finding(p) for p in new.errors + new.warnings]
    return {"appeared": [f for f in b if f not in a], "disappeared": [f for f in a if f not in b],
            "errors": {"old": len(old.errors), "new": len(new.errors)},
            "warnings": {"old": len(old.warnings), "new": len(new.warnings)}}
