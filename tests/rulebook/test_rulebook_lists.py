"""Rulebook lists: circled ① ② markers (statute style, or typed by hand) and the gap after a nested list."""
from __future__ import annotations

import shutil

import pytest

from cardgen.rulebook.blocks import ListBlock, Para, plain
from cardgen.rulebook.markdown import parse_blocks
from cardgen.rulebook.numbering import Numberer
from cardgen.data.manifest import RulebookSettings
from cardgen.fonts.fontset import fonts_for
from cardgen.steps.rulebook import write_rulebook
from cardgen.check.print_setup import load_and_validate
from tests.pdfread import CARD_DATA, open_pdf


def _lists(md: str, **kw) -> list[ListBlock]:
    return [b for b in parse_blocks(md, Numberer(RulebookSettings(**kw))) if isinstance(b, ListBlock)]


def test_statute_ordered_lists_are_circled_decimal_elsewhere():
    md = "1. 宣言する\n2. 確かめる\n"
    (s,) = _lists(md, numbering="statute")
    (d,) = _lists(md, numbering="decimal")
    assert (s.ordered, s.circled, s.start) == (True, True, 1)
    assert (d.ordered, d.circled) == (True, False)


def test_circled_numbers_typed_in_a_bullet_list_become_the_markers():
    (b,) = _lists("- ③ 和点を確かめる\n- ④　精算する\n", numbering="decimal")
    assert (b.ordered, b.circled, b.start) == (True, True, 3)
    assert [plain(it[0].runs) for it in b.items] == ["和点を確かめる", "精算する"]
    (keep,) = _lists("- ① 一つ\n- 二つ\n")  # not every item numbered: left as written
    assert not keep.ordered and plain(keep.items[0][0].runs) == "①一つ"  # the typed space beside Japanese absorbed
    assert isinstance(keep.items[1][0], Para)


RULES = """# 試験

本文。

- 親の項目A
  - 子の項目
- 親の項目B
- 親の項目C

1. 手順一
2. 手順二

- ① 手で書いた一
- ② 手で書いた二
"""


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lists")
    game = tmp / "majan"
    shutil.copytree(CARD_DATA / "majan", game)
    for f in (game / "rules").glob("*.md"):
        f.unlink()
    (game / "rules" / "01.md").write_text(RULES, encoding="utf-8")
    g, report = load_and_validate(game)
    write_rulebook(g, report, fonts_for(g), tmp / "r.pdf")
    with open_pdf(str(tmp / "r.pdf")) as doc:
        return [ln for p in doc.pages for ln in p.extract_text_lines()]


def _line(lines, needle):
    return next(ln for ln in lines if needle in ln["text"])


def test_a_nested_list_is_followed_by_the_same_gap_as_items(lines):
    a, child, b, c = (_line(lines, t) for t in ("親の項目A", "子の項目", "親の項目B", "親の項目C"))
    between_items = c["top"] - b["top"]
    assert child["top"] - a["top"] == pytest.approx(between_items, abs=0.5)
    assert b["top"] - child["top"] == pytest.approx(between_items, abs=0.5)  # was one line height only


def test_circled_items_have_no_bullet(lines):
    for needle, mark in (("手順一", "①"), ("手順二", "②"), ("手で書いた一", "①"), ("手で書いた二", "②")):
        text = _line(lines, needle)["text"].replace(" ", "")
        assert text.startswith(mark + needle), text  # the marker, no bullet, no typed duplicate
