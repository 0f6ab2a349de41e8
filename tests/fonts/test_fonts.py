"""Font roles: lookup, registration, metrics, TTC, CFF→TrueType conversion, errors."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection
from reportlab.pdfbase import pdfmetrics

from cardgen.core.errors import CardgenError
from cardgen.fonts.fontset import FontSet, load_fontset

ROOT = Path(__file__).resolve().parents[2]
IPAEX_G = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
IPAEX_M = Path("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf")
needs_ipaex = pytest.mark.skipif(not (IPAEX_G.is_file() and IPAEX_M.is_file()),
                                 reason="IPAex fonts (fonts-ipaexfont) not installed")

# ------------------------------------------------------------------ tiny font builders

def _draw_box(pen, x0, y0, x1, y1, curve=False):
    pen.moveTo((x0, y0))
    if curve:  # a cubic side, so CFF→TrueType conversion has real curves to approximate
        pen.curveTo((x0 + 100, y0 - 80), (x1 - 100, y0 - 80), (x1, y0))
    else:
        pen.lineTo((x1, y0))
    pen.lineTo((x1, y1))
    pen.lineTo((x0, y1))
    pen.closePath()


def _shapes():
    return {  # glyph name → box, all different so the outlines are distinguishable
        ".notdef": (50, 0, 450, 700),
        "A": (50, 0, 550, 700),
        "B": (60, 0, 500, 700),
        "a_kana": (100, -50, 900, 800),  # あ
    }


CMAP = {ord("A"): "A", ord("B"): "B", 0x3042: "a_kana", 0x20: "space"}


def make_ttf(path: Path, family: str, chars: dict[int, str]) -> Path:
    """A small TrueType-outline font with the glyphs named in ``chars``."""
    order = [".notdef", "space"] + sorted({g for g in chars.values() if g != "space"})
    glyphs = {}
    for g in order:
        pen = TTGlyphPen(None)
        if g != "space":
            _draw_box(pen, *_shapes()[g])
        glyphs[g] = pen.glyph()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(chars)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({g: (1000 if g == "a_kana" else 600, 0) for g in order})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": family, "styleName": "Regular",
                      "psName": family.replace(" ", "") + "-Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=0)
    fb.setupPost()
    fb.save(str(path))
    return path


def make_cff_otf(path: Path, family: str = "TinyCFF") -> Path:
    """A small CFF-outline OpenType font (starts with 'OTTO') covering A, B and あ."""
    order = [".notdef", "space", "A", "B", "a_kana"]
    adv = {g: (1000 if g == "a_kana" else 600) for g in order}
    charstrings = {}
    for g in order:
        pen = T2CharStringPen(adv[g], None)
        if g != "space":
            _draw_box(pen, *_shapes()[g], curve=True)
        charstrings[g] = pen.getCharString()
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(CMAP)
    fb.setupCFF(family.replace(" ", ""), {"FullName": family}, charstrings, {})
    fb.setupHorizontalMetrics({g: (adv[g], 0) for g in order})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": family, "styleName": "Regular",
                      "psName": family.replace(" ", "") + "-Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=0)
    fb.setupPost()
    fb.save(str(path))
    assert path.read_bytes()[:4] == b"OTTO"
    return path


@pytest.fixture
def game(tmp_path: Path) -> Path:
    d = tmp_path / "game"
    d.mkdir()
    return d


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


# ------------------------------------------------------------------ defaults and metrics

@needs_ipaex
def test_default_roles_resolve_to_ipaex():
    fs = load_fontset(ROOT)
    assert set(fs.roles()) >= {"body", "heading", "serif", "number"}
    assert fs.roles()[0] == "body"
    assert fs.path("body").resolve() == IPAEX_G.resolve()
    assert fs.path("heading").resolve() == IPAEX_G.resolve()
    assert fs.path("serif").resolve() == IPAEX_M.resolve()
    assert fs.name("body") == "IPAexGothic"
    assert fs.name("serif") == "IPAexMincho"
    assert fs.name("body") in pdfmetrics.getRegisteredFontNames()
    assert fs.problems == []
    # unknown role falls back to body
    assert fs.name("no-such-role") == fs.name("body")
    assert fs.path("no-such-role") == fs.path("body")


@needs_ipaex
def test_metrics_in_points():
    fs = load_fontset(ROOT)
    assert fs.width("あ", "body", 10) == pytest.approx(10.0, abs=0.01)
    assert fs.width("ああ", "body", 12) == pytest.approx(24.0, abs=0.01)
    assert fs.width("A", "body", 10) == pytest.approx(fs.width("A", "body", 20) / 2, abs=1e-9)
    assert 0 < fs.width("A", "body", 10) < 10  # proportional Latin in IPAexGothic
    asc, desc = fs.ascent("body", 10), fs.descent("body", 10)
    assert asc == pytest.approx(8.8, abs=0.01)
    assert desc == pytest.approx(-1.2, abs=0.01)  # negative: below the baseline


@needs_ipaex
def test_registering_twice_is_a_noop():
    a = load_fontset(ROOT)
    before = sorted(pdfmetrics.getRegisteredFontNames())
    b = load_fontset(ROOT)
    assert sorted(pdfmetrics.getRegisteredFontNames()) == before
    assert a.name("body") == b.name("body") == "IPAexGothic"


@needs_ipaex
@pytest.mark.parametrize("name, expected", [("IPAexゴシック", IPAEX_G), ("IPAex明朝", IPAEX_M),
                                            ("ipaexm", IPAEX_M), ("IPAex Mincho", IPAEX_M)])
def test_lookup_by_japanese_family_name_and_stem(name, expected, game):
    fs = load_fontset(ROOT, {"serif": name}, game)
    assert fs.path("serif").resolve() == expected.resolve()


@needs_ipaex
def test_missing_chars():
    fs = load_fontset(ROOT)
    assert fs.missing_chars("body", "ポン チー\n和了") == []
    assert fs.missing_chars("body", "あ😀い😀\t\n🀄") == ["😀", "🀄"]


# ------------------------------------------------------------------ TTC and CFF

def test_ttc_face_index(game):
    one = make_ttf(game / "one.ttf", "Tiny One", {ord("A"): "A", 0x20: "space"})
    two = make_ttf(game / "two.ttf", "Tiny Two", {ord("B"): "B", 0x3042: "a_kana", 0x20: "space"})
    coll = TTCollection()
    coll.fonts = [TTFont(str(one)), TTFont(str(two))]
    coll.save(str(game / "pair.ttc"))
    one.unlink()
    two.unlink()

    fs = load_fontset(ROOT, {"body": {"file": "pair.ttc", "index": 1},
                             "heading": {"file": "pair.ttc", "index": 0}}, game)
    assert fs.path("body") == game / "pair.ttc"
    assert fs.name("body").startswith("TinyTwo")
    assert fs.name("heading").startswith("TinyOne")
    assert fs.missing_chars("body", "ABあ") == ["A"]
    assert fs.missing_chars("heading", "ABあ") == ["B", "あ"]
    assert fs.width("あ", "body", 10) == pytest.approx(10.0, abs=0.01)
    assert fs.problems == []  # face 1 has kana

    with pytest.raises(CardgenError) as exc:
        load_fontset(ROOT, {"body": {"file": "pair.ttc", "index": 2}}, game)
    assert "index 2" in str(exc.value) and "'body'" in str(exc.value)


def test_cff_otf_is_converted_embedded_and_extractable(game, tmp_path):
    from pypdf import PdfReader
    from reportlab.pdfgen import canvas

    make_cff_otf(game / "tinycff.otf")
    fs = load_fontset(ROOT, {"body": "tinycff.otf", "number": "TinyCFF"}, game)
    assert fs.path("body") == game / "tinycff.otf"
    assert fs.name("number") == fs.name("body")  # same face, registered once
    assert fs.width("あ", "body", 10) == pytest.approx(10.0, abs=0.01)
    assert fs.width("AB", "body", 10) == pytest.approx(12.0, abs=0.01)
    assert fs.missing_chars("body", "AあZ") == ["Z"]

    # the converted copy is TrueType, in the cache, with real quadratic outlines
    cached = list((tmp_path / "cache" / "cardgen").glob("*.ttf"))
    assert len(cached) == 1
    conv = TTFont(str(cached[0]))
    assert "glyf" in conv and "CFF " not in conv
    glyph = conv["glyf"]["A"]
    assert glyph.numberOfContours == 1
    assert (glyph.xMin, glyph.xMax, glyph.yMax) == (50, 550, 700)
    assert glyph.yMin < 0  # the curved bottom edge survived

    pdf = tmp_path / "out.pdf"
    c = canvas.Canvas(str(pdf), invariant=1)
    c.setFont(fs.name("body"), 20)
    c.drawString(72, 720, "ABあ")
    c.save()
    reader = PdfReader(str(pdf))
    page = reader.pages[0]
    fonts = page["/Resources"]["/Font"]
    ours = [f.get_object() for f in fonts.values()
            if "TinyCFF" in str(f.get_object()["/BaseFont"])]
    assert ours, [str(f.get_object()["/BaseFont"]) for f in fonts.values()]
    for font in ours:
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor  # embedded TrueType (subset)
        assert len(descriptor["/FontFile2"].get_object().get_data()) > 100
    assert "ABあ" in page.extract_text()

    # the embedded outlines really draw: A (500×700 units), B (440×700), あ (800×850) at 20 pt
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    img = doc[0].render(scale=1).to_pil().convert("L")
    dark = sum(1 for v in img.tobytes() if v < 128)
    doc.close()
    expected = (500 * 700 + 440 * 700 + 800 * 850) * (20 / 1000) ** 2  # ≈ 535 px
    assert expected * 0.8 < dark < expected * 1.4


def test_cff_conversion_is_cached_by_content(game, tmp_path):
    from cardgen.fonts.convert import cff_to_truetype

    src = make_cff_otf(game / "c.otf", "Cache Me")
    first = cff_to_truetype(src, 0, tmp_path / "cc")
    mtime = first.stat().st_mtime_ns
    again = cff_to_truetype(src, 0, tmp_path / "cc")
    assert again == first and again.stat().st_mtime_ns == mtime
    assert not [p for p in (tmp_path / "cc").iterdir() if p.name.startswith(".tmp")]


# ------------------------------------------------------------------ errors and warnings

def test_path_leaving_game_folder_is_an_error(game, tmp_path):
    make_ttf(tmp_path / "outside.ttf", "Outside", {ord("A"): "A"})
    for value in ("../outside.ttf", str(tmp_path / "outside.ttf"), {"file": "../outside.ttf"}):
        with pytest.raises(CardgenError) as exc:
            load_fontset(ROOT, {"heading": value}, game, manifest="card_data/g/game.yaml",
                         override_lines={"heading": 7})
        (p,) = exc.value.problems
        assert p.code == "font-path-escape"
        assert "'heading'" in p.message and p.path == "fonts → heading"
        assert p.location() == "card_data/g/game.yaml:7"


def test_symlink_out_of_game_folder_is_an_error(game, tmp_path):
    make_ttf(tmp_path / "outside.ttf", "Outside", {ord("A"): "A"})
    try:
        os.symlink(tmp_path / "outside.ttf", game / "link.ttf")
    except OSError:
        pytest.skip("no symlinks here")
    with pytest.raises(CardgenError) as exc:
        load_fontset(ROOT, {"body": "link.ttf"}, game)
    assert exc.value.problems[0].code == "font-path-escape"
    assert "'body'" in str(exc.value)


def test_unknown_font_lists_what_was_searched(game):
    with pytest.raises(CardgenError) as exc:
        load_fontset(ROOT, {"serif": "No Such Font Family 42"}, game)
    (p,) = exc.value.problems
    assert p.code == "font-not-found"
    assert "No Such Font Family 42" in p.message and "'serif'" in p.message
    assert "searched" in p.hint and "/usr/share/fonts" in p.hint and "fonts" in p.hint
    assert "family name" in p.hint


def test_fonts_yaml_errors_name_the_file_and_line(tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "fonts.yaml").write_text("# c\nbody: IPAexGothic\nserif: Nope Nope Font\n")
    with pytest.raises(CardgenError) as exc:
        load_fontset(tmp_path)
    (p,) = exc.value.problems
    assert p.location() == "fonts/fonts.yaml:3" and p.path == "serif"
    assert p.format().startswith("fonts/fonts.yaml:3: error: serif → font 'Nope Nope Font'")


def test_game_fonts_yaml_linked_outside_is_refused_without_its_content(tmp_path):
    """A game that is its own project: its fonts/fonts.yaml, links followed, must stay inside it
    (the user's own project fonts.yaml may link anywhere)."""
    (tmp_path / "secret.yaml").write_text("password: hunter2-SECRET\n")
    game = tmp_path / "game"
    (game / "fonts").mkdir(parents=True)
    (game / "fonts" / "fonts.yaml").symlink_to(tmp_path / "secret.yaml")
    with pytest.raises(CardgenError) as exc:
        load_fontset(game, None, game, trusted_config=False)
    (p,) = exc.value.problems
    assert p.code == "path-escape" and "leads outside the game folder" in p.format()
    assert "SECRET" not in p.format() and "password" not in p.format()
    with pytest.raises(CardgenError) as exc:  # trusted: read (and its unknown role reported)
        load_fontset(game, None, game, trusted_config=True)
    assert "password" in exc.value.problems[0].format()


@pytest.mark.parametrize("trusted", [True, False])
@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_fonts_yaml_not_a_regular_file_is_refused(tmp_path, kind, trusted):
    """A folder or named pipe named fonts/fonts.yaml is refused, not taken as 'no settings'."""
    (tmp_path / "fonts").mkdir()
    cfg = tmp_path / "fonts" / "fonts.yaml"
    cfg.mkdir() if kind == "folder" else os.mkfifo(cfg)
    with pytest.raises(CardgenError) as exc:
        load_fontset(tmp_path, None, tmp_path, trusted_config=trusted)
    (p,) = exc.value.problems
    assert p.code == "not-a-file" and "fonts.yaml' is not a regular file" in p.format()


def test_font_scan_skips_what_is_not_a_regular_file(tmp_path):
    """A named pipe, or a folder, with a font's name lying in a scanned folder is skipped (opening
    a pipe would block the scan for ever)."""
    from cardgen.fonts.index import folder_index, font_files

    make_ttf(tmp_path / "real.ttf", "Real Font", {ord("A"): "A"})
    os.mkfifo(tmp_path / "pipe.ttf")
    (tmp_path / "folder.otf").mkdir()
    assert font_files(tmp_path) == [tmp_path / "real.ttf"]
    index, count, _folder = folder_index(tmp_path, tmp_path)
    assert count == 1 and "realfont" in index and "pipe" not in index


def test_font_files_are_opened_without_blocking_and_only_when_regular(tmp_path):
    """collection_size and the name reader open with O_NONBLOCK and check the open handle: a pipe
    (here one with a writer, so a plain open would read it) is refused, not read."""
    from cardgen.core.regular_file import open_regular
    from cardgen.fonts.index import collection_size

    pipe = tmp_path / "pipe.ttc"
    os.mkfifo(pipe)
    writer = os.open(pipe, os.O_RDWR)  # a FIFO opened read-write never blocks (Linux)
    try:
        os.write(writer, b"ttcf\0\1\0\0\0\0\0\2")
        with pytest.raises(ValueError, match="not a regular file"):
            collection_size(pipe)
        with pytest.raises(ValueError, match="not a regular file"):
            open_regular(tmp_path)
    finally:
        os.close(writer)
    make_ttf(tmp_path / "real.ttf", "Real Font", {ord("A"): "A"})
    assert collection_size(tmp_path / "real.ttf") == 1


def test_project_fonts_folder_is_searched_before_system(tmp_path):
    (tmp_path / "fonts").mkdir()
    make_ttf(tmp_path / "fonts" / "house.ttf", "House Font", {ord("A"): "A", 0x3042: "a_kana"})
    (tmp_path / "fonts" / "fonts.yaml").write_text("body: House Font\nheading: {file: house.ttf}\n")
    fs = load_fontset(tmp_path)
    assert fs.path("body") == tmp_path / "fonts" / "house.ttf"
    assert fs.path("heading") == tmp_path / "fonts" / "house.ttf"
    assert fs.name("body") == fs.name("heading")


def test_corrupt_font_file_is_an_error(game):
    (game / "broken.ttf").write_bytes(b"\x00\x01\x00\x00" + b"garbage" * 10)
    (game / "text.ttf").write_text("not a font at all")
    with pytest.raises(CardgenError) as exc:
        load_fontset(ROOT, {"body": "broken.ttf", "heading": "text.ttf"}, game)
    probs = exc.value.problems
    assert [p.code for p in probs] == ["font-unreadable", "font-unreadable"]
    assert "'body'" in probs[0].message and "'heading'" in probs[1].message


def test_body_without_japanese_is_a_warning(game):
    make_ttf(game / "latin.ttf", "Latin Only", {ord("A"): "A", ord("B"): "B"})
    fs = load_fontset(ROOT, {"body": "latin.ttf"}, game)
    assert isinstance(fs, FontSet)
    (w,) = fs.problems
    assert w.severity == "warning" and w.code == "font-no-japanese"
    assert fs.missing_chars("body", "Aあ") == ["あ"]


def test_bad_role_value_is_an_error(game):
    with pytest.raises(CardgenError) as exc:
        load_fontset(ROOT, {"body": {"path": "x.ttf"}, "serif": 12}, game)
    assert [p.code for p in exc.value.problems] == ["font-config", "font-config"]
