"""The colour preflight of a print-shop preset (``print.shop`` in game.yaml): each finding names the
card, the element and the value, found by ``cardgen validate`` (check_game) before anything is drawn."""
from __future__ import annotations

from PIL import Image

from cardgen.steps.game_check import check_game
from tests.minigame import FACE, write_game

INCH = {"card_size": "poker-us", "bleed": "0.125in"}


def _found(game, code: str):
    check = check_game(game, rulebook=False)
    return [p for p in check.layout if p.code == code]


def test_small_dark_text_not_k_only(tmp_path):
    note = {"kind": "text", "name": "note", "box": [6, 72, 51, 6], "text": "注", "font": "body", "size": 7,
            "color": "#1a1a3a"}
    game = write_game(tmp_path, face={"elements": FACE["elements"] + [note]}, manifest={"print": {"shop": "popls"}})
    (p,) = _found(game, "shop-not-k-only")
    assert p.card.card_id == "n1" and p.card.face == "front" and p.field.startswith("text 「注")
    assert "#1a1a3a at 7 pt prints in four inks" in p.message and "(and 11 more faces like it)" in p.message
    # the name is black (#000000, the default): K only, no finding for it
    assert not [f for f in _found(game, "shop-not-k-only") if "カード" in f.field]


def test_tac_over_the_shops_limit(tmp_path):
    band = {"kind": "rect", "name": "band", "box": [0, 20, 63.5, 10], "fill": "#3a0a0a"}
    game = write_game(tmp_path, face={"elements": FACE["elements"] + [band]},
                      manifest={"print": {"shop": "drivethrucards", **INCH}})
    found = _found(game, "shop-tac")
    (p,) = [f for f in found if "#3a0a0a" in f.message]
    assert "over the 240 % limit of DriveThruCards" in p.message and p.field == "rect fill"
    assert p.severity == "warning"


def test_translucent_colour_in_x1a(tmp_path):
    band = {"kind": "rect", "name": "band", "box": [0, 20, 63.5, 10], "fill": "#1b2a4acc"}
    game = write_game(tmp_path, face={"elements": FACE["elements"] + [band]},
                      manifest={"print": {"shop": "drivethrucards", **INCH}})
    (p,) = _found(game, "shop-transparency")
    assert p.severity == "error" and "#1b2a4acc is translucent" in p.message and p.card.card_id == "n1"
    # the same band in a PDF/X-4 preset is fine
    game4 = write_game(tmp_path / "x4", face={"elements": FACE["elements"] + [band]},
                       manifest={"print": {"shop": "popls"}})
    assert _found(game4, "shop-transparency") == []


def test_art_below_the_shops_dpi(tmp_path):
    art = {"kind": "image", "name": "art", "box": [10, 40, 25.4, 25.4], "file": "art.png", "fit": "contain"}
    game = write_game(tmp_path, face={"elements": FACE["elements"] + [art]}, manifest={"print": {"shop": "printry"}})
    Image.new("RGB", (200, 200), (200, 60, 40)).save(game / "art.png")
    (p,) = _found(game, "shop-low-dpi")
    assert "art.png prints at 200 dpi; プリントリー (printry) wants 300 dpi" in p.message and p.card.card_id == "n1"


def test_unknown_shop_in_game_yaml(tmp_path):
    game = write_game(tmp_path, manifest={"print": {"shop": "kinkos"}})
    (p,) = _found(game, "unknown-shop-preset")
    assert p.path == "print → shop" and "drivethrucards" in p.hint


def test_safe_area_narrower_than_the_shops(tmp_path):
    game = write_game(tmp_path, manifest={"print": {"shop": "drivethrucards", **INCH, "safe": 3}})
    (p,) = _found(game, "shop-safe")
    assert p.path == "print → safe" and "3.175 mm" in p.message and p.severity == "warning"
