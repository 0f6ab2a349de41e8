"""Rounds of a compiled ``insight.model`` played and summed up: how rounds end, on which turn,
who wins, points, the dealer's first-draw win, the wall running dry — each with its standard
error, per player count, in the game's own words (the model's ``tsumo.name`` and call names).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from cardgen.insight import model_round as R
from cardgen.insight.model_compile import CompiledModel
from cardgen.insight.simulate import policy_codes

#: rounds per call into the compiled code (progress is reported between chunks)
CHUNK = 200_000


def play_rows(cm: CompiledModel, k: int, rounds: int, seed: int, policy: str,
              on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
    """``rounds`` result rows (int64, :mod:`cardgen.insight.model_round`) of player count ``k``."""
    c = cm.counts[k]
    pol = policy_codes(policy, c.deck.players, R.POLICIES)
    res = np.empty((rounds, R.WIDTH), dtype=np.int64)
    M = cm.arrays(k)
    for first in range(0, rounds, CHUNK):
        part = res[first:first + CHUNK]
        R.play_many(np.int64(seed), np.int64(first), part, np.int64(c.deck.size), M, pol)
        if on_chunk:
            on_chunk(len(part))
    return res


def _share(x: np.ndarray) -> dict[str, float]:
    n = len(x)
    p = float(x.mean()) if n else 0.0
    return {"value": p, "se": math.sqrt(p * (1 - p) / n) if n else 0.0, "n": n}


def _mean(x: np.ndarray) -> dict[str, float]:
    n = len(x)
    return {"value": float(x.mean()) if n else 0.0, "se": float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0, "n": n}


def summarize(cm: CompiledModel, players: int, res: np.ndarray) -> dict[str, Any]:
    """The estimates of one player count (plain JSON), labelled in the game's words."""
    end, won = res[:, R.R_END], res[:, R.R_END] > 0
    tsumo = cm.model.tsumo.name if cm.model.tsumo else "tsumo"
    est = {"end.dry": {"label": "山が尽きた（流局）" if cm.model.turns == "0" else "流局（山切れか手番の上限）",
                       **_share(end == 0)},
           "end.own": {"label": tsumo, **_share(end == 1)}}
    for i, c in enumerate(cm.model.calls):
        est[f"end.call.{i}"] = {"label": c.name, **_share((end == 2) & (res[:, R.R_CALL] == i))}
    est["first_draw_win"] = {"label": f"親の最初のツモで{tsumo}", **_share(res[:, R.R_FIRST] == 1)}
    est["turns"] = {"label": "局の手番数（全員の通し）", **_mean(res[:, R.R_TURN].astype(np.float64))}
    est["turns_per_player"] = {"label": "1人あたりの手番数",
                               **_mean(res[:, R.R_TURN].astype(np.float64) / players)}
    est["points"] = {"label": "和了の点数", **_mean(res[won, R.R_POINTS].astype(np.float64))}
    for s in range(players):
        est[f"seat{s + 1}.win"] = {"label": f"{s + 1}番目の席（{'親' if s == 0 else '子'}）の和了", **_share(res[:, R.R_WINNER] == s)}
    return est


@dataclass
class ModelResult:
    """Every player count of one model run."""

    game_id: str
    title: str
    model: str
    description: str
    policy: str
    seed: int
    rounds: int
    options: dict[str, int]
    counts: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The run as plain JSON (what simulation.json holds)."""
        return {"game": self.game_id, "title": self.title, "model": self.model, "model_leaves_out": self.description,
                "policy": self.policy, "seed": self.seed, "rounds": self.rounds, "options": self.options,
                "player_counts": self.counts}


def simulate_model(cm: CompiledModel, rounds: int, seed: int, policy: str,
                   progress: Callable[[int], None] | None = None, players: list[int] | None = None) -> ModelResult:
    """Play ``rounds`` rounds of every player count (or ``players``) and estimate."""
    out = []
    for k, c in enumerate(cm.counts):
        if players and c.deck.players not in players:
            continue
        t0 = time.perf_counter()
        res = play_rows(cm, k, rounds, seed, policy, progress)
        dt = time.perf_counter() - t0
        out.append({"players": c.deck.players, "rounds": rounds, "seconds": dt,
                    "rounds_per_second": rounds / dt if dt else None, "turn_limit": int(c.prm[R.P_TURNS]),
                    "estimates": summarize(cm, c.deck.players, res),
                    "turn_histogram": np.bincount(res[:, R.R_TURN], minlength=1).tolist()})
    return ModelResult(cm.game_id, cm.title, cm.model.name, cm.model.description, policy, seed, rounds,
                       dict(cm.options), out)
