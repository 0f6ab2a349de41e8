"""A ``#rrggbbaa`` colour stays translucent in the print-shop PDF (issue 29).

The shop file draws each face as a form XObject; reportlab 5.1 leaves a form's ``/ExtGState`` out
of its resources, so the band's ``/gRLs0 gs`` named nothing: poppler reported "ExtGState 'gRLs0' is
unknown" and the band printed opaque. One build of the mini game with a translucent band, read back
strictly (every resource a content stream names exists) and rendered with pdfium.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from cardgen.api import build_game
from cardgen.core.units import MM
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
