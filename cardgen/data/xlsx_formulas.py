"""Formulas of an ``.xlsx`` / ``.xlsm`` sheet that have no saved result.

A spreadsheet program stores each formula's last result beside it (``<f>…</f><v>…</v>``); a file
written by a script (openpyxl, many exporters) stores the formula alone, and every reader —
python-calamine included — then sees an empty cell. :func:`unsaved_formulas` finds those cells,
so the message can name the formula instead of "the cell is empty". The workbook's XML parts are
read with the standard library's parser (no entities are expanded by it), at most
:data:`MAX_PART_BYTES` of each.
"""
from __future__ import annotations

import posixpath
import re
import zipfile
import xml.etree.ElementTree as ET
from pathlib import Path

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CELL = re.compile(r"^([A-Z]{1,3})([0-9]{1,7})$")

#: The most bytes of one XML part read (uncompressed); a larger part is not searched.
MAX_PART_BYTES = 64 * 1024 * 1024


def _part(z: zipfile.ZipFile, name: str) -> bytes | None:
    try:
        info = z.getinfo(name)
    except KeyError:
        return None
    if info.file_size > MAX_PART_BYTES:
        return None
    with z.open(info) as f:
        data = f.read(MAX_PART_BYTES + 1)
    return data if len(data) <= MAX_PART_BYTES else None


def _sheet_part(z: zipfile.ZipFile, sheet: str | None) -> str | None:
    """The zip member of the sheet named ``sheet`` (None: the first)."""
    book, rels = _part(z, "xl/workbook.xml"), _part(z, "xl/_rels/workbook.xml.rels")
    if book is None or rels is None:
        return None
    sheets = ET.fromstring(book).find(f"{_MAIN}sheets")
    if sheets is None:
        return None
    rid = next((s.get(f"{_REL}id") for s in sheets if sheet is None or s.get("name") == sheet), None)
    target = next((r.get("Target") for r in ET.fromstring(rels) if r.get("Id") == rid), None)
    if not target:
        return None
    return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))


def unsaved_formulas(path: Path, sheet: str | None) -> list[tuple[str, int, str]]:
    """``(cell, row, formula)`` for each formula cell of ``sheet`` (None: the first) with no
    saved result, in sheet order; ``[]`` for a file that is not a readable workbook."""
    try:
        with zipfile.ZipFile(path) as z:
            member = _sheet_part(z, sheet)
            data = _part(z, member) if member else None
    except (OSError, zipfile.BadZipFile, ET.ParseError, ValueError):
        return []
    if data is None:
        return []
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return []
    found, shared = [], {}
    for c in root.iter(f"{_MAIN}c"):
        f = c.find(f"{_MAIN}f")
        if f is None:
            continue
        text = f.text or ""
        if f.get("t") == "shared" and f.get("si") is not None:
            text = shared.setdefault(f.get("si"), text) if text else shared.get(f.get("si"), "")
        v = c.find(f"{_MAIN}v")
        m = _CELL.match(c.get("r") or "")
        if (v is None or not (v.text or "")) and c.get("t") != "inlineStr" and m:
            found.append((m.group(0), int(m.group(2)), "=" + text))
    return found
