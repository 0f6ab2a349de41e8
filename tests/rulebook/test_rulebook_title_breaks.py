"""Titles and headings break only between phrases (文節, BudouX), read back from the PDF: 夜雀鬼's
title keeps 「アンドレス」 whole, and a long title and heading of a test book break at phrase
boundaries where the body text's softer rule would cut a word."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.layout.phrases import boundaries
from cardgen.steps.rulebook import write_rulebook
from tests.rulebook.rules_game import rules_game
from typeset_read import read_lines

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")
TITLE_PT, H1_PT = 20.0, 13.5  # templates/rulebook/default.yaml


def _broken(pdf: Path, size: float, starts: str) -> list[str]:
    """The lines of the first run of ``size`` pt lines starting with ``starts``."""
    lines = [ln for ln in read_lines(pdf) if ln.size == size]
    k = next(i for i, ln in enumerate(lines) if ln.text.startswith(starts))
    out = [lines[k]]
    for ln in lines[k + 1:]:
        if ln.page != out[-1].page or ln.chars[0]["top"] - out[-1].chars[0]["top"] > size * 2:
            break
        out.append(ln)
    return [ln.text for ln in out]


def _at_phrases(lines: list[str]) -> bool:
    text, at, cuts = "".join(lines), 0, []
    for ln in lines[:-1]:
        at += len(ln)
        cuts.append(at)
    return all(c in boundaries(text) for c in cuts)


def test_yajanki_title_keeps_andres_whole(tmp_path):
    game, report = load_and_validate(ROOT / "card_data" / "yajanki")
    pdf = tmp_path / "rb.pdf"
    write_rulebook(game, report, fonts_for(game), pdf)
    lines = _broken(pdf, TITLE_PT, "夜雀鬼")
    assert len(lines) >= 2 and "".join(lines) == "夜雀鬼（スリータイムズ・アンドレス）ルールブック"
    assert all("アンドレス" in ln or "アンドレ" not in ln for ln in lines), lines
    assert _at_phrases(lines), lines


TITLE = "麻雀風カードゲーム「スリータイムズ・アンドレス」の遊び方"  # the body rule cuts 「…・ア／ンドレス」
HEADING = "手番の流れと打牌のしかた、ポンとチーを宣言するときの注意"


def test_long_title_and_heading_break_between_phrases(tmp_path):
    game = rules_game(tmp_path, f"# {TITLE}\n\n## {HEADING}\n\n本文です。\n")
    g, report = load_and_validate(game)
    pdf = tmp_path / "rb.pdf"
    write_rulebook(g, report, fonts_for(g), pdf)
    title = _broken(pdf, TITLE_PT, TITLE[:3])
    assert "".join(title) == TITLE and len(title) >= 2
    assert _at_phrases(title), title
    heading = _broken(pdf, H1_PT, "1")
    text = "".join(heading)
    assert text.endswith(HEADING) and len(heading) >= 2, heading
    lines = [heading[0][len(text) - len(HEADING):]] + heading[1:]
    assert _at_phrases(lines), heading
