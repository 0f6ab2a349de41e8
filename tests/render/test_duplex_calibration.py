"""Duplex calibration sheet and --back-offset (backs shifted with their crop marks)."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.api import build_game
from cardgen.layout.calibration import calibration_pages, mirror, targets
from cardgen.layout.ops import Line, Text
from cardgen.layout.sheet import SheetSpec, impose
from cardgen.steps.pipeline import SheetOptions
from cardgen.core.units import MM

from conftest import TENJANPAI

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
        assert "LANDSCAPE page" in page.extract_text() and "like the print sheets of" in page.extract_text()
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
    assert landscape == note.startswith("Landscape")


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
