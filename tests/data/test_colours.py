"""Colours as designers write them (#rgb, #rrggbb, #rrggbbaa, CSS names): accepted by the
template checks and drawn with the right colour (pixels read back from the card PNG)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardgen.api import build_game
from cardgen.core.colours import parse_colour
from cardgen.steps.exports import ExportOptions
from tests.conftest import needs_fonts

BASE = Path(__file__).parents[1] / "fixtures" / "bad" / "_base"


@pytest.mark.parametrize("value, want", [
    ("#fff", (255, 255, 255, 255)), ("#1A2b3C", (0x1A, 0x2B, 0x3C, 255)), ("#ff000080", (255, 0, 0, 128)),
    ("teal", (0, 128, 128, 255)), ("White", (255, 255, 255, 255)), ("rebeccapurple", (102, 51, 153, 255)),
    ("#12", None), ("rgb(1,2,3)", None), ("reddish", None), ("", None),
])
def test_colour_forms(value, want):
    assert parse_colour(value) == want


@needs_fonts
def test_short_hex_and_names_are_drawn(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    card = game / "templates" / "cards" / "card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace(
        'description: Test card.', 'description: Test card.\nbackground: "#0f0"') +
        '  - {kind: rect, name: swatch, box: [40, 70, 15, 10], fill: teal}\n'
        '  - {kind: rect, name: veil, box: [6, 70, 15, 10], fill: "#ff000080"}\n', encoding="utf-8")
    res = build_game(game, tmp_path / "out", steps=("png",), exports=ExportOptions(jobs=1))
    png = sorted((res.out_dir / "cards").glob("*.png"))[0]
    im = Image.open(png).convert("RGB")
    px = lambda x_mm, y_mm: im.getpixel((round((x_mm + 3) / 25.4 * 300), round((y_mm + 3) / 25.4 * 300)))
    assert px(30, 84) == (0, 255, 0)  # background #0f0
    assert px(47, 75) == (0, 128, 128)  # teal
    r, g, b = px(13, 75)  # half-opaque red over the green background
    assert abs(r - 128) <= 3 and abs(g - 127) <= 3 and b <= 3
