"""A font's OS/2 fsType: ``embedding_restriction`` in words, and an error for the shop files."""
from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

from cardgen.api import build_game
from cardgen.core.errors import CardgenError
from cardgen.fonts.licence import embedding_restriction
from cardgen.steps.export_options import ExportOptions
from tests.minigame import write_game


def digits_font(path: Path, fs_type: int) -> Path:
    """A TrueType font with boxes for the digits 0–9, with OS/2 ``fsType``."""
    order = [".notdef", "space"] + [f"d{i}" for i in range(10)]
    glyphs = {}
    for g in order:
        pen = TTGlyphPen(None)
        if g != "space":
            pen.moveTo((50, 0)), pen.lineTo((50, 700)), pen.lineTo((550, 700)), pen.lineTo((550, 0)), pen.closePath()
        glyphs[g] = pen.glyph()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x20: "space", **{0x30 + i: f"d{i}" for i in range(10)}})
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({g: (600, 0) for g in order})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": f"Digits{fs_type}", "styleName": "Regular", "psName": f"Digits{fs_type}-Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=fs_type)
    fb.setupPost()
    fb.save(str(path))
    return path


@pytest.mark.parametrize("fs_type, words", [(0, None), (0x0008, None), (0x0004, None), (0x0002, "forbids embedding"),
                                            (0x0100, "forbids subsetting"), (0x0200, "only bitmap")])
def test_fs_type_in_words(tmp_path, fs_type, words):
    why = embedding_restriction(digits_font(tmp_path / f"d{fs_type}.ttf", fs_type))
    assert (why is None) if words is None else (words in why)


def test_restricted_font_is_an_error_for_the_shop_files(tmp_path):
    game = write_game(tmp_path, manifest={"fonts": {"number": "digits.ttf"}})
    digits_font(game / "digits.ttf", 0x0002)
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1, preset="popls"))
    (p,) = [p for p in exc.value.problems if p.code == "font-embedding"]
    assert p.path == "fonts → number" and "digits.ttf forbids embedding" in p.message
    assert not (tmp_path / "out" / "mini" / "shop").exists()
