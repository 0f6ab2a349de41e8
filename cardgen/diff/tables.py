"""Card tables compared row by row (pure): rows matched by ``id``; a removed id and an added id
whose other values are all the same are a rename.

Shapes (JSON-ready, values as the table typed them: ``int``, ``bool``, ``str``…)::

    {"columns": {"added": [...], "removed": [...]},
     "added":   [{"id", "values": {column: value}}],
     "removed": [{"id", "values": {...}}],
     "renamed": [{"old": id, "new": id}],
     "changed": [{"id", "fields": {column: {"old": v, "new": v}}}],
     "counts":  {"added", "removed", "renamed", "changed", "unchanged",
                 "pieces": {"old": n, "new": n}}}

Values compare as typed, except that the same text under another column type is the same
(:func:`same_value`). A column that is not in a table reads as ``None`` (so a column added to the table shows as
``None → value`` on every row that has a value).
"""
from __future__ import annotations

import json
from typing import Any

from cardgen.data.card_rows import CardRow


def _content(values: dict[str, Any]) -> tuple:
    """A row's values without its id, as a hashable signature (JSON text of each value)."""
    return tuple(sorted((k, json.dumps(v, sort_keys=True, default=str)) for k, v in values.items()
                        if k != "id" and v is not None))


def same_value(a: Any, b: Any) -> bool:
    """Equal values, or the same text typed under another column type (``1`` as int and as text):
    a type change is a change of the component's ``fields``, reported there, not on every card."""
    return a == b or (a is not None and b is not None and str(a).lower() == str(b).lower()
                      and isinstance(a, bool) == isinstance(b, bool))


def _columns(rows: list[CardRow]) -> list[str]:
    seen: dict[str, None] = {}
    for r in rows:
        for k in r.values:
            seen.setdefault(k, None)
    return list(seen)


def diff_rows(old: list[CardRow], new: list[CardRow]) -> dict[str, Any]:
    """Compare the rows of one component's card table in two drafts (shape in the module doc).
    Added, removed and renamed rows keep the new table's order (removed: the old table's)."""
    old_by = {r.id: r for r in old}
    new_by = {r.id: r for r in new}
    old_cols, new_cols = _columns(old), _columns(new)
    gone = [r for r in old if r.id not in new_by]
    came = [r for r in new if r.id not in old_by]
    # a rename: same content under another id; pair equal contents in table order
    pool: dict[tuple, list[CardRow]] = {}
    for r in gone:
        pool.setdefault(_content(r.values), []).append(r)
    renamed, added = [], []
    for r in came:
        twins = pool.get(_content(r.values))
        if twins:
            renamed.append({"old": twins.pop(0).id, "new": r.id})
        else:
            added.append({"id": r.id, "values": dict(r.values)})
    renamed_old = {x["old"] for x in renamed}
    removed = [{"id": r.id, "values": dict(r.values)} for r in gone if r.id not in renamed_old]
    changed = []
    unchanged = 0
    for r in new:
        before = old_by.get(r.id)
        if before is None:
            continue
        keys = list(dict.fromkeys([*before.values, *r.values]))
        fields = {k: {"old": before.values.get(k), "new": r.values.get(k)} for k in keys
                  if k != "id" and not same_value(before.values.get(k), r.values.get(k))}
        if fields:
            changed.append({"id": r.id, "fields": fields})
        else:
            unchanged += 1
    return {
        "columns": {"added": [c for c in new_cols if c not in old_cols],
                    "removed": [c for c in old_cols if c not in new_cols]},
        "added": added,
        "removed": removed,
        "renamed": renamed,
        "changed": changed,
        "counts": {"added": len(added), "removed": len(removed), "renamed": len(renamed),
                   "changed": len(changed), "unchanged": unchanged,
                   "pieces": {"old": sum(r.quantity for r in old), "new": sum(r.quantity for r in new)}},
    }
