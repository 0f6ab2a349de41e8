"""A small game built from plain dicts, for unit tests that need *a* game, not 天雀牌.

:func:`write_game` turns the dicts below (a copy, with the test's changes merged in) into a game
folder: ``game.yaml`` and the templates as YAML, the card table as CSV, the rules as Markdown. A
test changes exactly what it is about, by key, instead of editing a bundled game's text::

    game = write_game(tmp_path, manifest={"game": {"players": [3, 4, 0]}})

The bundled games (card_data/) stay the end-to-end fixtures. The deck: 12 cards, numbers 1–4 with
three copies each.
"""
from __future__ import annotations

import copy
import csv
import io
from pathlib import Path
from typing import Any

import yaml

#: game.yaml. Deck math (players × (hand + turns) + dead wall = deck, 12 cards): 3 × (3 + 1) + 0 for
#: three players, 4 × (2 + 1) + 0 for four.
MANIFEST: dict[str, Any] = {
    "game": {"id": "mini", "title": "ミニ", "version": "test", "players": [3, 4], "source": "tests/minigame.py"},
    "print": {"card_size": "poker", "bleed": 3, "safe": 3},
    "components": [{
        "id": "cards", "name": "カード", "kind": "deck", "count": 12, "cards": "cards.csv",
        "fields": {"number": "int", "name": "text"}, "template": "card", "back": "card_back",
    }],
    "setup": {"deck": "cards", "player_counts": [
        {"players": 3, "hand": 3, "dead_wall": 0, "turns": 1},
        {"players": 4, "hand": 2, "dead_wall": 0, "turns": 1},
    ]},
    "design": {"highest": 4},
    "design_rules": [{"id": "number-range", "description": "数字は1から design.highest まで", "deck": "cards",
                      "check": "1 <= card.number <= design.highest"}],
}

#: cards.csv rows (``count`` = copies).
CARDS: list[dict[str, Any]] = [{"id": f"n{n}", "number": n, "name": f"カード{n}", "count": 3} for n in range(1, 5)]

#: templates/cards/card.yaml (boxes in mm from the trim's top-left, y down).
FACE: dict[str, Any] = {
    "description": "A numbered card.",
    "background": "#ffffff",
    "elements": [
        {"kind": "rect", "name": "frame", "box": [3.5, 3.5, 56, 81], "stroke": "#000000", "stroke_width": 1},
        {"kind": "text", "name": "number", "box": [6, 6, 51, 30], "text": "{{ card.number }}", "font": "number",
         "size": 48, "align": "center", "valign": "middle"},
        {"kind": "text", "name": "name", "box": [6, 60, 51, 10], "text": "{{ card.name }}", "font": "body",
         "size": 10, "min_size": 6, "align": "center"},
    ],
}

#: templates/cards/card_back.yaml.
BACK: dict[str, Any] = {
    "description": "Card back.",
    "background": "#23395b",
    "elements": [{"kind": "text", "name": "title", "box": [6, 34, 51, 20], "text": "{{ game.title }}",
                  "font": "heading", "size": 24, "min_size": 12, "align": "center", "valign": "middle",
                  "color": "#ffffff"}],
}

#: rules/*.md (file name → text).
RULES: dict[str, str] = {
    "01_rules.md": "# ミニ\n\n## 内容物\n\n{{ component_table }}\n\n## 準備\n\n{{ setup_table }}\n",
}


def merged(base: Any, change: Any) -> Any:
    """``base`` with ``change`` merged in: dicts key by key (recursively), anything else replaced.

    A value of ``None`` in ``change`` deletes the key. Neither argument is modified."""
    if isinstance(base, dict) and isinstance(change, dict):
        out = copy.deepcopy(base)
        for key, value in change.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = merged(base.get(key), value)
        return out
    return copy.deepcopy(change)


def _csv(rows: list[dict[str, Any]]) -> str:
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_game(dest: Path, *, manifest: dict | None = None, cards: list[dict] | None = None,
               face: dict | None = None, back: dict | None = None, rules: dict[str, str] | None = None,
               name: str = "mini") -> Path:
    """Write the mini game into ``dest/name`` and return that folder.

    ``manifest``, ``face`` and ``back`` are merged into :data:`MANIFEST`, :data:`FACE` and :data:`BACK`
    (see :func:`merged`; lists are replaced whole); ``cards`` and ``rules`` replace :data:`CARDS` and
    :data:`RULES`. The templates live in the game folder (``templates/cards/``), so the game needs no
    project around it.
    """
    root = dest / name
    files = {
        "game.yaml": yaml.safe_dump(merged(MANIFEST, manifest or {}), allow_unicode=True, sort_keys=False),
        "cards.csv": _csv(CARDS if cards is None else cards),
        "templates/cards/card.yaml": yaml.safe_dump(merged(FACE, face or {}), allow_unicode=True, sort_keys=False),
        "templates/cards/card_back.yaml": yaml.safe_dump(merged(BACK, back or {}), allow_unicode=True,
                                                         sort_keys=False),
        **{f"rules/{k}": v for k, v in (RULES if rules is None else rules).items()},
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of ``path`` that holds ``needle`` (fails when none does)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [i for i, ln in enumerate(lines, 1) if needle in ln]
    assert found, f"{needle!r} not in {path}"
    return found[0]
