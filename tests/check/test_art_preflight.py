"""Card art and the preflight report, on a small game made in tmp_path: deliberately bad images
(low resolution, alpha, CMYK, EXIF-rotated, too large, missing), long text, a character the
font cannot draw. Checks what report.json says and what the PNG shows."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardgen.api import build_game
from cardgen.core.errors import CardgenError
from cardgen.steps.exports import ExportOptions
from cardgen.render import images as images_mod
from cardgen.render.png_cards import px

from conftest import ROOT, needs_fonts

GREY = (0x80, 0x80, 0x80)

MANIFEST = """\
game: {id: arttest, title: 絵のテスト, version: "t1", players: [2]}
print: {card_size: poker, bleed: 3, safe: 3}
components:
  - id: art
    name: 絵札
    kind: deck
    count: 6
    cards: art.csv
    template: art_card
"""

TEMPLATE = """\
description: Test card with full-bleed art on the top half and a text box.
background: "#808080"
elements:
  - {kind: image, name: art, box: [0, 0, 63, 44], bleed: true, file: "{{ card.art }}", fit: cover, if: "card.fit == 'cover'"}
  - {kind: image, name: art, box: [0, 0, 63, 44], bleed: true, file: "{{ card.art }}", fit: contain, if: "card.fit == 'contain'"}
  - {kind: text, name: body, box: [5, 50, 53, 30], text: "{{ card.text }}", font: body, size: 9, min_size: 5}
"""

SHRINKING = "長い説明文が続きます。" * 14
ROWS = [
    ("lowres", "art/lowres.png", "contain", "小さな絵"),
    ("alpha", "art/alpha.png", "cover", "透明"),
    ("cmyk", "art/cmyk.jpg", "cover", "印刷色"),
    ("exif", "art/exif.jpg", "cover", "回転"),
    ("long", "art/big.png", "cover", SHRINKING),
]
GLYPH = ("glyph", "art/big.png", "cover", "麻雀の牌🀄です")


def make_game(dest: Path, rows=ROWS) -> Path:
    """A one-deck game beside copies of the project's fonts, with generated art."""
    shutil.copytree(ROOT / "fonts", dest / "fonts")
    game = dest / "card_data" / "arttest"
    (game / "templates" / "cards").mkdir(parents=True)
    (game / "art").mkdir()
    (game / "game.yaml").write_text(MANIFEST.replace("count: 6", f"count: {len(rows)}"), encoding="utf-8")
    (game / "templates" / "cards" / "art_card.yaml").write_text(TEMPLATE, encoding="utf-8")
    lines = ["id,art,fit,text"] + [",".join(r) for r in rows]
    (game / "art.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    art = game / "art"
    Image.new("RGB", (30, 40), (255, 0, 0)).save(art / "lowres.png")
    alpha = Image.new("RGBA", (1600, 1200), (0, 0, 255, 255))
    alpha.paste((0, 0, 0, 0), (0, 0, 800, 1200))  # left half fully transparent
    alpha.save(art / "alpha.png")
    Image.new("CMYK", (1000, 800), (255, 0, 0, 0)).save(art / "cmyk.jpg", quality=95)  # pure cyan ink
    upright = Image.new("RGB", (900, 1350), (0, 200, 0))  # top half green…
    upright.paste((200, 0, 200), (0, 675, 900, 1350))  # …bottom half magenta
    stored = upright.transpose(Image.Transpose.ROTATE_90)  # what a camera held sideways stores
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90° clockwise to display"
    stored.save(art / "exif.jpg", quality=95, exif=exif.tobytes())
    Image.new("RGB", (900, 700), (255, 255, 0)).save(art / "big.png")
    return game


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("art")
    game = make_game(root)
    res = build_game(game, root / "out", steps=("png",), exports=ExportOptions(jobs=1), force=True)  # 22 dpi art
    report = json.loads((res.out_dir / "report.json").read_text(encoding="utf-8"))
    return res, report


def _px(res, name: str):
    im = Image.open(res.out_dir / "cards" / name).convert("RGB")
    return lambda x_mm, y_mm: im.getpixel((px(x_mm + 3, 300), px(y_mm + 3, 300)))  # trim mm → bleed px


def _close(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


pytestmark = needs_fonts


def test_low_resolution_is_reported_and_contained(built):
    res, report = built
    low = [f for f in report["findings"] if f["code"] == "image-low-dpi"]
    assert [f["card"] for f in low] == ["art lowres"]
    assert low[0]["severity"] == "error"  # below 150 dpi: --force printed it
    assert low[0]["detail"]["dpi"] < 30 and "lowres.png" in low[0]["message"]
    assert low[0]["file"].endswith("art.csv") and low[0]["line"] == 2
    at = _px(res, "art-001-lowres.png")
    assert _close(at(31.5, 20), (255, 0, 0))  # contained image, centred
    assert _close(at(2, 20), GREY)  # beside it: the background (contain leaves room)


def test_one_low_resolution_image_on_many_cards_is_one_finding(tmp_path):
    """Nine cards showing one low-resolution image: one finding at the first card's row naming
    the cards (three by name, all nine in report.json's detail), not nine."""
    rows = [(f"low{i}", "art/lowres.png", "contain", "小さな絵") for i in range(1, 10)]
    game = make_game(tmp_path, rows)
    res = build_game(game, tmp_path / "out", steps=("sheets",), force=True)
    report = json.loads((res.out_dir / "report.json").read_text(encoding="utf-8"))
    [low] = [f for f in report["findings"] if f["code"] == "image-low-dpi"]
    assert (low["file"].endswith("art.csv"), low["line"], low["card"]) == (True, 2, "")
    assert low["message"].endswith("(cards low1, low2, low3 and 6 more)")
    assert low["detail"]["cards"] == [f"low{i}" for i in range(1, 10)]


def test_alpha_shows_the_background(built):
    res, report = built
    at = _px(res, "art-002-alpha.png")
    assert _close(at(10, 20), GREY)
    assert _close(at(50, 20), (0, 0, 255))
    assert _close(at(-2.5, -2.5), GREY)  # the bleed corner: transparent art over the background


def test_cmyk_jpeg_becomes_the_right_rgb(built):
    res, _ = built
    r, g, b = _px(res, "art-003-cmyk.png")(31.5, 20)
    assert r < 30 and g > 225 and b > 225  # cyan, not its inverse (red)


def test_exif_rotated_photo_is_upright(built):
    res, _ = built
    at = _px(res, "art-004-exif.png")
    assert _close(at(31.5, 5), (0, 200, 0), 20)  # top of the box: the photo's top half
    assert _close(at(31.5, 40), (200, 0, 200), 20)


def test_art_extends_into_the_bleed(built):
    res, _ = built
    at = _px(res, "art-005-long.png")
    assert _close(at(-2.8, -2.8), (255, 255, 0))  # bleed: true → yellow art in the bleed corner
    assert _close(at(-2.8, 60), GREY)  # below the art box: background


def test_long_text_shrinks_and_is_reported(built):
    _, report = built
    shrunk = [f for f in report["findings"] if f["code"] == "text-shrunk"]
    assert [(f["card"], f["field"]) for f in shrunk] == [("art long", "body")]
    assert report["summary"]["text shrunk"]["warning"] == 1


def test_missing_glyph_names_card_and_character(tmp_path):
    game = make_game(tmp_path, [ROWS[0], GLYPH])
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("sheets",))
    assert "art.csv:3" in exc.value.format() and "🀄" in exc.value.format()
    res = build_game(game, tmp_path / "out", steps=("sheets",), force=True)
    report = json.loads((res.out_dir / "report.json").read_text(encoding="utf-8"))
    miss = [f for f in report["findings"] if f["code"] == "missing-glyph"]
    assert len(miss) == 1 and miss[0]["card"] == "art glyph" and miss[0]["field"] == "body"
    assert "🀄" in miss[0]["message"] and "U+1F004" in miss[0]["message"]
    assert report["summary"]["characters the font cannot draw"]["error"] == 1


def test_report_counts_and_deck(built):
    res, report = built
    assert report["cards"] == {"art": 5} and report["ok"] is False  # the 22 dpi art, printed with --force
    assert res.preflight.warnings and [f.code for f in res.preflight.errors] == ["image-low-dpi"]
    assert len(list((res.out_dir / "cards").glob("*.png"))) == 5


def test_strict_turns_warnings_into_failure(tmp_path):
    game = make_game(tmp_path, ROWS[1:])
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("png",), exports=ExportOptions(jobs=1), strict=True)
    text = exc.value.format()
    assert "art long → body" in text
    assert "arttest/game.yaml: error: arttest: 1 warning(s) with --strict" in text.splitlines()[-2]  # not <input>
    assert not (tmp_path / "out" / "arttest").exists()  # nothing written


def test_text_that_does_not_fit_fails_naming_the_card(tmp_path):
    game = make_game(tmp_path, [("huge", "art/big.png", "cover", "とても長い文章。" * 80)])
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("sheets",), exports=ExportOptions(jobs=1))
    assert "art.csv:2" in exc.value.format() and "art huge → body" in exc.value.format()
    res = build_game(game, tmp_path / "out", steps=("sheets",), force=True)
    report = json.loads((res.out_dir / "report.json").read_text(encoding="utf-8"))
    codes = [f["code"] for f in report["findings"]]
    assert codes[0] == "text-overflow" and set(codes) <= {"text-overflow", "outside-safe"} and len(codes) <= 2
    assert report["ok"] is False


def test_missing_image_names_table_row_and_card(tmp_path):
    game = make_game(tmp_path, [("gone", "art/nothere.png", "cover", "x")])
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("sheets",))
    msg = exc.value.format()
    assert "art.csv:2" in msg and "art gone → art" in msg and "nothere.png" in msg


def test_decompression_bomb_is_refused(tmp_path, monkeypatch):
    game = make_game(tmp_path, [("bomb", "art/big.png", "cover", "x")])
    monkeypatch.setattr(images_mod, "MAX_PIXELS", 10_000)
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("png",), exports=ExportOptions(jobs=1))
    msg = exc.value.format()
    assert "big.png" in msg and "too large" in msg and "art bomb" in msg
