"""`cardgen sheets --only-changed-since / --cards`: reprint sheets of only the changed cards,
read back from the PDF (page count, labels, the faces printed, their backs)."""
from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from tests.conftest import copy_game, git, needs_fonts, replace_in
from tests.pdfread import open_pdf, page_label, vertical_columns

pytestmark = needs_fonts


def _big_numbers(page) -> list[str]:
    """The big number of each battle card on a page (the medallion, 40 pt or more), left to right
    then top to bottom."""
    chars = [c for c in page.chars if c["size"] >= 40]
    return [c["text"] for c in sorted(chars, key=lambda c: (round(c["top"]), c["x0"]))]


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_three_changed_battle_cards_fit_one_sheet_with_its_back_and_show_the_new_faces(tmp_path, monkeypatch):
    game = copy_game(tmp_path)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "draft 3 as bundled")
    # three one-copy cards change number in a cycle 5 → 6 → 7 → 5: the deck still validates
    table = game / "battle.csv"
    replace_in(table, "b5-chi,5,", "b5-chi,6,")
    replace_in(table, "b6-chi,6,", "b6-chi,7,")
    replace_in(table, "b7-pon,7,", "b7-pon,5,")
    monkeypatch.chdir(tmp_path)

    res = CliRunner().invoke(cli, ["sheets", "card_data/tenjanpai", "--only-changed-since", "HEAD", "--out", "out"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "reprint: 3 cards (battle b5-chi, battle b6-chi, battle b7-pon) on 2 pages" in res.stdout
    pdf_path = tmp_path / "out" / "tenjanpai" / "reprint-sheets.pdf"
    assert not (tmp_path / "out" / "tenjanpai" / "print-sheets.pdf").exists()
    with open_pdf(pdf_path) as pdf:
        assert len(pdf.pages) == 2  # one sheet: its front and its back
        front, back = pdf.pages
        assert page_label(front).startswith("天雀牌 draft 3 · reprint 再印刷 · changed since HEAD · 闘牌カード · 表 front · sheet 1/1")
        assert "裏 back" in page_label(back) and "reprint 再印刷" in page_label(back)
        assert _big_numbers(front) == ["6", "7", "5"]  # the new faces, in table order (the old ones read 5, 6, 7)
        titles = [c["text"] for c in back.chars if c["size"] >= 16]
        assert "".join(titles) == "天雀牌" * 3  # three backs behind the three fronts
        assert (front.width, front.height) == (back.width, back.height)

    # the same reprint from the older draft as a folder
    old = tmp_path / "old"
    git(tmp_path, "worktree", "add", "-q", str(old), "HEAD")
    res = CliRunner().invoke(cli, ["sheets", "card_data/tenjanpai", "--only-changed-since",
                                   str(old / "card_data" / "tenjanpai"), "--out", "out2"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    with open_pdf(tmp_path / "out2" / "tenjanpai" / "reprint-sheets.pdf") as pdf:
        assert _big_numbers(pdf.pages[0]) == ["6", "7", "5"]

    # nothing changed since the working tree's own state: nothing is written
    git(tmp_path, "commit", "-q", "-am", "numbers cycled")
    res = CliRunner().invoke(cli, ["sheets", "card_data/tenjanpai", "--only-changed-since", "HEAD", "--out", "out3"],
                             catch_exceptions=False)
    assert res.exit_code == 0
    assert res.stdout == "note: no card face changed since HEAD; nothing written\n"
    assert not (tmp_path / "out3").exists()


def test_named_cards_of_two_components_share_a_sheet(game_copy, tmp_path):
    res = CliRunner().invoke(cli, ["sheets", str(game_copy), "--cards", "b7-pon,c1-1", "--out", str(tmp_path / "out")],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    with open_pdf(tmp_path / "out" / "tenjanpai" / "reprint-sheets.pdf") as pdf:
        assert len(pdf.pages) == 2
        label = page_label(pdf.pages[0])
        assert "reprint 再印刷 · 闘牌カード + 天雀カード · 表 front · sheet 1/1" in label
        text = pdf.pages[0].extract_text()
        assert "李紅蓮" in vertical_columns(pdf.pages[0]) and _big_numbers(pdf.pages[0]) == ["7"]  # a vertical name
        assert "炎掌の天雀" in text


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_reprint_of_a_game_with_its_own_icons_holds_only_the_changed_card(tmp_path, monkeypatch):
    """Issue 31: the committed draft is read into another folder, and a game icon was compared by
    its path: every face that draws an own icon was 'changed' (78 cards on 14 pages for 3)."""
    from cardgen.data.new_game import new_game
    from tests.diff.test_diff import _with_own_icon

    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "g")
    _with_own_icon(tmp_path / "g")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "draft 1")
    replace_in(tmp_path / "g" / "cards.csv", "n2,2,4", "n2,5,4")
    res = CliRunner().invoke(cli, ["sheets", "g", "--only-changed-since", "HEAD", "--out", "out"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("reprint: 4 cards (cards n2 ×4) on 2 pages\n"), res.stdout  # one card row, 4 copies
