"""The dealt deck of a game per player count, as card kinds with copies (after the removals).

Pure functions over a loaded :class:`cardgen.data.game.Game`. Facts: ``setup.deck`` and
``setup.player_counts[*].remove`` of the manifest, the card table's ``count`` column.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgen.core.errors import CardgenError, Problem
from cardgen.data.game import Game


@dataclass(frozen=True)
class Kind:
    """One row of the card table that stays in the deck: its values and how many copies are used."""

    values: dict[str, Any]
    copies: int


@dataclass(frozen=True)
class DealtDeck:
    """The deck one player count plays with. ``hand``, ``dead_wall``, ``turns`` as the manifest says."""

    players: int
    kinds: tuple[Kind, ...]
    hand: int
    dead_wall: int
    turns: int | None

    @property
    def size(self) -> int:
        """Cards in the deck: copies of every kind summed."""
        return sum(k.copies for k in self.kinds)

    def grouped(self, column: str) -> dict[Any, int]:
        """Copies per value of ``column``, in first-seen table order (e.g. number → copies)."""
        out: dict[Any, int] = {}
        for k in self.kinds:
            out[k.values.get(column)] = out.get(k.values.get(column), 0) + k.copies
        return out


def _same(a: Any, b: Any) -> bool:
    return str(a) == str(b) if isinstance(a, (int, float)) != isinstance(b, (int, float)) else a == b


def dealt_decks(game: Game) -> list[DealtDeck]:
    """One :class:`DealtDeck` per player count with a hand size, in manifest order.

    A removal that matches several rows takes its copies from the row with the most copies
    first (ties: table order) — the rules name only the value (e.g. "one 3"), so this is our
    choice, documented in docs/insight.md.

    Raises:
        CardgenError: the manifest has no ``setup.deck`` (nothing is dealt).
    """
    m = game.manifest
    if m.setup is None or not m.setup.deck:
        raise CardgenError(Problem(game.source.file, game.source.line(("setup",)) or None, "setup → deck",
                                   "odds and simulation need a dealt deck, and this manifest names none",
                                   "add setup.deck (the component that is shuffled and dealt)", code="insight-no-deck"))
    rows = game.tables.get(m.setup.deck, [])
    out = []
    for pc in m.setup.player_counts:
        if pc.hand is None:
            continue
        copies = [r.quantity for r in rows]
        for rem in pc.remove:
            match = [i for i, r in enumerate(rows) if all(_same(r.values.get(k), v) for k, v in rem.where.items())]
            want = sum(copies[i] for i in match) if rem.count == "all" else rem.count
            for _ in range(want):
                live = [i for i in match if copies[i] > 0]
                if not live:
                    break
                copies[max(live, key=lambda i: (copies[i], -i))] -= 1
        kinds = tuple(Kind(dict(r.values), c) for r, c in zip(rows, copies) if c > 0)
        out.append(DealtDeck(pc.players, kinds, pc.hand, pc.dead_wall, pc.turns))
    return out
