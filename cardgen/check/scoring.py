"""Point payments of mahjong-like games: who pays what on a ron or a tsumo.

Pure functions; the rules come from a manifest's ``design.scoring`` mapping (see
:class:`PaymentRules`), the points from a yaku table. NKO麻雀 (seed 002) is the first user:

- ron: the discarder pays the hand's points; a dealer who deals in pays ``dealer_deal_in_extra`` more;
- tsumo: the other players share the points equally, each share rounded up to ``unit``;
- a dealer's win adds ``dealer_win_bonus`` to the hand's points (Oya agari, first dealer win).

All amounts are points (whole numbers).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping


@dataclass(frozen=True)
class PaymentRules:
    """Payment rules (``design.scoring`` in a manifest)."""

    unit: int = 1000  #: payments are whole multiples of this
    dealer_win_bonus: int = 0  #: added to the points when the dealer wins
    dealer_deal_in_extra: int = 0  #: a dealer who deals in (ron) pays this much more
    tsumo: str = "split_round_up"  #: how a tsumo is paid; only ``split_round_up`` so far

    @classmethod
    def from_design(cls, scoring: Mapping[str, Any]) -> "PaymentRules":
        """Build from ``design.scoring``. Raises ValueError naming an unknown key or tsumo rule."""
        known = set(cls.__dataclass_fields__)
        scoring = {k: v for k, v in scoring.items() if k != "yaku"}  # the yaku table's id, not a rule
        unknown = set(scoring) - known
        if unknown:
            raise ValueError(f"unknown scoring key(s): {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})")
        rules = cls(**{k: (str(v) if k == "tsumo" else int(v)) for k, v in scoring.items()})
        if rules.tsumo != "split_round_up":
            raise ValueError(f"unknown tsumo rule {rules.tsumo!r} (known: split_round_up)")
        if rules.unit <= 0:
            raise ValueError("scoring.unit must be positive")
        return rules


def round_up(amount: int, unit: int) -> int:
    """``amount`` rounded up to a whole multiple of ``unit`` (e.g. 667 → 1000)."""
    return -(-amount // unit) * unit


def hand_points(points: int, dealer_wins: bool, rules: PaymentRules) -> int:
    """The points a win is worth: the yaku's points, plus the dealer bonus when the dealer wins."""
    return points + (rules.dealer_win_bonus if dealer_wins else 0)


def ron_payment(points: int, rules: PaymentRules, dealer_wins: bool = False, dealer_pays: bool = False) -> int:
    """What the discarder pays on a ron (the winner receives the same)."""
    if dealer_wins and dealer_pays:
        raise ValueError("the dealer cannot both win and deal in")
    return hand_points(points, dealer_wins, rules) + (rules.dealer_deal_in_extra if dealer_pays else 0)


def tsumo_share(points: int, players: int, rules: PaymentRules, dealer_wins: bool = False) -> int:
    """What each of the other ``players − 1`` players pays on a tsumo (rounded up to the unit)."""
    if players < 2:
        raise ValueError("a tsumo needs at least 2 players")
    total = hand_points(points, dealer_wins, rules)
    return round_up(-(-total // (players - 1)), rules.unit)


@dataclass(frozen=True)
class PaymentRow:
    """One yaku at one player count. Amounts in points."""

    yaku: str
    points: int
    players: int
    ron: int  #: non-dealer wins, a non-dealer deals in
    ron_dealer_pays: int  #: non-dealer wins, the dealer deals in
    ron_dealer_wins: int  #: the dealer wins
    tsumo_share: int  #: non-dealer tsumo: each other player pays
    tsumo_total: int
    tsumo_dealer_share: int  #: dealer tsumo: each other player pays
    tsumo_dealer_total: int


def payment_table(yaku: Iterable[tuple[str, int]], player_counts: Iterable[int], rules: PaymentRules) -> list[PaymentRow]:
    """Every (yaku, player count) payment, player counts outer, yaku in the given order.

    Args:
        yaku: (name, points) of the base yaku (bonus yaku are added on top, not listed).
        player_counts: e.g. ``[3, 4]``.
    """
    yaku = list(yaku)
    rows = []
    for n in player_counts:
        for name, pts in yaku:
            share = tsumo_share(pts, n, rules)
            dshare = tsumo_share(pts, n, rules, dealer_wins=True)
            rows.append(PaymentRow(name, pts, n, ron_payment(pts, rules), ron_payment(pts, rules, dealer_pays=True),
                                   ron_payment(pts, rules, dealer_wins=True), share, share * (n - 1),
                                   dshare, dshare * (n - 1)))
    return rows
