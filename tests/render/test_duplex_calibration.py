"""Duplex calibration sheet and --back-offset (backs shifted with their crop marks)."""
from __future__ import annotations

import pdfplumber
import pytest
from pypdf import PdfReader

from cardgen.api import build_game
from cardgen.layout.calibration import calibration_pages, mirror, targets
from cardgen.layout.ops import Line, Text
from cardgen.layout.grid import SheetSpec
from cardgen.layout.sheet import impose
from cardgen.steps.sheets import SheetOptions
from cardgen.core.units import MM

from conftest import TENJANPAI
from tests.pdfread import open_pdf

A4 = (210 * MM, 297 * MM)


def _zero_ticks(page, cx, cy):
    """x of the horizontal scale's 0 tick and y of the vertical scale's 0 tick nearest (cx, cy)."""
    texts = [op for op in page.ops if isinstance(op, Text) and op.text == "0"]
    lines = [op for op in page.ops if isinstance(op, Line) and op.width == 0.4]
    vertical = min((ln for ln in lines if ln.x1 == ln.x2), key=lambda ln: abs(ln.x1 - cx) + abs(ln.y1 - cy))
    horizontal = min((ln for ln in lines if ln.y1 == ln.y2), key=lambda ln: abs(ln.x1 - cx) + abs(ln.y1 - cy))
    assert texts
    return vertical.x1, horizontal.y1


@pytest.mark.parametrize("page", [A4, A4[::-1]], ids=["portrait", "landscape"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_back_scales_sit_behind_front_crosshairs(duplex, page):
    front, back = calibration_pages(*page, duplex=duplex)
    for t in targets(*page):
        bx, by = mirror(t, *page, duplex)
        x0, y0 = _zero_ticks(back, bx, by)
        assert abs(x0 - bx) < 1e-6 and abs(y0 - by) < 1e-6
        # the front has a vertical and a horizontal line through the target
        assert any(isinstance(o, Line) and o.x1 == o.x2 == t[0] and o.y1 < t[1] < o.y2 for o in front.ops)
        assert any(isinstance(o, Line) and o.y1 == o.y2 == t[1] and o.x1 < t[0] < o.x2 for o in front.ops)


def test_offset_moves_the_back_scales():
    _, back = calibration_pages(*A4, back_offset=(1.5, 2.0))
    t = targets(*A4)[0]
    bx, by = mirror(t, *A4, "long-edge")
    x0, y0 = _zero_ticks(back, bx + 1.5 * MM, by - 2 * MM)
    assert abs(x0 - (bx + 1.5 * MM)) < 1e-6  # x right
    assert abs(y0 - (by - 2.0 * MM)) < 1e-6  # y down (pt y up)


def test_scale_reading_is_the_correction():
    """A printer that moves the back 2 mm right: the front line meets the scale at −2 → --back-offset -2,…"""
    _, back = calibration_pages(*A4)
    t = targets(*A4)[0]
    bx, by = mirror(t, *A4, "long-edge")
    shift = 2 * MM
    labels = {op.text: op for op in back.ops if isinstance(op, Text) and op.text in ("-5", "0", "+5")}
    ticks = sorted({op.x1 for op in back.ops if isinstance(op, Line) and op.x1 == op.x2
                    and abs(op.x1 - bx) <= 10 * MM + 1e-6 and op.y1 > by})
    hit = min(ticks, key=lambda x: abs(x + shift - bx))  # the tick the front line meets after the shift
    assert round((hit - bx) / MM) == -2 and labels


def test_impose_back_offset_shifts_slots_and_marks():
    spec = SheetSpec(*A4, 63 * MM, 88 * MM)
    _, plain = impose(9, spec)
    _, moved = impose(9, spec, back_offset=(1 * MM, -2 * MM))
    assert [s.x for s in plain[0].slots] == [s.x for s in moved[0].slots]  # fronts untouched
    for a, b in zip(plain[1].slots, moved[1].slots):
        assert abs(b.x - a.x - 1 * MM) < 1e-6 and abs(b.y - a.y + 2 * MM) < 1e-6
    for a, b in zip(plain[1].marks, moved[1].marks):
        assert abs(b.x1 - a.x1 - 1 * MM) < 1e-6 and abs(b.y1 - a.y1 + 2 * MM) < 1e-6


def test_calibration_pdf_and_back_offset_in_sheets(tmp_path):
    res = build_game(TENJANPAI, tmp_path, SheetOptions(back_offset=(0.5, 1.0)), steps=("calibration", "sheets"))
    cal = PdfReader(res.out_dir / "duplex-calibration.pdf")
    assert len(cal.pages) == 2
    sheets = PdfReader(res.out_dir / "print-sheets.pdf")
    # poker cards on A4 print 4 × 2 on landscape sheets: the calibration sheet goes through the
    # printer the same way, and says so on both sides
    assert [round(float(v) / MM) for v in sheets.pages[0].mediabox[2:]] == [297, 210]
    for page in cal.pages:
        assert [round(float(v) / MM) for v in page.mediabox[2:]] == [297, 210]
        text = page.extract_text()
        assert "横向きのページ" in text and "闘牌カードの印刷シート（63 × 88 mm、4 × 2）と同じ向きで給紙します" in text, text
    assert "--back-offset" in cal.pages[1].extract_text()


def test_mirror_follows_the_flip_axis_of_the_page():
    """Long-edge flip: a portrait page mirrors x, a landscape page mirrors y (as the sheets do)."""
    w, h = A4
    assert mirror((10, 20), w, h, "long-edge") == (w - 10, 20)
    assert mirror((10, 20), h, w, "long-edge") == (10, w - 20)
    assert mirror((10, 20), h, w, "short-edge") == (h - 10, 20)


def test_calibration_command_has_no_sheet_only_options(tmp_path):
    from click.testing import CliRunner

    from cardgen.cli.commands import cli

    for opt in (["--sides", "front"], ["--no-backs"], ["--marks", "none"]):
        res = CliRunner().invoke(cli, ["calibration", str(TENJANPAI), "--out", str(tmp_path), *opt])
        assert res.exit_code == 2 and "No such option" in res.output, (opt, res.output)
    res = CliRunner().invoke(cli, ["calibration", str(TENJANPAI), "--out", str(tmp_path), "--paper", "a4"])
    assert res.exit_code == 0, res.output


def test_orientation_follows_the_first_deck_with_backs():
    """NKO麻雀 prints tile stickers first (one-sided); the duplex sheet follows its two-sided deck."""
    from cardgen.steps.calibration import sheet_orientation
    from cardgen.data.game import load_game

    landscape, note = sheet_orientation(load_game(TENJANPAI.parent / "nko_mahjong"), SheetOptions())
    assert "牌カード" in note and "牌シール" not in note
    assert landscape == note.startswith("A4 横向き")
    _landscape, english = sheet_orientation(load_game(TENJANPAI.parent / "nko_mahjong"), SheetOptions(), "en")
    assert english.startswith("Landscape" if landscape else "Portrait") and "牌カード" in english


def test_front_lines_reach_the_scales_for_any_shift_the_scales_show():
    """A back shifted by up to ±SCALE_MM in both directions still has every scale crossed by its
    front line (the scales are labelled ±10 mm, so the lines must reach that far)."""
    from cardgen.layout.calibration import GAP, SCALE_MM, calibration_pages, targets
    from cardgen.layout.ops import Line
    from cardgen.core.units import MM

    w, h = 297 * MM, 210 * MM
    front, _back = calibration_pages(w, h)
    lines = [op for op in front.ops if isinstance(op, Line)]
    for tx, ty in targets(w, h):
        centred = [ln for ln in lines if abs((ln.x1 + ln.x2) / 2 - tx) < 1e-6 and abs((ln.y1 + ln.y2) / 2 - ty) < 1e-6]
        vertical = next(ln for ln in centred if abs(ln.x1 - ln.x2) < 1e-6)
        horizontal = next(ln for ln in centred if abs(ln.y1 - ln.y2) < 1e-6)
        reach = GAP + SCALE_MM * MM
        assert max(vertical.y1, vertical.y2) >= ty + reach and min(vertical.y1, vertical.y2) <= ty - reach
        assert max(horizontal.x1, horizontal.x2) >= tx + reach and min(horizontal.x1, horizontal.x2) <= tx - reach
        for ln in (vertical, horizontal):  # and stay inside a 5 mm printer margin
            assert min(ln.x1, ln.x2) >= 5 * MM - 1e-6 and max(ln.x1, ln.x2) <= w - 5 * MM + 1e-6
            assert min(ln.y1, ln.y2) >= 5 * MM - 1e-6 and max(ln.y1, ln.y2) <= h - 5 * MM + 1e-6


def _side_mark(page) -> tuple[str, float, float]:
    """The side mark read back from a PDF page: its word (the one 28 pt glyph) and the centre of
    the box around it, in mm from the page's bottom-left corner (y up)."""
    big = [ch for ch in page.chars if ch["size"] > 20]
    assert len(big) == 1, [ch["text"] for ch in big]
    box = min((r for r in page.rects if r["x0"] <= big[0]["x0"] and big[0]["x1"] <= r["x1"]
               and r["top"] <= big[0]["top"] and big[0]["bottom"] <= r["bottom"]), key=lambda r: r["width"])
    assert isinstance(page, pdfplumber.page.Page)
    return big[0]["text"], (box["x0"] + box["x1"]) / 2 / MM, (page.height - (box["top"] + box["bottom"]) / 2) / MM


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_side_mark_shows_a_wrong_flip_setting(tmp_path, duplex):
    """The Japanese game gets a Japanese sheet; the back's 裏 box lies right behind the front's 表
    box for the chosen flip, and the other flip would put it on the far side of the page (both
    positions are far apart on both axes, so either mistake shows)."""
    res = build_game(TENJANPAI, tmp_path, SheetOptions(duplex=duplex), steps=("calibration",))
    with open_pdf(res.out_dir / "duplex-calibration.pdf") as pdf:
        front, back = pdf.pages
        w, h = front.width / MM, front.height / MM
        assert (round(w), round(h)) == (297, 210)
        word, fx, fy = _side_mark(front)
        back_word, bx, by = _side_mark(back)
        front_text, back_text = front.extract_text(), back.extract_text()
    assert (word, back_word) == ("表", "裏")
    assert abs(fx - w / 2) > 40 and abs(fy - h / 2) > 25  # off-centre both ways
    right = (fx, h - fy) if duplex == "long-edge" else (w - fx, fy)  # landscape: long edge mirrors y
    wrong = (w - right[0], h - right[1])  # the other flip turns the back 180° against the front
    assert abs(bx - right[0]) < 0.2 and abs(by - right[1]) < 0.2, (bx, by, right)
    assert abs(bx - wrong[0]) > 80 and abs(by - wrong[1]) > 50
    assert "両面印刷の位置合わせ — 表" in front_text and "長辺とじ・短辺とじの設定が逆" in front_text
    assert "両面印刷の位置合わせ — 裏" in back_text and "--back-offset X,Y" in back_text
    assert "calibration" not in front_text.replace("cardgen", "") and "FRONT" not in front_text


def test_back_offset_moves_the_side_mark_with_the_scales():
    from cardgen.layout.calibration import mark_box
    from cardgen.layout.ops import Rect

    def box(page):
        return next(op for op in page.ops if isinstance(op, Rect) and op.stroke_width == 1.2)

    _, plain = calibration_pages(*A4, language="ja")
    _, moved = calibration_pages(*A4, back_offset=(1.5, 2.0), language="ja")
    x, y, w, h = mark_box(*A4)
    assert abs(box(plain).x - (A4[0] - x - w)) < 1e-6 and abs(box(plain).y - y) < 1e-6  # portrait: mirrors x
    assert abs(box(moved).x - box(plain).x - 1.5 * MM) < 1e-6 and abs(box(moved).y - box(plain).y + 2 * MM) < 1e-6


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("page", [A4, A4[::-1]], ids=["portrait", "landscape"])
def test_side_mark_and_notes_keep_clear_of_the_scales(page, duplex, language):
    """Nothing of the side mark or the notes overlaps a scale or a crosshair on either side."""
    from cardgen.layout.calibration import MARK_H, MARK_W, NOTES_X
    from cardgen.layout.ops import Rect

    for side in calibration_pages(*page, duplex=duplex, note="x" * 10, language=language):
        box = next(op for op in side.ops if isinstance(op, Rect) and op.stroke_width == 1.2)
        assert (box.w, box.h) == (MARK_W, MARK_H)
        notes = [op for op in side.ops if isinstance(op, Text) and op.size in (6.5, 8)]
        top, bottom = max(t.y + t.size for t in notes), min(t.y for t in notes)
        assert box.y > top + 2 * MM or box.y + box.h < bottom - 2 * MM  # the notes are in the other half
        for op in side.ops:
            if isinstance(op, Line) and op.width < 1:  # crosshairs and scale ticks
                inside = (box.x - 1 * MM < max(op.x1, op.x2) and min(op.x1, op.x2) < box.x + box.w + 1 * MM
                          and box.y - 1 * MM < max(op.y1, op.y2) and min(op.y1, op.y2) < box.y + box.h + 1 * MM)
                assert not inside, op
                assert not (bottom - 1 * MM < max(op.y1, op.y2) and min(op.y1, op.y2) < top + 1 * MM
                            and min(op.x1, op.x2) < NOTES_X + 125 * MM and max(op.x1, op.x2) > NOTES_X), op
