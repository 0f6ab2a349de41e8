"""Estimates from simulated rounds: means and ratios over rounds with standard errors, and the
paired comparison of two variants played on the same rounds (common random numbers).

A rate over something other than rounds (e.g. the win rate of rounds where a seat played a 2 face
up) is a ratio of round sums, with the ratio estimator's standard error
``sqrt(Σ (x_i − R y_i)²) / Σ y_i``. Differences use the paired per-round residuals of both variants.
The metrics come from :mod:`cardgen.insight.model_run`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Metric:
    """One estimate: per-round numerators ``x`` and denominators ``y`` (1 for a mean per round)."""

    key: str
    label: str
    x: np.ndarray
    y: np.ndarray
    percent: bool = False
    #: a share of rounds listed only when some round had it (e.g. "2 wins, then the wall ran dry"):
    #: where the other side of a comparison lacks it, it is 0 there
    absent_is_zero: bool = False

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


#: a ratio over fewer than this many events (e.g. players who played a 3 face down) is printed as
#: too few to estimate: its standard error is not trustworthy (cardgen/cli/insight_output.py
#: keeps the same number)
MIN_EVENTS = 30

def _zero(m: Metric) -> Metric:
    """``m``'s share on a side where no round had it: 0 in every round."""
    return Metric(m.key, m.label, np.zeros_like(m.x), m.y, m.percent, m.absent_is_zero)


def compare(a, b) -> list[dict[str, Any]]:
    """Two runs played on the same rounds, compared (``a``, ``b``: their player counts, each with
    ``players``, ``metrics`` and ``metric(key)``): per player count both have, every metric both
    have: a, b, b − a with its standard error and 95 % confidence interval (paired rounds)."""
    out = []
    for ca in a:
        cb = next((c for c in b if c.players == ca.players), None)
        if cb is None:
            continue
        keys, mine = {m.key for m in cb.metrics}, {m.key for m in ca.metrics}
        pairs = [(ma, cb.metric(ma.key) if ma.key in keys else _zero(ma)) for ma in ca.metrics
                 if ma.key in keys or ma.absent_is_zero]
        pairs += [(_zero(mb), mb) for mb in cb.metrics if mb.key not in mine and mb.absent_is_zero]
        for ma, mb in pairs:
            va, sa, na = ma.value()
            vb, sb, nb = mb.value()
            d, se = paired(ma, mb)
            out.append({"players": ca.players, "key": ma.key, "label": ma.label, "percent": ma.percent,
                        "a": va, "a_se": sa, "a_n": na, "b": vb, "b_se": sb, "b_n": nb, "diff": d, "se": se,
                        "ci95": [d - 1.96 * se, d + 1.96 * se]})
    return out
