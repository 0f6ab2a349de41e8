"""Every crop mark of the four bundled games' print sheets, read back from the PDF (mm): none
crosses a card's bleed box, none lies between two cards (each is beside or above/below the block
of cards on its page), each is at least 3 mm long, inside the printer margin; every card's
printed box is its trim plus the bleed (3 mm) on every side that has no neighbour."""
from __future__ import annotations

import pytest

from cardgen.api import build_game
from cardgen.steps.sheets import SheetOptions
from tests.conftest import copy_game, needs_fonts, replace_in
from tests.sheet_geometry import crosses, read_sheets

pytestmark = needs_fonts

MM = 72 / 25.4
GAMES = ["tenjanpai", "yajanki", "nko_mahjong", "majan"]


@pytest.fixture(scope="module")
def sheets(built_games):
    built = {}
    for game in GAMES:  # the sheets step only (forced: 夜雀鬼 draft 2 fails its deck math on purpose)
        res = built_games(game, options=SheetOptions(), steps=("sheets",), force=True)
        built[game] = read_sheets(next(f for f in res.files if f.name == "print-sheets.pdf"))
    return built


@pytest.mark.parametrize("game", GAMES)
def test_no_mark_crosses_a_bleed_box(sheets, game):
    pages = sheets[game]
    assert any(p.marks for p in pages)
    checked = 0
    for n, page in enumerate(pages, 1):
        if not page.boxes:
            assert not page.marks  # a blank back
            continue
        bx0 = min(b[0] for b in page.boxes)
        by0 = min(b[1] for b in page.boxes)
        bx1 = max(b[2] for b in page.boxes)
        by1 = max(b[3] for b in page.boxes)
        for ln in page.marks:
            where = f"{game} page {n}: mark ({ln[0] / MM:.2f}, {ln[1] / MM:.2f})–({ln[2] / MM:.2f}, {ln[3] / MM:.2f}) mm"
            for box in page.boxes:
                assert not crosses(ln, box), f"{where} crosses the bleed box {[round(v / MM, 2) for v in box]}"
            xs, ys = sorted((ln[0], ln[2])), sorted((ln[1], ln[3]))
            outside = xs[1] <= bx0 + 0.01 or xs[0] >= bx1 - 0.01 or ys[1] <= by0 + 0.01 or ys[0] >= by1 - 0.01
            assert outside, f"{where} lies between the cards"
            length = max(xs[1] - xs[0], ys[1] - ys[0]) / MM
            assert length >= 2.0 - 1e-6, f"{where} is {length:.2f} mm long"  # centre cross bars ≥ 2 mm
            assert 5 * MM - 0.2 <= min(xs[0], ys[0]) and xs[1] <= page.width - 5 * MM + 0.2 \
                and ys[1] <= page.height - 5 * MM + 0.2, f"{where} runs into the printer margin"
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("game", GAMES)
def test_cut_lines_are_marked_at_both_ends(sheets, game):
    """Each trim line of each card has a mark on it at both ends of the block (Western-style
    check on the JIS marks: the inner line of the corner トンボ)."""
    for page in sheets[game]:
        if not page.boxes:
            continue
        verticals = [m for m in page.marks if abs(m[0] - m[2]) < 1e-3 and abs(m[1] - m[3]) >= 3 * MM - 1e-3]
        horizontals = [m for m in page.marks if abs(m[1] - m[3]) < 1e-3 and abs(m[0] - m[2]) >= 3 * MM - 1e-3]
        by0, by1 = min(b[1] for b in page.boxes), max(b[3] for b in page.boxes)
        bx0, bx1 = min(b[0] for b in page.boxes), max(b[2] for b in page.boxes)
        for box in page.boxes:
            for x in (box[0], box[2]):  # bleed edges: the outer line of the JIS corner mark
                assert [v for v in verticals if abs(v[0] - x) < 0.1 * MM and min(v[1], v[3]) >= by1 - 0.01]
                assert [v for v in verticals if abs(v[0] - x) < 0.1 * MM and max(v[1], v[3]) <= by0 + 0.01]
            for y in (box[1], box[3]):
                assert [h for h in horizontals if abs(h[1] - y) < 0.1 * MM and max(h[0], h[2]) <= bx0 + 0.01]
                assert [h for h in horizontals if abs(h[1] - y) < 0.1 * MM and min(h[0], h[2]) >= bx1 - 0.01]


def _token_page(pages):
    """The page of 天雀牌's 16 × 16 mm tokens: the one with more than 20 faces."""
    return next(p for p in pages if len(p.boxes) > 20)


def _cut_xs(page) -> list[float]:
    """Distinct x (mm) of the vertical marks at least 3 mm long above the block: the vertical cut
    lines (trim lines, and the JIS corner トンボ's bleed lines)."""
    top = max(b[3] for b in page.boxes)
    centre = (min(b[0] for b in page.boxes) + max(b[2] for b in page.boxes)) / 2  # the centre トンボ's axis
    return sorted({round(m[0] / MM, 2) for m in page.marks
                   if abs(m[0] - m[2]) < 1e-3 and min(m[1], m[3]) >= top - 0.01 and abs(m[3] - m[1]) >= 3 * MM - 1e-3
                   and abs(m[0] - centre) > 0.01})


def test_tokens_print_on_a_shared_cut_sheet(sheets, tmp_path):
    """cut: shared (天雀牌's tokens): neighbours touch at their trim line — one cut between them,
    marked — the bleed only around the block; the same tokens cut separately need almost twice the
    vertical cut lines."""
    page = _token_page(sheets["tenjanpai"])
    size = 16 * MM
    rows: dict[float, list] = {}
    for b in page.boxes:
        rows.setdefault(round(b[1] / MM), []).append(b)
    xs = _cut_xs(page)
    pairs = 0
    for row in rows.values():
        row.sort()
        for left, right in zip(row, row[1:]):
            assert abs(left[2] - right[0]) < 0.01, "neighbours touch: one cut line between them"
            assert min(abs(left[2] / MM - x) for x in xs) < 0.05, "the shared cut line is marked"
            pairs += 1
        for b in row[1:-1]:  # an inner token is printed to its trim across the row
            assert abs((b[2] - b[0]) - size) < 0.01
    assert pairs > 30
    # the same tokens cut separately
    game = copy_game(tmp_path / "copy")
    replace_in(game / "game.yaml", "    cut: shared", "    cut: separate")
    res = build_game(game, tmp_path / "out", SheetOptions(), steps=("sheets",), force=True)
    separate = _token_page(read_sheets(res.out_dir / "print-sheets.pdf"))
    cols_shared = len({round(b[0] / MM, 1) for b in page.boxes})
    cols_separate = len({round(b[0] / MM, 1) for b in separate.boxes})
    # shared: cols + 1 trim lines, the block's two bleed lines and the bleed line after the last
    # token of the short last row; separate: 2 trim lines a card and the bleed lines (touching
    # ones are one line): cols + 1
    assert len(xs) == cols_shared + 1 + 2 + 1
    assert len(_cut_xs(separate)) >= 2 * cols_separate + cols_separate  # (less the centre, when it is one)
    assert len(xs) / cols_shared < len(_cut_xs(separate)) / cols_separate
