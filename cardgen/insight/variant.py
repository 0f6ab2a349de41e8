"""A variant of a game for one side of a comparison (``cardgen simulate --compare``): changed card
values, design constants and model options, read from a small YAML file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.core.boundary import confine, inside
from cardgen.core.errors import CardgenError, Problem, did_you_mean, rel
from cardgen.data.yaml_source import load_yaml
from cardgen.insight.deck import DealtDeck, Kind


@dataclass
class Variant:
    """Changes to a game for one side of a comparison: card values, design constants, options."""

    label: str = ""
    cards: list[tuple[dict, dict]] = field(default_factory=list)  #: (where, set) on the setup deck's rows
    design: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    lines: Any = None  #: the file's :class:`cardgen.data.loaded.Source` (a line per key), or None


def _where_matches(values: dict, where: dict) -> bool:
    return all(str(values.get(k)) == str(v) for k, v in where.items())


def apply_variant(decks: list[DealtDeck], variant: Variant) -> list[DealtDeck]:
    """The decks with the variant's ``set`` values on every row its ``where`` matches."""
    out = []
    for d in decks:
        kinds = []
        for k in d.kinds:
            values = dict(k.values)
            for where, new in variant.cards:
                if _where_matches(values, where):
                    values.update(new)
            kinds.append(Kind(values, k.copies))
        out.append(DealtDeck(d.players, tuple(kinds), d.hand, d.dead_wall, d.turns))
    return out


def variant_roots(path: Path, game_dir: Path | None) -> list[Path]:
    """The folder a variant file must lie in once its links are followed: the game folder when
    ``path`` is named inside it (a file the game supplies), else the folder ``path`` is named in
    (a link there may not lead out of it either)."""
    named = Path(os.path.abspath(path))
    if game_dir is not None:
        game = Path(game_dir).resolve()
        if inside(named, Path(os.path.abspath(game_dir))) or inside(named, game):
            return [game]
    return [named.parent.resolve()]


def load_variant(path: Path, game_dir: Path | None = None) -> Variant:
    """Read a variant file (YAML: ``label``, ``cards: [{where: {...}, set: {...}}]``, ``design``,
    ``options``), safely (no tags, no aliases; :func:`cardgen.data.yaml_source.load_yaml`),
    through the file boundary (:func:`variant_roots`: a link leading out of the game folder is
    refused before the file is read).

    Raises:
        CardgenError: a path leading outside its folder, unreadable YAML or a key that is not one
            of the above, with file:line.
    """
    confine(Path(path), variant_roots(Path(path), game_dir), rel(Path(path)), None, "--compare",
            what="the variant file")
    loaded = load_yaml(Path(path), rel(Path(path)))
    data, src = loaded.data or {}, loaded.source
    problems = []

    def bad(where: tuple, message: str, hint: str) -> None:
        problems.append(Problem(src.file, src.line(where) or 1, " → ".join(str(w) for w in where) or "variant",
                                message, hint, code="insight-variant"))
    if not isinstance(data, dict):
        bad((), "a variant file is a mapping (label:, cards:, design:, options:)", "see docs/insight.md")
        raise CardgenError(problems)
    for key in data:
        if key not in ("label", "cards", "design", "options"):
            bad((key,), f"unknown key {key!r}", "allowed keys: label, cards, design, options")
    cards = []
    for i, entry in enumerate(data.get("cards") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("where"), dict) or not isinstance(entry.get("set"), dict):
            bad(("cards", i), "each entry needs `where: {column: value}` and `set: {column: value}`",
                "e.g. `- {where: {number: 2}, set: {pon: 1, chi: 0, power: 1}}`")
            continue
        cards.append((entry["where"], entry["set"]))
    for key in ("design", "options"):
        if not isinstance(data.get(key) or {}, dict):
            bad((key,), f"`{key}` must be a mapping of name → value", "e.g. `design: {tsumo_threshold: 18}`")
    if problems:
        raise CardgenError(problems)
    return Variant(str(data.get("label") or Path(path).stem), cards, dict(data.get("design") or {}),
                   dict(data.get("options") or {}), str(path), src)


def variant_problems(variant: Variant, decks: list[DealtDeck], design: dict[str, Any], read: list[str],
                     options: dict[str, int] | None = None) -> list[Problem]:
    """What in ``variant`` would change nothing, each at its line of the variant file: a design
    constant the game does not have (``design``: the manifest's) or that is not a whole number, a
    ``where`` or ``set`` column the deck lacks, a ``where`` that matches no row of the deck at any
    player count, a ``set`` column the model does not read (``read``: its kind, value, columns…),
    an option the model does not have (``options``: the model's).
    A variant built in code (no file) has none."""
    if variant.lines is None:
        return []
    src = variant.lines
    problems = []

    def bad(where: tuple, message: str, hint: str) -> None:
        problems.append(Problem(src.file, src.line(where) or 1, " → ".join(str(w) for w in where), message, hint,
                                code="insight-variant"))
    numbers = sorted(k for k, v in design.items() if isinstance(v, int))
    for key, value in variant.design.items():
        if key not in design:
            bad(("design", key), f"the game has no design constant {key!r}" + did_you_mean(str(key), numbers),
                "design constants: " + (", ".join(numbers) or "none (game.yaml has no `design:`)"))
        elif isinstance(value, bool) or not isinstance(value, int):
            bad(("design", key), f"{key} = {value!r}: the model reads whole numbers", f"e.g. `{key}: {design[key]}`")
    for key, value in variant.options.items() if options is not None else ():
        if key not in options:
            bad(("options", key), f"the model has no option {key!r}" + did_you_mean(str(key), options),
                "options: " + (", ".join(options) or "none (add `options:` to insight.model)"))
        elif not isinstance(value, int):  # true/false are ints too
            bad(("options", key), f"{key} = {value!r}: an option is a whole number or true/false",
                f"e.g. `{key}: {options[key]}`")
    rows = [k.values for d in decks for k in d.kinds]
    columns = sorted({c for r in rows for c in r})
    for i, (where, new) in enumerate(variant.cards):
        for key in where:
            if key not in columns:
                bad(("cards", i, "where", key), f"the deck has no column {key!r}" + did_you_mean(str(key), columns),
                    "columns: " + ", ".join(columns))
        if all(k in columns for k in where) and not any(_where_matches(r, where) for r in rows):
            shown = ", ".join(f"{k}: {v}" for k, v in where.items())
            seen = sorted({str(r.get(k)) for r in rows for k in list(where)[:1]}, key=lambda x: (len(x), x))
            bad(("cards", i, "where"), f"`where: {{{shown}}}` matches no card of the deck",
                f"{next(iter(where))} is one of: " + ", ".join(seen) if where else "name a column and a value")
        for key in new:
            if key not in columns:
                bad(("cards", i, "set", key), f"the deck has no column {key!r}" + did_you_mean(str(key), columns),
                    "columns: " + ", ".join(columns))
            elif key not in read:
                bad(("cards", i, "set", key), f"the model does not read the column {key!r}, so setting it changes "
                    "nothing", "the model reads: " + ", ".join(dict.fromkeys(read)) + " (add a column to "
                    "insight.model's `columns:` to read it)")
    return sorted(problems, key=lambda p: p.line)  # in the file's order
