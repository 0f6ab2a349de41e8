"""夜雀鬼 draft 2 (seed 000): the draft's numbers, the validator's report, the forced print."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardgen.api import build_game, validate_game
from cardgen.cli.commands import cli
from cardgen.core.errors import CardgenError
from cardgen.data.game import load_game
from tests.pdfread import CARD_DATA, open_pdf, page_texts

GAME = CARD_DATA / "yajanki"


@pytest.fixture(scope="module")
def report():
    return validate_game(GAME).to_json()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    res = build_game(GAME, out, force=True)
    return res, page_texts(out / "yajanki" / "print-sheets.pdf")


def test_battle_cards_as_the_draft_counts_them():
    game = load_game(GAME)
    rows = game.tables["battle"]
    per_number: dict[int, int] = {}
    ron: dict[int, int] = {}
    for r in rows:
        per_number[r.values["number"]] = per_number.get(r.values["number"], 0) + r.quantity
        if r.values["ron"]:
            ron[r.values["number"]] = ron.get(r.values["number"], 0) + r.quantity
    assert per_number == {1: 10, 2: 7, 3: 7, 4: 6, 5: 6, 6: 5, 7: 5}
    assert ron == {2: 1, 3: 1, 4: 2, 5: 2, 6: 1}
    assert sum(per_number.values()) == 46
    assert sum(r.quantity for r in game.tables["characters"]) == 15
    chips = game.component("chips")
    assert chips.kind == "not_included"


def test_report_numbers_per_player_count(report):
    pcs = {pc["players"]: pc for pc in report["player_counts"]}
    four, three = pcs[4], pcs[3]
    assert (four["deck"], four["removed"], four["hand"], four["dead_wall"], four["draw_pile"]) == (46, 0, 3, 2, 32)
    assert (four["turns"], four["declared_turns"], four["ok"]) == (8, 7, False)
    assert (three["deck"], three["removed"], three["hand"], three["dead_wall"], three["draw_pile"]) == (36, 10, 4, 6, 18)
    assert (three["turns"], three["declared_turns"], three["ok"]) == (6, 7, False)


def test_each_mismatch_is_named_with_its_arithmetic(report):
    assert not report["ok"]
    errors = report["errors"]
    assert [e["code"] for e in errors] == ["turns-mismatch", "turns-mismatch"]
    four = next(e for e in errors if "4 players" in e["path"])
    three = next(e for e in errors if "3 players" in e["path"])
    assert "declares 7 turns per player, but the numbers give 8" in four["message"]
    assert "46 − 4 × 3 (hands) − 2 (dead wall) = 32" in four["message"]
    assert "4 × 3 (hands) + 4 × 7 (turns) + 2 (dead wall) = 42 cards; the deck has 46 (4 too many)" in four["message"]
    assert "46 − 10 removed = 36" in three["message"]
    assert "but the numbers give 6" in three["message"]
    assert "= 39 cards; the deck has 36 (3 too few)" in three["message"]
    assert four["line"] and three["line"]


def test_build_refuses_without_force(tmp_path):
    with pytest.raises(CardgenError) as exc:
        build_game(GAME, tmp_path)
    assert "validation failed" in exc.value.format()
    assert not (tmp_path / "yajanki").exists()


def test_forced_print_holds_every_card(built):
    res, texts = built
    assert res.report.errors
    # 46 battle cards at 8 a sheet = 6 sheets, 15 character cards = 2 sheets; each followed by its back
    assert len(texts) == (6 + 2) * 2
    assert all("DRAFT" in t for t in texts)
    joined = "\n".join(texts)
    assert joined.count("超えたらロン") == 7
    assert joined.count("先にチップを1枚失う") == 2
    fronts = [t for t in texts if "表 front" in t]
    assert sum("闘牌カード" in t for t in fronts) == 6
    assert not any("· チップ ·" in t for t in texts)  # not included: no sheet


def test_cli_force_prints_the_mismatches(tmp_path):
    # --dpi 72: the messages and the files written are the same at any resolution (the default
    # 300 dpi added ≈ 2 s of PNG encoding)
    r = CliRunner().invoke(cli, ["build", str(GAME), "--out", str(tmp_path), "--force", "--dpi", "72"])
    assert r.exit_code == 0, r.output
    assert "declares 7 turns per player, but the numbers give 8" in r.output
    assert "but the numbers give 6" in r.output
    assert (tmp_path / "yajanki" / "print-sheets.pdf").is_file()
    r = CliRunner().invoke(cli, ["build", str(GAME), "--out", str(tmp_path / "x")])
    assert r.exit_code == 1


def test_forced_rulebook_shows_declared_and_computed_turns(tmp_path):

    build_game(GAME, tmp_path, force=True, steps=("rulebook",))
    with open_pdf(str(tmp_path / "yajanki" / "rulebook.pdf")) as doc:
        upright = [p.filter(lambda o: o.get("object_type") != "char" or abs(o["matrix"][1]) < 1e-6) for p in doc.pages]
        tables = [t for p in upright for t in p.extract_tables()]  # not the diagonal DRAFT mark's letters
    turns = next(t for t in tables if t[0][1:] == ["手番（枚数から計算）", "手番（草案の記載）"])
    assert turns[1:] == [["3人", "6", "7"], ["4人", "8", "7"]]
    breakdown = next(t for t in tables if t[0][:2] == ["数字", "枚数"])
    assert [int(r[1]) for r in breakdown[1:-1]] == [10, 7, 7, 6, 6, 5, 5]
    assert [int(r[2]) for r in breakdown[1:-1]] == [0, 1, 1, 2, 2, 1, 0]
    assert breakdown[-1][1:] == ["46", "7"]
