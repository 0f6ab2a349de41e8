"""Card figures read back from 天雀牌's rulebook: the 河 after a ポン (a card laid sideways, its
size and turn in mm, the captions), the table for 4 and 3 players, captions under the example
cards; and the pure layouts (no two cards of a table overlap)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.core.units import MM
from cardgen.rulebook.figures import CardSpec, row_layout, table_layout
from tests.pdfread import open_pdf, vertical_columns

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")
OUTLINE = (0.6, 0.6, 0.6)  # #999999, the outline drawn around every card of a figure


@pytest.fixture(scope="module")
def pages(built_games):
    out = built_games("tenjanpai", force=True, steps=("rulebook",)).out_dir
    with open_pdf(out / "rulebook.pdf") as pdf:
        yield pdf.pages


def _page(pages, text: str):
    found = [p for p in pages if text in (p.extract_text() or "")]
    assert len(found) == 1, text
    return found[0]


def _cards(page) -> list[tuple[float, float, float, float]]:
    """(x, top, width, height) in mm of every card outline on the page, left to right, top to bottom."""
    boxes = [(c["x0"] / MM, c["top"] / MM, (c["x1"] - c["x0"]) / MM, (c["bottom"] - c["top"]) / MM)
             for c in page.curves if c["stroking_color"] and tuple(round(v, 3) for v in c["stroking_color"]) == OUTLINE]
    return sorted((round(x, 2), round(t, 2), round(w, 2), round(h, 2)) for x, t, w, h in boxes)


def test_river_after_pon_shows_the_called_card_sideways(pages):
    page = _page(pages, "取った5")
    cards = sorted(_cards(page))
    assert [(w, h) for _x, _t, w, h in cards] == [(16.0, 22.35)] * 3 + [(22.35, 16.0)]  # 16 mm wide, 63 × 88
    bottoms = {round(t + h, 2) for _x, t, _w, h in cards}
    assert len(bottoms) == 1  # bottom-aligned, like the cards of a 河 on the table
    gaps = [round(b[0] - (a[0] + a[2]), 2) for a, b in zip(cards, cards[1:])]
    assert gaps == [3.0, 3.0, 3.0]  # figure_gap of the page design
    x, top, w, h = cards[-1]
    inside = [c for c in page.chars if x * MM < c["x0"] < (x + w) * MM and top * MM < c["top"] < (top + h) * MM]
    assert inside and all(not c["upright"] for c in inside)
    a, b, c, d = inside[0]["matrix"][:4]
    assert a == pytest.approx(0, abs=1e-6) and d == pytest.approx(0, abs=1e-6) and b > 0 and c < 0  # 90° anticlockwise
    words = page.extract_words()
    captions = {w["text"]: w for w in words if w["top"] > (top + h) * MM and w["top"] < (top + h + 5) * MM}
    assert set(captions) >= {"3", "6", "5", "取った5"}
    centre = (x + w / 2) * MM
    assert (captions["取った5"]["x0"] + captions["取った5"]["x1"]) / 2 == pytest.approx(centre, abs=0.3 * MM)
    assert "5を打牌してポンしたあとの自分の【河】" in page.extract_text()


@pytest.mark.parametrize("players, seats, river_cards", [(4, 4, 9), (3, 3, 5)])
def test_table_layout_for_3_and_4_players(pages, players, seats, river_cards):
    page = _page(pages, f"{players}人のとき（")
    # the figure above its caption (on the baseline grid both table figures may share a page)
    captions = {w["text"][:1]: w["top"] for w in page.extract_words() if "人のとき（" in w["text"]}
    bottom = captions[str(players)]
    top = max([t for t in captions.values() if t < bottom], default=0.0) + 1
    page = page.crop((0, top, page.width, bottom + 12))
    text = page.extract_text()
    for label in ["河", "手札", "山", "王牌（6枚）", "1番手（起家）"] + [f"{n}番手" for n in range(2, seats + 1)]:
        assert label in text
    assert f"{seats + 1}番手" not in text
    cards = _cards(page)
    upright = [c for c in cards if (c[2], c[3]) == (6.0, 8.38)]
    sideways = [c for c in cards if (c[2], c[3]) == (8.38, 6.0)]
    # 3 face-down cards per hand, the 河, two piles of 3 (山, 王牌)
    assert len(cards) == 3 * seats + river_cards + 6 == len(upright) + len(sideways)
    # the seats to the right and left hold their cards turned: their hands are sideways boxes
    assert len(sideways) >= 3 * (seats - 2)


def test_example_cards_are_captioned(pages):
    page = _page(pages, "闘牌カードと天雀カードの例")
    words = [w["text"] for w in page.extract_words()]
    assert {"2", "5", "7"} <= set(words) and "李紅蓮" in vertical_columns(page)  # the character's name: vertical
    assert "闘牌カード" in words


def _overlap(a, b) -> bool:
    return a.x < b.x + b.box_w - 1e-6 and b.x < a.x + a.box_w - 1e-6 and \
        a.y < b.y + b.box_h - 1e-6 and b.y < a.y + a.box_h - 1e-6


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("river", [0, 1, 4, 6])
def test_table_cards_never_overlap_and_stay_inside(players, river):
    card = CardSpec("battle", "b5-pon")
    turned = CardSpec("battle", "b5-pon", sideways=True)
    rivers = [[card] * river + ([turned] if river else []) for _ in range(players)]
    names = {"seat": "{n}番手", "first": "（起家）", "river": "河", "hand": "手札", "wall": "山", "dead_wall": "王牌"}
    lay = table_layout(rivers, [card] * 3, card, card, 8 * MM, 8 * MM * 88 / 63, 1.5 * MM, 7, names, "title")
    piles = lay.cards[-6:]  # 山 and 王牌: three cards each, stacked on purpose
    rest = lay.cards[:-6]
    for i, a in enumerate(rest):
        assert 0 <= a.x and a.x + a.box_w <= lay.width + 1e-6 and 0 <= a.y and a.y + a.box_h <= lay.height + 1e-6
        for b in rest[i + 1:] + piles:
            assert not _overlap(a, b), (a, b)
    assert not _overlap(piles[2], piles[3])  # the 山 and the 王牌 apart


def test_a_player_count_without_a_dead_wall_draws_the_wall_alone():
    """No card set aside (dead wall 0): the table shows the 山 alone, centred, and no 王牌 label —
    not a pile labelled 「王牌（0枚）」 (a new designer's finding)."""
    card = CardSpec("battle", "b5-pon")
    names = {"seat": "{n}番手", "first": "（起家）", "river": "河", "hand": "手札", "wall": "山", "dead_wall": "王牌（0枚）"}
    both = table_layout([[card]] * 4, [card] * 3, card, card, 8 * MM, 8 * MM * 88 / 63, 1.5 * MM, 7, names)
    alone = table_layout([[card]] * 4, [card] * 3, card, None, 8 * MM, 8 * MM * 88 / 63, 1.5 * MM, 7, names)
    assert len(both.cards) - len(alone.cards) == 3
    assert "王牌（0枚）" in [lb.text for lb in both.labels] and "王牌（0枚）" not in [lb.text for lb in alone.labels]
    wall = alone.cards[-1]  # the pile's top card, centred across the table
    assert abs(wall.x + wall.box_w / 2 + 0.6 * MM - alone.width / 2) < 0.01, (wall.x, alone.width)  # the pile (top card 0.6 mm left of it) centred


def test_row_layout_sideways_box_and_captions():
    lay = row_layout([CardSpec("c", "a", caption="a"), CardSpec("c", "b", sideways=True, caption="b")],
                     63, 88, 3, 7)
    a, b = lay.cards
    assert (a.box_w, a.box_h, a.rotation) == (63, 88, 0)
    assert (b.box_w, b.box_h, b.rotation) == (88, 63, 90)
    assert b.x == 66 and a.y == b.y == 7 * 1.5
    assert lay.width == 63 + 3 + 88 and lay.height == 7 * 1.5 + 88
    assert [(lb.text, lb.x) for lb in lay.labels] == [("a", 31.5), ("b", 66 + 44)]
