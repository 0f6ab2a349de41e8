"""Card rows of one component: each cell typed by the component's ``fields``, ids and copies checked.

The rows come from a card table (CSV / spreadsheet) or inline in game.yaml (read by
:func:`cardgen.data.game.load_game`); every problem goes into one :class:`~cardgen.core.errors.ProblemList`.
"""
from __future__ import annotations

import difflib
import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from cardgen.core.errors import ProblemList
from cardgen.core.unicode_text import fullwidth_words, halfwidth, ime_note
from cardgen.data.loaded import RawFloat, RawInt
from cardgen.data.manifest import Component


@dataclass(slots=True)
class CardRow:
    """One row of a card table: typed values, copies, and where it was written."""

    values: dict[str, Any]
    quantity: int
    file: str
    line: int | None

    @property
    def id(self) -> str:
        """The row's ``id`` column as text ("" when the table has none)."""
        return str(self.values.get("id", ""))


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
#: Physical cards of one component cardgen accepts (rows × copies): 10 million would need gigabytes.
MAX_PIECES = 100_000
#: Longest card id (characters): it is part of the card's PNG file name (at most 255 bytes).
MAX_ID_CHARS = 60


def typed_rows(comp: Component, raw_rows: list, file: str, lines: list[int | None], numbers: list[int],
               header_line: int | None, problems: ProblemList) -> list[CardRow]:
    """The card rows of ``comp`` from ``raw_rows`` (one mapping of column → cell per row, read
    from ``file``; ``lines``: each row's line, ``numbers``: each row's number as the table shows
    it; ``header_line``: the table's header line, None for rows inline in game.yaml). A row with a
    problem (cell type, missing id or column, duplicate id, copies) is left out and the problem
    added to ``problems``; a component of more than :data:`MAX_PIECES` cards gives no rows."""
    rows: list[CardRow] = []
    ids: dict[str, int | None] = {}
    ids_as_written: set = set()
    missing_cols: set[str] = set()
    first = raw_rows[0] if raw_rows and isinstance(raw_rows[0], dict) else {}
    # the id column's header typed by an IME in full-width mode (ｉｄ): said once, not "no id" on every row
    wide_id = None if "id" in first else next((str(c) for c in first if halfwidth(str(c)).strip() == "id"), None)
    for i, raw in enumerate(raw_rows):
        line, rowno = lines[i], numbers[i]
        if not isinstance(raw, dict):
            problems.error(file, line, f"{comp.id} → row {rowno}", "a card row must be a mapping of column → value",
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
                problems.error(file, line, f"{comp.id} → row {rowno} → {col}", str(exc),
                               f"write a {'whole number' if kind == 'int' else kind} in the {col!r} column",
                               code="cell-type")
        for col, kind in comp.fields.items():
            if col not in raw:
                ok = False
                if col not in missing_cols:  # once per column, not once per row
                    missing_cols.add(col)
                    spare = [str(c) for c in raw if str(c) not in comp.fields and c not in ("id", comp.quantity)]
                    renamed = difflib.get_close_matches(col, spare, 1, 0.6)  # a header typed wrong: name both
                    wide = next((c for c in spare if halfwidth(c).strip() == col), None)  # ｎｕｍｂｅｒ from an IME
                    if wide is not None:
                        problems.error(file, header_line or line, f"{comp.id} → {col}" if header_line else
                                       f"{comp.id} → row {rowno} → {col}",
                                       f"the table's header {wide!r} is typed in {fullwidth_words(wide)}, so it is "
                                       f"not the column {col!r} declared in fields", f"retype the header half-width: "
                                       f"{col}{ime_note()}", code="missing-column")
                        continue
                    problems.error(file, header_line or line, f"{comp.id} → {col}" if header_line else
                                   f"{comp.id} → row {rowno} → {col}",
                                   f"column {renamed[0]!r} is not a field; did you mean {col!r}? {col!r} is missing"
                                   if renamed else f"the column {col!r} declared in fields is missing",
                                   (f"rename the column {renamed[0]!r} to {col!r} in the table's header, or, if {col!r} is the "
                                    f"typo, write {renamed[0]!r} in the component's `fields` in game.yaml") if renamed
                                   else f"add a {col!r} column to the table or remove it from `fields`",
                                   code="missing-column")
        rid = values.get("id")
        same = unicodedata.normalize("NFC", str(rid)) if rid else rid  # は+゛ (NFD) and ば (NFC) are one id
        if not rid and wide_id is not None:
            ok = False
            if "id" not in missing_cols:
                missing_cols.add("id")
                problems.error(file, header_line or line, f"{comp.id} → id",
                               f"the table's header {wide_id!r} is typed in {fullwidth_words(wide_id)}, so the "
                               "cards have no 'id' column", f"retype the header half-width: id{ime_note()}", code="missing-id")
        elif not rid:
            ok = False
            problems.error(file, line, f"{comp.id} → row {rowno} → id", "the card has no id",
                           "give every row a unique `id`", code="missing-id")
        elif len(str(rid)) > MAX_ID_CHARS:
            ok = False
            problems.error(file, line, f"{comp.id} → row {rowno} → id",
                           f"the id is {len(str(rid)):,} characters long, more than {MAX_ID_CHARS} (it names the "
                           "card's PNG file)", "use a short id such as b7-pon; the card's text goes in its own "
                           "column", code="long-id")
        elif same in ids:
            ok = False
            problems.error(file, line, f"{comp.id} → row {rowno} → id",
                           f"the id {rid!r} is used twice (first on line {ids[same]})"
                           + ("" if same == rid and rid in ids_as_written else
                              "; the two are written with different Unicode forms (NFC / NFD) of the same text"),
                           "give every row a unique id", code="duplicate-id")
        else:
            ids[same] = line
            ids_as_written.add(rid)
        qty = values.get(comp.quantity, 1)
        qpath = f"{comp.id} → row {rowno} → {comp.quantity}"
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
    total = sum(r.quantity for r in rows)
    if total > MAX_PIECES:
        problems.error(rows[0].file, None, f"{comp.id}", f"the table gives {total:,} cards, more than cardgen "
                       f"prints for one component ({MAX_PIECES:,})", "check the copies column; a card game has "
                       "hundreds of cards, not hundreds of thousands", code="too-many-cards")
        return []
    return rows

