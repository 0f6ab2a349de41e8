"""Rounds of a compiled ``insight.model`` played and summed up: how rounds end, on which turn,
who wins, points (per seat too), the dealer's first-draw win, the wall running dry, takes and
face-down plays, claims — each with its standard error, per player count, in the game's own words (the
model's ``tsumo.name``, call and take names).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from cardgen.core.errors import Problem, UsageError, did_you_mean
from cardgen.insight import model_layout as L
from cardgen.insight import model_game as G
from cardgen.insight import model_round as R
from cardgen.insight.estimates import Metric
from cardgen.insight.model_compile import CompiledModel

def policy_codes(policy: str, players: int, table: dict[str, int] | None = None) -> np.ndarray:
    """``greedy``, ``random``, ``priority`` (the names of ``table``), or one per seat separated by
    commas (``greedy,random,random``) → one policy code per seat.

    Raises:
        UsageError: a name that is not a policy, or fewer names than seats.
    """
    table = L.POLICIES if table is None else table
    names = [p.strip() for p in policy.split(",")]
    bad = [n for n in names if n not in table]
    if bad or (len(names) > 1 and len(names) < players):
        raise UsageError(Problem("--policy", None, "policy", f"cannot read the policy {policy!r}"
                                 + (did_you_mean(bad[0], table) if bad else ""), f"use {', '.join(table)}, or one per "
                                 "seat: " + ",".join([next(iter(table))] * players), code="insight-policy"))
    return np.array([table[names[0] if len(names) == 1 else names[s]] for s in range(players)], dtype=np.int64)


def interpreter_compiled() -> bool:
    """Whether numba's cache (``cardgen/insight/__pycache__``) holds the interpreter compiled from
    this source (else the first round compiles it: tens of seconds). Read from numba's cache index
    (its own check of the source's stamp); True when that cannot be read, so nothing is claimed."""
    try:
        return bool(R.play_many._cache._cache_file._load_index())
    except Exception:  # numba's internals changed: say nothing rather than something untrue
        return True


#: rounds per call into the compiled code (progress is reported between chunks)
CHUNK = 200_000


def _chunked(res: np.ndarray, play: Callable[[int, np.ndarray], None],
             on_chunk: Callable[[int], None] | None) -> np.ndarray:
    """Fill ``res`` by ``play(first, part)`` in chunks of :data:`CHUNK` rows, reporting each."""
    for first in range(0, len(res), CHUNK):
        part = res[first:first + CHUNK]
        play(first, part)
        if on_chunk:
            on_chunk(len(part))
    return res


def play_rows(cm: CompiledModel, k: int, rounds: int, seed: int, policy: str,
              on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
    """``rounds`` result rows (int64, :mod:`cardgen.insight.model_round`) of player count ``k``."""
    c = cm.counts[k]
    pol = policy_codes(policy, c.deck.players, L.POLICIES)
    M = cm.arrays(k)
    return _chunked(np.empty((rounds, L.WIDTH), dtype=np.int64), lambda first, part: R.play_many(
        np.int64(seed), np.int64(first), part, np.int64(c.deck.size), M, pol), on_chunk)


def play_game_rows(cm: CompiledModel, k: int, games: int, seed: int, policy: str,
                   on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
    """``games`` game result rows (int64, model_layout's ``GR_*``) of player count ``k``."""
    c = cm.counts[k]
    pol = policy_codes(policy, c.deck.players, L.POLICIES)
    M = cm.arrays(k)
    return _chunked(np.empty((games, L.GR_WIDTH), dtype=np.int64), lambda first, part: G.play_games(
        np.int64(seed), np.int64(first), part, np.int64(c.deck.size), M, c.gp, pol), on_chunk)


def game_metrics(cm: CompiledModel, players: int, res: np.ndarray) -> list[Metric]:
    """The estimates of whole games (keys ``game.*``): rounds per game, rounds without a win, who
    wins by seat (seat 1 the first dealer), draws, each way the game ends, and who is ``out``."""
    game = cm.model.game
    one = np.ones(len(res), dtype=np.float64)

    def share(key: str, label: str, x) -> Metric:
        return Metric(key, label, np.asarray(x, dtype=np.float64), one, True)

    rounds = res[:, L.GR_ROUNDS].astype(np.float64)
    out = [Metric("game.rounds", f"{game.name}1回あたりの局数", rounds, one),
           Metric("game.dry", f"{game.name}1回あたりの流局（和了のない局）の数", res[:, L.GR_DRY].astype(np.float64), one)]
    winner = res[:, L.GR_WINNER]
    for s in range(players):
        out.append(share(f"game.seat{s + 1}.win", f"{game.name}の勝者：{s + 1}番目の席{'（起家）' if s == 0 else ''}",
                         winner == s))
    out.append(share("game.draw", f"{game.name}が引き分け", winner == -1))
    for i, e in enumerate(game.ends):
        out.append(share(f"game.end.{i}", f"{game.name}の終わり方：{e.name}", res[:, L.GR_END] == i))
    out.append(share("game.end.limit", f"{game.name}の終わり方：{game.max_rounds}局の上限で打ち切り",
                     res[:, L.GR_END] == -1))
    if game.counters:
        c0 = game.counters[0]
        for s in range(players):
            out.append(Metric(f"game.seat{s + 1}.{c0.name}", f"{game.name}の終わりの{c0.label or c0.name}：{s + 1}番目の席",
                              res[:, L.GR_FIRST + s].astype(np.float64), one))
    if game.out != "false":
        for s in range(players):
            out.append(share(f"game.seat{s + 1}.out", f"{game.name}で敗退：{s + 1}番目の席", res[:, L.GR_OUT + s] == 1))
    return out


@dataclass
class ModelCount:
    """The estimates of one player count (kept with their per-round values for a comparison)."""

    players: int
    metrics: list[Metric]

    def metric(self, key: str) -> Metric:
        """The metric with ``key`` (StopIteration when there is none)."""
        return next(m for m in self.metrics if m.key == key)


def metrics(cm: CompiledModel, players: int, res: np.ndarray) -> list[Metric]:
    """The estimates of one player count from its result rows, labelled in the game's words (the
    model's names; the manifest's ``terms``: ``win``, ``dealer``, ``non_dealer``,
    ``exhaustive_draw``): shares (percent) and means per round, each a ratio of round sums
    (:mod:`cardgen.insight.estimates`)."""
    one = np.ones(len(res), dtype=np.float64)
    end, winner = res[:, L.R_END], res[:, L.R_WINNER]
    points = res[:, L.R_POINTS].astype(np.float64)
    tsumo = cm.model.tsumo.name if cm.model.tsumo else "tsumo"
    word = {"win": "和了", "dealer": "親", "non_dealer": "子", "exhaustive_draw": "流局", **cm.terms}
    prm = next(c.prm for c in cm.counts if c.deck.players == players)
    need = int(prm[L.P_WINS])
    wins = res[:, L.R_WINS]
    # how a round ends without its wins: the wall ran dry, or (with `turns`) the turn limit came first
    ran_out = "山が尽きた" if prm[L.P_TURNS] == 0 else "山切れか手番の上限で終わった"

    def share(key: str, label: str, x) -> Metric:
        return Metric(key, label, np.asarray(x, dtype=np.float64), one, True)

    dry = ((f"山が尽きた（{word['exhaustive_draw']}）" if prm[L.P_TURNS] == 0 else
            f"{word['exhaustive_draw']}（山切れか手番の上限）") if need == 1 else f"{need}回の{word['win']}の前に{ran_out}局")
    out = [share("end.dry", dry, wins < need),
           share("end.own", tsumo if need == 1 else f"局の最初の{word['win']}が{tsumo}", end == 1)]
    out += [share(f"end.call.{i}", c.name if need == 1 else f"局の最初の{word['win']}が{c.name}",
                  (end == 2) & (res[:, L.R_CALL] == i)) for i, c in enumerate(cm.model.calls)]
    out.append(share("first_draw_win", f"{word['dealer']}の最初のツモで{tsumo}", res[:, L.R_FIRST] == 1))
    turn = res[:, L.R_TURN].astype(np.float64)
    out.append(Metric("turns", "局の手番数（全員の通し）", turn, one))
    out.append(Metric("turns_per_player", "1人あたりの手番数", turn / players, one))
    out.append(Metric("points", f"{word['win']}1回の点数", points, wins.astype(np.float64)))
    for s in range(players):
        seat = f"{s + 1}番目の席（{word['dealer'] if s == 0 else word['non_dealer']}）"
        first = "" if need == 1 else "局の最初の"  # several wins a round: the first one
        out.append(share(f"seat{s + 1}.win", f"{seat}の{first}{word['win']}", winner == s))
        out.append(Metric(f"seat{s + 1}.points", f"{seat}の1局あたりの得点",
                          res[:, L.R_SEAT_POINTS + s].astype(np.float64), one))
    if need > 1:
        out.append(Metric("wins", f"1局の{word['win']}の回数", wins.astype(np.float64), one))
        out.append(share("wins.all", f"規定回数（{need}回）の{word['win']}で終わった局", wins >= need))
        # only the counts some round ended with (a comparison reads a missing one as 0 %)
        for k in np.unique(wins[wins < need]).tolist():
            out.append(Metric(f"wins.{k}", f"{word['win']}{k}回で{ran_out}局", (wins == k).astype(np.float64), one,
                              True, absent_is_zero=True))
    if cm.model.takes:
        out.append(Metric("takes", "／".join(t.name for t in cm.model.takes) + "（1局あたり）",
                          res[:, L.R_TAKES].astype(np.float64), one))
    for i, cl in enumerate(cm.model.claims):
        out.append(Metric(f"claims.{i}", f"{cl.name}（1局あたり）", res[:, L.R_CLAIMS + i].astype(np.float64), one))
    if cm.model.choose_face or cm.model.face_down != "false":
        out.append(Metric("down", "裏向きに出したカード（1局あたり）", res[:, L.R_DOWN].astype(np.float64), one))
    return out


def summarize(metrics_: list[Metric]) -> dict[str, Any]:
    """The estimates as plain JSON: key → label, value, standard error, denominator, percent."""
    out = {}
    for m in metrics_:
        v, se, n = m.value()
        out[m.key] = {"label": m.label, "value": v, "se": se, "n": n, "percent": m.percent}
    return out


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
    label: str = "as built"
    games: int = 0  #: whole games per player count (0: none, or the model has no `game:`)
    parts: list[ModelCount] = field(default_factory=list)  #: per player count, for a comparison

    def to_json(self) -> dict[str, Any]:
        """The run as plain JSON (what simulation.json holds)."""
        return {"game": self.game_id, "title": self.title, "variant": self.label, "model": self.model,
                "model_leaves_out": self.description, "policy": self.policy, "seed": self.seed,
                "rounds": self.rounds, "games": self.games, "options": self.options, "player_counts": self.counts}


def simulate_model(cm: CompiledModel, rounds: int, seed: int, policy: str,
                   progress: Callable[[int], None] | None = None, players: list[int] | None = None,
                   label: str = "as built", games: int = 0) -> ModelResult:
    """Play ``rounds`` rounds of every player count (or ``players``) and estimate; with a
    ``game:`` in the model, also ``games`` whole games (their estimates under ``game``)."""
    out, parts = [], []
    for k, c in enumerate(cm.counts):
        if players and c.deck.players not in players:
            continue
        t0 = time.perf_counter()
        res = play_rows(cm, k, rounds, seed, policy, progress)
        dt = time.perf_counter() - t0
        parts.append(ModelCount(c.deck.players, metrics(cm, c.deck.players, res)))
        out.append({"players": c.deck.players, "rounds": rounds, "seconds": dt,
                    "rounds_per_second": rounds / dt if dt else None, "turn_limit": int(c.prm[L.P_TURNS]),
                    "estimates": summarize(parts[-1].metrics),
                    "turn_histogram": np.bincount(res[:, L.R_TURN], minlength=1).tolist()})
        if c.gp is not None and games > 0:
            t0 = time.perf_counter()
            gres = play_game_rows(cm, k, games, seed, policy, progress)
            dt = time.perf_counter() - t0
            gm = game_metrics(cm, c.deck.players, gres)
            parts[-1].metrics.extend(gm)
            played = int(gres[:, L.GR_ROUNDS].sum())
            out[-1]["game"] = {"name": cm.model.game.name, "games": games, "seconds": dt,
                               "games_per_second": games / dt if dt else None,
                               "rounds_per_second": played / dt if dt else None, "estimates": summarize(gm),
                               "rounds_histogram": np.bincount(gres[:, L.GR_ROUNDS], minlength=1).tolist()}
    return ModelResult(cm.game_id, cm.title, cm.model.name, cm.model.description, policy, seed, rounds,
                       dict(cm.options), out, label, games if cm.model.game else 0, parts)
