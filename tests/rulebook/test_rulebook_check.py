"""The rulebook check of ``cardgen validate`` (cardgen.rulebook.pdf.check_story) lays the book out
without drawing it, and finds exactly what laying it out and drawing it finds."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from reportlab.platypus import Frame
from reportlab.platypus.paragraph import Paragraph

import cardgen.rulebook.pdf as rulebook_pdf
from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.steps.rulebook import check_rulebook
from tests.conftest import ROOT, needs_fonts
from tests.rulebook.rules_game import rules_game

pytestmark = needs_fonts
GAMES = ["tenjanpai", "yajanki", "majan", "nko_mahjong"]


def _big_image_game(tmp_path: Path) -> Path:
    """One rules file with a 3,000 px image at 72 dpi (far wider than the page: a scaled-down warning)."""
    def png(path: Path) -> None:
        Image.new("RGB", (3000, 1500), (200, 30, 30)).save(path, dpi=(72, 72))
    return rules_game(tmp_path, "# 図\n\n大きな図です。\n\n![図](big.png)\n\n図のあとの文章。\n", {"big.png": png})


@pytest.mark.parametrize("name", [*GAMES, "big-image"])
def test_check_without_drawing_finds_what_drawing_finds(name, tmp_path, monkeypatch):
    game_dir = _big_image_game(tmp_path) if name == "big-image" else ROOT / "card_data" / name
    game, report = load_and_validate(game_dir)
    fonts = fonts_for(game)
    drawn_paragraphs = []
    real_draw_on = Paragraph.drawOn

    def counting_draw_on(self, *args, **kwargs):
        drawn_paragraphs.append(self)
        return real_draw_on(self, *args, **kwargs)

    monkeypatch.setattr(Paragraph, "drawOn", counting_draw_on)
    laid_out = check_rulebook(game, report, fonts)
    assert drawn_paragraphs == []  # nothing was drawn
    monkeypatch.setattr(rulebook_pdf, "_LayoutFrame", Frame)  # the same check, drawing every flowable
    drawn = check_rulebook(game, report, fonts)
    assert drawn_paragraphs  # the counter sees drawing (the test can fail)
    assert [p.format() for p in laid_out] == [p.format() for p in drawn]
    if name == "big-image":
        assert [p.code for p in laid_out] == ["rules-image-scaled"]
