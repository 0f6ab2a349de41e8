"""The work per card does not grow with deck size (counts, not timings).

Two generated decks (benchmarks/gen.py: 天雀牌 character template, varied Japanese text) of 30 and
120 cards are laid out and printed; per card, the number of text fits, width measurements, card
layouts and PDF bytes must stay flat, and fonts are registered once per process.
"""
from __future__ import annotations


import pytest
from reportlab.pdfbase import pdfmetrics

import cardgen.fonts.fontset as fonts_mod
import cardgen.layout.card_text as card_text
import cardgen.steps.component_plans as component_plans
from benchmarks.gen import make_game
from cardgen.api import build_game

SIZES = (30, 120)


@pytest.fixture(scope="module")
def costs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("linear")
    mp = pytest.MonkeyPatch()
    counts = {"fit": 0, "measure": 0, "plan": 0, "register": 0}

    def counting(name, fn):
        def wrapper(*a, **k):
            counts[name] += 1
            return fn(*a, **k)
        return wrapper

    mp.setattr(card_text, "fit_text", counting("fit", card_text.fit_text))
    mp.setattr(component_plans, "plan_card", counting("plan", component_plans.plan_card))
    mp.setattr(pdfmetrics, "stringWidth", counting("measure", pdfmetrics.stringWidth))
    mp.setattr(pdfmetrics, "registerFont", counting("register", pdfmetrics.registerFont))
    out = {}
    try:
        build_game(make_game(tmp / "warm", 3), tmp / "out", steps=("sheets",))  # fonts registered here
        for n in SIZES:
            card_text._FIT_CACHE.clear()
            fonts_mod._width.cache_clear()
            for k in counts:
                counts[k] = 0
            res = build_game(make_game(tmp / f"g{n}", n, seed=n), tmp / "out", steps=("sheets",))
            pdf = res.out_dir / "print-sheets.pdf"
            out[n] = {**{k: v / n for k, v in counts.items()}, "bytes": pdf.stat().st_size / n}
    finally:
        mp.undo()
    return out


def test_text_fits_per_card_do_not_grow(costs):
    small, big = (costs[n] for n in SIZES)
    assert 0 < big["fit"] <= small["fit"] * 1.1
    # at most one fit per text box of a distinct face (9 text boxes, 3 back texts shared)
    assert big["fit"] <= 9 + 3 / SIZES[1]


def test_width_measurements_per_card_do_not_grow(costs):
    small, big = (costs[n] for n in SIZES)
    assert 0 < big["measure"] <= small["measure"] * 1.15


def test_card_layouts_per_card_bounded(costs):
    # one planning pass lays each distinct row's front out once, and the back once for the deck
    # (the character back reads no card field); the preflight and the PDF renderer read those
    # plans instead of laying the card out again
    small, big = (costs[n] for n in SIZES)
    assert big["plan"] <= small["plan"]
    assert big["plan"] == pytest.approx(1 + 1 / SIZES[1])


def test_fonts_registered_once_per_process(costs):
    assert all(costs[n]["register"] == 0 for n in SIZES)


def test_pdf_bytes_per_card_do_not_grow(costs):
    small, big = (costs[n] for n in SIZES)
    assert big["bytes"] <= small["bytes"] * 1.05
