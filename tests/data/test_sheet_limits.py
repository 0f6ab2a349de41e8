"""Spreadsheet sizes read from the file's own XML before python-calamine allocates
(cardgen/data/sheet_limits.py): a sheet that unpacks past the byte cap, a named sheet found
through the workbook's relationships (another sheet's size does not count), an .ods cell
repeated past the cell limit; LibreOffice's empty repeated rows stay fine."""
from __future__ import annotations

import zipfile

import openpyxl
import pytest

import cardgen.data.sheet_limits as limits
from cardgen.core.errors import CardgenError
from cardgen.data.spreadsheet import read_sheet
from tests.conftest import write_xlsx


def test_a_sheet_that_unpacks_past_the_cap_is_refused_before_calamine_reads_it(tmp_path, monkeypatch):
    """The 6.7 MB xlsx of issue 28 unpacked to 1.98 GB; the cap is counted while unpacking (here lowered to 1 MB)."""
    monkeypatch.setattr(limits, "MAX_XML_BYTES", 1_000_000)
    path = write_xlsx(tmp_path / "big.xlsx", {"cards": [["id", "text"]] + [[f"c{i}", "x" * 20] for i in range(40_000)]})
    with zipfile.ZipFile(path) as z:
        assert z.getinfo("xl/worksheets/sheet1.xml").file_size > 1_000_000
    with pytest.raises(CardgenError) as err:
        read_sheet(path, "big.xlsx#cards", "cards")
    assert [p.format() for p in err.value.problems] == [
        "big.xlsx#cards: error: the sheet 'cards' unpacks to more than 1 MB of XML\n"
        "    hint: keep the card table in a sheet of its own, only as large as the cards (or export the sheet as "
        "'CSV UTF-8')"]


def test_only_the_named_sheet_counts(tmp_path):
    path = write_xlsx(tmp_path / "two.xlsx", {"notes": [["far"]], "cards": [["id", "count"], ["c1", 2]]})
    wb = openpyxl.load_workbook(path)
    wb["notes"]["XFD1048576"] = "far away"
    wb.save(path)
    assert read_sheet(path, "two.xlsx#cards", "cards") == [(1, ["id", "count"]), (2, ["c1", "2"])]
    with pytest.raises(CardgenError) as err:
        read_sheet(path, "two.xlsx#notes", "notes")
    assert "the sheet 'notes' spans A1:XFD1048576 (1,048,576 rows × 16,384 columns)" in err.value.problems[0].message


MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
            'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            '</manifest:manifest>')


def _ods(path, rows_xml: str):
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               '<office:body><office:spreadsheet><table:table table:name="cards">' + rows_xml +
               '</table:table></office:spreadsheet></office:body></office:document-content>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        z.writestr("META-INF/manifest.xml", MANIFEST, zipfile.ZIP_DEFLATED)
    return path


def _cell(v: str, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return f'<table:table-cell office:value-type="string"{rep}><text:p>{v}</text:p></table:table-cell>'


def test_ods_a_value_repeated_past_the_limit_is_refused_empty_repeats_are_fine(tmp_path):
    header = "<table:table-row>" + _cell("id") + _cell("count") + "</table:table-row>"
    row = "<table:table-row>" + _cell("c1") + _cell("2") + "</table:table-row>"
    empty = ('<table:table-row table:number-rows-repeated="1048574"><table:table-cell '
             'table:number-columns-repeated="16384"/></table:table-row>')  # what LibreOffice writes below a table
    good = _ods(tmp_path / "good.ods", header + row + empty)
    assert read_sheet(good, "good.ods", None) == [(1, ["id", "count"]), (2, ["c1", "2"])]
    bad = _ods(tmp_path / "bad.ods", header + "<table:table-row>" + _cell("x", 10_000_000) + "</table:table-row>")
    with pytest.raises(CardgenError) as err:
        read_sheet(bad, "bad.ods", None)
    assert err.value.problems[0].message == ("the spreadsheet repeats a cell 10,000,000 times, more than the "
                                             "5,000,000 cells a card table may span")
