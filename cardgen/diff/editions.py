"""Draft to draft, per edition (:mod:`cardgen.data.editions`): for every edition but the default
(whose changes are the rest of the diff), the translated texts that changed, appeared or
disappeared, its rules text as printed, and how its coverage (missing / stale / extra) moved.

Shape of one entry of ``"editions"`` in the diff report::

    {"id": "en", "language": "en", "status": "same"|"added"|"removed",
     "texts": {"changed": [{"table", "id", "field", "old", "new"}], "added": [...], "removed": [...]},
     "coverage": {"old": {"missing", "stale", "extra"}, "new": {...}},
     "rules": [{"op", "section", "old", "new"}]}
"""
from __future__ import annotations

from typing import Any

from cardgen.check.coverage import coverage, coverage_counts
from cardgen.data.editions import apply_edition, edition_ids, read_translations
from cardgen.diff.rulebook_text import diff_paragraphs, rendered_paragraphs


def _texts(game, eid: str) -> dict[tuple, str]:
    return {t.key: t.text for t in read_translations(game, eid)[0]}


def _rules(game, eid: str, report) -> list:
    return rendered_paragraphs(apply_edition(game, eid), report)[0]


def edition_changes(old, new, old_report, new_report) -> list[dict[str, Any]]:
    """One entry per edition of either draft but the default (see the module doc), in the new
    draft's order, then the editions only the old draft had. ``old``/``new``: the loaded games
    (their default editions), with their validator reports."""
    old_ids, new_ids = edition_ids(old), edition_ids(new)
    out = []
    for eid in [*new_ids[1:], *[e for e in old_ids[1:] if e not in new_ids]]:
        in_old, in_new = eid in old_ids[1:], eid in new_ids[1:]
        a = _texts(old, eid) if in_old else {}
        b = _texts(new, eid) if in_new else {}

        def item(key, **kw):
            return {"table": key[0], "id": key[1], "field": key[2], **kw}

        texts = {"changed": [item(k, old=a[k], new=b[k]) for k in b if k in a and a[k] != b[k]],
                 "added": [item(k, new=b[k]) for k in b if k not in a],
                 "removed": [item(k, old=a[k]) for k in a if k not in b]}
        game = new if in_new else old
        out.append({
            "id": eid, "language": game.manifest.editions[eid].language,
            "status": "same" if in_old and in_new else "added" if in_new else "removed",
            "texts": texts,
            "coverage": {"old": coverage_counts(coverage(old, eid)) if in_old else None,
                         "new": coverage_counts(coverage(new, eid)) if in_new else None},
            "rules": diff_paragraphs(_rules(old, eid, old_report) if in_old else [],
                                     _rules(new, eid, new_report) if in_new else []),
        })
    return out
