"""The battle cards' corner indices read from across the table are as large as the upright ones
(`mirror: true` on the index element), and nothing else on the card overlaps them. Read back
from the print sheets of 天雀牌 and 夜雀鬼 (pdfplumber): per card, the upright and the turned
index glyphs' heights equal within 0.2 pt; each index glyph's box clear of every other glyph's
box and of every icon drawn on the card (curves and rects smaller than 30 mm)."""
from __future__ import annotations

import pytest

from cardgen.core.units import MM
from tests.pdfread import open_pdf

INDEX_PT = 34  # the index's size in templates/cards/battle.yaml and yajanki_battle.yaml


@pytest.fixture(scope="module", params=["tenjanpai", "yajanki"])
def front(request, built_games):
    out = built_games(request.param, force=True, steps=("sheets",)).out_dir  # shared with the other read-backs
    with open_pdf(str(out / "print-sheets.pdf")) as pdf:
        page = next(p for p in pdf.pages if "闘牌カード · 表 front" in (p.extract_text() or ""))
        yield {"chars": list(page.chars), "curves": list(page.curves) + list(page.rects)}


def _overlap(a, b) -> bool:
    return a["x0"] < b["x1"] - 0.01 and b["x0"] < a["x1"] - 0.01 and a["top"] < b["bottom"] - 0.01 \
        and b["top"] < a["bottom"] - 0.01


def test_both_indices_the_same_size(front):
    index = [c for c in front["chars"] if abs(c["size"] - INDEX_PT) < 1]
    upright = [c for c in index if c["matrix"][0] > 0]
    turned = [c for c in index if c["matrix"][0] < 0]
    assert upright and len(upright) == len(turned)  # one turned index per card
    for u in upright:  # its turned twin: the nearest turned glyph of the same text to the lower right
        t = min((t for t in turned if t["text"] == u["text"] and t["x0"] > u["x0"] and t["top"] > u["top"]),
                key=lambda t: (t["x0"] - u["x0"]) ** 2 + (t["top"] - u["top"]) ** 2)
        assert abs((t["bottom"] - t["top"]) - (u["bottom"] - u["top"])) <= 0.2
        assert abs(t["size"] - u["size"]) <= 0.2
        assert 40 * MM < t["top"] - u["top"] < 88 * MM  # in the opposite corner of the same card


def test_nothing_overlaps_an_index(front):
    index = [c for c in front["chars"] if abs(c["size"] - INDEX_PT) < 1]
    others = [c for c in front["chars"] if abs(c["size"] - INDEX_PT) >= 1 and c["text"].strip()]
    icons = [o for o in front["curves"] if o["width"] < 30 * MM and o["height"] < 30 * MM]
    assert icons and others
    for i in index:
        assert not [o["text"] for o in others if _overlap(i, o)], i["text"]
        assert not [(round(o["x0"] / MM, 1), round(o["top"] / MM, 1)) for o in icons if _overlap(i, o)], i["text"]
