"""Vertical text (縦書き, ``direction: vertical``) read back from a built game's print-shop PDF and
PNG export: the glyphs drawn are the font's vertical forms from the embedded subset (compared
outline for outline with the ``vert`` substitutions of the font file, read with fontTools'
GSUB — not with HarfBuzz, which the code uses), 12 is one tate-chu-yoko unit centred in the
column, 。 sits in the upper-right quarter of its square, "Ron" is turned 90° clockwise, the
text reads back in order, and the PNG export matches the PDF's own raster."""
from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2
import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from cardgen.api import build_game
from cardgen.steps.exports import ExportOptions
from tests.conftest import needs_fonts
from tests.minigame import CARDS, write_game
from tests.pdfread import open_pdf, unembedded_fonts

pytestmark = needs_fonts
TEXT = "「ロード「12」。ーRon」"
SIZE, DPI = 14.0, 150
BOX = [24, 6, 15, 76]  #: mm from the trim's top-left: one column, centred
FACE = {"elements": [
    {"kind": "rect", "name": "frame", "box": [3.5, 3.5, 56, 81], "stroke": "#000000", "stroke_width": 1},
    {"kind": "text", "name": "name", "box": BOX, "text": "{{ card.name }}", "size": SIZE, "min_size": 8,
     "align": "center", "direction": "vertical"}]}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("vertical")
    cards = [dict(c) for c in CARDS]
    cards[0]["name"] = TEXT
    game = write_game(tmp, cards=cards, face=FACE)
    res = build_game(game, tmp / "out", steps=("shop", "png"), exports=ExportOptions(dpi=DPI, jobs=1))
    assert not [p for p in res.layout if p.severity == "error"]
    return res.out_dir


def _font_file(pdf: Path) -> tuple[TTFont, dict[int, str]]:
    """The embedded subset of the card's font and its ToUnicode map (code → text)."""
    page = pypdf.PdfReader(pdf).pages[0]
    form = page["/Resources"]["/XObject"]["/FormXob.card0"].get_object()
    fonts = form["/Resources"]["/Font"]
    (font,) = [f.get_object() for f in fonts.values()]
    data = font["/FontDescriptor"]["/FontFile2"].get_object().get_data()
    cmap = font["/ToUnicode"].get_object().get_data().decode()
    to_unicode = {int(code, 16): chr(int(uni, 16))
                  for code, uni in re.findall(r"^<([0-9A-F]{2})> <([0-9A-F]{4})>$", cmap, re.M)}
    return TTFont(io.BytesIO(data)), to_unicode


def _vert(original: TTFont) -> dict[str, str]:
    """Glyph name → its vertical form, from the font file's GSUB ``vert`` lookups (fontTools)."""
    gsub = original["GSUB"].table
    out: dict[str, str] = {}
    for rec in gsub.FeatureList.FeatureRecord:
        if rec.FeatureTag != "vert":
            continue
        for index in rec.Feature.LookupListIndex:
            for sub in gsub.LookupList.Lookup[index].SubTable:
                sub = getattr(sub, "ExtSubTable", sub)
                out.update(getattr(sub, "mapping", {}) or {})
    return out


def _outline(font: TTFont, glyph: str):
    g = font["glyf"][glyph]
    return g.getCoordinates(font["glyf"])[0].array.tolist() if g.numberOfContours else []


def _drawn_glyphs(subset: TTFont, to_unicode: dict[int, str], ch: str) -> list[str]:
    """Names in the subset of the glyphs whose code maps back to ``ch``."""
    cmap = subset["cmap"].getcmap(3, 0) or subset["cmap"].getcmap(1, 0) or subset["cmap"].tables[0]
    return [cmap.cmap[code] for code, u in to_unicode.items() if u == ch and code in cmap.cmap]


def test_vertical_forms_come_from_the_embedded_subset(built):
    pdf = built / "shop" / "cards.pdf"
    assert unembedded_fonts(pdf) == {}
    subset, to_unicode = _font_file(pdf)
    original = TTFont("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
    vert, cmap = _vert(original), original.getBestCmap()
    for ch in "ー「」。":
        drawn = _drawn_glyphs(subset, to_unicode, ch)
        assert drawn, ch
        want = _outline(original, vert[cmap[ord(ch)]])
        assert want != _outline(original, cmap[ord(ch)])  # the form differs from the horizontal glyph
        assert [_outline(subset, g) for g in drawn] == [want] * len(drawn), ch
    assert subset["maxp"].numGlyphs < 200 < original["maxp"].numGlyphs  # a subset (ASCII + the text), not the font


def _chars(pdf: Path) -> list[dict]:
    with open_pdf(pdf) as doc:
        return [c for c in doc.pages[0].chars if c["text"].strip()]


def test_tate_chu_yoko_turned_latin_and_the_full_stop(built):
    chars = _chars(built / "shop" / "cards.pdf")
    assert "".join(c["text"] for c in chars) == TEXT  # drawn in reading order
    upright = [c for c in chars if c["text"] in "ロード"]
    left, right = upright[0]["x0"], upright[0]["x1"]  # the column: one em square wide
    assert right - left == pytest.approx(SIZE, abs=0.01)
    centre = (left + right) / 2
    one, two = (c for c in chars if c["text"] in "12")
    assert one["bottom"] == pytest.approx(two["bottom"], abs=0.01)  # side by side, across the column
    assert (one["x0"] + two["x1"]) / 2 == pytest.approx(centre, abs=0.05)
    assert two["x1"] - one["x0"] <= SIZE + 0.01  # in one em
    ron = [c for c in chars if c["text"] in "Ron"]
    for c in ron:  # turned 90° clockwise: the glyph's x axis points down the page, its y axis right
        a, b, cc, d = c["matrix"][:4]
        assert (round(a, 3), round(b, 3), round(cc, 3), round(d, 3)) == (0, -1, 1, 0)
        assert c["x0"] == pytest.approx(left, abs=0.05) and c["x1"] == pytest.approx(right, abs=0.05)
    assert ron[0]["top"] < ron[1]["top"] < ron[2]["top"]  # R above o above n
    # 。: its ink (the embedded glyph's bounding box) in the upper-right quarter of its square
    subset, to_unicode = _font_file(built / "shop" / "cards.pdf")
    (glyph,) = _drawn_glyphs(subset, to_unicode, "。")
    g = subset["glyf"][glyph]
    g.recalcBounds(subset["glyf"])
    upem = subset["head"].unitsPerEm
    stop = next(c for c in chars if c["text"] == "。")
    baseline = stop["matrix"][5]  # PDF y, up
    page_h = stop["bottom"] + stop["y0"]  # pdfplumber: top = page height - y1
    ink_x = (stop["x0"] + g.xMin * SIZE / upem, stop["x0"] + g.xMax * SIZE / upem)
    ink_top = (page_h - (baseline + g.yMax * SIZE / upem), page_h - (baseline + g.yMin * SIZE / upem))
    mid_x, mid_y = (stop["x0"] + stop["x1"]) / 2, (stop["top"] + stop["bottom"]) / 2
    assert stop["bottom"] - stop["top"] == pytest.approx(SIZE, abs=0.01)  # pdfplumber's box: the em square
    assert ink_x[0] >= mid_x - 0.01 and ink_x[1] <= stop["x1"] + 0.01
    assert ink_top[0] >= stop["top"] - 0.01 and ink_top[1] <= mid_y + 0.01




def test_png_export_matches_the_pdf_raster(built):
    png = np.asarray(Image.open(built / "cards" / "cards-001-n1.png").convert("L"), dtype=np.int16)
    doc = pypdfium2.PdfDocument(str(built / "shop" / "cards.pdf"))
    raster = doc[0].render(scale=DPI / 72).to_pil().convert("L")
    pdf = np.asarray(raster, dtype=np.int16)
    assert abs(png.shape[0] - pdf.shape[0]) <= 1 and abs(png.shape[1] - pdf.shape[1]) <= 1  # rounding of the size
    k = DPI / 25.4
    x0, x1 = round((3 + BOX[0]) * k), round((3 + BOX[0] + BOX[2]) * k)  # the name box (3 mm bleed)
    y0, y1 = round((3 + BOX[1]) * k), round((3 + BOX[1] + BOX[3]) * k)
    box_png, box_pdf = png[y0:y1, x0:x1], pdf[y0:y1, x0:x1]
    assert (box_pdf < 128).sum() > 500  # the column is drawn
    assert np.abs(box_png - box_pdf).mean() < 2.0
    assert ((box_png < 128) != (box_pdf < 128)).sum() <= 0.01 * (box_pdf < 128).sum()


def test_validate_warns_of_a_font_without_vertical_forms(tmp_path):
    """IPAex Gothic without its GSUB table (saved by fontTools into the game folder, ~1 s): its っ
    has no vertical form, so vertical text using it is a warning at the card's row; the same text
    in a box set in IPAex Gothic itself raises nothing; ー「」 (turned without a form, as UAX #50
    says) are not named, nor 、。 (HarfBuzz falls back to the font's own vertical presentation
    forms U+FE11 / U+FE12)."""
    from cardgen.api import validate_game

    cards = [dict(c) for c in CARDS]
    cards[0]["name"] = "「あっ、ー。」"
    face = {"elements": [dict(FACE["elements"][1], font="plain"),
                         dict(FACE["elements"][1], name="ipaex", box=[40, 6, 15, 76])]}
    game = write_game(tmp_path, cards=cards, face=face, manifest={"fonts": {"plain": "plain.ttf"}})
    font = TTFont("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
    del font["GSUB"]
    for rec in font["name"].names:  # a font of its own (reportlab keeps one face per PostScript name)
        if rec.nameID in (1, 3, 4, 6):
            rec.string = "PlainGothic"
    font.save(game / "plain.ttf")
    report = validate_game(game)
    found = [p for p in report.warnings if p.code == "no-vertical-form"]
    assert len(found) == 1, [p.message for p in report.warnings + report.errors]
    assert "the plain font has no vertical form for っ (U+3063): " in found[0].message
    assert found[0].card.card_id == "n1" and found[0].field == "name"


def test_column_matches_an_independent_vertical_raster(built):
    """「ロード「 as the PDF draws it (pdfium's raster) against Pillow's own vertical layout (raqm,
    ``direction="ttb"``, FreeType's rasteriser): the same glyphs in the same places, the ink of the
    two aligned at its top-right corner (JLREQ: a column hangs from its top, the glyphs centred on it)."""
    from PIL import ImageDraw, ImageFont, features

    if not features.check("raqm"):
        pytest.skip("Pillow without raqm")
    px = SIZE * DPI / 72
    with open_pdf(built / "shop" / "cards.pdf") as doc:
        chars = [c for c in doc.pages[0].chars if c["text"].strip()]
    top, left, right = chars[0]["top"], chars[0]["x0"], chars[0]["x1"]
    k = DPI / 72
    doc = pypdfium2.PdfDocument(str(built / "shop" / "cards.pdf"))
    page = np.asarray(doc[0].render(scale=k).to_pil().convert("L"))
    ours = page[round(top * k) - 2:round((top + 5 * SIZE) * k), round(left * k) - 2:round(right * k) + 2] < 128
    font = ImageFont.truetype("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", round(px),
                              layout_engine=ImageFont.Layout.RAQM)
    img = Image.new("L", (ours.shape[1] + 40, ours.shape[0] + 40), 255)
    ImageDraw.Draw(img).text((20 + ours.shape[1] / 2, 10), "「ロード「", font=font, fill=0, direction="ttb",
                             features=["vert"], anchor="mt")
    theirs = np.asarray(img) < 128

    def at_corner(mask):  # the ink, cut to its bounding box
        ys, xs = np.nonzero(mask)
        return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]

    a, b = at_corner(ours), at_corner(theirs)
    assert abs(a.shape[0] - b.shape[0]) <= 3 and abs(a.shape[1] - b.shape[1]) <= 3, (a.shape, b.shape)
    h, w = min(a.shape[0], b.shape[0]) - 4, min(a.shape[1], b.shape[1]) - 4

    def near(m):  # ink within one pixel (the two rasterisers round thin strokes a pixel apart)
        out = m.copy()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                out |= np.roll(np.roll(m, dy, 0), dx, 1)
        return out

    def matched(dy: int, dx: int) -> float:
        x, y = a[2:2 + h, 2:2 + w], b[2 + dy:2 + dy + h, 2 + dx:2 + dx + w]
        return min((x & near(y)).sum() / x.sum(), (y & near(x)).sum() / y.sum())

    best = max(matched(dy, dx) for dy in range(-2, 3) for dx in range(-2, 3))
    assert best > 0.97, best  # every glyph where HarfBuzz-through-raqm puts it, within a pixel
