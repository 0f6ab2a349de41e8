"""Typed spaces are the designer's (issue 30): a space typed between Japanese and a symbol, a
digit or Latin text prints, on a card and in the rulebook, read back from the PDFs: the gap
between the glyphs either side is at least a quarter em. The automatic quarter em between
Japanese and Latin goes only where nothing was typed; spaces between two Japanese characters or
beside full-width punctuation are still taken out of the rules text (JLREQ)."""
from __future__ import annotations

import pytest

from cardgen.api import build_game
from cardgen.layout import jlreq
from cardgen.rulebook.design import load_design
from tests.conftest import ROOT, needs_fonts
from tests.minigame import write_game
from tests.pdfread import open_pdf

pytestmark = needs_fonts

#: (typed text, the glyph before the space, the glyph after it)
SAMPLES = [("得点 < 30", "点", "<"), ("得点 > 30", "点", ">"), ("合計 = 10", "計", "="), ("攻撃力 +2 を", "力", "+"),
           ("確率 50 % です", "0", "%"), ("と © の", "と", "©"), ("左 → 右", "左", "→"), ("2 × 3 枚", "2", "×")]


def _gaps(pdf, samples, size: float) -> dict[str, float]:
    """For each sample: the smallest gap, in em, between its two glyphs wherever they stand next
    to each other (spaces left out) on one line of the PDF, among the glyphs of ``size`` pt (the
    sheets' own labels, 「100%（実際のサイズ）」, are smaller)."""
    found: dict[str, float] = {}
    with open_pdf(pdf) as doc:
        for page in doc.pages:
            chars = sorted((c for c in page.chars if c["text"].strip() and abs(c["size"] - size) < 0.01), key=lambda c: (round(c["bottom"]), c["x0"]))
            for a, b in zip(chars, chars[1:]):
                if round(a["bottom"]) != round(b["bottom"]):
                    continue
                for text, before, after in samples:
                    if a["text"] == before and b["text"] == after:
                        gap = (b["x0"] - a["x1"]) / a["size"]
                        found[text] = min(found.get(text, 9.0), gap)
    return found


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    names = [f"{SAMPLES[2 * i][0]}\\n{SAMPLES[2 * i + 1][0]}" for i in range(4)]
    rules = {"01.md": "# 記号\n\n" + "\n\n".join(f"本文の{t}です。" for t, _b, _a in SAMPLES)
             + "\n\n日本語 と 日本語、 次。\n"}
    return write_game(tmp_path_factory.mktemp("spaces"), rules=rules,
                      cards=[{"id": f"n{n}", "number": n, "name": names[n - 1], "count": 3} for n in range(1, 5)])


def test_a_typed_space_beside_a_symbol_prints_on_the_card(game, tmp_path):
    res = build_game(game, tmp_path, force=True, steps=("sheets",))
    gaps = _gaps(res.out_dir / "print-sheets.pdf", SAMPLES, 10.0)  # the name box's size
    assert set(gaps) == {t for t, _b, _a in SAMPLES}, gaps
    assert all(g >= 0.25 - 0.01 for g in gaps.values()), sorted(gaps.items(), key=lambda kv: kv[1])


def test_a_typed_space_beside_a_symbol_prints_in_the_rulebook(game, tmp_path):
    res = build_game(game, tmp_path, force=True, steps=("rulebook",))
    pdf = res.out_dir / "rulebook.pdf"
    gaps = _gaps(pdf, SAMPLES, load_design([ROOT / "templates" / "rulebook"], "default")[0].body.size)
    assert set(gaps) == {t for t, _b, _a in SAMPLES}, gaps
    assert all(g >= 0.25 - 0.01 for g in gaps.values()), sorted(gaps.items(), key=lambda kv: kv[1])
    with open_pdf(pdf) as doc:
        text = "".join(p.extract_text() for p in doc.pages)
    assert "日本語と日本語、次。" in text  # between two Japanese characters, after 、: taken out


def test_absorb_spaces_keeps_the_designers_spaces():
    for text, _b, _a in SAMPLES:
        assert jlreq.absorb_spaces(text) == text
    assert jlreq.absorb_spaces("打牌 する、 次の 「 ロン」") == "打牌する、次の「ロン」"
    assert jlreq.absorb_spaces("得点  <  30") == "得点 <  30"  # beside Japanese: one space
