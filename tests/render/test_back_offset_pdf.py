"""``--back-offset X,Y`` read back from a finished print-sheets PDF.

The convention (README, duplex calibration sheet): mm, **x right, y down as seen on the back**.
In PDF coordinates (y up) a back element therefore moves by (+X, −Y) mm; in pdfplumber's
``top`` (y down from the page top) by (+X, +Y). Every element of a back page that belongs to a
card slot — bleed fills, rules and icons drawn inside the cards, card text, crop marks — moves
by exactly that; the page label (page furniture in the printer margin) and every front page stay
where they were.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from tests.conftest import TENJANPAI, needs_fonts
from tests.pdfread import open_pdf

pytestmark = needs_fonts

MM = 72 / 25.4
TOL = 0.05 * MM
DX_MM, DY_MM = 1.5, -2.0  # --back-offset 1.5,-2: 1.5 mm right, 2 mm up as seen on the back


def _build(out: Path, *extra: str) -> Path:
    res = CliRunner().invoke(cli, ["sheets", str(TENJANPAI), "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    return out / "tenjanpai" / "print-sheets.pdf"


def _elements(page) -> dict[str, list[tuple]]:
    """Every drawn element of a page as (x0, top) corners in pt, by kind, sorted; chars carry their text."""
    return {
        "rect": sorted((r["x0"], r["top"], r["width"], r["height"]) for r in page.rects),
        "line": sorted((ln["x0"], ln["top"], ln["width"], ln["height"]) for ln in page.lines),
        "curve": sorted((c["x0"], c["top"], c["width"], c["height"]) for c in page.curves),
        "image": sorted((i["x0"], i["top"], i["width"], i["height"]) for i in page.images),
        "char": sorted((c["x0"], c["top"], c["text"]) for c in page.chars),
    }


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    plain = _build(tmp_path_factory.mktemp("plain"))
    moved = _build(tmp_path_factory.mktemp("moved"), "--back-offset", f"{DX_MM},{DY_MM}")
    with open_pdf(plain) as a, open_pdf(moved) as b:
        assert len(a.pages) == len(b.pages)
        yield [(_elements(p), _elements(q), _page_label(p)) for p, q in zip(a.pages, b.pages)]


def _page_label(page) -> tuple[str, float]:
    """The page label ("… · 裏 back · long-edge flip · sheet 3/6"): its text and ``top`` (pt)."""
    lines = (page.extract_text_lines() or [])
    label = next(ln for ln in lines if "sheet" in ln["text"])
    return label["text"], label["top"]


def _split_label(chars: list[tuple], label_top: float) -> tuple[list[tuple], list[tuple]]:
    label = [c for c in chars if abs(c[1] - label_top) < 0.5]
    return [c for c in chars if c not in label], label


def test_backs_move_by_the_offset_fronts_do_not(pdfs):
    backs = fronts = 0
    for plain, moved, (label_text, label_top) in pdfs:
        is_back = "back" in label_text
        assert "front" in label_text or is_back, label_text
        if "白紙 blank" in label_text:  # the blank back of the tokens: only its label
            assert not plain["rect"] and not moved["rect"] and plain["char"] == moved["char"]
            continue
        # pdfplumber's top is y down, like Y as seen on the back: Y = −2 moves the back 2 mm up
        dx, dy = (DX_MM * MM, DY_MM * MM) if is_back else (0.0, 0.0)
        for kind in ("rect", "line", "curve", "image"):
            assert len(plain[kind]) == len(moved[kind]), kind
            for a, b in zip(plain[kind], moved[kind]):
                assert b[0] - a[0] == pytest.approx(dx, abs=TOL), (kind, a, b)
                assert b[1] - a[1] == pytest.approx(dy, abs=TOL), (kind, a, b)
                assert b[2:] == pytest.approx(a[2:], abs=1e-3), (kind, a, b)
        card_a, label_a = _split_label(plain["char"], label_top)
        card_b, label_b = _split_label(moved["char"], label_top)
        assert label_a == label_b and label_a  # the page label stays in its band
        assert len(card_a) == len(card_b)
        for a, b in zip(card_a, card_b):
            assert a[2] == b[2] and b[0] - a[0] == pytest.approx(dx, abs=TOL) and b[1] - a[1] == pytest.approx(dy, abs=TOL)
        backs += is_back
        fronts += not is_back
        if is_back:
            assert plain["rect"] and (plain["line"] or plain["curve"]) and card_a  # there was something to move
    assert backs == 8 and fronts == 9  # 6 + 2 sheets with backs, one token sheet without
