"""What comes out of the printer (issue 11), read back from the files of every bundled game:
duplex pairs (page 2k is the back of page 2k − 1, or blank), embedded fonts, 100 % printing, the
scale bar on page 1 measured in mm."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from cardgen.api import build_game
from cardgen.steps.sheets import SheetOptions
from tests.conftest import needs_fonts
from tests.pdfread import CARD_DATA, open_pdf, page_label, unembedded_fonts, viewer_preferences

pytestmark = needs_fonts

MM = 72 / 25.4
GAMES = sorted(p.name for p in CARD_DATA.iterdir() if (p / "game.yaml").is_file())
MARK_MIN = 1.9  # mm: crop mark lines are at least 2 mm (a centre トンボ's cross bar), mostly 3–10 mm
NOTE = "100%（実際のサイズ）で印刷"


def _sheets(built_games, game: str, **kw) -> Path:
    """The output folder of ``game``'s forced print sheets with ``SheetOptions(**kw)``, built once
    per test run (:func:`tests.conftest.built_games`: the default options and ``paper="a4"`` or
    ``duplex="long-edge"`` are one build)."""
    return built_games(game, options=SheetOptions(**kw), force=True, steps=("sheets",)).out_dir


def crop_marks(page) -> list[tuple[float, float, float, float]]:
    """Crop mark lines of a page (black, 0.25 pt, at least 2 mm long), as rounded (x0, y0, x1, y1) pt, y up."""
    H = float(page.height)
    out = []
    for ln in page.lines:
        (xa, ya), (xb, yb) = ln["pts"][0], ln["pts"][-1]
        black = tuple(ln.get("stroking_color") or ()) in ((0, 0, 0), (0,))
        if black and abs(ln["linewidth"] - 0.25) < 1e-3 and math.hypot(xb - xa, yb - ya) >= MARK_MIN * MM:
            a, b = sorted(((xa, H - ya), (xb, H - yb)))
            out.append((round(a[0], 1), round(a[1], 1), round(b[0], 1), round(b[1], 1)))
    return sorted(out)


def mirrored(marks, width: float, height: float, duplex: str) -> list[tuple]:
    """The marks of a front page as they must lie on its back: long-edge flip mirrors x on a
    portrait page and y on a landscape one; short-edge the other axis."""
    mirror_x = (duplex == "long-edge") == (width < height)
    out = []
    for x0, y0, x1, y1 in marks:
        if mirror_x:
            x0, x1 = width - x0, width - x1
        else:
            y0, y1 = height - y0, height - y1
        a, b = sorted(((x0, y0), (x1, y1)))
        out.append((round(a[0], 1), round(a[1], 1), round(b[0], 1), round(b[1], 1)))
    return sorted(out)


def _close(a, b, tol=0.15) -> bool:
    return len(a) == len(b) and all(max(abs(p - q) for p, q in zip(u, v)) <= tol for u, v in zip(a, b))


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("game", GAMES)
def test_every_back_page_follows_its_front(built_games, game, duplex):
    """Even page count; page 2k has page 2k − 1's size and orientation, and either its crop marks
    (so its card slots) mirror the front's for the flip, or it is blank and says so."""
    pdf = _sheets(built_games, game, duplex=duplex) / "print-sheets.pdf"
    with open_pdf(pdf) as doc:
        pages = doc.pages
        assert len(pages) % 2 == 0, f"{game}: {len(pages)} pages"
        for k in range(0, len(pages), 2):
            front, back = pages[k], pages[k + 1]
            assert (front.width, front.height) == (back.width, back.height), f"{game} page {k + 2}"
            fm, bm = crop_marks(front), crop_marks(back)
            assert fm, f"{game} page {k + 1} has no cards"
            text = page_label(back)
            if not bm:  # a blank back: no card, only a label saying why
                assert "白紙 blank" in text and "裏 back" in text, text
                assert len(back.chars) == len(text.replace(" ", "")) or len(back.chars) == len(text)
                continue
            assert "裏 back" in text and "表 front" in page_label(front)
            assert _close(bm, mirrored(fm, float(front.width), float(front.height), duplex)), \
                f"{game}: page {k + 2} is not the mirror of page {k + 1}"


@pytest.mark.parametrize("game", GAMES)
def test_one_orientation_per_file(built_games, game):
    """The bundled games fit one orientation per file without costing a sheet."""
    with open_pdf(_sheets(built_games, game) / "print-sheets.pdf") as doc:
        assert len({p.width > p.height for p in doc.pages}) == 1


def test_nko_one_sided_components_in_their_own_file(built_games):
    out = _sheets(built_games, "nko_mahjong", one_sided="separate")
    with open_pdf(out / "print-sheets.pdf") as doc:
        texts = [page_label(p) for p in doc.pages]
    assert len(texts) == 6 and all("牌カード" in t for t in texts)  # 36 tile cards, 12 a sheet, fronts + backs
    assert [("表 front" in t, "裏 back" in t) for t in texts] == [(True, False), (False, True)] * 3
    with open_pdf(out / "print-sheets-one-sided.pdf") as doc:
        texts = [page_label(p) for p in doc.pages]
    assert texts and all("表 front" in t and "裏" not in t for t in texts)
    assert {"牌シール", "点棒", "役一覧カード"} <= {name for t in texts for name in ("牌シール", "点棒", "役一覧カード")
                                              if f"· {name} ·" in t}
    assert viewer_preferences(out / "print-sheets-one-sided.pdf")["/Duplex"] == "/Simplex"
    assert viewer_preferences(out / "print-sheets.pdf")["/Duplex"] == "/DuplexFlipLongEdge"


def scale_bars(page) -> list[float]:
    """Lengths (mm) of the straight lines on ``page`` between 90 and 110 mm long, outside every
    card (the scale bar; crop marks are 2–10 mm, card frames are rectangles)."""
    out = []
    for ln in page.lines:
        (xa, ya), (xb, yb) = ln["pts"][0], ln["pts"][-1]
        length = math.hypot(xb - xa, yb - ya) / MM
        if 90 <= length <= 110:
            out.append(length)
    return out


@pytest.mark.parametrize("paper, length", [("a4", 100.0), ("b5", 100.0), ("letter", 101.6)])
@pytest.mark.parametrize("game", GAMES)
def test_scale_bar_on_page_one(built_games, game, paper, length):
    out = _sheets(built_games, game, paper=paper)
    with open_pdf(out / "print-sheets.pdf") as doc:
        bars = scale_bars(doc.pages[0])
        assert len(bars) == 1 and abs(bars[0] - length) <= 0.1, bars
        assert NOTE in page_label(doc.pages[0])
        assert all(not scale_bars(p) for p in doc.pages[1:])


@pytest.mark.parametrize("game", GAMES)
def test_every_pdf_embeds_its_fonts_and_prints_at_100_percent(tmp_path_factory, game):
    out = tmp_path_factory.mktemp(f"all-{game}")
    res = build_game(CARD_DATA / game, out, force=True,
                     steps=("sheets", "shop", "calibration", "rulebook"))
    pdfs = sorted(res.out_dir.rglob("*.pdf"))
    assert {"print-sheets.pdf", "duplex-calibration.pdf"} <= {p.name for p in pdfs}
    assert any(p.parent.name == "shop" for p in pdfs)
    for pdf in pdfs:
        assert unembedded_fonts(pdf) == {}, pdf
        assert viewer_preferences(pdf).get("/PrintScaling") == "/None", pdf
