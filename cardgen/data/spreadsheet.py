"""Card tables kept as spreadsheets: ``.xlsx`` / ``.xlsm`` / ``.xls`` / ``.ods`` read directly
with python-calamine, one sheet per card table (``cards: cards.xlsx#battle``; the first sheet
when none is named).

Cells become the text a "CSV UTF-8" export of the same sheet would hold, so a table gives the
same cards whether it is kept as a spreadsheet or as CSV: whole numbers without ``.0``, other
numbers in their shortest form, TRUE/FALSE, dates as ``YYYY-MM-DD``. Cells computed by a formula
are read as the value the spreadsheet program last computed and saved. Row numbers are the
spreadsheet's (the header is row 1 when the table starts at the top).
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from python_calamine import CalamineWorkbook

from cardgen.core.budget import evaluating
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.file_limits import MAX_CSV_BYTES, read_capped
from cardgen.data.sheet_limits import check_sheet_size
from cardgen.data.xlsx_formulas import unsaved_formulas

#: File name endings read as spreadsheets (everything else is read as CSV text).
SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")


def split_sheet(name: str) -> tuple[str, str | None]:
    """``"cards.xlsx#battle"`` → ``("cards.xlsx", "battle")``; a name without ``#`` (or a CSV
    file whose name holds one) → ``(name, None)``."""
    base, sep, sheet = name.rpartition("#")
    if sep and base.lower().endswith(SPREADSHEET_SUFFIXES):
        return base, sheet
    return name, None


def is_spreadsheet(path: Path | str) -> bool:
    """True for a spreadsheet file name (:data:`SPREADSHEET_SUFFIXES`, any case)."""
    return str(path).lower().endswith(SPREADSHEET_SUFFIXES)


def cell_text(value) -> str:
    """A spreadsheet cell as the text a CSV export holds (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return str(value)


def read_sheet(path: Path, shown: str, sheet: str | None) -> list[tuple[int, list[str]]]:
    """The rows of one sheet as ``(spreadsheet row number, [cell text, …])``, from the top-left
    of the sheet (so row and column numbers match what the spreadsheet program shows).

    Raises:
        CardgenError: unreadable file, too large; an unknown sheet name (code ``unknown-sheet``,
            listing the sheets).
    """
    read_capped(path, shown, MAX_CSV_BYTES)  # the size cap, before the file is opened
    check_sheet_size(path, shown, sheet)  # calamine aborts the process on an allocation it cannot make
    try:
        with evaluating(shown):  # a reader that dies all the same is named in the budget's message
            book = CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises its own error types, and zip/xml errors
        raise CardgenError(Problem(shown, None, "", f"the spreadsheet cannot be read ({type(exc).__name__}: {exc})",
                                   "save it again from your spreadsheet program as .xlsx or .ods, or export "
                                   "the sheet as 'CSV UTF-8'", code="spreadsheet"))
    names = list(book.sheet_names)
    if sheet is None:
        if not names:
            raise CardgenError(Problem(shown, None, "", "the spreadsheet has no sheets", "", code="spreadsheet"))
        sheet = names[0]
    elif sheet not in names:
        base = Path(shown.rpartition("#")[0] or shown).name
        raise CardgenError(Problem(shown, None, "", f"{base} has no sheet named {sheet!r}; its sheets: "
                                   + ", ".join(repr(n) for n in names),
                                   f"name one of them after '#', e.g. {base}#{names[0]}" if names else "",
                                   code="unknown-sheet"))
    if str(path).lower().endswith((".xlsx", ".xlsm")):
        unsaved = unsaved_formulas(path, sheet)
        if unsaved:
            raise CardgenError([Problem(shown, row, cell, f"formula {formula[:60]}{'…' if len(formula) > 60 else ''} "
                                        "has no saved result (the file was written without the results, e.g. by a "
                                        "script)", "open and save the file in your spreadsheet app, or export the "
                                        "sheet as 'CSV UTF-8'", code="spreadsheet-formula")
                                for cell, row, formula in unsaved])
    with evaluating(shown):
        data = book.get_sheet_by_name(sheet)
        start_row, start_col = data.start or (0, 0)
        rows = data.to_python(skip_empty_area=True)
    return [(start_row + i + 1, [""] * start_col + [cell_text(v) for v in cells]) for i, cells in enumerate(rows)]
