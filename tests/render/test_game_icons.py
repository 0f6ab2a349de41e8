"""A game's own icons (``icons:`` in game.yaml): an SVG icon inline in card text is drawn as
vector paths (no image in the PDF), a PNG icon in an ``icon`` element as an image in its box;
both are known names for the unknown-icon check. Read back from the card's shop PDF."""
from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageDraw

from cardgen.api import build_game, validate_game
from cardgen.core.units import MM
from cardgen.steps.exports import ExportOptions

from tests.conftest import needs_fonts
from tests.pdfread import open_pdf

FIXTURES = Path(__file__).parents[1] / "fixtures"
BASE = FIXTURES / "bad" / "_base"
GOLD = (0xD4 / 255, 0xA0 / 255, 0x17 / 255)  # the coin's fill in tests/fixtures/icons/coin.svg
BLEED = 3.0


def make_game(dest: Path, text: str = ":coin:を1個得る。") -> Path:
    """The base game with icons/coin.svg (a gold disc with a star) and icons/moon.png (a blue
    crescent, 300 px), a `moon` icon element at [40, 6, 15, 15] mm and ``text`` on card c1."""
    game = dest / "g"
    shutil.copytree(BASE, game)
    (game / "icons").mkdir()
    shutil.copy(FIXTURES / "icons" / "coin.svg", game / "icons" / "coin.svg")
    im = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((20, 20, 280, 280), fill=(40, 60, 160, 255))
    d.ellipse((90, 10, 300, 250), fill=(0, 0, 0, 0))
    im.save(game / "icons" / "moon.png", dpi=(300, 300))
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("icons:\n  coin: {file: icons/coin.svg}\n  moon: {file: icons/moon.png, label: 月}\n")
    with (game / "templates" / "cards" / "card.yaml").open("a", encoding="utf-8") as f:
        f.write("  - {kind: icon, name: moon, box: [40, 6, 15, 15], icon: moon}\n")
    table = game / "cards.csv"
    table.write_text(table.read_text(encoding="utf-8").replace("ポンを1個得る。", text), encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def shop_pdf(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("icons")
    game = make_game(tmp)
    res = build_game(game, tmp / "out", steps=("shop",), exports=ExportOptions(jobs=1, sides="front"))
    return res.out_dir / "shop" / "cards.pdf"


def _mm(v: float) -> float:
    return v / MM - BLEED  # PDF points from the page's top left (bleed included) → mm from the trim


@needs_fonts
def test_svg_icon_is_vector_paths_in_the_text_line(shop_pdf):
    with open_pdf(str(shop_pdf)) as doc:
        page = doc.pages[0]
        gold = [c for c in page.curves if c["fill"] and all(abs(a - b) < 0.01 for a, b in zip(c["non_stroking_color"], GOLD))]
        assert len(gold) == 1, page.curves
        text = [c for c in page.chars if c["text"] == "を"][0]
        # the disc sits in the line, just before を, one em (10 pt) high
        assert abs(gold[0]["x1"] - text["x0"]) < 2 and abs((gold[0]["bottom"] - gold[0]["top"]) - 10 * 0.92) < 1.0
        # only the PNG icon is an image: the SVG was not rasterised
        assert len(page.images) == 1


@needs_fonts
def test_png_icon_is_drawn_in_its_box(shop_pdf):
    with open_pdf(str(shop_pdf)) as doc:
        (img,) = doc.pages[0].images
        box = (_mm(img["x0"]), _mm(img["top"]), _mm(img["x1"]), _mm(img["bottom"]))
    assert all(abs(a - b) < 0.2 for a, b in zip(box, (40, 6, 55, 21))), box
    page = pypdfium2.PdfDocument(str(shop_pdf))[0].render(scale=300 / 72).to_pil().convert("RGB")
    px = lambda x_mm, y_mm: page.getpixel((round((x_mm + BLEED) / 25.4 * 300), round((y_mm + BLEED) / 25.4 * 300)))
    r, g, b = px(42, 13.5)  # the crescent's left edge
    assert b > 140 and r < 80, (r, g, b)


@needs_fonts
def test_unknown_icon_offers_the_games_own(tmp_path):
    game = make_game(tmp_path, ":coni:を1個得る。")
    report = validate_game(game)
    msgs = [p.message for p in report.errors if p.code == "unknown-icon"]
    assert msgs and "unknown icon 'coni' (did you mean 'coin'?)" in msgs[0] and "coin" in msgs[0].split("known icons:")[1]


@needs_fonts
def test_rules_text_draws_the_games_icons(tmp_path):
    """``:coin:`` and ``:moon:`` in rules/*.md: the SVG as vector paths, the PNG as an image."""
    game = make_game(tmp_path)
    (game / "rules").mkdir()
    (game / "rules" / "01.md").write_text("# 遊び方\n\n:coin:を1枚もらう。:moon:は夜。\n", encoding="utf-8")
    res = build_game(game, tmp_path / "out", steps=("rulebook",))
    with open_pdf(str(res.out_dir / "rulebook.pdf")) as doc:
        page = doc.pages[-1]
        gold = [c for c in page.curves if c["fill"] and all(abs(a - b) < 0.01 for a, b in zip(c["non_stroking_color"], GOLD))]
        assert len(gold) == 1 and len(page.images) == 1
        assert abs(gold[0]["bottom"] - page.images[0]["bottom"]) < 1.5  # both on the same line


@needs_fonts
def test_turned_corner_index_turns_the_games_icon(tmp_path):
    """In a ``rotate: 180`` text (a corner index read from across the table) the game's icon is
    turned with the text; drawn, its gold disc lands in the mirrored place."""
    from cardgen.data.game import load_game
    from cardgen.fonts.fontset import fonts_for
    from cardgen.layout.ops import GameIcon
    from cardgen.steps.component_plans import plan_component

    game = make_game(tmp_path)
    with (game / "templates" / "cards" / "card.yaml").open("a", encoding="utf-8") as f:
        f.write('  - {kind: text, name: turned, box: [40, 70, 17, 12], text: ":coin:", size: 10, rotate: 180}\n')
    loaded = load_game(game)
    plans = plan_component(loaded, "cards", fonts_for(loaded))
    icons = [op for op in plans.fronts[0].ops if isinstance(op, GameIcon) and op.name == "coin"]
    assert sorted(op.angle for op in icons) == [0.0, 180.0]
    turned = next(op for op in icons if op.angle == 180.0)
    # the box is 40–57 mm across and 70–82 mm down; turned, the icon sits at its right, bottom corner
    assert abs((turned.x + turned.size) / MM - 57) < 1.5 and abs(turned.y / MM - (88 - 82)) < 1.5


def test_svg_icon_with_an_embedded_png_is_drawn_upright_inside_a_form(tmp_path, monkeypatch):
    """An SVG icon embedding a PNG (red above, blue below), drawn inside a form XObject as every
    card face is: the image is there, upright (reportlab's inline image failed in a form with a
    TypeError, exit 3)."""
    import base64
    import io

    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.layout.ops import GameIcon
    from cardgen.render.svg_icons import draw_game_icon

    im = Image.new("RGB", (8, 8), (208, 0, 0))
    im.paste((0, 0, 208), (0, 4, 8, 8))
    png = io.BytesIO()
    im.save(png, "PNG")
    svg = tmp_path / "two.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                   'viewBox="0 0 10 10"><image x="0" y="0" width="10" height="10" xlink:href="data:image/png;base64,'
                   + base64.b64encode(png.getvalue()).decode() + '"/></svg>', encoding="utf-8")
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100, 100), invariant=1, pageCompression=1)  # as cardgen.render.pdf_doc makes them
    monkeypatch.setattr(rl_config, "useA85", 0)  # as cardgen.render.pdf_sheets draws print sheets
    c.beginForm("face")
    draw_game_icon(c, GameIcon("two", 0, 0, 100, str(svg)), "Helvetica")
    c.endForm()
    c.doForm("face")
    c.showPage()
    c.save()
    page = pypdfium2.PdfDocument(buf.getvalue())[0].render(scale=1).to_pil().convert("RGB")
    top, bottom = page.getpixel((50, 20)), page.getpixel((50, 80))
    assert top[0] > 150 and top[2] < 60, top
    assert bottom[2] > 150 and bottom[0] < 60, bottom


@needs_fonts
def test_an_icon_label_below_6_pt_is_a_validate_warning_and_is_not_drawn(tmp_path):
    """A game's own icon whose label would print below 6 pt (here 月金 across an icon inline in
    9 pt card text: 3.4 pt) is a warning of validate at the element's template line, and the icon
    is drawn without its label (as the built-in icons draw their symbol instead of kana)."""
    game = make_game(tmp_path, "手番に:coin:を得る。")
    text = (game / "game.yaml").read_text(encoding="utf-8").replace("coin: {file: icons/coin.svg}",
                                                                      "coin: {file: icons/coin.svg, label: 金貨}")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    report = validate_game(game)
    small = [p for p in report.errors + report.warnings if p.code == "small-icon-label"]
    assert small and all(p.severity == "warning" for p in small), [p.format() for p in report.errors + report.warnings]
    assert "'金貨'" in small[0].message and small[0].file and small[0].line
    res = build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1, sides="front"))
    with open_pdf(res.out_dir / "shop" / "cards.pdf") as doc:
        assert not any(c["text"] in "金貨" for p in doc.pages for c in p.chars)
