"""Rulebook: built from the same data as the cards; read back from the PDF."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardgen.layout import jlreq
from cardgen.rulebook.design import load_design
from cardgen.rulebook.pdf import page_margins
from cardgen.api import validate_game
from cardgen.core.errors import CardgenError
from cardgen.rulebook.blocks import outline
from cardgen.rulebook.markdown import parse_blocks
from cardgen.rulebook.numbering import Numberer
from cardgen.layout.text import NO_START
from cardgen.data.manifest import RulebookSettings
from cardgen.fonts.fontset import fonts_for
from tests.pdfread import column_chars, open_pdf
from cardgen.steps.rulebook import write_rulebook
from cardgen.check.print_setup import load_and_validate
from cardgen.core.units import MM

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "card_data" / "tenjanpai"
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")


@pytest.fixture(scope="module")
def built(built_games):
    res = built_games("tenjanpai")  # build_game's default steps include the rulebook
    pdf = res.out_dir / "rulebook.pdf"
    assert pdf in res.files and pdf.is_file()
    with open_pdf(pdf) as doc:  # text as read: cards turned in a figure (sideways, across the table)
        # and the text of cards drawn small in a table figure (below 4 pt) left out
        # and the vertical cover (rules/01_intro.md: <!-- vertical --> before the title) left out: its page
        # stays, empty
        pages = [(p.width, p.height, q.extract_text_lines(), q.chars, len(p.images)) for p in doc.pages
                 for vertical in [column_chars(p.chars)]
                 for q in [p.filter(lambda o, v=vertical: o.get("object_type") != "char"
                                    or (o["matrix"][0] > 0 and o["size"] >= 4 and id(o) not in v))]]
    return pdf, pages


def _text(pages) -> str:
    return "\n".join(l["text"] for _w, _h, lines, _c, _i in pages for l in lines)


def test_build_writes_rulebook_with_toc_and_header(built):
    pdf, pages = built
    w, h = pages[0][0] / MM, pages[0][1] / MM
    assert abs(w - 148) < 0.5 and abs(h - 210) < 0.5  # A5
    assert "目次" not in [l["text"] for l in pages[0][2]]  # page 1: the cover, its title set vertically
    first = [l["text"] for l in pages[1][2]]
    assert "目次" in first
    toc = [t for t in first if re.match(r"^\d+\. .*\. (\d+)$", t)]
    assert len(toc) >= 8, first
    # each TOC entry's page number is where that heading really is
    for t in toc:
        title, page = re.match(r"^(\d+\. \S+)[ .]*?(\d+)$", t).groups()
        heading_pages = [i + 1 for i, (_w, _h, lines, _c, _i) in enumerate(pages)
                         if i > 0 and any(l["text"] == title for l in lines)]
        assert heading_pages == [int(page)], (title, page, heading_pages)
    for _w, _h, lines, _c, _i in pages[1:]:
        assert lines[0]["text"].startswith("天雀牌") and "draft 3" in lines[0]["text"]  # running header


def test_setup_table_matches_validator(built):
    _pdf, pages = built
    report = validate_game(GAME).to_json()
    text = _text(pages)
    for pc in report["player_counts"]:
        m = re.search(rf"^{pc['players']}人 ([\d ]+)$", text, re.M)
        assert m, f"no setup row for {pc['players']} players"
        got = [int(x) for x in m.group(1).split()]
        assert got == [pc["removed"], pc["deck"], pc["hand"], pc["dead_wall"], pc["draw_pile"], pc["turns"]]
    assert {pc["players"] for pc in report["player_counts"]} == {3, 4}


def test_scoring_table_from_design(built):
    text = _text(built[1])
    rows = re.findall(r"^(\d)個(以上)? (\d+)点$", text, re.M)
    assert [(int(a), b, int(c)) for a, b, c in rows] == [(0, "", 0), (1, "", 1), (2, "", 2), (3, "", 3), (4, "以上", 7)]


def test_no_line_starts_with_forbidden_punctuation_and_text_stays_in_frame(built):
    _pdf, pages = built
    checked = 0
    design, _ = load_design([ROOT / "templates" / "rulebook"], "default")
    left = page_margins(design, (148, 210))["left"]  # A5, the frame 38 em of 9 pt
    assert abs((148 * MM - 2 * left) / design.body.size - 38) < 1e-6
    for w, _h, lines, chars, _i in pages:
        for l in lines:
            assert l["text"][0] not in NO_START, l["text"]
            checked += 1
        for ch in chars:
            # a closing mark at a line end drops its blank half (JLREQ line-end trim): no ink there
            x1 = ch["x1"] - jlreq.line_end_trim(ch["text"]) * ch["size"]
            assert ch["x0"] >= left - 0.5 and x1 <= w - left + 0.5, (ch["text"], ch["x0"], ch["x1"])
    assert checked > 100


def test_icons_are_vector_and_cards_are_drawn(built):
    _pdf, pages = built
    assert all(n == 0 for *_x, n in pages)  # no raster placeholder ever reaches the PDF
    # the card figures draw the big card numbers from the card template (the battle template's number font)
    big = [c for _w, _h, _l, chars, _i in pages for c in chars if c["size"] > 20]
    assert {c["text"] for c in big} >= {"2", "5", "7"}


def test_component_table_follows_the_data(tmp_path):
    game = tmp_path / "tenjanpai"
    shutil.copytree(GAME, game)
    for d in ("templates", "fonts"):
        (tmp_path / d).symlink_to(ROOT / d)
    csv = game / "battle.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("b2-chi,2,0,1,0,8", "b2-chi,2,0,1,0,9"), encoding="utf-8")
    y = game / "game.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("count: 42", "count: 43"), encoding="utf-8")
    g, report = load_and_validate(game)
    pdf = tmp_path / "rb.pdf"
    write_rulebook(g, report, fonts_for(g), pdf)
    with open_pdf(pdf) as doc:  # the text without the slanted DRAFT mark (its letters fall between lines)
        text = "\n".join(p.filter(lambda o: o["object_type"] != "char" or abs(o["matrix"][1]) < 1e-6).extract_text()
                         for p in doc.pages)
    assert re.search(r"^闘牌カード 43枚", text, re.M), text[text.find("内容物"):][:300]
    assert "闘牌カード（43枚）" in text
    assert re.search(r"^2 9 0 9$", text, re.M)  # breakdown: number 2 now has 9 cards
    assert re.search(r"^計 43 ", text, re.M)


def test_a4_paper(tmp_path):
    g, report = load_and_validate(GAME)
    pdf = tmp_path / "a4.pdf"
    n = write_rulebook(g, report, fonts_for(g), pdf, paper="a4")
    with open_pdf(pdf) as doc:
        assert abs(doc.pages[0].width / MM - 210) < 0.5 and len(doc.pages) == n


# ------------------------------------------------------------------ template errors and numbering

def _copy(tmp_path) -> Path:
    game = tmp_path / "g"
    shutil.copytree(GAME, game)
    for d in ("templates", "fonts"):
        (tmp_path / d).symlink_to(ROOT / d)
    return game


def test_undefined_name_names_file_and_line(tmp_path):
    game = _copy(tmp_path)
    f = game / "rules" / "02_play.md"
    lines = f.read_text(encoding="utf-8").split("\n")
    lines.insert(3, "枚数は{{ design.no_such_constant }}枚。")
    f.write_text("\n".join(lines), encoding="utf-8")
    g, report = load_and_validate(game)
    with pytest.raises(CardgenError) as exc:
        write_rulebook(g, report, fonts_for(g), tmp_path / "x.pdf")
    p = exc.value.problems[0]
    assert p.file.endswith("02_play.md") and p.line == 4 and "no_such_constant" in p.message


def test_sandbox_refuses_python_internals(tmp_path):
    game = _copy(tmp_path)
    (game / "rules" / "04_evil.md").write_text("{{ game.__class__.__mro__ }}\n", encoding="utf-8")
    g, report = load_and_validate(game)
    with pytest.raises(CardgenError) as exc:
        write_rulebook(g, report, fonts_for(g), tmp_path / "x.pdf")
    assert exc.value.problems[0].file.endswith("04_evil.md") and exc.value.problems[0].line == 1


def _numbers(md: str, **kw) -> list[str]:
    return [h["number"] for h in outline(parse_blocks(md, Numberer(RulebookSettings(**kw))))]


def test_numbering_styles():
    md = "# 本\n## 総則\n### 目的\n### 用語\n## 和\n### 和の方法\n#### 細目\n"
    assert _numbers(md, numbering="plain") == [""] * 7
    assert _numbers(md, numbering="decimal", depth=3) == ["", "1.", "1.1", "1.2", "2.", "2.1", "2.1.1"]
    assert _numbers(md, numbering="statute", depth=3) == ["", "第1章", "第1条", "第2条", "第2章", "第3条", "1項"]
    assert _numbers(md, numbering="statute", depth=3, item_style="circled")[-1] == "①"
    assert _numbers("# 総則\n## 目的\n# 和\n## 方法\n", numbering="statute", number_from=1) == \
        ["第1章", "第1条", "第2章", "第2条"]


def test_kinsoku_paragraph_pulls_a_character_down_instead_of_hanging():
    from reportlab.lib.styles import ParagraphStyle
    from cardgen.rulebook.kinsoku import KinsokuParagraph

    g, _r = load_and_validate(GAME)
    fonts = fonts_for(g)
    style = ParagraphStyle("t", fontName=fonts.name("body"), fontSize=10, leading=14, wordWrap="CJK")
    text = "あいうえおかきくけこ。さしすせそ、たちつてと「なにぬ」ねの word wrapping test"
    para = KinsokuParagraph(text, style)
    para.wrap(100, 1000)  # 10 full-width characters a line: 。 and 、 fall on the break
    lines = ["".join(w.text for w in ln.words) for ln in para.blPara.lines]
    assert all(ln[:1] not in NO_START for ln in lines), lines
    assert all(not ln.rstrip().endswith(("「", "（")) for ln in lines), lines
    assert all(ln.currentWidth <= 100 + 1e-6 for ln in para.blPara.lines)
    assert not any(re.search(r"[a-z]$", a) and re.match(r"[a-z]", b) for a, b in zip(lines, lines[1:])), lines
    para = KinsokuParagraph("あいうえおかきくけ――天雀です", style)
    para.wrap(100, 1000)
    lines = ["".join(w.text for w in ln.words) for ln in para.blPara.lines]
    assert not any(a.endswith("―") and b.startswith("―") for a, b in zip(lines, lines[1:])), lines


def test_statute_style_book(tmp_path):
    game = _copy(tmp_path)
    shutil.rmtree(game / "rules")
    (game / "rules").mkdir()
    (game / "rules" / "01.md").write_text(
        "# 総則\n\n## 目的\n\nこの規則は{{ game.title }}の遊び方を定める。\n\n### 人数\n\n{{ game.players | join('人または') }}人で遊ぶ。\n\n"
        "> **解説**　人数ごとの配り方は次のとおり。\n\n{{ setup_table }}\n\n# 和\n\n## 和の方法\n\n和は2種類とする。\n",
        encoding="utf-8")
    y = game / "game.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("numbering: decimal", "numbering: statute\n  number_from: 1")
                 .replace("depth: 1 ", "depth: 3 "), encoding="utf-8")
    g, report = load_and_validate(game)
    assert g.manifest.rulebook.numbering == "statute"
    pdf = tmp_path / "s.pdf"
    write_rulebook(g, report, fonts_for(g), pdf)
    with open_pdf(pdf) as doc:
        text = "\n".join(p.extract_text() for p in doc.pages)
    for label in ("第1章　総則", "第1条　目的", "1項　人数", "第2章　和", "第2条　和の方法", "3人または4人で遊ぶ"):
        assert re.search(label.replace("　", r"\s*"), text), (label, text)
    assert text.startswith("天雀牌")  # no title heading in the text: the game's title is the book's


def test_every_font_is_an_embedded_subset(built):
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(built[0]).pages:
        for f in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(f.get_object()["/BaseFont"]))
    assert names and all(re.match(r"^/[A-Z]{6}\+", n) for n in names), names  # no unembedded Helvetica
