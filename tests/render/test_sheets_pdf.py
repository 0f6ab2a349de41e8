"""The print sheets PDF of 天雀牌, read back from the file itself.

Every expectation here is computed from the paper and card sizes (mm), not taken from
cardgen.layout: page sizes, cards per sheet, the trim rectangles on A4, crop marks on the trim
lines (±0.1 mm) at both ends, outside the block of cards (never between two cards) and clear of
every bleed box, mirrored backs, embedded subset fonts, the battle numbers printed
(2–7 → 8, 8, 7, 7, 6, 6) and the page label on every page.

A card's bleed box is found as its background fill: a rectangle of (63 + 2·3) × (88 + 2·3) mm.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pypdf
import pytest

from cardgen.steps.sheets import SheetOptions
from tests.conftest import needs_fonts
from tests.pdfread import open_pdf

pytestmark = needs_fonts

MM = 72 / 25.4
TOL = 0.1 * MM  # 0.1 mm
CARD_W, CARD_H, BLEED, MARGIN, MARK_MIN = 63.0, 88.0, 3.0, 5.0, 3.0
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "b5": (182.0, 257.0)}
LABEL_BAND = 4.0  # mm reserved for the page label inside the printer margin
BATTLE, CHARACTERS, TOKENS = "闘牌カード", "天雀カード", "パワーキューブ"
NUMBERS = {2: 8, 3: 8, 4: 7, 5: 7, 6: 6, 7: 6}  # battle.csv: copies per number


@dataclass
class Page:
    """What a test needs of one PDF page, in pt, y up from the bottom-left corner."""

    width: float
    height: float
    text: str
    boxes: list[tuple[float, float, float, float]]  #: card bleed boxes (x0, y0, x1, y1), sorted
    marks: list[tuple[float, float, float, float]]  #: crop mark lines (x1, y1, x2, y2)
    chars: list[dict] = field(repr=False, default_factory=list)

    @property
    def trims(self):
        b = BLEED * MM
        return sorted((x0 + b, y0 + b, x1 - b, y1 - b) for x0, y0, x1, y1 in self.boxes)

    def label_line(self) -> str:
        """Text of the characters lying outside every bleed box (should be the label only)."""
        out = [c for c in self.chars if not any(_overlaps(_char_box(c), bx) for bx in self.boxes)]
        return "".join(c["text"] for c in out)


def _char_box(c) -> tuple[float, float, float, float]:
    return (c["x0"], c["y0"], c["x1"], c["y1"])


def _overlaps(a, b, eps: float = 0.01) -> bool:
    """Rectangles (x0, y0, x1, y1) share interior area (touching edges do not count)."""
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def read_pdf(path: Path) -> list[Page]:
    pages = []
    with open_pdf(path) as pdf:
        for p in pdf.pages:
            H = float(p.height)
            boxes = sorted((r["x0"], H - r["bottom"], r["x1"], H - r["top"]) for r in p.rects
                           if abs(r["width"] - (CARD_W + 2 * BLEED) * MM) < TOL
                           and abs(r["height"] - (CARD_H + 2 * BLEED) * MM) < TOL)
            if not boxes:  # tokens (16 × 16 mm): square background fills
                boxes = sorted((r["x0"], H - r["bottom"], r["x1"], H - r["top"]) for r in p.rects
                               if abs(r["width"] - 22 * MM) < TOL and abs(r["height"] - 22 * MM) < TOL)
            marks = []
            for ln in p.lines + p.curves:
                (xa, ya), (xb, yb) = ln["pts"][0], ln["pts"][-1]
                black = tuple(ln.get("stroking_color") or ()) in ((0, 0, 0), (0.0, 0.0, 0.0), (0,))
                if black and abs(ln["linewidth"] - 0.25) < 1e-3 and (abs(xa - xb) < 1e-3 or abs(ya - yb) < 1e-3):
                    marks.append((xa, H - ya, xb, H - yb))
            pages.append(Page(float(p.width), H, p.extract_text() or "", boxes, marks, list(p.chars)))
    return pages


_cache: dict[tuple, tuple[Path, list[Page]]] = {}


@pytest.fixture(scope="module")
def sheets(built_games):
    """``sheets(paper=…, marks=…, …) -> (pdf path, pages)``, each option set built once (shared:
    tests/conftest.built_games) and read once."""

    def get(**kw):
        key = tuple(sorted(kw.items()))
        if key not in _cache:
            res = built_games("tenjanpai", options=SheetOptions(**kw), steps=("sheets",))  # no rulebook: not read here
            pdf = res.out_dir / "print-sheets.pdf"
            assert pdf in res.files
            _cache[key] = (pdf, read_pdf(pdf))
        return _cache[key]

    return get


def deck_pages(pages: list[Page], deck: str, side: str | None = None) -> list[Page]:
    return [p for p in pages if deck in p.label_line() and (side is None or side in p.label_line())]


# ------------------------------------------------------------------ pages and grids

@pytest.mark.parametrize("paper, per_sheet, battle_sheets, char_sheets", [
    ("a4", 8, 6, 2), ("letter", 6, 7, 3), ("b5", 4, 11, 4)])
def test_page_size_count_and_cards_per_sheet(sheets, paper, per_sheet, battle_sheets, char_sheets):
    _, pages = sheets(paper=paper)
    w, h = PAPER[paper]
    for p in pages:
        assert sorted((p.width / MM, p.height / MM)) == pytest.approx([w, h], abs=0.1)
    # fronts and backs of both decks, plus one page of tokens and its blank back (tokens have none)
    assert len(pages) == 2 * battle_sheets + 2 * char_sheets + 2
    battle = deck_pages(pages, BATTLE)
    assert len(battle) == 2 * battle_sheets
    assert sum(len(p.boxes) for p in deck_pages(pages, BATTLE, "front")) == 42
    assert sum(len(p.boxes) for p in deck_pages(pages, CHARACTERS, "front")) == 15
    assert max(len(p.boxes) for p in battle) == per_sheet
    tokens = deck_pages(pages, TOKENS)
    assert len(tokens) == 2 and len(tokens[0].boxes) == 40 and not tokens[1].boxes


def test_a4_trim_rectangles_match_an_independent_computation(sheets):
    """A4 landscape, 4 × 2 poker cards whose bleed boxes touch (the marks lie around the block,
    none between cards); the block is centred in the printable area above the label band."""
    _, pages = sheets(paper="a4")
    W, H = 297.0, 210.0
    avail_w, avail_h = W - 2 * MARGIN, H - 2 * MARGIN - LABEL_BAND
    cell_w, cell_h = CARD_W + 2 * BLEED, CARD_H + 2 * BLEED
    sx, sy = (avail_w - 4 * cell_w) / 2, (avail_h - 2 * cell_h) / 2
    assert sx >= 0.5 + MARK_MIN and sy >= 0.5 + MARK_MIN
    expected = sorted((MARGIN + sx + BLEED + c * cell_w,
                       MARGIN + LABEL_BAND + sy + BLEED + r * cell_h) for c in range(4) for r in range(2))
    front = deck_pages(pages, BATTLE, "front")[0]
    assert (front.width / MM, front.height / MM) == pytest.approx((W, H), abs=0.1)
    got = [v / MM for x0, y0, _, _ in front.trims for v in (x0, y0)]
    assert got == pytest.approx([v for xy in expected for v in xy], abs=0.1)
    for x0, y0, x1, y1 in front.trims:
        assert ((x1 - x0) / MM, (y1 - y0) / MM) == pytest.approx((CARD_W, CARD_H), abs=0.1)


@pytest.mark.parametrize("paper", ["a4", "letter", "b5"])
def test_bleed_boxes_inside_printable_area_and_apart(sheets, paper):
    _, pages = sheets(paper=paper)
    m = MARGIN * MM
    for p in pages:
        shared = all(abs((b[2] - b[0]) - 22 * MM) < TOL for b in p.boxes)  # the tokens: cut: shared, bleeds clipped
        for i, b in enumerate(p.boxes):
            assert m - TOL <= b[0] and b[2] <= p.width - m + TOL
            assert m - TOL <= b[1] and b[3] <= p.height - m + TOL
            for other in [] if shared else p.boxes[i + 1:]:
                assert not _overlaps(b, other)


# ------------------------------------------------------------------ crop marks

def _on_trim_edges(page: Page, marks: str) -> None:
    """Every trim line carries a mark at both ends of the block of cards; every mark lies on a
    trim line (or, for Japanese marks, a bleed line or the block's centre line or a centre cross
    bar beside the block), outside the block (never between two cards), at least 3 mm long (a
    cross bar 2 mm), touching no bleed box and inside the printable area."""
    b = BLEED * MM
    verticals = [m for m in page.marks if abs(m[0] - m[2]) < 1e-3]
    horizontals = [m for m in page.marks if abs(m[1] - m[3]) < 1e-3]
    bx0, by0 = min(x[0] for x in page.boxes), min(x[1] for x in page.boxes)
    bx1, by1 = max(x[2] for x in page.boxes), max(x[3] for x in page.boxes)
    for x0, y0, x1, y1 in page.trims:
        for x in (x0, x1):
            above = [v for v in verticals if abs(v[0] - x) <= TOL and min(v[1], v[3]) >= by1 - TOL]
            below = [v for v in verticals if abs(v[0] - x) <= TOL and max(v[1], v[3]) <= by0 + TOL]
            assert above and below, f"no vertical mark on trim x = {x / MM:.2f} mm"
        for y in (y0, y1):
            left = [h for h in horizontals if abs(h[1] - y) <= TOL and max(h[0], h[2]) <= bx0 + TOL]
            right = [h for h in horizontals if abs(h[1] - y) <= TOL and min(h[0], h[2]) >= bx1 - TOL]
            assert left and right, f"no horizontal mark on trim y = {y / MM:.2f} mm"
    xs = {round(v, 2) for t in page.trims for v in (t[0], t[2])}
    ys = {round(v, 2) for t in page.trims for v in (t[1], t[3])}
    if marks == "japanese":
        xs |= {round(v, 2) for t in page.trims for v in (t[0] - b, t[2] + b)} | {round((bx0 + bx1) / 2, 2)}
        ys |= {round(v, 2) for t in page.trims for v in (t[1] - b, t[3] + b)} | {round((by0 + by1) / 2, 2)}
    for v in verticals:
        beside = max(v[0], v[2]) <= bx0 + TOL or min(v[0], v[2]) >= bx1 - TOL  # a centre cross bar
        assert min(abs(v[0] - x) for x in xs) <= TOL or (marks == "japanese" and beside)
    for h in horizontals:
        above = min(h[1], h[3]) >= by1 - TOL or max(h[1], h[3]) <= by0 + TOL
        assert min(abs(h[1] - y) for y in ys) <= TOL or (marks == "japanese" and above)
    half = 0.125  # half the 0.25 pt stroke
    m = MARGIN * MM
    for x1_, y1_, x2_, y2_ in page.marks:
        stroke = (min(x1_, x2_) - half * (x1_ == x2_), min(y1_, y2_) - half * (y1_ == y2_),
                  max(x1_, x2_) + half * (x1_ == x2_), max(y1_, y2_) + half * (y1_ == y2_))
        for box in page.boxes:
            assert not _overlaps(stroke, box), "a crop mark runs into a card's bleed"
        assert stroke[2] <= bx0 + TOL or stroke[0] >= bx1 - TOL or stroke[3] <= by0 + TOL or stroke[1] >= by1 - TOL, \
            "a crop mark lies between two cards"
        assert max(abs(x2_ - x1_), abs(y2_ - y1_)) >= 2 * MM - TOL
        assert m - TOL <= stroke[0] and stroke[2] <= page.width - m + TOL
        assert m - TOL <= stroke[1] and stroke[3] <= page.height - m + TOL


def _cut_lines(page: Page) -> tuple[int, int]:
    """Distinct trim x and y positions on the page."""
    xs = {round(v / MM, 1) for t in page.trims for v in (t[0], t[2])}
    ys = {round(v / MM, 1) for t in page.trims for v in (t[1], t[3])}
    return len(xs), len(ys)


@pytest.mark.parametrize("paper", ["a4", "letter", "b5"])
def test_japanese_marks_on_every_trim_edge(sheets, paper):
    _, pages = sheets(paper=paper)
    for p in pages:
        if not p.boxes:
            continue
        xs = {round(v / MM, 1) for t in p.boxes for v in (t[0], t[2])} | {round(v / MM, 1) for t in p.trims for v in (t[0], t[2])}
        ys = {round(v / MM, 1) for t in p.boxes for v in (t[1], t[3])} | {round(v / MM, 1) for t in p.trims for v in (t[1], t[3])}
        # trim and bleed lines (touching bleed lines are one) at both ends, plus the 4 centre トンボ
        # (an axis line where it is no cut line, and a cross bar); the shared-cut tokens have fewer
        # (tests/games/test_sheet_marks.py)
        if not all(abs((b[2] - b[0]) - 22 * MM) < TOL for b in p.boxes):
            assert 2 * len(xs) + 2 * len(ys) + 4 <= len(p.marks) <= 2 * len(xs) + 2 * len(ys) + 8
        _on_trim_edges(p, "japanese")


def test_western_marks(sheets):
    _, pages = sheets(marks="western")
    for p in pages:
        if not p.boxes:
            continue
        nx, ny = _cut_lines(p)
        assert len(p.marks) == 2 * nx + 2 * ny
        _on_trim_edges(p, "western")
        lengths = sorted(max(abs(m[2] - m[0]), abs(m[3] - m[1])) / MM for m in p.marks)
        assert lengths[0] >= MARK_MIN - 0.01 and lengths[-1] <= 5.0 + 0.01


def test_no_marks(sheets):
    _, pages = sheets(marks="none")
    assert all(p.marks == [] for p in pages)
    assert max(len(p.boxes) for p in deck_pages(pages, BATTLE)) == 8


# ------------------------------------------------------------------ backs

def _mirror_pairs(pages: list[Page]):
    for deck in (BATTLE, CHARACTERS):
        fronts, backs = deck_pages(pages, deck, "front"), deck_pages(pages, deck, "back")
        assert len(fronts) == len(backs) > 0
        yield from zip(fronts, backs)


@pytest.mark.parametrize("duplex, paper", [("long-edge", "a4"), ("short-edge", "a4"), ("long-edge", "b5"),
                                           ("short-edge", "b5")])
def test_backs_are_mirrored(sheets, duplex, paper):
    """Long-edge flip of a landscape page mirrors y, of a portrait page mirrors x;
    short-edge flip mirrors the other axis."""
    _, pages = sheets(paper=paper, duplex=duplex)
    for front, back in _mirror_pairs(pages):
        W, H = front.width, front.height
        landscape = W > H
        mirror_x = (duplex == "long-edge") != landscape
        want = sorted((W - x1, y0, W - x0, y1) if mirror_x else (x0, H - y1, x1, H - y0)
                      for x0, y0, x1, y1 in front.boxes)
        assert len(back.boxes) == len(front.boxes)
        for got, exp in zip(back.boxes, want):
            assert list(got) == pytest.approx(list(exp), abs=TOL)
        _on_trim_edges(back, "japanese")


def test_partial_sheet_back_is_mirrored_not_copied(sheets):
    """The last battle sheet holds 2 cards: their backs must sit behind them, on the mirrored side."""
    _, pages = sheets(paper="a4")
    front, back = deck_pages(pages, BATTLE, "front")[-1], deck_pages(pages, BATTLE, "back")[-1]
    assert len(front.boxes) == len(back.boxes) == 2
    assert [b[1] for b in back.boxes] != pytest.approx([b[1] for b in front.boxes], abs=TOL)


def test_no_backs(sheets):
    _, pages = sheets(backs=False)
    assert len(pages) == 6 + 2 + 1
    assert not any("back" in p.label_line() for p in pages)


# ------------------------------------------------------------------ content

def test_fonts_embedded_as_subsets(sheets):
    path, _ = sheets(paper="a4")
    reader = pypdf.PdfReader(path)
    seen: dict[str, bool] = {}

    def walk(res):
        res = res.get_object() if res is not None else {}
        for f in (res.get("/Font") or {}).values():
            f = f.get_object()
            descs = [f] + [d.get_object() for d in f.get("/DescendantFonts", [])]
            seen[str(f["/BaseFont"])] = any("/FontFile2" in d.get("/FontDescriptor", {}).get_object()
                                            for d in descs if "/FontDescriptor" in d)
        for x in (res.get("/XObject") or {}).values():
            x = x.get_object()
            if "/Resources" in x:
                walk(x["/Resources"])

    for page in reader.pages:
        walk(page.get("/Resources"))
    assert seen, "no fonts found"
    for name, embedded in seen.items():
        assert embedded, f"{name} is not embedded (no FontFile2)"
        assert re.fullmatch(r"/[A-Z]{6}\+.+", name), f"{name} is not a subset"


def test_battle_numbers_read_back(sheets):
    """One caption and one big number (the largest text on the page) inside each battle card."""
    _, pages = sheets(paper="a4")
    numbers: Counter = Counter()
    for p in deck_pages(pages, BATTLE, "front"):
        assert p.text.count("聴牌速度・打点") == len(p.boxes)
        biggest = max(c["size"] for c in p.chars)
        big = [c for c in p.chars if abs(c["size"] - biggest) < 0.01]
        assert len(big) == len(p.boxes)
        for box in p.boxes:
            inside = [c for c in big if box[0] <= c["x0"] and c["x1"] <= box[2] and box[1] <= c["y0"] and c["y1"] <= box[3]]
            assert len(inside) == 1
            numbers[int(inside[0]["text"])] += 1
    assert dict(numbers) == NUMBERS


@pytest.mark.parametrize("opts", [{"paper": "a4"}, {"paper": "b5", "duplex": "short-edge"}])
def test_page_label_on_every_page(sheets, opts):
    _, pages = sheets(**opts)
    counts: Counter = Counter()
    for i, p in enumerate(pages):
        label = p.label_line()
        if i == 0:  # page 1 also holds the scale bar's caption, after the label
            label, bar = label.split("100 mm · ")
            assert bar == "100%（実際のサイズ）で印刷"
        flip = opts.get("duplex", "long-edge")
        m = re.fullmatch(rf"天雀牌 draft 3 · (\S+) · (表 front|裏 back · {flip} flip|裏 back · 白紙 blank: \S+は片面（裏なし）)"
                         r" · sheet (\d+)/(\d+)", label)
        assert m, f"page label missing or overlapping a card: {label!r}"
        deck, _side, k, n = m.groups()
        assert 1 <= int(k) <= int(n)
        counts[deck] += 1
    assert set(counts) == {BATTLE, CHARACTERS, TOKENS}
