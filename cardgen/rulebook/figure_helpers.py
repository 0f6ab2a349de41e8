"""The card-figure names of the rules text (see :mod:`cardgen.rulebook.context`):

- ``card_image(component, id, width=22, caption=None)`` / ``card_images(component, [ids], …)``:
  card faces as Markdown images (``card:`` scheme), side by side when on one line, each
  captioned (the alt text).
- ``card_row(component, cards, width=16, caption=None, title="")``: a row of cards, each an id
  or ``{'id': …, 'sideways': true, 'caption': …}`` (a card laid sideways: turned 90°, as a
  called card lies in a 河); ``title`` under the row.
- ``table_layout(component, players, rivers=[…], width=8, title="")``: the table from above
  for 3 or 4 players — 河 per seat (lists of ids or dicts, seat 1 = 起家 first), hands face
  down, the 山 and the 王牌 with their counts from the validator's deck math.

``caption``: ``None`` — the card's ``name`` column when the table has one, else its id; ``""``
— none; a column name — its value; text with ``{column}`` — filled from the card's row (only
plain names in braces, nothing else is evaluated).
Errors (unknown component, card, column, player count) are :func:`missing` errors, reported
with the rules file and line.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from cardgen.rulebook.figures import marker
from cardgen.rulebook.table_registry import RulebookData, missing

_FIELD = re.compile(r"\{(\w+)\}")


def _width(name: str, width: Any, limit: float = 300) -> float:
    try:
        width = float(width)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: width {str(width)[:20]!r} is not a number of mm") from None
    if not (0 < width <= limit):
        raise ValueError(f"{name}: width {width:g} mm is out of range (more than 0, at most {limit:g} mm)")
    return width


def figure_helpers(data: RulebookData) -> dict[str, Callable]:
    """``card_image``, ``card_images``, ``card_row`` and ``table_layout`` bound to a game's data."""

    def row_of(helper: str, component: str, card_id: Any) -> dict:
        rows = data.game.tables.get(component)
        if rows is None:
            raise missing(data, f"{helper}: no component {component!r} with a card table",
                          "name one of: " + ", ".join(data.game.tables))
        row = next((r for r in rows if r.id == str(card_id)), None)
        if row is None:
            raise missing(data, f"{helper}: no card {card_id!r} in component {component!r}",
                          "name a component id and a card id from its table")
        return dict(row.values)

    def caption_of(helper: str, component: str, values: dict, caption: Any) -> str:
        if caption is None:
            return str(values.get("name") or values.get("id", ""))
        caption = str(caption)
        if not caption:
            return ""
        if caption in values:
            return str(values[caption])
        if _FIELD.search(caption):
            def fill(m: re.Match) -> str:
                if m.group(1) not in values:
                    raise missing(data, f"{helper}: caption {caption!r} names {m.group(1)!r}, not a column of "
                                  f"{component!r}", "columns: " + ", ".join(values))
                return str(values[m.group(1)])
            return _FIELD.sub(fill, caption)
        raise missing(data, f"{helper}: caption {caption!r} is not a column of {component!r}",
                      "give a column (" + ", ".join(values) + "), text with {column}, or '' for none")

    def card_spec(helper: str, component: str, item: Any, caption: Any) -> dict:
        if isinstance(item, dict):
            unknown = set(item) - {"id", "sideways", "caption"}
            if "id" not in item or unknown:
                raise missing(data, f"{helper}: a card is an id or {{'id': …, 'sideways': true, 'caption': …}}; "
                              f"got keys {', '.join(map(str, item))}", "write each card as its id, or as a dict "
                              "with 'id' and optionally 'sideways' and 'caption'")
            values = row_of(helper, component, item["id"])
            text = str(item["caption"]) if "caption" in item else caption_of(helper, component, values, caption)
            return {"id": str(item["id"]), "sideways": bool(item.get("sideways")), "caption": text}
        values = row_of(helper, component, item)
        return {"id": str(item), "sideways": False, "caption": caption_of(helper, component, values, caption)}

    def card_image(component: str, card_id: str, width: float = 22, caption: Any = None) -> str:
        width = _width("card_image", width)
        spec = card_spec("card_image", component, card_id, caption)
        alt = spec["caption"].replace("[", "［").replace("]", "］")
        return f'![{alt}](card:{component}/{card_id} "{width:g}")'

    def card_images(component: str, card_ids, width: float = 22, caption: Any = None) -> str:
        return " ".join(card_image(component, c, width, caption) for c in card_ids)

    def card_row(component: str, cards, width: float = 16, caption: Any = None, title: str = "") -> str:
        width = _width("card_row", width)
        specs = [card_spec("card_row", component, c, caption) for c in cards]
        if not specs:
            raise missing(data, "card_row: no cards", "list at least one card id")
        return "\n" + marker({"kind": "row", "component": component, "cards": specs, "width": width,
                              "title": str(title)}) + "\n"

    def table_layout(component: str, players: int, rivers=(), width: float = 8, title: str = "") -> str:
        width = _width("table_layout", width, 30)
        counts = {pc.players: pc for pc in data.report.player_counts}
        try:
            players = int(players)
        except (TypeError, ValueError):
            players = 0
        pc = counts.get(players)
        if pc is None or players not in (3, 4):
            raise missing(data, f"table_layout: cannot draw the table for {players} players",
                          "the table is drawn for 3 or 4 players that the setup lists (its player counts: "
                          + ", ".join(str(p) for p in sorted(counts)) + ")")
        rivers = list(rivers)
        if len(rivers) > players:
            raise missing(data, f"table_layout: {len(rivers)} rivers for {players} players",
                          "give at most one 河 per seat, in turn order from the 起家")
        rivers += [[]] * (players - len(rivers))
        specs = [[card_spec("table_layout", component, c, "") for c in r] for r in rivers]
        return "\n" + marker({"kind": "table", "component": component, "players": players, "rivers": specs,
                              "hand": pc.hand, "wall": pc.draw_pile, "dead_wall": pc.dead_wall,
                              "width": width, "title": str(title)}) + "\n"

    return {"card_image": card_image, "card_images": card_images, "card_row": card_row,
            "table_layout": table_layout}
