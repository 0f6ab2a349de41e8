"""Reading card tables (CSV, or a spreadsheet via :mod:`cardgen.data.spreadsheet`) into rows plus
a source map (:class:`cardgen.data.loaded.Loaded`).

CSV is read as UTF-8 (with or without BOM, as Excel's "CSV UTF-8" writes) or, failing that,
CP932 (Japanese Excel's "CSV"), CRLF or LF; quoted cells may hold real line breaks. Files above
:data:`cardgen.data.file_limits.MAX_CSV_BYTES` are refused before reading.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from cardgen.core.errors import CardgenError, Problem
from cardgen.data.file_limits import MAX_CSV_BYTES, read_capped
from cardgen.data.loaded import Loaded, Source


def decode_table_bytes(raw: bytes) -> tuple[str, str]:
    """Decode a spreadsheet export. Returns ``(text, encoding)``; tries UTF-8 (BOM or not),
    then CP932 (Japanese Excel). Raises UnicodeDecodeError when neither fits."""
    try:
        return raw.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("cp932"), "cp932"


def undecodable_at(raw: bytes, encoding: str) -> tuple[int, int]:
    """``(line, byte)`` of the first byte of ``raw`` that ``encoding`` cannot decode, both
    1-based (byte counted from the start of that line); ``(0, 0)`` when it all decodes."""
    try:
        raw.decode(encoding)
    except UnicodeDecodeError as exc:
        pos = exc.start
        return raw.count(b"\n", 0, pos) + 1, pos - (raw.rfind(b"\n", 0, pos) + 1) + 1
    return 0, 0


def _line_start(raw: bytes, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = raw.index(b"\n", pos) + 1
    return pos


def load_table(path: Path, shown: str | None = None, sheet: str | None = None) -> Loaded:
    """Read a card table: a spreadsheet (:mod:`cardgen.data.spreadsheet`; ``sheet`` picks one by
    name) or CSV text (:func:`load_csv`). Same result shape as :func:`load_csv`; for a
    spreadsheet the "lines" are its row numbers and the file is shown as ``cards.xlsx#sheet``."""
    from cardgen.data.spreadsheet import is_spreadsheet, read_sheet  # lazy: +5 ms of imports here (measured)

    file = shown or str(path)
    if not is_spreadsheet(path):
        return load_csv(path, file)
    shown_file = f"{file}#{sheet}" if sheet else file
    records = [(n, n, cells) for n, cells in read_sheet(path, shown_file, sheet)]
    return _table(records, shown_file, None, [])


#: Cell separators :func:`load_csv` recognises, in order of preference on a tie.
DELIMITERS = (",", ";", "\t")
_DELIMITER_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs"}


def detect_delimiter(text: str) -> str:
    """The cell separator of CSV ``text``: the one of ``,`` ``;`` tab that appears most often
    outside quotes in the header line (comma when none does)."""
    counts = dict.fromkeys(DELIMITERS, 0)
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
        elif not quoted and ch in "\r\n":
            break
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def _workbook_kind(raw: bytes) -> str | None:
    """The file name ending of a spreadsheet workbook by its first bytes (``".xlsx"``, ``".ods"``,
    ``".xls"``), or None for anything else. Both .xlsx and .ods are zip files (signature
    ``PK\\x03\\x04``); an .ods stores its media type first, uncompressed (OpenDocument 1.2,
    part 3, section 3.3); .xls is an OLE2 compound file (signature ``D0 CF 11 E0 A1 B1 1A E1``)."""
    if raw.startswith(b"PK\x03\x04"):
        return ".ods" if b"opendocument.spreadsheet" in raw[:120] else ".xlsx"
    if raw.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return ".xls"
    return None


def load_csv(path: Path, shown: str | None = None) -> Loaded:
    """Read a card table kept as CSV text (separated by commas, semicolons or tabs, detected
    from the header line).

    Returns:
        :class:`Loaded` whose data is a list of row dicts (column → cell text, stripped of
        surrounding spaces). The source maps ``(row_index,)`` to the row's first physical line
        (also the line of each of its cells: ``source.line((row_index, column))`` finds it; one
        entry a row, not one a cell, keeps a 4,000-row table's map small), ``("row", row_index)`` to its row number as a spreadsheet
        shows it (header = row 1, blank rows counted), and ``("header",)`` to line 1.
        Columns without a name whose cells are all empty (as spreadsheets export trailing
        columns) and rows whose cells are all empty are left out.

    Raises:
        CardgenError: unreadable, undecodable, no header, duplicate column names, a column
            without a name that holds text, rows with more cells than the header.
    """
    file = shown or str(path)
    raw = read_capped(path, file, MAX_CSV_BYTES)
    workbook = _workbook_kind(raw)
    if workbook:
        stem = Path(file).stem
        raise CardgenError(Problem(
            file, None, "", f"the file is a spreadsheet workbook ({workbook}) with a CSV name, not CSV text",
            f"rename it to {stem}{workbook} and write that name in game.yaml (cardgen reads {workbook} files "
            "directly), or export the sheet from your spreadsheet as 'CSV UTF-8'", code="spreadsheet"))
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CardgenError(Problem(file, None, "", "the file is UTF-16 text (Excel's 'Unicode Text'), not CSV",
                                   "export it from your spreadsheet as 'CSV UTF-8'", code="encoding"))
    try:
        text, _enc = decode_table_bytes(raw)
    except UnicodeDecodeError:
        line, col = undecodable_at(raw, "utf-8")
        cp_line, cp_col = undecodable_at(raw, "cp932")
        mixed = f"; as CP932 it breaks at line {cp_line}, byte {cp_col}" if cp_line != line else ""
        raise CardgenError(Problem(
            file, line, "", f"the file is neither UTF-8 nor Shift_JIS (CP932) text: byte {col} of line {line} "
            f"(0x{raw[_line_start(raw, line) + col - 1]:02X}) is not UTF-8{mixed}",
            "part of the file was probably pasted or saved in another encoding: retype that line, or export "
            "the whole table from your spreadsheet as 'CSV UTF-8'", code="encoding"))
    if "\x00" in text:
        at = text.index("\x00")
        raise CardgenError(Problem(file, text.count("\n", 0, at) + 1, "", "the row holds a NUL character "
                                   "(byte 0x00): the file is not plain text", "export it from your spreadsheet "
                                   "as 'CSV UTF-8', or delete the invisible character", code="csv-syntax"))
    delimiter = detect_delimiter(text)
    # strict: a quoted cell that is never closed is an error instead of swallowing the rest
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    records: list[tuple[int, int, list[str]]] = []  # (first physical line, row number, cells)
    problems: list[Problem] = []
    line = 1
    try:
        for cells in reader:
            records.append((line, len(records) + 1, cells))
            line = reader.line_num + 1
    except csv.Error as exc:
        problems.append(_csv_problem(file, line, exc))
    if not records and problems:
        raise CardgenError(problems)
    return _table(records, file, delimiter, problems)


def _table(records: list[tuple[int, int, list[str]]], file: str, delimiter: str | None,
           tail: list[Problem]) -> Loaded:
    """Rows of ``(line, row number, cells)`` → :class:`Loaded` (the first is the header);
    ``tail``: problems met while reading, reported after those of the rows."""
    if not records:
        raise CardgenError(Problem(file, 1, "", "the table is empty", "add a header row naming the columns",
                                   code="csv-empty"))
    header_line, _n, header = records[0]
    header = [h.strip() for h in header]
    body = records[1:]
    width = max([len(header)] + [len(c) for _l, _n, c in body])
    used = [any(i < len(c) and c[i].strip() for _l, _n, c in body) for i in range(width)]
    sep = f" (cells read as separated by {_DELIMITER_NAMES[delimiter]})" if delimiter else ""
    seen: set[str] = set()
    head: list[Problem] = []
    for i, h in enumerate(header):
        if not h and used[i]:
            head.append(Problem(file, header_line, f"column {_column_name(i)}",
                                       "a column has no name but holds values" + sep,
                                       "give every column a name in the first row, or delete the column",
                                       code="csv-header"))
        elif h and h in seen:
            head.append(Problem(file, header_line, h, f"the column {h!r} appears twice",
                                       "rename or remove one", code="csv-header"))
        seen.add(h)
    src = Source(file)
    src.lines[("header",)] = header_line
    rows: list[dict[str, str]] = []
    problems = head  # header problems first, then the rows', then ``tail``
    for start, number, cells in body:
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
            problems.append(Problem(file, start, f"row {number}",
                                    f"the row has {len(cells)} cells but the header names {len(header)} columns{sep}",
                                    "add a column name or remove the extra cells (a comma inside text needs quotes)",
                                    code="csv-width"))
        row = {h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header) if h}
        idx = len(rows)
        src.lines[(idx,)] = start
        src.lines[("row", idx)] = number  # a cell's line is its row's: Source.line((idx, column)) finds (idx,)
        rows.append(row)
    problems += tail
    if problems:
        raise CardgenError(problems)
    return Loaded(rows, src)


def _column_name(i: int) -> str:
    """Column ``i`` (0-based) as a spreadsheet names it, with its number: ``C (3)``."""
    letters, n = "", i + 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return f"{letters} ({i + 1})"


def _csv_problem(file: str, line: int, exc: csv.Error) -> Problem:
    """A csv module error as a designer-readable problem at the row that starts on ``line``."""
    msg = str(exc)
    if "end of data" in msg or "unexpected end" in msg:
        return Problem(file, line, "", 'a quoted cell in this row is never closed (the file ends inside quotes)',
                       'add the closing " — a cell holding a comma or a line break is wrapped in quotes '
                       "at both ends", code="csv-syntax")
    if "expected after" in msg:
        return Problem(file, line, "", 'text follows the closing quote of a cell',
                       'wrap the whole cell in quotes and double any quote inside it ("")', code="csv-syntax")
    if "NUL" in msg:
        return Problem(file, line, "", "the row holds a NUL character (the file is not plain text)",
                       "export it from your spreadsheet as 'CSV UTF-8'", code="csv-syntax")
    if "field limit" in msg:
        return Problem(file, line, "", f"a cell holds more than {csv.field_size_limit():,} characters",
                       "card text is a few hundred characters; check for a quote that is never closed, "
                       "or move long text out of the table", code="csv-syntax")
    return Problem(file, line, "", f"CSV error: {msg}", "check the quotes on this line", code="csv-syntax")
