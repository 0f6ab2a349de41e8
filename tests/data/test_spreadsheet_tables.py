"""Card tables kept as spreadsheets: 天雀牌's battle table saved as battle.xlsx (written here with
openpyxl, numbers as number cells, as Excel keeps them) gives the same print sheets and rulebook,
byte for byte, as battle.csv."""
from __future__ import annotations

import csv
import re

import pytest

from cardgen.api import build_game
from cardgen.data.card_tables import detect_delimiter
from cardgen.data.spreadsheet import cell_text, split_sheet
from tests.conftest import copy_game, needs_fonts, replace_in


def _as_xlsx(csv_path, xlsx_path, sheet: str) -> None:
    """The CSV's rows in one sheet of a new workbook (a 'notes' sheet before it); whole numbers
    become number cells (leading zeros stay text)."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.title = "notes"
    wb.active.append(["battle cards are on the next sheet"])
    ws = wb.create_sheet(sheet)
    with csv_path.open(encoding="utf-8-sig", newline="") as f:
        for row in csv.reader(f):
            ws.append([int(c) if re.fullmatch(r"-?(0|[1-9][0-9]*)", c) else c for c in row])
    wb.save(xlsx_path)


@needs_fonts
def test_battle_table_as_xlsx_gives_byte_identical_outputs(tmp_path):
    from_csv = copy_game(tmp_path / "csv")
    from_xlsx = copy_game(tmp_path / "xlsx")
    _as_xlsx(from_xlsx / "battle.csv", from_xlsx / "battle.xlsx", "battle")
    (from_xlsx / "battle.csv").unlink()
    replace_in(from_xlsx / "game.yaml", "cards: battle.csv", "cards: battle.xlsx#battle")

    a = build_game(from_csv, tmp_path / "out-csv", steps=("sheets", "rulebook"))
    b = build_game(from_xlsx, tmp_path / "out-xlsx", steps=("sheets", "rulebook"))
    for name in ("print-sheets.pdf", "rulebook.pdf"):
        left, right = (a.out_dir / name).read_bytes(), (b.out_dir / name).read_bytes()
        assert len(left) > 10_000 and left == right, name


@pytest.mark.parametrize("text, want", [
    ("id,number\nc1,1\n", ","),
    ("id;number;text\nc1;1;\"a,b\"\n", ";"),
    ("id\tnumber\tmemo\nc1\t1\ta;b,c\n", "\t"),
    ('"id;x",number\nc1,1\n', ","),  # a separator inside quotes does not count
    ("id\nc1\n", ","),
])
def test_delimiter_detected_from_the_header(text, want):
    assert detect_delimiter(text) == want


@pytest.mark.parametrize("value, want", [
    (1.0, "1"), (2, "2"), (1.5, "1.5"), (0.1, "0.1"), (True, "TRUE"), (None, ""), ("007", "007"),
])
def test_cells_read_as_a_csv_export_writes_them(value, want):
    assert cell_text(value) == want


def test_sheet_named_after_hash_only_for_spreadsheets():
    assert split_sheet("cards.xlsx#battle") == ("cards.xlsx", "battle")
    assert split_sheet("cards.ODS#表1") == ("cards.ODS", "表1")
    assert split_sheet("cards#1.csv") == ("cards#1.csv", None)
    assert split_sheet("cards.xlsx") == ("cards.xlsx", None)
