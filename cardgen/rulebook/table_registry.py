"""The rulebook's generated tables: what a builder reads (:class:`RulebookData`), the registry
(:data:`TABLES`, ``@table("name")``) and the Markdown helpers builders share. The builders
themselves live in :mod:`cardgen.rulebook.tables`; :mod:`cardgen.rulebook.context` offers them to
the rules text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from cardgen.check.deck_math import Report
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.game import Game

#: Unit printed after a component count, by component kind.
UNITS = {"deck": "枚", "tokens": "個", "tiles": "枚", "strips": "本", "reference": "枚", "not_included": ""}


@dataclass
class RulebookData:
    """What table builders read: the game, the validator's report, and the rules folder."""

    game: Game
    report: Report

    @property
    def manifest(self):
        """The game's manifest (game.yaml, validated)."""
        return self.game.manifest

    @property
    def design(self) -> dict[str, Any]:
        """The manifest's ``design`` values as a plain dict."""
        return dict(self.game.manifest.design)

    def rows(self, cid: str) -> list[dict[str, Any]]:
        """Card rows of component ``cid`` as dicts (columns + ``count`` copies)."""
        return [{**r.values, "count": r.quantity} for r in self.game.tables.get(cid, [])]

    def count(self, cid: str) -> int | None:
        """Physical pieces of ``cid``: the table's total, else the declared count."""
        c = self.game.component(cid)
        if c is None:
            return None
        rows = self.game.tables.get(cid)
        return sum(r.quantity for r in rows) if rows else c.count


TableBuilder = Callable[[RulebookData], str]
#: Registered table builders: name → function returning Markdown.
TABLES: dict[str, TableBuilder] = {}


def table(name: str) -> Callable[[TableBuilder], TableBuilder]:
    """Decorator: register a table builder under ``name`` (the name used in the rules text)."""
    def deco(fn: TableBuilder) -> TableBuilder:
        TABLES[name] = fn
        return fn
    return deco


def missing(data: RulebookData, what: str, hint: str) -> CardgenError:
    """The error a builder raises when the manifest lacks what it needs."""
    return CardgenError(Problem(data.game.manifest_file, None, "rulebook", what, hint, code="rulebook-data"))


def md_escape(value: Any) -> str:
    """A value as text safe inside a Markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def md_table(head: list[str], rows: list[list[Any]], align: list[str] | None = None) -> str:
    """A pipe table. ``align``: per column ``l``, ``c`` or ``r`` (default centred numbers)."""
    align = align or ["l"] + ["c"] * (len(head) - 1)
    marks = {"l": ":--", "c": ":-:", "r": "--:"}
    lines = ["| " + " | ".join(md_escape(h) for h in head) + " |",
             "|" + "|".join(marks[a] for a in align) + "|"]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
