"""A ``#rrggbbaa`` colour stays translucent in the print-shop PDF (issue 29).

The shop file draws each face as a form XObject; reportlab 5.1 leaves a form's ``/ExtGState`` out
of its resources, so the band's ``/gRLs0 gs`` named nothing: poppler reported "ExtGState 'gRLs0' is
unknown" and the band printed opaque. One build of the mini game with a translucent band, read back
strictly (every resource a content stream names exists) and rendered with pdfium.
"""
from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from cardgen.api import build_game
from cardgen.core.units import MM
from cardgen.steps.export_options import ExportOptions
from tests.minigame import FACE, write_game

BAND = "#1b2a4acc"  # 80 % opaque over the white card
BAND_TOP_MM, BAND_H_MM = 40.0, 20.0


@pytest.fixture(scope="module")
def shop_file(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("alpha")
    band = {"kind": "rect", "name": "band", "box": [0, BAND_TOP_MM, 63, BAND_H_MM], "bleed": True, "fill": BAND}
    game = write_game(tmp, face={"elements": FACE["elements"] + [band]})
    res = build_game(game, tmp / "out", steps=("sheets", "shop"))
    return res.out_dir / "shop" / "cards.pdf"


def _unknown_resources(pdf: pikepdf.Pdf) -> list[str]:
    """Every ``/Name gs``, ``Do`` and ``Tf`` of each page and form whose name is missing from the
    resources of the stream it is in."""
    missing: list[str] = []
    kinds = {"gs": "/ExtGState", "Do": "/XObject", "Tf": "/Font"}

    def walk(owner, where: str) -> None:
        res = owner.get("/Resources", pikepdf.Dictionary())
        for operands, op in pikepdf.parse_content_stream(owner):
            kind = kinds.get(str(op))
            if kind is None:
                continue
            name = str(operands[0])
            table = res.get(kind, pikepdf.Dictionary())
            if name not in table:
                missing.append(f"{where}: {kind} {name}")
            elif kind == "/XObject" and table[name].get("/Subtype") == "/Form":
                walk(table[name], f"{where} → {name}")

    for i, page in enumerate(pdf.pages, 1):
        walk(page.obj, f"page {i}")
    return missing


def test_shop_pdf_names_no_unknown_resource(shop_file):
    with pikepdf.open(shop_file) as pdf:
        assert _unknown_resources(pdf) == []
    check = subprocess.run(["qpdf", "--check", str(shop_file)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    poppler = subprocess.run(["pdftoppm", "-r", "10", "-f", "1", "-l", "1", str(shop_file)],
                             capture_output=True)
    assert b"unknown" not in poppler.stderr, poppler.stderr


def test_band_is_translucent(shop_file):
    doc = pdfium.PdfDocument(str(shop_file))
    scale = 150 / 72
    img = doc[0].render(scale=scale).to_pil().convert("RGB")
    bleed = 3 * MM
    # left of the frame inside the bleed: only the band over the white background
    x = round(1 * MM * scale)
    y = round((bleed + (BAND_TOP_MM + BAND_H_MM / 2) * MM) * scale)
    got = img.getpixel((x, y))
    band = (0x1B, 0x2A, 0x4A)
    expect = tuple(0.8 * c + 0.2 * 255 for c in band)  # 80 % band over white
    assert all(abs(g - e) <= 4 for g, e in zip(got, expect)), (got, expect)


# --- the same band through CMYK presets: PDF/X-4 keeps it translucent, PDF/X-1a refuses it ----

ART = (200, 60, 40)  # an RGB art image (a red 300 × 300 px square, 1 in at 300 dpi)


@pytest.fixture(scope="module")
def x4_file(tmp_path_factory) -> Path:
    from PIL import Image as PILImage

    tmp = tmp_path_factory.mktemp("alpha-x4")
    band = {"kind": "rect", "name": "band", "box": [0, BAND_TOP_MM, 63, BAND_H_MM], "bleed": True, "fill": BAND}
    art = {"kind": "image", "name": "art", "box": [20, 66, 25.4, 25.4], "file": "art.png"}
    game = write_game(tmp, face={"elements": FACE["elements"] + [band, art]},
                      manifest={"print": {"shop": "popls"}})
    PILImage.new("RGB", (300, 300), ART).save(game / "art.png")
    res = build_game(game, tmp / "out", steps=("shop",), exports=ExportOptions(jobs=1))
    return sorted((res.out_dir / "shop").glob("*_front.pdf"))[0]


def _opaque_render(cmyk, scale: float):
    """What pdfium draws for ``cmyk`` painted opaque: a one-rectangle PDF made with pikepdf."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(20, 20))
    page = pdf.pages[0]
    page.obj.Contents = pdf.make_stream(f"{' '.join(str(v) for v in cmyk)} k 0 0 20 20 re f".encode())
    buf = io.BytesIO()
    pdf.save(buf)
    return pdfium.PdfDocument(buf.getvalue())[0].render(scale=scale).to_pil().convert("RGB").getpixel((10, 10))


def test_x4_band_is_translucent_and_art_cmyk(x4_file):
    from cardgen.render.cmyk import InkModel, InkRules

    with pikepdf.open(x4_file) as pdf:
        assert _unknown_resources(pdf) == []
        meta = pdf.open_metadata()
        assert meta["{http://www.npes.org/pdfx/ns/id/}GTS_PDFXVersion"] == "PDF/X-4"
    images = subprocess.run(["pdfimages", "-list", str(x4_file)], capture_output=True, text=True, check=True).stdout
    rows = images.splitlines()[2:]
    assert rows and all(r.split()[5] == "cmyk" for r in rows if r.split()[2] == "image"), images
    scale = 150 / 72
    img = pdfium.PdfDocument(str(x4_file))[0].render(scale=scale).to_pil().convert("RGB")
    x = round(1 * MM * scale)
    y = round((3 * MM + (BAND_TOP_MM + BAND_H_MM / 2) * MM) * scale)
    got = img.getpixel((x, y))
    band_cmyk = InkModel(InkRules(tac=300)).colour((0x1B, 0x2A, 0x4A))
    opaque = _opaque_render(band_cmyk, scale)
    white = _opaque_render((0, 0, 0, 0), scale)
    expect = tuple(0.8 * o + 0.2 * w for o, w in zip(opaque, white))
    assert all(abs(g - e) <= 6 for g, e in zip(got, expect)), (got, expect, opaque)


def test_x1a_refuses_the_translucent_band(tmp_path):
    from cardgen.core.errors import CardgenError

    band = {"kind": "rect", "name": "band", "box": [0, BAND_TOP_MM, 63.5, BAND_H_MM], "bleed": True, "fill": BAND}
    game = write_game(tmp_path, face={"elements": FACE["elements"] + [band]},
                      manifest={"print": {"card_size": {"width": "2.5in", "height": "3.5in"}, "bleed": "0.125in"}})
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1, preset="drivethrucards"))
    found = [p for p in exc.value.problems if p.code == "shop-transparency"]
    assert found and all(BAND in p.message and "PDF/X-1a" in p.message for p in found)
    (p,) = found  # one finding for the band, at the first card, counting the others
    assert p.card.card_id == "n1" and p.card.face == "front" and "(and 11 more faces like it)" in p.message


def test_named_profile_must_be_cmyk(tmp_path):
    """print.cmyk_profile naming an RGB profile: one clear error at its line, nothing written."""
    from PIL import ImageCms

    from cardgen.core.errors import CardgenError

    game = write_game(tmp_path, manifest={"print": {"shop": "popls", "cmyk_profile": "srgb.icc"}})
    (game / "srgb.icc").write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1))
    (p,) = [p for p in exc.value.problems if p.code == "cmyk-profile"]
    assert p.code == "cmyk-profile" and "not a CMYK profile" in p.message and p.line is not None
    assert not (tmp_path / "out" / "mini" / "shop").exists()


def test_print_sheets_name_no_unknown_resource(shop_file):
    """The sheets draw a face used three times as a form too: the same fix holds there."""
    sheets = shop_file.parents[1] / "print-sheets.pdf"
    with pikepdf.open(sheets) as pdf:
        assert _unknown_resources(pdf) == []
        forms = [x for page in pdf.pages for x in page.obj.Resources.get("/XObject", {}).values()
                 if "/ExtGState" in x.get("/Resources", {})]
        assert forms  # the translucent faces are forms with their graphics states
    poppler = subprocess.run(["pdftoppm", "-r", "10", "-f", "1", "-l", "1", str(sheets)], capture_output=True)
    assert b"unknown" not in poppler.stderr, poppler.stderr


def _fills(owner) -> list[tuple]:
    """Every ``k`` of ``owner``'s content and its forms."""
    found = [tuple(round(float(v), 4) for v in ops) for ops, _op in pikepdf.parse_content_stream(owner, "k")]
    for _name, x in owner.get("/Resources", {}).get("/XObject", {}).items():
        if x.get("/Subtype") == "/Form":
            found += _fills(x)
    return found


def test_rich_black_for_large_solids(tmp_path):
    """A black 20 mm band prints in print.rich_black; the black 48 pt number stays K100."""
    band = {"kind": "rect", "name": "band", "box": [0, 40, 63, 20], "bleed": True, "fill": "#000000"}
    game = write_game(tmp_path, face={"elements": FACE["elements"] + [band]},
                      manifest={"print": {"shop": "popls", "rich_black": [50, 40, 40, 100]}})
    res = build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1))
    front = sorted((res.out_dir / "shop").glob("*_front.pdf"))[0]
    with pikepdf.open(front) as pdf:
        fills = set(_fills(pdf.pages[0].obj))
    assert (0.5, 0.4, 0.4, 1.0) in fills and (0.0, 0.0, 0.0, 1.0) in fills
