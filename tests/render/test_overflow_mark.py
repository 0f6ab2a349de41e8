"""Text that does not fit its box: a forced build marks the box with a dashed red/white outline."""
from __future__ import annotations

import pytest
from PIL import Image

from cardgen.api import build_game
from cardgen.steps.exports import ExportOptions
from cardgen.layout.card_text import OVERFLOW_COLOR, overflow_mark
from cardgen.layout.ops import Line
from tests.conftest import copy_game, needs_fonts, replace_in

pytestmark = needs_fonts
BOX_MM = (6, 34, 51, 15)  #: skill_text in templates/cards/character.yaml (x, y from the top-left, w, h)
BLEED_MM, DPI = 3, 100
LONG = ("を1個得る。そのあと山札の上から3枚を見て好きな順番で戻してもよい。さらに手札を1枚捨てて捨て札の一番上の"
        "カードを手札に加える。この効果は1ターンに1回だけ使える。ただしほかのプレイヤーが同じ効果を使ったターンには"
        "使えない。その場合は代わりに:power:を2個得る。")


def test_overflow_mark_outlines_the_box():
    ops = overflow_mark(10, 20, 100, 40)
    assert all(isinstance(o, Line) for o in ops)
    xs = [v for o in ops for v in (o.x1, o.x2)]
    ys = [v for o in ops for v in (o.y1, o.y2)]
    assert (min(xs), max(xs), min(ys), max(ys)) == (10, 110, 20, 60)
    red = sum(abs(o.x2 - o.x1) + abs(o.y2 - o.y1) for o in ops if o.color == OVERFLOW_COLOR)
    assert 0.4 * 280 < red < 0.6 * 280  # half the perimeter red, half white


@pytest.fixture(scope="module")
def forced_pngs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("g")
    game_dir = copy_game(tmp)
    replace_in(game_dir / "characters.csv", "を1個得る。,烈火の型", LONG + ",烈火の型")  # c1-1's skill text
    res = build_game(game_dir, tmp / "out", force=True, steps=("png",), exports=ExportOptions(dpi=DPI, jobs=1))
    assert any(p.code == "text-overflow" and "c1-1" in p.path for p in res.layout)
    return res.out_dir / "cards"


def _red_along_top_edge(png) -> float:
    """Share of red pixels on the row of the skill box's top edge, across the box's width."""
    img = Image.open(png).convert("RGB")
    k = DPI / 25.4
    y = round((BLEED_MM + BOX_MM[1]) * k)
    x0, x1 = round((BLEED_MM + BOX_MM[0]) * k), round((BLEED_MM + BOX_MM[0] + BOX_MM[2]) * k)
    px = [img.getpixel((x, yy)) for x in range(x0, x1) for yy in (y - 1, y, y + 1)]
    return sum(1 for r, g, b in px if r > 180 and g < 90 and b < 90) / len(px) * 3


def test_forced_png_marks_the_overflowing_box(forced_pngs):
    assert _red_along_top_edge(forced_pngs / "characters-001-c1-1.png") > 0.3  # dashed: about half red
    assert _red_along_top_edge(forced_pngs / "characters-002-c1-2.png") < 0.02  # its text fits: no mark
