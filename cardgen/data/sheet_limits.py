"""How big a spreadsheet's sheet is, read from the file's own XML before python-calamine opens it.

calamine allocates a sheet as one rectangle from its first to its last cell, and its shared
strings as one list sized from the file's header; a Rust allocation that fails aborts the whole
process (signal 6), which no ``try`` can catch. So, for ``.xlsx`` / ``.xlsm``, before calamine
sees the file: the zip's directory is read (at most :data:`MAX_PARTS` parts), the named sheet's
XML and the shared strings are unpacked as a stream and counted (at most
:data:`MAX_XML_BYTES` each, so a small zip that unpacks to gigabytes stops at the cap), the
cell references are scanned for the rectangle they span (at most :data:`MAX_CELLS` cells), and
the shared strings' declared count is read from their header (at most :data:`MAX_CELLS`).
For ``.ods`` the content part is unpacked and counted the same way, and a cell holding a value
may not be repeated past :data:`MAX_CELLS` (empty repeated rows and columns, which LibreOffice
writes for the rest of every sheet, are fine). Each refusal is one finding naming the table.
"""
from __future__ import annotations

import html
import posixpath
import re
import zipfile
from pathlib import Path

from cardgen.core.errors import CardgenError, Problem

#: Most cells (rows × columns, first to last cell) the sheet of a card table may span.
MAX_CELLS = 5_000_000
#: Most bytes one XML part of a spreadsheet (a sheet, the shared strings, an .ods content) may unpack to.
MAX_XML_BYTES = 200_000_000
#: Most parts a spreadsheet's zip may hold.
MAX_PARTS = 10_000

_CHUNK = 1 << 20
_CELL_REF = re.compile(rb'<c\b[^>]*?\sr="([A-Z]{1,3})([0-9]{1,7})"')
_SHEET = re.compile(r'<(?:\w+:)?sheet\b([^>]*)/?>')
_ATTR = re.compile(r'([\w:]+)="([^"]*)"')
_REL = re.compile(r'<(?:\w+:)?Relationship\b([^>]*)/?>')
_UNIQUE = re.compile(rb'<(?:\w+:)?sst\b[^>]*?\suniqueCount="([0-9]+)"')
_COUNT = re.compile(rb'<(?:\w+:)?sst\b[^>]*?\scount="([0-9]+)"')
_ODS_CELL = re.compile(rb'<table:table-cell\b([^>]*)>')
_ODS_REPEAT = re.compile(rb'number-columns-repeated="([0-9]+)"')


def _refuse(shown: str, message: str, hint: str = "keep the card table in a sheet of its own, only as large "
            "as the cards (or export the sheet as 'CSV UTF-8')") -> CardgenError:
    return CardgenError(Problem(shown, None, "", message, hint, code="spreadsheet-too-large"))


def _column(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _cell_name(col: int, row: int) -> str:
    letters = ""
    while col:
        col, r = divmod(col - 1, 26)
        letters = chr(65 + r) + letters
    return f"{letters}{row}"


def _small_part(z: zipfile.ZipFile, name: str, shown: str) -> str:
    """A small XML part (the workbook, its relationships), read whole up to :data:`MAX_XML_BYTES`."""
    try:
        with z.open(name) as fh:
            data = fh.read(MAX_XML_BYTES + 1)
    except KeyError:
        return ""
    if len(data) > MAX_XML_BYTES:
        raise _refuse(shown, f"the spreadsheet's {name} unpacks to more than {MAX_XML_BYTES // 10**6:,} MB")
    return data.decode("utf-8", "replace")


def _stream(z: zipfile.ZipFile, name: str, shown: str, what: str):
    """The chunks of part ``name`` as unpacked, refusing past :data:`MAX_XML_BYTES` (never
    holding more than one chunk). Each chunk carries the last 64 bytes of the one before, so
    a pattern cut at a chunk's end is found in the next."""
    total, tail = 0, b""
    with z.open(name) as fh:
        while True:
            chunk = fh.read(_CHUNK)
            if not chunk:
                return
            total += len(chunk)
            if total > MAX_XML_BYTES:
                raise _refuse(shown, f"{what} unpacks to more than {MAX_XML_BYTES // 10**6:,} MB of XML")
            yield tail + chunk
            tail = chunk[-64:]


def _part(target: str) -> str:
    """A relationship target of the workbook as a zip part name."""
    return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))


def _workbook_rels(z: zipfile.ZipFile, shown: str) -> tuple[dict[str, str], list[str]]:
    """The workbook's relationships: id → zip part, and the parts of its shared strings."""
    rels = _small_part(z, "xl/_rels/workbook.xml.rels", shown)
    targets, strings = {}, ["xl/sharedStrings.xml"]
    for m in _REL.finditer(rels):
        attrs = dict(_ATTR.findall(m.group(1)))
        if "Id" in attrs and "Target" in attrs:
            targets[attrs["Id"]] = _part(html.unescape(attrs["Target"]))
            if attrs.get("Type", "").endswith("/sharedStrings"):
                strings.append(targets[attrs["Id"]])
    return targets, list(dict.fromkeys(strings))


def _sheet_part(z: zipfile.ZipFile, sheet: str | None, shown: str, targets: dict[str, str]) -> tuple[str, str] | None:
    """(sheet name, zip part) of the sheet named ``sheet`` (the first when None), or None when
    the workbook does not say (calamine then reports what is wrong)."""
    book = _small_part(z, "xl/workbook.xml", shown)
    for m in _SHEET.finditer(book):
        attrs = dict(_ATTR.findall(m.group(1)))
        name = html.unescape(attrs.get("name", ""))
        rid = next((v for k, v in attrs.items() if k.endswith(":id")), None)
        if sheet is None or name == sheet:
            part = targets.get(rid or "")
            return (name, part) if part else None
    return None


def _check_xlsx(z: zipfile.ZipFile, sheet: str | None, shown: str) -> None:
    targets, strings = _workbook_rels(z, shown)
    found = _sheet_part(z, sheet, shown, targets)
    names = set(z.namelist())
    if found is not None and found[1] in names:
        name, part = found
        lo_row = lo_col = 1 << 30
        hi_row = hi_col = 0
        for chunk in _stream(z, part, shown, f"the sheet {name!r}"):
            for m in _CELL_REF.finditer(chunk):
                col, row = _column(m.group(1)), int(m.group(2))
                lo_row, hi_row = min(lo_row, row), max(hi_row, row)
                lo_col, hi_col = min(lo_col, col), max(hi_col, col)
        if hi_row:
            rows, cols = hi_row - lo_row + 1, hi_col - lo_col + 1
            if rows * cols > MAX_CELLS:
                raise _refuse(shown, f"the sheet {name!r} spans {_cell_name(lo_col, lo_row)}:"
                              f"{_cell_name(hi_col, hi_row)} ({rows:,} rows × {cols:,} columns), more than the "
                              f"{MAX_CELLS:,} cells a card table may span",
                              f"delete what lies far from the table (the last cell is {_cell_name(hi_col, hi_row)}), "
                              "or export the sheet as 'CSV UTF-8'")
    for part in (p for p in strings if p in names):
        first = True
        for chunk in _stream(z, part, shown, "the spreadsheet's shared strings"):
            if first:
                first = False
                for pattern in (_UNIQUE, _COUNT):
                    m = pattern.search(chunk[:4096])
                    if m and int(m.group(1)) > MAX_CELLS:
                        raise _refuse(shown, f"the spreadsheet declares {int(m.group(1)):,} shared strings, more "
                                      f"than the {MAX_CELLS:,} cells a card table may span",
                                      "save the workbook again from your spreadsheet program (its header is "
                                      "wrong), or export the sheet as 'CSV UTF-8'")


def _check_ods(z: zipfile.ZipFile, shown: str) -> None:
    if "content.xml" not in set(z.namelist()):
        return
    for chunk in _stream(z, "content.xml", shown, "the spreadsheet's content"):
        for m in _ODS_CELL.finditer(chunk):
            rep = _ODS_REPEAT.search(m.group(1))
            if rep and b"value-type=" in m.group(1) and int(rep.group(1)) > MAX_CELLS:
                raise _refuse(shown, f"the spreadsheet repeats a cell {int(rep.group(1)):,} times, more than the "
                              f"{MAX_CELLS:,} cells a card table may span")


def check_sheet_size(path: Path, shown: str, sheet: str | None) -> None:
    """Refuse a spreadsheet whose sheet ``sheet`` (the first when None) or shared strings would
    make python-calamine allocate past the limits (module doc), from the file's own XML.
    A file that is no zip is left to calamine (``.xls`` is not a zip; it says what is wrong).

    Raises:
        CardgenError: ``spreadsheet-too-large``, naming the table ``shown``.
    """
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return
    with z:
        if len(z.infolist()) > MAX_PARTS:
            raise _refuse(shown, f"the spreadsheet holds {len(z.infolist()):,} parts, more than {MAX_PARTS:,}")
        try:
            if str(path).lower().endswith(".ods"):
                _check_ods(z, shown)
            else:
                _check_xlsx(z, sheet, shown)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
            return  # a damaged part: calamine reports it
