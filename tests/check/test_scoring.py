"""Payments (cardgen/check/scoring.py) against an independent calculation and the seed's examples."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from cardgen.check.scoring import PaymentRules, payment_table, ron_payment, tsumo_share

NKO = PaymentRules(unit=1000, dealer_win_bonus=1000, dealer_deal_in_extra=1000)


def independent_share(points: int, players: int, dealer_wins: bool) -> int:
    """Seed 002 ⑦ read directly: (points [+1000 for the dealer]) ÷ (players − 1), up to 1000s."""
    total = points + (1000 if dealer_wins else 0)
    return math.ceil(Fraction(total, players - 1) / 1000) * 1000


def test_seed_examples():
    # seed 002 ⑦: 4 players, 2,000 points, tsumo → 1,000 each, 3,000 in all
    assert tsumo_share(2000, 4, NKO) == 1000
    # our rules text: 3 players, 3,000 points → 2,000 each, 4,000 in all
    assert tsumo_share(3000, 3, NKO) == 2000
    assert ron_payment(8000, NKO) == 8000
    assert ron_payment(8000, NKO, dealer_pays=True) == 9000
    assert ron_payment(8000, NKO, dealer_wins=True) == 9000
    with pytest.raises(ValueError):
        ron_payment(1000, NKO, dealer_wins=True, dealer_pays=True)


@given(st.integers(1, 40).map(lambda k: k * 1000), st.integers(2, 6), st.booleans())
def test_share_matches_independent(points, players, dealer):
    assert tsumo_share(points, players, NKO, dealer_wins=dealer) == independent_share(points, players, dealer)


def test_table_rows():
    rows = payment_table([("Standard", 1000), ("OCHINCHIN", 8000)], [3, 4], NKO)
    assert [(r.players, r.yaku) for r in rows] == [(3, "Standard"), (3, "OCHINCHIN"), (4, "Standard"), (4, "OCHINCHIN")]
    r = rows[3]
    assert (r.ron, r.ron_dealer_pays, r.ron_dealer_wins) == (8000, 9000, 9000)
    assert (r.tsumo_share, r.tsumo_total, r.tsumo_dealer_share, r.tsumo_dealer_total) == (3000, 9000, 3000, 9000)
    r = rows[0]
    assert (r.tsumo_share, r.tsumo_total, r.tsumo_dealer_share, r.tsumo_dealer_total) == (1000, 2000, 1000, 2000)


def test_rules_from_design():
    assert PaymentRules.from_design({"unit": 1000, "dealer_win_bonus": 1000}) == PaymentRules(1000, 1000, 0)
    with pytest.raises(ValueError, match="unknown scoring key"):
        PaymentRules.from_design({"unti": 1000})
    with pytest.raises(ValueError, match="unknown tsumo rule"):
        PaymentRules.from_design({"tsumo": "split_round_down"})
