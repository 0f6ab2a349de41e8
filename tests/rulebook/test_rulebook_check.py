"""The rulebook check of ``cardgen validate`` (cardgen.rulebook.pdf.check_story) builds the story and
breaks the lines of the paragraphs it reports on, without paginating or drawing, and finds
exactly what the build finds writing the PDF (write_rulebook: every pass, every page drawn)."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from reportlab.platypus.paragraph import Paragraph

from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.rulebook import kinsoku
from cardgen.steps.rulebook import check_rulebook, write_rulebook
from tests.conftest import ROOT, needs_fonts
from tests.rulebook.rules_game import rules_game

pytestmark = needs_fonts
GAMES = ["tenjanpai", "yajanki", "majan", "nko_mahjong"]
#: A Latin word no line break may split: the paragraph ends in a short last line at some widths.
LONG = "Pneumonoultramicroscopicsilicovolcanoconiosisです。"


def _png(path: Path) -> None:
    Image.new("RGB", (3000, 1500), (200, 30, 30)).save(path, dpi=(72, 72))


#: Short last lines at the width of the frame (line 5: stays short), a list item (7), a nested list
#: item (10), a quote (12) (the composer breaks those three again, so they are not short); one in a table cell (not reported: a cell's lines are not checked); an image
#: far wider than the page (line 18: a scaled-down warning); an open question's note (notes are
#: not checked either).
MIXED = f"""# 規則

本文です。

{"あ" * 14}{LONG}

- {"か" * 10}{LONG}
- 二つ目
  - 外
  - {"う" * 8}{LONG}

> {"い" * 9}{LONG}

| 表 | 説明 |
|---|---|
| 一 | {"え" * 6}{LONG} |

![図](big.png)

図のあとの文章。
"""


def _game(name: str, tmp_path: Path) -> Path:
    if name == "mixed":
        return rules_game(tmp_path, MIXED, {"big.png": _png})
    return ROOT / "card_data" / name


@pytest.mark.parametrize("name", [*GAMES, "mixed"])
def test_check_finds_what_the_build_finds(name, tmp_path, monkeypatch):
    game, report = load_and_validate(_game(name, tmp_path))
    fonts = fonts_for(game)
    drawn = []
    real_draw_on = Paragraph.drawOn
    monkeypatch.setattr(Paragraph, "drawOn", lambda self, *a, **k: drawn.append(self) or real_draw_on(self, *a, **k))
    checked = check_rulebook(game, report, fonts)
    assert drawn == []  # nothing was drawn
    built: list = []
    write_rulebook(game, report, fonts, tmp_path / "rulebook.pdf", findings=built)
    assert drawn  # the counter sees drawing (the test can fail)
    assert [p.format() for p in checked] == [p.format() for p in built]
    if name == "mixed":
        assert [(p.code, p.line) for p in checked] == [("rules-image-scaled", 18)] + [
            ("rules-short-last-line", n) for n in (5,)]  # the list items' and the quote's: broken again


def test_check_breaks_only_the_reported_paragraphs(tmp_path, monkeypatch):
    """Table cells and notes are not laid out by the check (the build breaks their lines too)."""
    game, report = load_and_validate(_game("mixed", tmp_path))
    fonts = fonts_for(game)
    broken = []
    real = kinsoku.kinsoku_split
    monkeypatch.setattr(kinsoku, "kinsoku_split", lambda frags, *a, **k: broken.append(frags) or real(frags, *a, **k))
    check_rulebook(game, report, fonts)
    checked = len(broken)
    write_rulebook(game, report, fonts, tmp_path / "rulebook.pdf", findings=[])
    assert 0 < checked < len(broken) - 10
    texts = ["".join(f.text for f in frags) for frags in broken[:checked]]
    assert not any(t.startswith("え") or "【未確定】" in t for t in texts)


def test_the_check_builds_no_lines_for_the_paragraphs_it_wraps(tmp_path, monkeypatch):
    """The check asks only for short last lines (its measuring canvas says so): the paragraphs,
    list items and quotes it wraps find their breaks and report as the build does (above) but
    build no reportlab lines (a table's row heights, measured while the story is built, do)."""
    from cardgen.rulebook import pdf

    game, report = load_and_validate(_game("mixed", tmp_path))
    fonts = fonts_for(game)
    made, at_wrap = [], []
    real, real_canvas = kinsoku.makeCJKParaLine, pdf._measuring_canvas
    monkeypatch.setattr(kinsoku, "makeCJKParaLine", lambda *a: made.append(1) or real(*a))
    monkeypatch.setattr(pdf, "_measuring_canvas", lambda *a: at_wrap.append(len(made)) or real_canvas(*a))
    assert [p.code for p in check_rulebook(game, report, fonts)].count("rules-short-last-line") == 1
    assert at_wrap and len(made) == at_wrap[0]  # nothing built once the wrapping began
    monkeypatch.setattr(pdf, "_measuring_canvas", lambda *a: setattr(c := real_canvas(*a), "short_last_lines_only",
                                                                      False) or c)
    made.clear()
    check_rulebook(game, report, fonts)
    assert len(made) > at_wrap[0]  # without the canvas's word they are built (the test can fail)
