"""The bad-input corpus (tests/fixtures/bad/, see its README): every case gives its exact
message text, the right exit code, no traceback, and leaves a previous output untouched."""
from __future__ import annotations

import os
import shutil
import struct
import zlib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli.commands import cli

CORPUS = Path(__file__).parents[1] / "fixtures" / "bad"
# 336 commands run in-process, each in a build child forked from here: the fonts of _base and the
# build's modules are loaded once, here, not again in every child (tests/conftest.warm_build_parent)
pytestmark = pytest.mark.usefixtures("warm_build_parent")
BASE = CORPUS / "_base"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and not p.name.startswith("_"))
META = {"expected.txt", "case.yaml"}


# --- generators: inputs that must not live in git -----------------------------------------

def _symlink_out(game: Path, tmp: Path) -> None:
    """cards.csv is a symlink to a table outside the game folder."""
    outside = tmp / "outside.csv"
    outside.write_text("id,number,text,count\nx1,1,secret,6\n", encoding="utf-8")
    (game / "cards.csv").unlink()
    (game / "cards.csv").symlink_to(outside)


def _manifest_symlink_out(game: Path, tmp: Path) -> None:
    """game.yaml is a symlink to a manifest outside the game folder (its key names must not be echoed)."""
    outside = tmp / "outside.yaml"
    outside.write_text((game / "game.yaml").read_text(encoding="utf-8") + "secret_key_name: 1\n", encoding="utf-8")
    (game / "game.yaml").unlink()
    (game / "game.yaml").symlink_to(outside)


def _variant_symlink_out(game: Path, tmp: Path) -> None:
    """variants/x.yaml (for --compare) is a symlink to a YAML file outside the game folder."""
    outside = tmp / "secret.yaml"
    outside.write_text("password: hunter2-SECRET\n", encoding="utf-8")
    (game / "variants").mkdir(exist_ok=True)
    (game / "variants" / "x.yaml").symlink_to(outside)


def _git_symlink_out(game: Path, tmp: Path) -> None:
    """The game is its own git repository, and its committed cards.csv is a link to a table outside it."""
    from tests.conftest import git

    _symlink_out(game, tmp)
    git(game, "init", "-q", "-b", "main")
    git(game, "add", "-A")
    git(game, "commit", "-q", "-m", "a link")


def _font_million_faces(game: Path, tmp: Path) -> None:
    """fonts/many.ttc: a collection header claiming 1,000,000 faces (4 MB of offsets, all to one
    place), named by game.yaml's fonts: (fontTools read every face, warning about each)."""
    n = 1_000_000
    (game / "fonts" / "many.ttc").write_bytes(b"ttcf" + struct.pack(">HHI", 1, 0, n) + struct.pack(">I", 12 + 4 * n) * n
                                              + b"\0" * 64)
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("fonts:\n  heading: IPAexGothic\n  body: {file: fonts/many.ttc, index: 0}\n")


def _markdown_brackets(game: Path, tmp: Path) -> None:
    """rules/rules.md: a heading, then 200 KB of unclosed link brackets '[a](' (markdown-it takes
    seconds per 10 KB of them; the case lowers the budget to 0.5 s)."""
    (game / "rules").mkdir(exist_ok=True)
    (game / "rules" / "rules.md").write_text("# 規則\n\n" + "[a](" * 50_000 + "\n", encoding="utf-8")


def _rules_long_table(game: Path, tmp: Path) -> None:
    """rules/01.md: a heading and a paragraph; rules/02.md: three tables of 1,000 rows × 4 columns
    each (the most rows a rulebook table may have: parsed in ~0.1 s, but laid out over ~90 pages
    in ~4 s of CPU time, four times the case's layout budget of 1 s, which stops it, naming 02.md
    and not 01.md; one such table, ~0.8 s since a paragraph's lines are found once per width, sat
    at the budget's edge)."""
    (game / "rules").mkdir(exist_ok=True)
    (game / "rules" / "01.md").write_text("# 規則\n\n手番には1枚引く。\n", encoding="utf-8")
    rows = "".join(f"| 行{r} | あ{r} | い{r} | う{r} |\n" for r in range(1000))
    table = "| 番号 | 甲 | 乙 | 丙 |\n|---|---|---|---|\n" + rows
    (game / "rules" / "02.md").write_text("## 一覧\n\n" + "\n\n".join([table] * 3), encoding="utf-8")


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _bomb_png(game: Path, tmp: Path) -> None:
    """art/bomb.png: a valid PNG header claiming 100,000 × 100,000 pixels (10 gigapixels)."""
    (game / "art").mkdir(exist_ok=True)
    ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    data = (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(b"\x00" * 1024)) + _png_chunk(b"IEND", b""))
    (game / "art" / "bomb.png").write_bytes(data)


def _huge_cell(game: Path, tmp: Path) -> None:
    """cards.csv: one cell of 200,000 characters (more than the csv module's cell limit)."""
    with (game / "cards.csv").open("a", encoding="utf-8") as f:
        f.write("c3,3," + "あ" * 200_000 + ",1\n")


def _huge_csv(game: Path, tmp: Path) -> None:
    """cards.csv: 21 MB (more than the 20 MB a card table may have), written sparse-free but fast."""
    with (game / "cards.csv").open("a", encoding="utf-8") as f:
        f.write(("c9,9," + "x" * 1000 + ",1\n") * 21_000)


def _template_symlink_out(game: Path, tmp: Path) -> None:
    """templates/cards/card.yaml is a symlink to a template outside the game folder."""
    outside = tmp / "outside.yaml"
    outside.write_text("elements: [{kind: text, name: t, box: [6, 6, 50, 20], text: SECRET, font: body}]\n",
                       encoding="utf-8")
    (game / "templates" / "cards" / "card.yaml").unlink()
    (game / "templates" / "cards" / "card.yaml").symlink_to(outside)


def _fonts_config_symlink_out(game: Path, tmp: Path) -> None:
    """fonts/fonts.yaml (the game is its own project) is a symlink to a YAML file outside the game folder."""
    outside = tmp / "secret.yaml"
    outside.write_text("password: hunter2-SECRET\n", encoding="utf-8")
    (game / "fonts" / "fonts.yaml").unlink()
    (game / "fonts" / "fonts.yaml").symlink_to(outside)


def _fonts_config_fifo(game: Path, tmp: Path) -> None:
    """fonts/fonts.yaml is a named pipe (reading it would block; it must not be skipped either)."""
    (game / "fonts" / "fonts.yaml").unlink()
    os.mkfifo(game / "fonts" / "fonts.yaml")


def _manifest_fifo(game: Path, tmp: Path) -> None:
    """game.yaml is a named pipe (it is there, but is no file to read)."""
    (game / "game.yaml").unlink()
    os.mkfifo(game / "game.yaml")


def _font_fifo(game: Path, tmp: Path) -> None:
    """Named pipes with a font's name: fonts/pipe.ttf, named by game.yaml's fonts: (refused), and
    art/other.otf in the game folder the fonts: section makes cardgen scan (skipped). Opening
    either would block for ever."""
    (game / "art").mkdir(exist_ok=True)
    os.mkfifo(game / "fonts" / "pipe.ttf")
    os.mkfifo(game / "art" / "other.otf")
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("fonts:\n  heading: IPAexGothic\n  body: {file: fonts/pipe.ttf}\n")


def _rules_symlink_out(game: Path, tmp: Path) -> None:
    """rules/02.md is a symlink to a Markdown file outside the game folder."""
    outside = tmp / "outside.md"
    outside.write_text("# SECRET\n", encoding="utf-8")
    (game / "rules").mkdir(exist_ok=True)
    (game / "rules" / "01.md").write_text("# 遊び方\n", encoding="utf-8")
    (game / "rules" / "02.md").symlink_to(outside)


def _xlsx_with_cached_formulas(path: Path, sheets: dict[str, list[list]], cached: dict[str, str]) -> None:
    """Write an .xlsx with openpyxl, then store each formula's value (``cached``: formula → value)
    as a spreadsheet program does when it saves (openpyxl itself writes formulas without values)."""
    import re
    import zipfile

    from tests.conftest import write_xlsx

    write_xlsx(path, sheets)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    for name, data in parts.items():
        if name.startswith("xl/worksheets/"):
            text = data.decode("utf-8")
            for formula, value in cached.items():
                # openpyxl writes an empty value as <v/> (stdlib XML) or <v></v> (with lxml installed)
                text = re.sub(rf"<f>{re.escape(formula[1:])}</f>(<v\s*/>|<v></v>)", f"<f>{formula[1:]}</f><v>{value}</v>",
                              text)
            parts[name] = text.encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _xlsx_battle(game: Path, tmp: Path) -> None:
    """cards.xlsx: a 'notes' sheet first, then 'battle' with the base cards; number and count of
    c1 are formulas (=0+1, =1+1) saved with their values; an empty row between the cards."""
    _xlsx_with_cached_formulas(game / "cards.xlsx", {
        "notes": [["メモ"], ["this sheet is not a card table"]],
        "battle": [["id", "number", "text", "count"], ["c1", "=0+1", "ポン、チー", "=1+1"], [],
                   ["c2", 2, "チーを1個得る。", 4]],
    }, {"=0+1": "1", "=1+1": "2"})
    (game / "cards.csv").unlink()


def _xlsx_battle_bad_cell(game: Path, tmp: Path) -> None:
    """cards.xlsx#battle as in _xlsx_battle, with 'two' typed as c2's number (spreadsheet row 4)."""
    _xlsx_with_cached_formulas(game / "cards.xlsx", {
        "notes": [["メモ"]],
        "battle": [["id", "number", "text", "count"], ["c1", "=0+1", "ポン、チー", "=1+1"], [],
                   ["c2", "two", "チーを1個得る。", 4]],
    }, {"=0+1": "1", "=1+1": "2"})
    (game / "cards.csv").unlink()


def _xlsx_unsaved_formulas(game: Path, tmp: Path) -> None:
    """cards.xlsx#battle as in _xlsx_battle, written by openpyxl alone: its formulas (c1's number
    and count, and an IF) have no saved result, as in a file a script wrote."""
    _xlsx_with_cached_formulas(game / "cards.xlsx", {
        "notes": [["メモ"]],
        "battle": [["id", "number", "text", "count"], ["c1", "=0+1", "ポン、チー", "=1+1"], [],
                   ["c2", '=IF(A4="c2",2,3)', "チーを1個得る。", 4]],
    }, {})
    (game / "cards.csv").unlink()


def _xlsx_far_cell(game: Path, tmp: Path) -> None:
    """cards.xlsx: the base cards and one more cell at XFD1048576, the sheet's last (python-calamine
    allocates the rectangle A1:XFD1048576 and aborts the process)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "cards"
    for row in (["id", "number", "text", "count"], ["c1", 1, "ポンを1個得る。", 2], ["c2", 2, "チーを1個得る。", 4]):
        ws.append(row)
    ws["XFD1048576"] = "far"
    wb.save(game / "cards.xlsx")
    (game / "cards.csv").unlink()


def _xlsx_shared_strings_count(game: Path, tmp: Path) -> None:
    """cards.xlsx whose shared strings declare 4,000,000,000 strings in their header (python-calamine
    reserves room for that many and aborts the process); the file is 5 KB."""
    import zipfile

    _xlsx_far_cell(game, tmp)
    with zipfile.ZipFile(game / "cards.xlsx") as z:
        parts = {n: z.read(n) for n in z.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = sheet.replace('<c r="XFD1048576" t="inlineStr"><is><t>far</t></is></c>', "") \
        .replace('<row r="1048576"></row>', "").replace("A1:XFD1048576", "A1:D3").encode()
    parts["xl/sharedStrings.xml"] = (b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
                                     b'spreadsheetml/2006/main" count="4000000000" uniqueCount="4000000000">'
                                     b'<si><t>x</t></si></sst>')
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                     b'officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>", b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                             b'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    with zipfile.ZipFile(game / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _ods_cards(game: Path, tmp: Path) -> None:
    """cards.ods: the base cards as an OpenDocument spreadsheet (LibreOffice's own format),
    written as the minimal zip of XML parts the format needs."""
    import zipfile

    def cell(v):
        if isinstance(v, int):
            return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{v}</text:p></table:table-cell>'

    rows = [["id", "number", "text", "count"], ["c1", 1, "ポンを1個得る。", 2], ["c2", 2, "チーを1個得る。", 4]]
    body = "".join("<table:table-row>" + "".join(cell(v) for v in r) + "</table:table-row>" for r in rows)
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               '<office:body><office:spreadsheet><table:table table:name="cards">' + body +
               '</table:table></office:spreadsheet></office:body></office:document-content>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    with zipfile.ZipFile(game / "cards.ods", "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
    (game / "cards.csv").unlink()


def _xlsx_named_csv(game: Path, tmp: Path) -> None:
    """cards.csv holding an .xlsx workbook (a workbook renamed, or saved under the CSV's name)."""
    _xlsx_battle(game, tmp)
    (game / "cards.xlsx").rename(game / "cards.csv")


def _ods_named_csv(game: Path, tmp: Path) -> None:
    """cards.csv holding an .ods workbook."""
    _ods_cards(game, tmp)
    (game / "cards.ods").rename(game / "cards.csv")


GENERATORS = {"markdown-brackets": _markdown_brackets, "rules-long-table": _rules_long_table, "font-million-faces": _font_million_faces, "git-symlink-out": _git_symlink_out, "xlsx-far-cell": _xlsx_far_cell, "xlsx-shared-strings-count": _xlsx_shared_strings_count,
              "manifest-symlink-out": _manifest_symlink_out, "variant-symlink-out": _variant_symlink_out,
              "xlsx-named-csv": _xlsx_named_csv, "ods-named-csv": _ods_named_csv, "template-symlink-out": _template_symlink_out, "rules-symlink-out": _rules_symlink_out,
              "fonts-config-symlink-out": _fonts_config_symlink_out, "fonts-config-fifo": _fonts_config_fifo,
              "font-fifo": _font_fifo, "manifest-fifo": _manifest_fifo,
              "xlsx-battle": _xlsx_battle, "xlsx-battle-bad-cell": _xlsx_battle_bad_cell, "xlsx-unsaved-formulas": _xlsx_unsaved_formulas, "ods-cards": _ods_cards, "symlink-out": _symlink_out, "bomb-png": _bomb_png, "huge-cell": _huge_cell, "huge-csv": _huge_csv}


# --- the runner ---------------------------------------------------------------------------

def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) → its bytes; folders as empty markers."""
    out = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        out[key] = p.read_bytes() if p.is_file() and not p.is_symlink() else b"<dir>"
    return out


def _prepare(name: str, tmp_path: Path) -> tuple[Path, dict]:
    case = CORPUS / name
    game = tmp_path / "game"
    shutil.copytree(BASE, game)
    shutil.copytree(case, game, dirs_exist_ok=True, ignore=lambda d, names: [n for n in names if n in META])
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8")) if (case / "case.yaml").is_file() else {}
    for gen in spec.get("generate", []):
        GENERATORS[gen](game, tmp_path)
    return game, spec or {}


def test_corpus_is_big_enough():
    assert len(CASES) >= 30
    for name in CASES:
        assert (CORPUS / name / "expected.txt").is_file(), f"{name} has no expected.txt"


class _Case:
    """One corpus case prepared in its own folder (``root``: the game in ``root/game``, a previous
    output in ``root/output``), shared by the two tests that run ``build`` and ``validate`` on it:
    each command line runs once per test run and both tests read its result (the build
    test_bad_input checks is the build test_validate_reports_what_build_reports compares validate
    with; before, each test prepared the case again and ran that build a second time)."""

    def __init__(self, name: str, root: Path):
        self.root = root
        self.game, self.spec = _prepare(name, root)
        self.out = root / "output"
        (self.out / "g").mkdir(parents=True)
        (self.out / "g" / "print-sheets.pdf").write_bytes(b"%PDF- the previous build\n")
        (self.out / "other").mkdir()
        (self.out / "other" / "keep.txt").write_text("another game's output\n")
        self._runs: dict[tuple[str, ...], tuple] = {}

    def run(self, *argv: str):
        """``cardgen ARGV`` in-process from inside the game folder (the case's budgets set), once:
        → (its click Result, the output folder's snapshot just before it, and just after)."""
        if argv not in self._runs:
            with pytest.MonkeyPatch.context() as mp:
                mp.chdir(self.game)
                mp.delenv("CARDGEN_DEBUG", raising=False)
                if "budget" in self.spec:  # seconds an evaluation may take (cardgen.core.sandbox.MAX_SECONDS), lowered for speed
                    mp.setattr("cardgen.core.sandbox.MAX_SECONDS", float(self.spec["budget"]))
                if "layout_budget" in self.spec:  # CPU seconds one rules file's layout may take (cardgen.rulebook.pdf.LAYOUT_SECONDS)
                    mp.setattr("cardgen.rulebook.pdf.LAYOUT_SECONDS", float(self.spec["layout_budget"]))
                before = _snapshot(self.out)
                result = CliRunner().invoke(cli, list(argv), catch_exceptions=False)
                self._runs[argv] = (result, before, _snapshot(self.out))
        return self._runs[argv]

    def command(self) -> tuple[str, ...]:
        """The case's own command line: ``cardgen <command> . [args] [--out OUT]`` (no ``--out`` for a
        command that writes nothing, such as validate)."""
        command = self.spec.get("command", "build")
        takes_out = any(p.name == "out" for p in cli.commands[command].params)
        return (command, ".", *self.spec.get("args", []), *(["--out", str(self.out)] if takes_out else []))


_CASES: dict[str, _Case] = {}


def _case(name: str, factory: pytest.TempPathFactory) -> _Case:
    if name not in _CASES:
        _CASES[name] = _Case(name, factory.mktemp(name))
    return _CASES[name]


@pytest.mark.parametrize("name", CASES)
def test_bad_input(name: str, tmp_path_factory, monkeypatch) -> None:
    case = _case(name, tmp_path_factory)
    spec, command = case.spec, case.spec.get("command", "build")
    result, before, after = case.run(*case.command())
    stderr = result.stderr.replace(str(case.root), "<tmp>")

    expected_file = CORPUS / name / "expected.txt"
    if os.environ.get("CARDGEN_BLESS") == "1":
        expected_file.write_text(stderr, encoding="utf-8")
    assert "Traceback" not in stderr + result.stdout
    assert stderr == expected_file.read_text(encoding="utf-8")
    assert result.exit_code == spec.get("exit", 1)

    if result.exit_code != 0 or command == "validate":
        assert after == before, "a failed run must not touch the output folder"

    monkeypatch.chdir(case.game)
    values = spec.get("values")
    if values:
        from cardgen.data.game import load_game
        loaded = load_game(".")
        for comp, rows in values.items():
            by_id = {r.id: r.values for r in loaded.tables[comp]}
            for rid, cols in rows.items():
                for col, want in cols.items():
                    assert by_id[rid][col] == want, (comp, rid, col)
    manifest = spec.get("manifest")
    if manifest:
        from cardgen.data.game import load_game
        m = load_game(".").manifest
        for dotted, want in manifest.items():
            obj = m
            for part in dotted.split("."):
                obj = obj[int(part)] if part.isdigit() else getattr(obj, part)
            assert obj == want, dotted


def test_literal_and_real_line_breaks_both_break_the_line(tmp_path, monkeypatch) -> None:
    """csv-newline-literal-and-quoted: a real line break in a quoted cell and a typed ``\\n``
    both give two lines on the card (the values keep what was typed)."""
    from cardgen.layout.ops import Text
    from cardgen.fonts.fontset import fonts_for
    from cardgen.steps.component_plans import plan_component
    from cardgen.data.game import load_game

    game_dir, _spec = _prepare("csv-newline-literal-and-quoted", tmp_path)
    monkeypatch.chdir(game_dir)
    game = load_game(".")
    plans = plan_component(game, "cards", fonts_for(game))
    for plan in plans.fronts:
        lines = sorted({round(op.y, 2) for op in plan.ops if isinstance(op, Text) and op.size == 10}, reverse=True)
        texts = [" ".join(op.text for op in plan.ops if isinstance(op, Text) and round(op.y, 2) == y) for y in lines]
        assert texts == ["ポンを得る。", "チーを得る。"]


def test_internal_error_is_short_without_debug(monkeypatch) -> None:
    """A bug (an unexpected exception) prints one line and exit 3; CARDGEN_DEBUG=1 re-raises."""
    import cardgen.steps.game_check

    def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(cardgen.steps.game_check, "load_and_validate", boom)
    monkeypatch.delenv("CARDGEN_DEBUG", raising=False)
    result = CliRunner().invoke(cli, ["validate", "."])
    assert result.exit_code == 3
    assert result.stderr.startswith("cardgen: internal error: RuntimeError: boom\n    hint: this is a bug")
    assert "Traceback" not in result.stderr
    monkeypatch.setenv("CARDGEN_DEBUG", "1")
    result = CliRunner().invoke(cli, ["validate", "."])
    assert isinstance(result.exception, RuntimeError)


def test_os_error_is_one_block(tmp_path, monkeypatch) -> None:
    import cardgen.api

    def denied(*a, **k):
        raise PermissionError(13, "Permission denied", "output/g")

    monkeypatch.setattr(cardgen.api, "build_game", denied)
    result = CliRunner().invoke(cli, ["build", "."])
    assert result.exit_code == 1
    # permission denied is not a full disk (issue 28): the hint says what to check
    assert result.stderr == ("output/g: error: permission denied: cardgen may not read or write it\n"
                             "    hint: check its permissions and those of the folders above it (ls -ld output/g), "
                             "e.g. chmod u+rw output/g\n")


def _blocks(stderr: str) -> list[str]:
    """Message blocks (a ``file:line: severity: …`` line and its indented hint), without the
    build's one-line summaries (nothing written / printed anyway)."""
    blocks: list[str] = []
    for line in stderr.splitlines():
        if line.startswith(" ") and blocks:
            blocks[-1] += "\n" + line
        else:
            blocks.append(line)
    return [b for b in blocks if "nothing was written for" not in b and "printed anyway (--force)" not in b]


@pytest.mark.parametrize("name", CASES)
def test_validate_reports_what_build_reports(name: str, tmp_path_factory) -> None:
    """One truth: ``cardgen validate`` names every problem ``cardgen build`` names, at the same
    file:line, for every case of the corpus (good input included). The build of a case whose own
    command is ``build`` is the one test_bad_input checked (run once, :class:`_Case`)."""
    case = _case(name, tmp_path_factory)
    build = ("build", ".", "--out", str(case.out))
    if case.command() != build:  # another command (or build with arguments): a build into an empty folder of its own
        build = ("build", ".", "--out", str(case.root / "output-of-build"))
    built, _, _ = case.run(*build)
    checked, _, _ = case.run("validate", ".")
    assert _blocks(checked.stderr) == _blocks(built.stderr)
    assert (checked.exit_code == 0) == (built.exit_code == 0)
