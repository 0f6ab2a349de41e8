"""Game folder → typed :class:`Game`, with every schema problem found in one run.

A game folder holds ``game.yaml`` (the manifest, :class:`cardgen.model.Manifest`) and the card
tables it names (CSV or inline). Problems carry ``file:line`` from :mod:`cardgen.load`.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from cardgen.errors import CardgenError, Problem, ProblemList, rel
from cardgen.load import Loaded, RawFloat, RawInt, Source, load_csv, load_yaml
from cardgen.model import Component, Manifest

MANIFEST = "game.yaml"


@dataclass
class CardRow:
    """One row of a card table: typed values, copies, and where it was written."""

    values: dict[str, Any]
    quantity: int
    file: str
    line: int | None

    @property
    def id(self) -> str:
        return str(self.values.get("id", ""))


@dataclass
class Game:
    """A loaded, schema-checked game.

    Attributes:
        root: the game folder.
        manifest: the typed manifest.
        source: line map of game.yaml.
        tables: component id → its card rows (empty for components without a table).
        problems: warnings found while loading (errors are raised).
    """

    root: Path
    manifest: Manifest
    source: Source
    tables: dict[str, list[CardRow]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.manifest.game.id

    @property
    def manifest_file(self) -> str:
        return self.source.file

    def component(self, cid: str) -> Component | None:
        return next((c for c in self.manifest.components if c.id == cid), None)

    def line(self, *path) -> int | None:
        return self.source.line(tuple(path))


def _loc_path(loc: tuple) -> tuple:
    return tuple(loc)


def _fields_of(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names allowed at ``loc`` (for did-you-mean), walking the model."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        f = current.model_fields.get(part)
        if f is None:
            return list(current.model_fields)
        current = _model_in(f.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _model_in(annotation: Any) -> Any:
    args = getattr(annotation, "__args__", None)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for a in args or ():
        m = _model_in(a)
        if m is not None:
            return m
    return None


def display_path(loc: tuple, data: Any = None) -> str:
    """A data path for messages: list positions are named by the item's ``id``, ``name`` or
    ``players`` where it has one (``components → battle → count``, ``player_counts → 3 players``)."""
    parts = []
    node = data
    for part in loc:
        label = str(part)
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            item = node[part]
            if isinstance(item, dict):
                for key in ("id", "name"):
                    if isinstance(item.get(key), str) and item[key]:
                        label = item[key]
                        break
                else:
                    if isinstance(item.get("players"), int) and not isinstance(item.get("players"), bool):
                        label = f"{item['players']} players"
                    else:
                        label = f"item {part + 1}"
            else:
                label = f"item {part + 1}"
            node = item
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            node = None
        parts.append(label)
    return " → ".join(parts)


#: Plain-words messages and fixes for pydantic's error types: type → (message, hint).
_TYPE_WORDS = {
    "int_parsing": ("expected a whole number", "write digits, e.g. 42"),
    "int_type": ("expected a whole number", "write digits, e.g. 42"),
    "int_from_float": ("expected a whole number, not a fraction", "write a whole number, e.g. 42"),
    "float_parsing": ("expected a number", "write a number, e.g. 3 or 2.5"),
    "float_type": ("expected a number", "write a number, e.g. 3 or 2.5"),
    "bool_parsing": ("expected true or false", "write true or false"),
    "bool_type": ("expected true or false", "write true or false"),
    "string_type": ("expected text", "write the text (quote it if it looks like a number or a list)"),
    "list_type": ("expected a list", "write a list: [a, b] or one `- item` per line"),
    "dict_type": ("expected a mapping of keys", "write `key: value` lines indented under this key"),
    "model_type": ("expected a mapping of keys", "write `key: value` lines indented under this key"),
    "model_attributes_type": ("expected a mapping of keys", "write `key: value` lines indented under this key"),
    "too_short": ("the list is empty", "add at least one item"),
}


def _problems_from_validation(exc: ValidationError, model: type[BaseModel], src: Source,
                              data: Any = None) -> list[Problem]:
    out = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        path = display_path(loc, data)
        line = src.line(loc)
        kind = err["type"]
        hint = ""
        if kind == "extra_forbidden":
            key = str(loc[-1])
            allowed = _fields_of(model, loc[:-1])
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            msg = f"unknown key {key!r}"
            if close:
                msg += f"; did you mean {close[0]!r}?"
            hint = "allowed keys here: " + ", ".join(allowed) if allowed else "remove the key"
            code = "unknown-key"
        elif kind == "missing":
            msg = "this key is required but missing"
            parent = _fields_of(model, loc[:-1])
            hint = f"add `{loc[-1]}:`" + (f" (keys here: {', '.join(parent)})" if parent else "")
            code = "missing-key"
        elif kind == "string_pattern_mismatch" and loc and loc[-1] == "id":
            msg = f"an id may hold only lowercase a–z, 0–9, '-' and '_' (got {err.get('input')!r})"
            hint = "e.g. `battle` or `power-tokens`; the printed name goes in `name:`"
            code = "bad-id"
        else:
            got = f" (got {err['input']!r})" if "input" in err and not isinstance(err["input"], (dict, list)) else ""
            ctx = err.get("ctx") or {}
            field_info = _field_info(model, loc)
            about = field_info.description if field_info is not None and field_info.description else ""
            if kind in _TYPE_WORDS:
                msg, hint = _TYPE_WORDS[kind]
                msg += got
                hint = f"{hint}. {about}" if about else hint
            elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
                word = {"greater_than_equal": "at least", "greater_than": "more than",
                        "less_than_equal": "at most", "less_than": "less than"}[kind]
                bound = next(iter(ctx.values()), "?")
                msg, hint = f"must be {word} {bound}{got}", about
            elif kind == "literal_error":
                expected = str(ctx.get("expected", ""))
                options = [o.strip(" '") for o in expected.replace(" or ", ",").split(",") if o.strip(" '")]
                close = difflib.get_close_matches(str(err.get("input")), options, n=1)
                msg = f"must be one of {expected}{got}" + (f"; did you mean {close[0]!r}?" if close else "")
                hint = about
            else:
                msg, hint = err["msg"] + got, about
            code = kind
        out.append(Problem(src.file, line, path, msg, hint, code=code))
    return out


def _field_info(model: type[BaseModel], loc: tuple):
    current: Any = model
    info = None
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return info
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _model_in(info.annotation)
    return info


def safe_path(root: Path, name: str, file: str, line: int | None, path: str) -> Path:
    """``root / name``, refusing anything that leaves ``root`` (``../``, absolute, symlinks out).

    Raises:
        CardgenError: naming ``file:line`` and ``path``.
    """
    candidate = Path(name)
    if candidate.is_absolute() or ".." in candidate.parts:
        raise CardgenError(Problem(file, line, path, f"the path {name!r} leaves the game folder",
                                   "name a file inside the game folder, relative to it", code="path-escape"))
    full = root / candidate
    try:
        resolved = full.resolve()
        resolved.relative_to(root.resolve())
    except ValueError:
        raise CardgenError(Problem(file, line, path, f"the path {name!r} leads outside the game folder (a link?)",
                                   "copy the file into the game folder instead of linking to it",
                                   code="path-escape"))
    return full


_BOOL = {"true": True, "yes": True, "1": True, "y": True, "○": True, "false": False, "no": False, "0": False,
         "n": False, "": False, "×": False}


_NUMBER = {"int": (int, "whole numbers", "a whole number"), "float": (float, "numbers", "a number")}


def _convert(value: Any, kind: str) -> Any:
    """Convert a cell to ``kind``. Raises ValueError with a human message."""
    if kind == "text":
        if isinstance(value, (RawInt, RawFloat)):
            return value.raw
        return "" if value is None else str(value) if not isinstance(value, bool) else str(value).lower()
    if isinstance(value, str):
        v = value.strip()
        if kind in _NUMBER:
            parse, plural, one = _NUMBER[kind]
            if v == "":
                raise ValueError(f"the cell is empty but the column holds {plural}")
            try:
                return parse(v.translate(_FULLWIDTH_DIGITS))
            except ValueError:
                raise ValueError(f"{value!r} is not {one}")
        if kind == "bool":
            key = v.lower()
            if key in _BOOL:
                return _BOOL[key]
            raise ValueError(f"{value!r} is not true/false")
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or int(value) != value:
            raise ValueError(f"{value!r} is not a whole number")
        return int(value)
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{value!r} is not a number")
        return float(value)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise ValueError(f"{value!r} is not true/false")
    return value  # pragma: no cover


_FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９－．", "0123456789-.")


#: Copies of one row cardgen accepts (a typo like 40000 would otherwise lay out 40,000 cards).
MAX_COPIES = 10_000


def _load_table(game_root: Path, comp: Component, index: int, msrc: Source, problems: ProblemList) -> list[CardRow]:
    if comp.cards is None:
        return []
    if isinstance(comp.cards, str):
        line = msrc.line(("components", index, "cards"))
        try:
            path = safe_path(game_root, comp.cards, msrc.file, line, f"components → {comp.id} → cards")
            if not path.is_file():
                raise CardgenError(Problem(msrc.file, line, f"components → {comp.id} → cards",
                                           f"the card table {comp.cards!r} does not exist",
                                           f"create {rel(path)} or fix the file name", code="missing-file"))
            loaded: Loaded = load_csv(path, rel(path))
        except CardgenError as exc:
            for p in exc.problems:
                problems.add(p)
            return []
        raw_rows, src = loaded.data, loaded.source
        lines = [src.line((i,)) for i in range(len(raw_rows))]
        file = src.file
    else:
        raw_rows = comp.cards
        file = msrc.file
        lines = [msrc.line(("components", index, "cards", i)) for i in range(len(raw_rows))]
    rows: list[CardRow] = []
    ids: dict[str, int | None] = {}
    missing_cols: set[str] = set()
    header_line = 1 if isinstance(comp.cards, str) else None
    for i, raw in enumerate(raw_rows):
        line = lines[i]
        if not isinstance(raw, dict):
            problems.error(file, line, f"{comp.id} → row {i + 1}", "a card row must be a mapping of column → value",
                           code="row-type")
            continue
        values: dict[str, Any] = {}
        ok = True
        for col, value in raw.items():
            kind = comp.fields.get(str(col), "text")
            if col == comp.quantity and col not in comp.fields:
                kind = "int"
            try:
                values[str(col)] = _convert(value, kind)
            except ValueError as exc:
                ok = False
                problems.error(file, line, f"{comp.id} → row {i + 1} → {col}", str(exc),
                               f"write a {'whole number' if kind == 'int' else kind} in the {col!r} column",
                               code="cell-type")
        for col, kind in comp.fields.items():
            if col not in raw:
                ok = False
                if col not in missing_cols:  # once per column, not once per row
                    missing_cols.add(col)
                    problems.error(file, header_line or line, f"{comp.id} → {col}" if header_line else
                                   f"{comp.id} → row {i + 1} → {col}",
                                   f"the column {col!r} declared in fields is missing",
                                   f"add a {col!r} column to the table or remove it from `fields`",
                                   code="missing-column")
        rid = values.get("id")
        if not rid:
            ok = False
            problems.error(file, line, f"{comp.id} → row {i + 1} → id", "the card has no id",
                           "give every row a unique `id`", code="missing-id")
        elif rid in ids:
            ok = False
            problems.error(file, line, f"{comp.id} → row {i + 1} → id",
                           f"the id {rid!r} is used twice (first on line {ids[rid]})",
                           "give every row a unique id", code="duplicate-id")
        else:
            ids[rid] = line
        qty = values.get(comp.quantity, 1)
        qpath = f"{comp.id} → row {i + 1} → {comp.quantity}"
        if comp.quantity in values and (isinstance(qty, bool) or not isinstance(qty, int)):
            if not (isinstance(qty, float) and qty.is_integer()):
                ok = False
                problems.error(file, line, qpath, f"the number of copies must be a whole number (got {qty!r})",
                               f"write a whole number in the {comp.quantity!r} column", code="bad-count")
            else:
                qty = int(qty)
        if isinstance(qty, int) and not isinstance(qty, bool) and qty < 1:
            ok = False
            problems.error(file, line, qpath, f"the number of copies must be 1 or more (got {qty})",
                           "delete the row to leave the card out", code="bad-count")
        elif isinstance(qty, int) and qty > MAX_COPIES:
            ok = False
            problems.error(file, line, qpath, f"{qty} copies of one card is more than cardgen prints ({MAX_COPIES})",
                           "check the number; split the card over several rows if you really need more",
                           code="bad-count")
        if ok:
            rows.append(CardRow(values, int(qty), file, line))
    return rows


def load_game(game_dir: Path | str) -> Game:
    """Load and schema-check a game folder.

    Returns:
        :class:`Game` (warnings in ``problems``).

    Raises:
        CardgenError: every schema problem of the manifest and its card tables, at once.
    """
    root = Path(game_dir)
    manifest_path = root / MANIFEST
    if not root.is_dir():
        raise CardgenError(Problem(str(root), None, "", "no such game folder",
                                   "name a folder holding a game.yaml, e.g. card_data/tenjanpai", code="no-game"))
    if not manifest_path.is_file():
        raise CardgenError(Problem(rel(manifest_path), None, "", "the game folder has no game.yaml",
                                   "create game.yaml (start from `cardgen new`)", code="no-manifest"))
    loaded = load_yaml(manifest_path, rel(manifest_path))
    if loaded.data in ({}, None):
        raise CardgenError(Problem(loaded.source.file, 1, "", "the manifest is empty",
                                   "a manifest needs at least `game:` and `components:`", code="manifest-empty"))
    if not isinstance(loaded.data, dict):
        raise CardgenError(Problem(loaded.source.file, 1, "", "the manifest must be a mapping of keys (game:, components:, …)",
                                   code="manifest-type"))
    try:
        manifest = Manifest.model_validate(loaded.data)
    except ValidationError as exc:
        raise CardgenError(_problems_from_validation(exc, Manifest, loaded.source, loaded.data))
    problems = ProblemList()
    src = loaded.source
    _check_references(manifest, src, problems)
    tables = {}
    for i, comp in enumerate(manifest.components):
        tables[comp.id] = _load_table(root, comp, i, src, problems)
    problems.raise_if_errors()
    return Game(root, manifest, src, tables, problems.items)


def _check_references(m: Manifest, src: Source, problems: ProblemList) -> None:
    ids = [c.id for c in m.components]
    seen: dict[str, int] = {}
    for i, c in enumerate(m.components):
        if c.id in seen:
            problems.error(src.file, src.line(("components", i, "id")), f"components → {i} → id",
                           f"the component id {c.id!r} is used twice", "give each component its own id",
                           code="duplicate-id")
        seen[c.id] = i
        if c.kind != "not_included" and c.kind in ("deck", "tokens", "tiles") and c.template is None and c.cards is not None:
            problems.error(src.file, src.line(("components", i)), f"components → {c.id} → template",
                           "a printed component needs a face template", "add `template: NAME` (templates/cards/NAME.yaml)",
                           code="missing-template")

    def ref(cid: str, path: tuple, label: str) -> None:
        if cid not in ids:
            close = difflib.get_close_matches(cid, ids, n=1)
            problems.error(src.file, src.line(path), " → ".join(map(str, path)),
                           f"no component has the id {cid!r}" + (f"; did you mean {close[0]!r}?" if close else ""),
                           f"{label} must name one of: {', '.join(ids)}", code="unknown-component")

    if m.setup:
        if m.setup.deck is not None:
            ref(m.setup.deck, ("setup", "deck"), "setup.deck")
        counts = [pc.players for pc in m.setup.player_counts]
        for n in m.game.players:
            if not 1 <= n <= 12:  # PlayerCount.players' range: the setup entry could not be written
                problems.error(src.file, src.line(("game", "players")), "game → players",
                               f"{n} players is out of range: player counts run from 1 to 12",
                               "list the player counts the game supports, e.g. `players: [3, 4]`",
                               code="player-count-range")
            elif n not in counts:
                problems.error(src.file, src.line(("game", "players")), "game → players",
                               f"{n} players is supported but setup has no entry for it",
                               f"add a `- players: {n}` entry under setup → player_counts", code="missing-setup")
        for i, pc in enumerate(m.setup.player_counts):
            if pc.players not in m.game.players:
                problems.error(src.file, src.line(("setup", "player_counts", i, "players")),
                               f"setup → player_counts → {i} → players",
                               f"setup for {pc.players} players, but game.players is {m.game.players}",
                               "add the count to game.players or remove this entry", code="unknown-player-count")
            if pc.players in counts[:i]:
                problems.error(src.file, src.line(("setup", "player_counts", i, "players")),
                               f"setup → player_counts → {i} → players",
                               f"a second setup entry for {pc.players} players", "keep one", code="duplicate-setup")
    for i, r in enumerate(m.design_rules):
        ref(r.deck, ("design_rules", i, "deck"), "design_rules.deck")
