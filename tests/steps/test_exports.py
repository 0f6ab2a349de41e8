"""Exports of 天雀牌: per-card PNGs, Tabletop Simulator sheets, print-shop PDFs, --sides."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from PIL import Image
from pypdf import PdfReader

from cardgen.api import build_game
from cardgen.steps.exports import ExportOptions, card_file
from cardgen.layout.tts import cell_size, tts_sheets
from cardgen.steps.sheets import SheetOptions
from cardgen.render.png_cards import px
from cardgen.core.units import MM

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "card_data" / "tenjanpai"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    res = build_game(GAME, out, steps=("png", "tts", "shop"), exports=ExportOptions(jobs=2))
    return res.out_dir


def test_png_per_physical_card(built):
    pngs = sorted((built / "cards").glob("*.png"))
    # 42 battle + 15 character cards + 40 power tokens: tokens are physical pieces too
    assert len(pngs) == 42 + 15 + 40
    assert (built / card_file("battle", 1, "b2-chi")).is_file()
    assert (built / "cards" / "characters-015-c5-3.png").is_file()
    card = (px(63 + 6, 300), px(88 + 6, 300))
    assert card == (815, 1110)
    for p in pngs:
        with Image.open(p) as im:
            expect = (px(22, 300), px(22, 300)) if p.name.startswith("power_cubes") else card
            assert im.size == expect, p.name
            assert "time" not in im.info and not any(k in im.info for k in ("Comment", "Software"))


def test_png_copies_identical_and_show_the_card(built):
    a = (built / "cards" / "battle-001-b2-chi.png").read_bytes()
    b = (built / "cards" / "battle-008-b2-chi.png").read_bytes()
    assert a == b
    with Image.open(built / "cards" / "battle-001-b2-chi.png") as im:
        rgb = im.convert("RGB")
        # the background fills the bleed (#f7f1e3); the medallion centre is white inside a red ring
        assert rgb.getpixel((3, 3)) == (0xF7, 0xF1, 0xE3)
        # the medallion where the shared battle template puts it (box x, y, w, h in mm from the trim)
        medallion = next(e for e in yaml.safe_load((ROOT / "templates" / "cards" / "battle.yaml").read_text(
            encoding="utf-8"))["elements"] if e.get("name") == "medallion")
        x, y, w, h = medallion["box"]
        ring_y = px(3 + y + h / 2, 300)  # circle centre, from the bleed edge
        left_edge_x = px(3 + x, 300)
        r, g, bl = rgb.getpixel((left_edge_x + 1, ring_y))
        assert r > 100 and g < 80 and bl < 80  # #8c1c13 stroke
    with Image.open(built / "cards" / "characters-001-c1-1.png") as im:
        # the character band bleeds: top-left bleed pixel is the band colour #23395b
        assert im.convert("RGB").getpixel((2, 2)) == (0x23, 0x39, 0x5B)


def test_png_bytes_do_not_depend_on_jobs(tmp_path, built):
    res = build_game(GAME, tmp_path, steps=("png",), exports=ExportOptions(jobs=1))
    for name in ("battle-001-b2-chi.png", "characters-007-c3-1.png", "power_cubes-040-power.png"):
        assert (res.out_dir / "cards" / name).read_bytes() == (built / "cards" / name).read_bytes()


def test_png_without_bleed_and_backs(tmp_path):
    res = build_game(GAME, tmp_path, steps=("png",), exports=ExportOptions(jobs=1, dpi=100, bleed=False, png_sides="back"))
    names = sorted(p.name for p in (res.out_dir / "cards").glob("*.png"))
    assert len(names) == 42 + 15 and all(n.endswith("-back.png") for n in names)  # tokens have no back
    with Image.open(res.out_dir / "cards" / names[0]) as im:
        assert im.size == (px(63, 100), px(88, 100))
        assert im.convert("RGB").getpixel((0, 0)) == (0x8C, 0x1C, 0x13)  # battle back colour right at the trim


def _file(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(url[len("file://"):])


def test_tts_sheets(built):
    """The saved object's images: the battle sheet holds 42 fronts in 10 × 5 (the hidden slot 49
    shows the back; slot 42 is empty), the back image is one card's cell."""
    save = json.loads((built / "tts" / "tenjanpai.json").read_text(encoding="utf-8"))
    decks = {d["Nickname"]: d for d in save["ObjectStates"]}
    assert set(decks) == {"闘牌カード", "天雀カード", "パワーキューブ"}  # the tokens are a deck of square pieces
    battle = decks["闘牌カード"]
    (sheet,) = battle["CustomDeck"].values()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (10, 5) and len(battle["DeckIDs"]) == 42
    with Image.open(_file(sheet["FaceURL"])) as im:
        assert max(im.size) <= 4096
        cw, ch = im.size[0] // 10, im.size[1] // 5
        rgb = im.convert("RGB")
        assert rgb.getpixel((cw // 2, 2)) == (0xF7, 0xF1, 0xE3)
        assert rgb.getpixel((2 * cw + cw // 2, 4 * ch + ch // 2)) == (255, 255, 255)
        assert rgb.getpixel((9 * cw + 3, 4 * ch + 3)) == (0x8C, 0x1C, 0x13)
    with Image.open(_file(sheet["BackURL"])) as im:
        assert im.size == (cw, ch)


def test_tts_grid_math():
    assert cell_size(63, 88) == (409, 571)
    sheets = tts_sheets(150, 63, 88)
    assert [len(s.cards) for s in sheets] == [69, 69, 12]
    assert [(s.cols, s.rows) for s in sheets] == [(10, 7), (10, 7), (10, 2)]  # 12 cards + hidden: 2 rows
    assert all(max(s.size) <= 4096 and s.cell == sheets[0].cell for s in sheets)
    assert [s.rows for s in (tts_sheets(n, 63, 88)[0] for n in (1, 19, 20, 59, 60))] == [2, 2, 3, 6, 7]
    wide = cell_size(120, 70)
    assert wide[0] * 10 <= 4096 and wide[1] * 7 <= 4096


def _boxes_mm(page):
    def mm(box):
        return tuple(round(float(v) / MM, 2) for v in box)
    return mm(page.trimbox), mm(page.bleedbox), mm(page.mediabox)


def test_shop_pdf_boxes_and_order(built):
    reader = PdfReader(built / "shop" / "battle.pdf")
    assert len(reader.pages) == 84
    for page in reader.pages:
        trim, bleed, media = _boxes_mm(page)
        assert (round(trim[2] - trim[0], 2), round(trim[3] - trim[1], 2)) == (63, 88)
        assert (trim[0], trim[1]) == (3, 3)
        assert (round(bleed[2] - bleed[0], 2), round(bleed[3] - bleed[1], 2)) == (69, 94)
        assert media == bleed
    # front 1, back 1, front 2…: odd pages carry the back's title text
    texts = [reader.pages[i].extract_text() for i in range(4)]
    assert "天雀牌" not in texts[0] and "天雀牌" in texts[1] and "天雀牌" in texts[3]
    assert "2" in texts[0]
    tokens = PdfReader(built / "shop" / "power_cubes.pdf")
    assert len(tokens.pages) == 40  # no backs


def test_shop_sides(tmp_path):
    res = build_game(GAME, tmp_path, steps=("shop",), exports=ExportOptions(sides="back"))
    assert len(PdfReader(res.out_dir / "shop" / "characters.pdf").pages) == 15
    assert not (res.out_dir / "shop" / "power_cubes.pdf").exists()  # no backs to print


def test_sheet_sides_and_back_offset(tmp_path):
    both = build_game(GAME, tmp_path / "a", SheetOptions(), steps=("sheets",))
    fronts = build_game(GAME, tmp_path / "b", SheetOptions(sides="front"), steps=("sheets",))
    backs = build_game(GAME, tmp_path / "c", SheetOptions(sides="back"), steps=("sheets",))
    n_both = len(PdfReader(both.out_dir / "print-sheets.pdf").pages)
    n_front = len(PdfReader(fronts.out_dir / "print-sheets.pdf").pages)
    n_back = len(PdfReader(backs.out_dir / "print-sheets.pdf").pages)
    # tokens have no backs: both sides add a blank back page after the token sheet, backs alone skip it
    assert n_front + n_back + 1 == n_both and n_back < n_front
