"""馬将 (seed 003): statute-style rulebook, wins per round per player count, quick-reference card."""
from __future__ import annotations

import pdfplumber
import pytest

from cardgen.api import build_game, validate_game
from tests.pdfread import CARD_DATA, page_texts

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
    with pdfplumber.open(str(out / "rulebook.pdf")) as doc:
        text = "\n".join(p.extract_text() or "" for p in doc.pages)
        tables = [t for p in doc.pages for t in p.extract_tables()]
    for heading in ("第4章 和", "第19条 和の方法", "第20条 和の手順", "第21条 和の制限"):
        assert heading in text
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
