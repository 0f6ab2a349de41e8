"""Card art as it comes, drawn with the right colour: a 16-bit greyscale PNG, art tagged with an
ICC profile (Adobe RGB), CMYK JPEGs with and without Adobe's APP14 marker. Each is built into a
card and its pixels are read back from the card PNG (rasterised from the card's PDF)."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from cardgen.api import build_game
from cardgen.steps.exports import ExportOptions

from tests.conftest import needs_fonts
from tests.check.test_art_preflight import make_game
from tests.imagefiles import ADOBE_RGB_COLORANTS, ADOBE_RGB_GAMMA, cmyk_jpeg, png16, rgb_profile

#: sRGB primaries adapted to D50 (Bradford), IEC 61966-2-1 via the ICC's D50 connection space
#: (B. Lindbloom's RGB/XYZ matrices): the space Adobe RGB values are converted into.
SRGB_D50 = np.array([[0.4360747, 0.3850649, 0.1430804], [0.2225045, 0.7168786, 0.0606169],
                     [0.0139322, 0.0971045, 0.7141733]])
ORANGE = (200, 100, 50)

ROWS = [
    ("grey16", "art/grey16.png", "cover", "16ビット"),
    ("cyan-adobe", "art/cyan-adobe.jpg", "cover", "印刷色"),
    ("cyan-plain", "art/cyan-plain.jpg", "cover", "印刷色"),
    ("orange-adobergb", "art/orange-adobergb.png", "cover", "色域"),
    ("orange-untagged", "art/orange-untagged.png", "cover", "色域"),
    ("green-adobergb", "art/green-adobergb.png", "cover", "色域"),
]


def adobe_rgb_to_srgb(rgb: tuple[int, int, int]) -> tuple[int, ...]:
    """What an Adobe RGB (1998) colour is in sRGB, computed from the two colour spaces'
    definitions (colorants, gamma 563/256, the sRGB tone curve), clipped to the sRGB gamut."""
    linear = (np.array(rgb) / 255.0) ** ADOBE_RGB_GAMMA
    xyz = np.array(ADOBE_RGB_COLORANTS).T @ linear
    s = np.clip(np.linalg.solve(SRGB_D50, xyz), 0, 1)
    encoded = np.where(s <= 0.0031308, 12.92 * s, 1.055 * s ** (1 / 2.4) - 0.055)
    return tuple(int(round(v * 255)) for v in encoded)


@pytest.fixture(scope="module")
def card_pixels(tmp_path_factory):
    """Card id → the RGB pixel at the centre of its art box (31.5 × 22 mm from the trim's top
    left), read from the card PNG at 300 dpi."""
    tmp = tmp_path_factory.mktemp("artcolour")
    game = make_game(tmp, ROWS)
    art = game / "art"
    png16(art / "grey16.png", 0, (32768,), size=(900, 700))  # 50 % grey in 16 bits
    cmyk_jpeg(art / "cyan-adobe.jpg", (255, 0, 0, 0), adobe_marker=True, size=(900, 700))
    cmyk_jpeg(art / "cyan-plain.jpg", (255, 0, 0, 0), adobe_marker=False, size=(900, 700))
    profile = rgb_profile()
    Image.new("RGB", (900, 700), ORANGE).save(art / "orange-adobergb.png", icc_profile=profile)
    Image.new("RGB", (900, 700), ORANGE).save(art / "orange-untagged.png")
    Image.new("RGB", (900, 700), (0, 255, 0)).save(art / "green-adobergb.png", icc_profile=profile)
    res = build_game(game, tmp / "out", steps=("png",), exports=ExportOptions(jobs=1))
    out = {}
    for png in (res.out_dir / "cards").glob("*.png"):
        im = Image.open(png).convert("RGB")
        card = png.stem.split("-", 2)[2]
        out[card] = im.getpixel((round((31.5 + 3) / 25.4 * 300), round((22 + 3) / 25.4 * 300)))
    return out


def close(got, want, tol=3):
    return all(abs(g - w) <= tol for g, w in zip(got, want))


@needs_fonts
def test_16_bit_grey_png_stays_half_grey(card_pixels):
    assert close(card_pixels["grey16"], (128, 128, 128), 2), card_pixels["grey16"]


@needs_fonts
@pytest.mark.parametrize("card", ["cyan-adobe", "cyan-plain"])
def test_cmyk_cyan_stays_cyan_with_or_without_adobe_marker(card_pixels, card):
    assert close(card_pixels[card], (0, 255, 255), 4), card_pixels[card]


@needs_fonts
def test_icc_tagged_art_is_converted_to_srgb(card_pixels):
    want = adobe_rgb_to_srgb(ORANGE)
    assert close(want, (227, 100, 42), 2)  # the conversion moves this orange visibly
    assert close(card_pixels["orange-adobergb"], want), (card_pixels["orange-adobergb"], want)
    assert close(card_pixels["orange-untagged"], ORANGE), card_pixels["orange-untagged"]


@needs_fonts
def test_adobe_rgb_pure_green_lies_outside_srgb_and_is_clipped_to_srgb_green(card_pixels):
    """Adobe RGB's green primary is more saturated than sRGB's: in sRGB it would need negative
    red and blue, so it is clipped to the sRGB gamut's edge — the untagged pure green."""
    assert adobe_rgb_to_srgb((0, 255, 0)) == (0, 255, 0)
    assert close(card_pixels["green-adobergb"], (0, 255, 0)), card_pixels["green-adobergb"]
