"""馬将 (seed 003): statute-style rulebook, wins per round per player count, quick-reference card."""
from __future__ import annotations

import pytest

from cardgen.api import build_game, validate_game
from tests.pdfread import CARD_DATA, open_pdf, page_texts

GAME = CARD_DATA / "majan"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    build_game(GAME, out, steps=("sheets", "rulebook"))
    return out / "majan"


def test_wins_per_round_in_the_report():
    rep = validate_game(GAME).to_json()
    assert rep["ok"]
    assert {pc["players"]: pc["derived"]["wins_per_round"] for pc in rep["player_counts"]} == {3: 2, 4: 3}
    assert all(pc["deck"] is None for pc in rep["player_counts"])


def test_a_wrong_wins_per_round_is_an_error(tmp_path):
    import shutil
    g = tmp_path / "majan"
    shutil.copytree(GAME, g)
    y = g / "game.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("wins_per_round: 3", "wins_per_round: 4"), encoding="utf-8")
    rep = validate_game(g).to_json()
    err = [e for e in rep["errors"] if e["code"] == "derive-mismatch"]
    assert len(err) == 1 and "states wins_per_round = 4, but players - 1 gives 4 − 1 = 3" in err[0]["message"]


def test_statute_rulebook(out):
    with open_pdf(str(out / "rulebook.pdf")) as doc:
        text = "\n".join(p.extract_text() or "" for p in doc.pages)
        tables = [t for p in doc.pages for t in p.extract_tables()]
    flat = text.replace(" ", "")  # the JLREQ quarter em around digits reads as a space
    for heading in ("第4章和", "第19条和の方法", "第20条和の手順", "第21条和の制限"):
        assert heading in flat
    assert "1項" in text and "2項" in text and "解説" in text
    wins = next(t for t in tables if t[0] == ["人数", "規定回数（一局の和の回数）"])
    assert wins[1:] == [["3人", "2"], ["4人", "3"]]
    assert "{{" not in text


def test_quick_reference_cards(out):
    texts = page_texts(out / "print-sheets.pdf")
    fronts = [t for t in texts if "早見表カード · 表 front" in t]
    assert len(fronts) == 1
    assert fronts[0].count("早見表：和（第4章）") == 4
    assert fronts[0].count("【制限】") == 4


def _lines(pdf) -> list[str]:
    with open_pdf(str(pdf)) as doc:
        return [ln["text"] for p in doc.pages for ln in p.extract_text_lines()]


def test_procedure_items_are_circled_numbers_without_bullets(out):
    lines = _lines(out / "rulebook.pdf")
    starts = {m: next(ln for ln in lines if m in ln) for m in ("和を宣言する対局者", "宣言の後は", "和の成立を確かめた後",
                                                               "和点を確かめて精算した後")}
    assert [ln.replace(" ", "")[:1] for ln in starts.values()] == list("①②③④"), starts
    assert not any("・①" in ln.replace(" ", "") or "•①" in ln.replace(" ", "") for ln in lines)


def test_single_paragraph_articles_have_no_paragraph_number(out):
    text = "\n".join(_lines(out / "rulebook.pdf"))
    art19 = text.split("第19条 和の方法")[1].split("第20条")[0]
    art20 = text.split("第20条 和の手順")[1].split("第21条")[0]
    art21 = text.split("第21条 和の制限")[1].split("早見表")[0]
    assert "1項" in art19 and "2項" in art19  # two paragraphs: numbered
    assert "項" not in art20.split("解説")[0] and "項" not in art21.split("解説")[0]


def _rows():
    import csv
    with open(GAME / "quickref.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_card_and_rulebook_quick_reference_come_from_one_table(out):
    from cardgen.layout.ops import Text
    from cardgen.fonts.fontset import fonts_for
    from cardgen.steps.component_plans import plan_component
    from cardgen.data.game import load_game

    rows = _rows()
    assert len(rows) == 8 and all(r["article"].startswith("第") for r in rows)
    book = "".join(_lines(out / "rulebook.pdf")).replace(" ", "")
    game = load_game(GAME)
    plans = plan_component(game, "quickref", fonts_for(game))
    texts = [op for op in plans.fronts[0].ops if isinstance(op, Text) and op.size < 10]
    card = "".join(op.text for op in texts)
    for r in rows:
        assert f"{r['label']}：{r['text']}（{r['article']}）" in book, r
        assert f"【{r['label']}】{r['text']}（{r['article']}）" in card, r
    # a reference is never split across lines: each （第…） is whole on one line (one Text op)
    refs = ["（" + r["article"] + "）" for r in rows]
    assert sum(op.text.count(ref) for op in texts for ref in set(refs)) == len(refs)
    assert not [op.text for op in texts if op.text.endswith(("（", "（第")) or op.text.startswith(("①）", "④）"))]


def test_quick_reference_card_uses_its_height():
    from cardgen.layout.ops import Text
    from cardgen.fonts.fontset import fonts_for
    from cardgen.steps.component_plans import plan_component
    from cardgen.data.game import load_game
    from cardgen.core.units import MM

    game = load_game(GAME)
    plans = plan_component(game, "quickref", fonts_for(game))
    body = [op for op in plans.fronts[0].ops if isinstance(op, Text) and op.size < 10]
    # 7 pt, the card's height used: the items hang under their 【…】 labels and keep each
    # reference on its text's line, which takes 18 lines (7.5 pt needs 21, more than the box holds)
    assert {op.size for op in body} == {7.0}
    assert min(op.y for op in body) < 15 * MM  # the last line sits near the bottom (y up, from the trim; 14.6 mm since 追い込み saves lines)
    assert not plans.findings


def _card_lines(out) -> list[list[dict]]:
    """The item lines (7 pt) of the first quick-reference card on the front sheet, read back
    from print-sheets.pdf: chars grouped by baseline, left to right."""
    from cardgen.core.units import MM
    with open_pdf(str(out / "print-sheets.pdf")) as doc:
        page = next(p for p in doc.pages if "早見表カード · 表 front" in (p.extract_text() or ""))
        chars = [c for c in page.chars if abs(c["size"] - 7.0) < 0.01 and c["text"].strip()]
    left, top = min(c["x0"] for c in chars), min(c["top"] for c in chars)
    first = [c for c in chars if c["x0"] < left + 58 * MM and c["top"] < top + 75 * MM]
    rows: dict[float, list] = {}
    for c in first:
        rows.setdefault(round(c["matrix"][5], 1), []).append(c)
    return [sorted(r, key=lambda c: c["x0"]) for _b, r in sorted(rows.items(), reverse=True)]


def test_quick_reference_references_stay_with_their_text_and_lines_hang_under_the_label(out):
    import re
    lines = _card_lines(out)
    texts = ["".join(c["text"] for c in ln) for ln in lines]
    assert sum(t.startswith("【") for t in texts) == len(_rows()) and len(texts) > len(_rows())
    # no line holds only an article reference: （第20条①） stays on the line of its text
    assert not [t for t in texts if re.fullmatch(r"（第[^）]*）", t.replace(" ", ""))], texts
    indent = None
    for ln, t in zip(lines, texts):
        if t.startswith("【"):
            close = next(i for i, c in enumerate(ln) if c["text"] == "】")
            indent = ln[close + 1]["x0"]  # the first character after the label
        else:  # a continuation line starts under it (the first glyph's box; an opening bracket's half blank aside)
            assert abs(ln[0]["x0"] - indent) < 0.3, (t, ln[0]["x0"], indent)
