"""Markdown as Japanese authors write it, through the rulebook, read back from the PDF with exact
values: jinja2 block tags inside a pipe table, images sized by their dpi and kept inside the
frame, hidden and AppleDouble files in rules/, characters the fonts lack, numbers in narrow
table columns."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.api import build_game, validate_game
from cardgen.cli.commands import cli
from cardgen.core.errors import CardgenError
from cardgen.core.units import MM
from tests.rulebook.rules_game import rules_game
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")


def _game(tmp_path, md: str, files: dict | None = None) -> Path:
    return rules_game(tmp_path, md, files)


def _book(tmp_path, md: str, files: dict | None = None):
    game = _game(tmp_path, md, files)
    res = build_game(game, tmp_path / "out", steps=("rulebook",))
    return res, tmp_path / "out" / "tenjanpai" / "rulebook.pdf"


def test_jinja_block_tags_alone_on_a_line_keep_a_table_whole(tmp_path):
    md = ("# 題\n\n| 人数 | 手札 |\n|---|---|\n{% for n in [3, 4] %}\n| {{ n }}人 | {{ 13 - n }}枚 |\n"
          "{% endfor %}\n\n次の段落。\n")
    _res, pdf = _book(tmp_path, md)
    with open_pdf(pdf) as doc:
        tables = doc.pages[0].extract_tables()
        text = doc.pages[0].extract_text()
    assert tables == [[["人数", "手札"], ["3人", "10枚"], ["4人", "9枚"]]]
    assert "|" not in text


def _png(w: int, h: int, dpi: int | None):
    def make(path: Path):
        im = Image.new("RGB", (w, h), (200, 80, 80))
        im.save(path, dpi=(dpi, dpi)) if dpi else im.save(path)
    return make


def _image_box_mm(pdf: Path) -> tuple[float, float]:
    with open_pdf(pdf) as doc:
        (img,) = [i for p in doc.pages for i in p.images]
        return round((img["x1"] - img["x0"]) / MM, 2), round((img["bottom"] - img["top"]) / MM, 2)


def test_an_image_is_as_wide_as_its_dpi_says(tmp_path):
    res, pdf = _book(tmp_path, "# 題\n\n![図](fig.png)\n", {"fig.png": _png(600, 300, 300)})
    assert _image_box_mm(pdf) == (50.8, 25.4)  # 600 px ÷ 300 dpi = 2 in
    assert [p for p in res.layout if p.code == "rules-image-scaled"] == []


def test_an_image_wider_than_the_frame_is_scaled_down_with_a_note(tmp_path):
    res, pdf = _book(tmp_path, "# 題\n\n本文。\n\n![図](wide.png)\n", {"wide.png": _png(3000, 300, 300)})
    assert _image_box_mm(pdf) == (120.65, 12.06)  # A5: 38 em of 9 pt (the margins about 14 mm)
    (note,) = [p for p in res.layout if p.code == "rules-image-scaled"]
    assert (note.file.endswith("rules/01.md"), note.line, note.severity) == (True, 5, "warning")
    assert note.message == ("wide.png: 254.0 × 25.4 mm (3000 × 300 px at 300 dpi) is larger than the text frame "
                            "(120.7 × 160.2 mm); scaled down to 120.7 × 12.1 mm")


def test_a_tall_image_fits_the_frame_and_the_build_succeeds(tmp_path):
    game = _game(tmp_path, "# 題\n\n![図](tall.png)\n", {"tall.png": _png(1000, 4000, None)})
    r = CliRunner().invoke(cli, ["rulebook", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    want = ("rules/01.md:3: warning: rulebook → image → tall.png: 352.8 × 1411.1 mm (1000 × 4000 px at 72 dpi)"
            " is larger than the text frame (120.7 × 160.2 mm); scaled down to 40.1 × 160.2 mm")
    assert "".join(want.split()) in "".join(r.output.split())  # the terminal may wrap the line
    assert _image_box_mm(tmp_path / "out" / "tenjanpai" / "rulebook.pdf") == (40.05, 160.2)


def test_hidden_and_appledouble_files_are_not_rules(tmp_path):
    def appledouble(path: Path):
        path.write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \xff\xfe")

    def hidden(path: Path):
        path.write_text("{{ no_such_name }}\n", encoding="utf-8")

    game = _game(tmp_path, "# 題\n\n本文です。\n", {"._01.md": appledouble, ".draft.md": hidden})
    assert validate_game(game).errors == []
    build_game(game, tmp_path / "out", steps=("rulebook",))
    with open_pdf(tmp_path / "out" / "tenjanpai" / "rulebook.pdf") as doc:
        assert "本文です。" in doc.pages[0].extract_text()


def test_characters_the_font_lacks_are_errors_with_file_and_line(tmp_path):
    game = _game(tmp_path, "# 題\n\n本文です。\n\n𠮷野家で🀄を打つ。\n")
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("rulebook",))
    got = [(p.file.rsplit("/", 1)[-1], p.line, p.message) for p in exc.value.problems]
    assert got == [("01.md", 5, "the serif font has no glyph for 𠮷 🀄 (U+20BB7, U+1F004): they would print as "
                                "empty boxes")]  # one error per line, as on cards
    assert not (tmp_path / "out" / "tenjanpai" / "rulebook.pdf").exists()
    assert [p.message for p in validate_game(game).errors if p.code == "rules-missing-glyph"] == \
        [m for _f, _l, m in got]


def test_a_number_in_a_narrow_column_shrinks_and_stays_whole(tmp_path):
    head = "|" + "|".join(f"列{i}" for i in range(1, 11)) + "|\n|" + "---|" * 10 + "\n"
    row = "|" + "|".join(["32,000"] * 10) + "|\n"
    res, pdf = _book(tmp_path, "# 題\n\n点数表。\n\n" + head + row)
    with open_pdf(pdf) as doc:
        (table,) = doc.pages[0].extract_tables()
        commas = {round(c["top"], 1) for c in doc.pages[0].chars if c["text"] == ","}
        sizes = {round(c["size"], 2) for c in doc.pages[0].chars if round(c["top"], 1) in commas}
    assert table[1] == ["32,000"] * 10  # never 32,00 / 0
    assert sizes == {7.5}  # shrunk from 8 pt, above the 6 pt floor (the 38 em frame is 0.65 mm wider than 120 mm)


def test_the_blocks_tokens_give_the_same_html_problems():
    """rulebook_blocks parses each rules file once: the tokens of parse_blocks find the same raw
    HTML as a parse of the text as written (when no line starts with an ideographic space)."""
    from pathlib import Path

    from cardgen.rulebook.checks import html_problems
    from cardgen.rulebook.markdown import keep_indent, parse_tokens

    texts = ["# 見出し\n\n<div class=\"x\">囲み</div>\n\n本文<b>太字</b>と<!-- note -->。\n",
             "| a | b |\n|---|---|\n| <i>x</i> | y |\n\n- <span>項目</span>\n",
             "<!-- pagebreak -->\n\n本文\n\n<br>\n"]
    for text in texts:
        assert keep_indent(text) == text
        found = html_problems(text, Path("rules.md"), text, parse_tokens(text))
        assert found == html_problems(text, Path("rules.md"), text) and found
