"""Card specs × quantity → the ordered list of physical cards of each component."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardgen.core.errors import CardRef

from cardgen.data.card_rows import CardRow
from cardgen.data.game import Game


@dataclass(frozen=True, slots=True)
class PhysicalCard:
    """One physical card: its row, which copy it is (1-based), and a label for messages."""

    component: str
    row: CardRow
    copy: int

    @property
    def label(self) -> str:
        """``"<component> <id>"`` plus ``(copy n)`` for quantities above 1: the card's name in messages."""
        return f"{self.component} {self.row.id}" + (f" (copy {self.copy})" if self.row.quantity > 1 else "")

    def ref(self, face: Literal["front", "back"] = "front") -> CardRef:
        """The card's ``face`` as findings point at it: component, card id, and the row's file and line."""
        return CardRef(self.component, self.row.id, self.row.file, self.row.line, face)


def expand(game: Game, component: str) -> list[PhysicalCard]:
    """Physical cards of ``component`` in table order, copies of a row next to each other."""
    return [PhysicalCard(component, row, k) for row in game.tables.get(component, [])
            for k in range(1, row.quantity + 1)]


def printable_components(game: Game) -> list[str]:
    """Ids of components that have a template and a card table (in manifest order)."""
    return [c.id for c in game.manifest.components
            if c.kind not in ("not_included", "data") and c.template and game.tables.get(c.id)]
