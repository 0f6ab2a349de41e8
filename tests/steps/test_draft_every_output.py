"""A forced build of 夜雀鬼 draft 2 (fails validation on purpose): every output shows one small,
identical DRAFT mark inside each card's safe area — print sheets, shop PDFs (text read back),
card PNGs and TTS sheets (pixels) — fronts and backs alike, and no page-wide watermark."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from cardgen.api import build_game
from cardgen.steps.exports import ExportOptions
from tests.conftest import needs_fonts
from tests.pdfread import CARD_DATA, open_pdf

pytestmark = needs_fonts

MM = 72 / 25.4
CARD_W, CARD_H, BLEED, SAFE = 63.0, 88.0, 3.0, 3.0  # yajanki: poker cards, game.yaml print:
RED = (0xD0, 0x02, 0x1B)  # cardgen.layout.draft_mark.DRAFT_COLOR, read as pixels


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    res = build_game(CARD_DATA / "yajanki", tmp_path_factory.mktemp("draft"), force=True,
                     steps=("sheets", "png", "tts", "shop"), exports=ExportOptions(png_sides="both", jobs=1))
    return res.out_dir


def _draft_words(page):
    """(x0, bottom, size) of each 「DRAFT」 on a pdfplumber page, y up from the page bottom, pt
    (not the 「DRAFT · draft 2」 the character template prints on placeholder content)."""
    H = float(page.height)
    words = page.extract_words(extra_attrs=["size"], keep_blank_chars=True)
    return [(w["x0"], H - w["bottom"], w["size"]) for w in words if w["text"].strip() == "DRAFT"]


def _bleed_boxes(page):
    H = float(page.height)
    return sorted((r["x0"], H - r["bottom"]) for r in page.rects
                  if abs(r["width"] - (CARD_W + 2 * BLEED) * MM) < 0.3 and abs(r["height"] - (CARD_H + 2 * BLEED) * MM) < 0.3)


def test_report_says_forced(out):
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["forced"] is True and data["draft"] is True and data["ok"] is False


def test_every_card_on_the_sheets_has_one_mark_at_the_same_place(out):
    """One 6 pt mark per card, each at the same spot relative to its card (front and back alike),
    inside the safe area; the only other 「DRAFT」 on a page is its label."""
    where = {"front": set(), "back": set()}
    with open_pdf(out / "print-sheets.pdf") as doc:
        for page in doc.pages:
            boxes = _bleed_boxes(page)
            assert boxes
            H = float(page.height)
            # the label band lies within 10 mm of the bottom edge (of the top edge on a back mirrored in y)
            words = [w for w in _draft_words(page) if 10 * MM < w[1] < H - 10 * MM]
            assert all(c.get("upright", True) for c in page.chars), "a diagonal watermark"
            loose = [c for c in page.chars if not any(x0 <= c["x0"] and c["x1"] <= x0 + (CARD_W + 2 * BLEED) * MM
                                                      and y0 <= H - c["bottom"] <= y0 + (CARD_H + 2 * BLEED) * MM
                                                      for x0, y0 in boxes)]
            assert all(min(H - c["top"], c["bottom"]) < 10 * MM for c in loose), "text across the cards"
            assert len(words) == len(boxes), (len(words), len(boxes))
            side = "back" if "裏 back" in (page.extract_text() or "") else "front"
            for x0, y0 in boxes:
                inside = [w for w in words if x0 < w[0] < x0 + (CARD_W + 2 * BLEED) * MM and y0 < w[1] < y0 + (CARD_H + 2 * BLEED) * MM]
                assert len(inside) == 1
                rx, ry = (inside[0][0] - x0) / MM - BLEED, (inside[0][1] - y0) / MM - BLEED  # mm from the trim corner
                assert SAFE <= rx <= CARD_W - SAFE and SAFE <= ry <= CARD_H - SAFE
                where[side].add((round(rx, 2), round(ry, 2), round(inside[0][2], 2)))
    assert len(where["front"]) == 1 and where["back"] == where["front"]


def test_every_shop_page_has_the_mark(out):
    spots = set()
    for pdf in sorted((out / "shop").glob("*.pdf")):
        with open_pdf(pdf) as doc:
            for page in doc.pages:
                words = _draft_words(page)
                assert len(words) == 1, (pdf.name, page.page_number)
                spots.add((round(words[0][0] / MM, 2), round(words[0][1] / MM, 2)))
    assert len(spots) == 1  # the same place on every face of every component


def _mark_region(img: Image.Image, px_per_mm: float, bleed_mm: float) -> Image.Image:
    """The bottom-centre of the safe area: 16 mm wide, from the safe edge 7 mm up (RGB)."""
    w, h = img.size
    cx = w / 2
    bottom = h - (bleed_mm + SAFE) * px_per_mm
    box = (int(cx - 8 * px_per_mm), int(bottom - 7 * px_per_mm), int(cx + 8 * px_per_mm), int(bottom))
    return img.convert("RGB").crop(box)


def _red_mask(region: Image.Image) -> frozenset:
    """Positions (row-major pixel indices) of the pixels of the mark's red in ``region``: those
    whose summed |R−r| + |G−g| + |B−b| from the mark's red is below 60."""
    px = np.asarray(region.convert("RGB"), dtype=np.int16).reshape(-1, 3)
    return frozenset(np.flatnonzero(np.abs(px - RED).sum(axis=1) < 60).tolist())


def _red_pixels(region: Image.Image) -> int:
    return len(_red_mask(region))


def test_every_card_png_has_the_mark_the_same_on_every_face(out):
    """The mark's red pixels lie at the same positions on every back (so no cut card is told
    apart by its back) and on every front; fronts and backs differ only where the outline's
    edge blends into a light or a dark background."""
    pngs = sorted((out / "cards").glob("*.png"))
    assert len(pngs) == 2 * (46 + 15)
    masks: dict[str, set] = {"front": set(), "back": set()}
    for png in pngs:
        mask = _red_mask(_mark_region(Image.open(png), 300 / 25.4, BLEED))
        assert len(mask) > 200, png.name
        masks["back" if png.stem.endswith("-back") else "front"].add(mask)
    assert len(masks["back"]) == 1 and len(masks["front"]) == 1
    (back,), (front,) = masks["back"], masks["front"]
    assert len(back ^ front) < 0.05 * len(back)


def test_every_tts_card_has_the_mark(out):
    saves = list((out / "tts").glob("*.json"))
    assert len(saves) == 1
    decks = json.loads(saves[0].read_text(encoding="utf-8"))["ObjectStates"]
    assert any(e["UniqueBack"] for d in decks for e in d["CustomDeck"].values())  # 夜雀鬼's character backs
    for deck in decks:
        for key, entry in deck["CustomDeck"].items():
            slots = [c["CardID"] % 100 for c in deck["ContainedObjects"] if c["CardID"] // 100 == int(key)]
            hidden = entry["NumWidth"] * entry["NumHeight"] - 1
            files = [entry["FaceURL"]] + ([entry["BackURL"]] if entry["UniqueBack"] else [])
            for url in files:
                img = Image.open(url[len("file://"):])
                cw, ch = img.size[0] // entry["NumWidth"], img.size[1] // entry["NumHeight"]
                for slot in slots + [hidden]:
                    r, c = divmod(slot, entry["NumWidth"])
                    cell = img.crop((c * cw, r * ch, (c + 1) * cw, (r + 1) * ch))
                    assert _red_pixels(_mark_region(cell, cw / CARD_W, 0.0)) > 10, (url, slot)
            if not entry["UniqueBack"]:
                back = Image.open(entry["BackURL"][len("file://"):])
                assert _red_pixels(_mark_region(back, back.size[0] / CARD_W, 0.0)) > 10


def test_a_valid_build_has_no_mark(built_games):
    res = built_games("tenjanpai", steps=("sheets",))
    with open_pdf(res.out_dir / "print-sheets.pdf") as doc:
        assert not any(_draft_words(p) for p in doc.pages)
    assert json.loads((res.out_dir / "report.json").read_text(encoding="utf-8"))["forced"] is False


def test_forced_build_past_a_layout_error_is_a_draft_too(tmp_path):
    """Text that does not fit fails `validate` (exit 1) like a deck-math error, so a forced build of it
    is a draft: the DRAFT mark on every face and page label, and report.json says so (a proof with a
    known error printed unmarked could go to the printer)."""
    from tests.minigame import CARDS, write_game
    cards = [dict(CARDS[0], name="とても長いカード名が枠に入りきらない" * 6), *CARDS[1:]]
    game = write_game(tmp_path, cards=cards)
    res = build_game(game, tmp_path / "out", force=True, steps=("sheets",))
    assert not res.report.errors and any(p.severity == "error" for p in res.layout)  # a layout error only
    report = json.loads((res.out_dir / "report.json").read_text(encoding="utf-8"))
    assert report["forced"] is True and report["draft"] is True
    with open_pdf(res.out_dir / "print-sheets.pdf") as pdf:
        marks = sum(len(_draft_words(page)) for page in pdf.pages)
        assert marks == 2 * sum(c["count"] for c in cards)  # every face, front and back, of the 12 cards
        assert all("DRAFT – validation failed" in page.extract_text() for page in pdf.pages)
