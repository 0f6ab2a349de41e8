"""Every heading of every bundled rulebook sits on the same page as the text that follows it."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.rulebook.design import load_design
from cardgen.data.game import load_game
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.parent.name for p in (ROOT / "card_data").glob("*/rules"))
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")


def _lines(pdf: Path, margins: dict[str, float]) -> list[tuple[int, float, str]]:
    """(page, font size, text) of every text line inside the body frame (no running header, no
    page number, no diagonal DRAFT mark), in reading order."""
    out = []
    with open_pdf(pdf) as doc:
        for i, page in enumerate(doc.pages):
            body = page.filter(lambda o: o.get("object_type") != "char" or o.get("upright", True))
            for line in body.extract_text_lines(return_chars=True):
                if line["top"] < margins["top"] - 1 or line["bottom"] > page.height - margins["bottom"] + 1:  # pt
                    continue
                sizes = {round(c["size"], 1) for c in line["chars"] if c["text"].strip()}
                out.append((i + 1, max(sizes) if sizes else 0.0, line["text"]))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_headings_keep_with_next(game, built_games):
    out = built_games(game, force=True, steps=("rulebook",)).out_dir
    g = load_game(ROOT / "card_data" / game)
    design, _ = load_design([d for d in (g.root / "templates" / "rulebook", ROOT / "templates" / "rulebook")
                             if d.is_dir()], g.manifest.rulebook.template)
    heading_sizes = {ts.size for ts in design.headings}
    body = design.body.size
    lines = _lines(out / "rulebook.pdf", design.margins)
    headings = 0
    for k, (page, size, text) in enumerate(lines):
        if size not in heading_sizes or page == 1:
            continue
        headings += 1
        after = [(p, t) for p, s, t in lines[k + 1:] if s != size and s >= body - 1.5]  # body, list or table text
        assert after, f"{game}: heading {text!r} is the last line of the book"
        assert after[0][0] == page, f"{game}: heading {text!r} on page {page}, its text on page {after[0][0]}"
    assert headings >= 1, (game, headings, sorted({s for _p, s, _t in lines}))
