"""Estimates from simulated rounds: means and ratios over rounds with standard errors, and the
paired comparison of two variants played on the same rounds (common random numbers).

A rate over something other than rounds (e.g. the win rate of rounds where a seat played a 2 face
up) is a ratio of round sums, with the ratio estimator's standard error
``sqrt(Σ (x_i − R y_i)²) / Σ y_i``. Differences use the paired per-round residuals of both variants.
The result rows come from :mod:`cardgen.insight.simulate` (columns in :mod:`cardgen.insight.sim_layout`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardgen.insight import sim_layout as L

@dataclass
class Metric:
    """One estimate: per-round numerators ``x`` and denominators ``y`` (1 for a mean per round)."""

    key: str
    label: str
    x: np.ndarray
    y: np.ndarray
    percent: bool = False

    def value(self) -> tuple[float, float, int]:
        """(estimate, standard error, denominator total)."""
        return ratio(self.x, self.y)


def ratio(x: np.ndarray, y: np.ndarray) -> tuple[float, float, int]:
    """Ratio estimate Σx/Σy with its standard error over rounds (``sqrt(Σ(x − R y)²)/Σy``)."""
    sy = float(y.sum())
    if sy == 0:
        return float("nan"), float("nan"), 0
    r = float(x.sum()) / sy
    resid = x - r * y
    n = len(x)
    se = float(np.sqrt((resid.astype(np.float64) ** 2).sum() * n / max(n - 1, 1))) / sy
    return r, se, int(sy)


def paired(a: Metric, b: Metric) -> tuple[float, float]:
    """(b − a, standard error) of two metrics measured on the same rounds (paired residuals)."""
    ra, _, _ = ratio(a.x, a.y)
    rb, _, _ = ratio(b.x, b.y)
    ma, mb = a.y.mean(), b.y.mean()
    if ma == 0 or mb == 0:
        return float("nan"), float("nan")
    d = (b.x - rb * b.y) / mb - (a.x - ra * a.y) / ma
    n = len(d)
    return rb - ra, float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


def metrics(res: np.ndarray, players: int, numbers: list[int]) -> list[Metric]:
    """The reported estimates of one player count from its result rows."""
    n = len(res)
    one = np.ones(n, dtype=np.float64)
    kind = res[:, L.COL_KIND]
    won = (kind != L.END_DRAW).astype(np.float64)
    winner = res[:, L.COL_WINNER]
    out = [Metric(f"end.{name}", f"ends in {name}", (kind == k).astype(np.float64), one, True)
           for k, name in ((L.END_TSUMO, "tsumo"), (L.END_RON, "ron"), (L.END_DRAW, "流局"))]
    turn = res[:, L.COL_TURN].astype(np.float64)
    out.append(Metric("turns", "turns played per round", turn, one))
    out.append(Metric("turns.win", "turn of the win (won rounds)", turn * won, won))
    for s in range(players):
        out.append(Metric(f"seat.{s}", f"seat {s + 1}{' (dealer)' if s == 0 else ''} wins",
                          (winner == s).astype(np.float64), one, True))
    up_masks = res[:, L.COL_UPMASK:L.COL_UPMASK + players].astype(np.int64)
    down_masks = res[:, L.COL_DOWNMASK:L.COL_DOWNMASK + players].astype(np.int64)
    for v in numbers:
        up = res[:, L.COL_UP + v].astype(np.float64)
        down = res[:, L.COL_DOWN + v].astype(np.float64)
        out.append(Metric(f"n{v}.up", f"{v}: played face up per round", up, one))
        out.append(Metric(f"n{v}.down", f"{v}: played face down per round", down, one))
        out.append(Metric(f"n{v}.up_share", f"{v}: share played face up", up, up + down, True))
        for face, masks in (("up", up_masks), ("down", down_masks)):
            has = (masks >> v) & 1
            out.append(Metric(f"n{v}.win_{face}", f"{v}: win rate of a player who played it face {face}",
                              _won_with(has, winner), has.sum(axis=1).astype(np.float64), True))
    for call in ("pon", "chi"):
        aff = res[:, L.COL_PON_AFF if call == "pon" else L.COL_CHI_AFF].astype(np.float64)
        used = res[:, L.COL_PON_USED if call == "pon" else L.COL_CHI_USED].astype(np.float64)
        out.append(Metric(f"{call}.affordable", f"{call} affordable (icon, power, target) per round", aff, one))
        out.append(Metric(f"{call}.used", f"{call} made per round", used, one))
        out.append(Metric(f"{call}.use_rate", f"{call} made when affordable", used, aff, True))
    out.append(Metric("dealt.pair", "dealt hands holding a pair", res[:, L.COL_DEALT_PAIRS].astype(np.float64),
                      np.full(n, float(players)), True))
    out.append(Metric("points", "points per win", res[:, L.COL_POINTS].astype(np.float64) * won, won))
    out.append(Metric("power", "winner's power at the win", res[:, L.COL_POWER].astype(np.float64) * won, won))
    return out


def _won_with(has: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Per round: 1 when the winner is one of the seats flagged in ``has`` (rounds × seats)."""
    idx = np.clip(winner, 0, None).astype(np.int64)
    return np.where(winner >= 0, has[np.arange(len(has)), idx], 0).astype(np.float64)


#: a ratio over fewer than this many events (e.g. players who played a 3 face down) is printed as
#: too few to estimate: its standard error is not trustworthy (cardgen/cli/insight_output.py
#: keeps the same number)
MIN_EVENTS = 30

#: the estimates a comparison shows on the terminal and in insight.pdf (simulation.json has all)
MAIN_ESTIMATES = ("end.", "turns", "seat.", ".up_share", ".win_up", ".win_down", "pon.used", "chi.used", "points")


def is_main(key: str) -> bool:
    """True for the estimates of :data:`MAIN_ESTIMATES` (``turns.win`` excluded)."""
    return key != "turns.win" and any(part in key for part in MAIN_ESTIMATES)


def compare(a, b) -> list[dict[str, Any]]:
    """Two runs played on the same rounds, compared (``a``, ``b``: their player counts, each with
    ``players``, ``metrics`` and ``metric(key)``): per player count both have, every metric both
    have: a, b, b − a with its standard error and 95 % confidence interval (paired rounds)."""
    out = []
    for ca in a:
        cb = next((c for c in b if c.players == ca.players), None)
        if cb is None:
            continue
        keys = {m.key for m in cb.metrics}
        for ma in ca.metrics:
            if ma.key not in keys:
                continue
            mb = cb.metric(ma.key)
            va, sa, na = ma.value()
            vb, sb, nb = mb.value()
            d, se = paired(ma, mb)
            out.append({"players": ca.players, "key": ma.key, "label": ma.label, "percent": ma.percent,
                        "a": va, "a_se": sa, "a_n": na, "b": vb, "b_se": sb, "b_n": nb, "diff": d, "se": se,
                        "ci95": [d - 1.96 * se, d + 1.96 * se]})
    return out
