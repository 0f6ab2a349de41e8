"""The rulebook's baseline grid, read back from the PDF (pdfplumber): every body line's baseline
lies a whole number of leadings below the text frame's top (within 0.1 pt), on every page —
after headings, tables, figures, open-question boxes and lists — so headings and blocks take
whole lines. The same reading of a book set without the grid finds lines off it (the check can fail).

NKO麻雀's rulebook: headings with rules, paragraphs, lists with boxes inside items, tables; 天雀牌's:
card figures, the table layout figures, a vertical cover."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.rulebook.design import load_design
from cardgen.rulebook.grid import grid_pitch
from cardgen.rulebook.pdf import frame_box
from cardgen.steps.rulebook import write_rulebook
from tests.conftest import copy_game
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")
DESIGN, _ = load_design([ROOT / "templates" / "rulebook"], "default")
PITCH = grid_pitch(DESIGN)
_X, _Y, _W, _H = frame_box(DESIGN, (148, 210))
FRAME_TOP = _Y + _H  #: pt from the page's foot (A5)


def body_baselines(pdf_path: Path) -> list[tuple[int, float, str]]:
    """(page, baseline in pt from the page foot, text) of every body line: upright glyphs of the
    body size in the body face (Mincho), outside the filled boxes (a quote, an open question's
    note, a table's header), whose own lines are the box's."""
    out = []
    with open_pdf(str(pdf_path)) as pdf:
        for pno, page in enumerate(pdf.pages, 1):
            boxes = [r for r in page.rects if r.get("fill") and r["width"] > 20 and r["height"] > 8]
            rows: dict[float, list[str]] = {}
            for c in page.chars:
                if abs(c["size"] - DESIGN.body.size) > 0.05 or "Mincho" not in c["fontname"] \
                        or not c["text"].strip() or c["matrix"][1] or c["matrix"][0] <= 0:
                    continue
                base = c["matrix"][5]
                down = page.height - base
                if any(b["x0"] - 0.5 <= c["x0"] <= b["x1"] + 0.5 and b["top"] <= down <= b["bottom"] for b in boxes):
                    continue
                rows.setdefault(round(base, 2), []).append(c["text"])
            out += [(pno, base, "".join(t)) for base, t in sorted(rows.items(), reverse=True)]
    return out


def off_grid(lines) -> list:
    bad = []
    for pno, base, text in lines:
        k = (FRAME_TOP - base) / PITCH
        if abs(k - round(k)) * PITCH > 0.1:
            bad.append((pno, round(k, 3), text[:20]))
    return bad


@pytest.fixture(scope="module")
def nko(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grid")
    game_dir = copy_game(tmp, "nko_mahjong")
    game, report = load_and_validate(game_dir)
    pdf = tmp / "on.pdf"
    write_rulebook(game, report, fonts_for(game), pdf)
    # the same book without the grid: the game's own page design, the default with baseline_grid off
    design = game_dir / "templates" / "rulebook"
    design.mkdir(parents=True, exist_ok=True)
    text = (ROOT / "templates" / "rulebook" / "default.yaml").read_text(encoding="utf-8")
    (design / "nogrid.yaml").write_text(text + "baseline_grid: false\n", encoding="utf-8")
    y = game_dir / "game.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("rulebook:\n", "rulebook:\n  template: nogrid\n", 1),
                 encoding="utf-8")
    game, report = load_and_validate(game_dir)
    assert game.manifest.rulebook.template == "nogrid"
    off = tmp / "off.pdf"
    write_rulebook(game, report, fonts_for(game), off)
    return pdf, off


def test_every_body_line_sits_on_the_grid(nko):
    lines = body_baselines(nko[0])
    assert len(lines) > 60 and len({p for p, _b, _t in lines}) > 5
    assert off_grid(lines) == []


def test_without_the_grid_the_reading_finds_lines_off_it(nko):
    assert len(off_grid(body_baselines(nko[1]))) > 10


def test_tenjanpai_body_lines_on_the_grid(tmp_path):
    game, report = load_and_validate(ROOT / "card_data" / "tenjanpai")
    pdf = tmp_path / "rb.pdf"
    write_rulebook(game, report, fonts_for(game), pdf)
    lines = body_baselines(pdf)
    assert len(lines) > 60
    assert off_grid(lines) == []
