"""The playtest simulator: whole rounds played by a registered turn procedure, from the data.

Everything that is data comes from the manifest and the card table: the dealt deck per player
count (removals included, :mod:`cardgen.insight.deck`), each card's columns the procedure reads
(``insight.simulate.columns`` maps a procedure's name to a table column, e.g. ``cost: power``),
hand size, dead wall, and the design constants (``tsumo_threshold``, ``power_bonus_cap``…). So
editing battle.csv changes the simulation with no change to code.

Round ``r`` under ``--seed s`` is dealt and played from its own random stream
(:mod:`cardgen.insight.rng`), so results depend on ``(seed, rounds)`` only, not on threads; a
comparison plays the same rounds (same streams) on both variants (:mod:`cardgen.insight.variant`).
The estimates and the paired comparison are :mod:`cardgen.insight.estimates`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from cardgen.core.errors import CardgenError, Problem, UsageError, did_you_mean
from cardgen.data.game import load_game
from cardgen.insight import sim_layout as L
from cardgen.insight.deck import DealtDeck, dealt_decks
from cardgen.insight.estimates import Metric, metrics
from cardgen.insight.games import get, names
from cardgen.insight.variant import Variant, apply_variant

#: rounds per call into the compiled code (progress is reported between chunks)
CHUNK = 100_000


@dataclass
class Setup:
    """A game ready to simulate: procedure, decks per player count, design, options."""

    game_id: str
    title: str
    label: str
    procedure: Any
    decks: list[DealtDeck]
    design: dict[str, Any]
    options: dict[str, Any]
    columns: dict[str, str]


def prepare(game_dir: Path | str, variant: Variant | None = None) -> Setup:
    """Load a game and check it can be simulated (procedure, columns, design constants).

    Raises:
        CardgenError: every problem at once, naming game.yaml's line (no ``insight.simulate``,
            an unknown procedure, a missing column or design constant, numbers outside 0–15,
            more than 8 players).
    """
    game = load_game(game_dir)
    m, src = game.manifest, game.source
    sim = m.insight.simulate
    if sim is None:
        raise CardgenError(Problem(src.file, None, "insight → simulate",
                                   "this game declares no turn procedure to simulate",
                                   "describe its round under `insight: model:` (see docs/insight-model.md)",
                                   code="insight-no-procedure"))
    proc = get(sim.procedure)
    if proc is None:
        raise CardgenError(Problem(src.file, src.line(("insight", "simulate", "procedure")), "insight → simulate → procedure",
                                   f"no turn procedure {sim.procedure!r} is registered",
                                   "registered: " + ", ".join(names()), code="insight-no-procedure"))
    if getattr(proc, "game", m.game.id) != m.game.id:
        raise CardgenError(Problem(src.file, src.line(("insight", "simulate", "procedure")), "insight → simulate → procedure",
                                   f"{sim.procedure!r} plays the rules of the game {proc.game!r}, not of "
                                   f"{m.game.id!r}: its results would be another game's",
                                   "describe this game's own round under `insight: model:` (see docs/insight-model.md)",
                                   code="insight-no-procedure"))
    variant = variant or Variant()
    decks = apply_variant(dealt_decks(game), variant)
    columns = {name: sim.columns.get(name, name) for name in proc.columns}
    design = {**m.design, **variant.design}
    options = {k: v[0] for k, v in proc.options.items()}
    problems = []
    line = src.line(("insight", "simulate")) or None
    for k, v in {**sim.options, **variant.options}.items():
        if k not in proc.options:
            problems.append(Problem(src.file, src.line(("insight", "simulate", "options", k)) or line,
                                    f"insight → simulate → options → {k}", f"{proc.name} has no option {k!r}",
                                    "options: " + ", ".join(proc.options), code="insight-option"))
        else:
            options[k] = v
    deck_component = game.component(m.setup.deck)
    quantity = deck_component.quantity if deck_component is not None else "count"
    have = {c for c in (decks[0].kinds[0].values if decks and decks[0].kinds else {}) if c != quantity}
    for name, col in columns.items():
        if col not in have:
            problems.append(Problem(src.file, src.line(("insight", "simulate", "columns")) or line,
                                    "insight → simulate → columns", f"{proc.name} reads {name} ({proc.columns[name]}) "
                                    f"from the column {col!r}, which the deck {m.setup.deck!r} does not have",
                                    f"map it to a column: `columns: {{{name}: COLUMN}}`; columns: " + ", ".join(sorted(have)),
                                    code="insight-column"))
    for key, what in proc.design.items():
        if not isinstance(design.get(key), int) or isinstance(design.get(key), bool):
            problems.append(Problem(src.file, src.line(("design",)) or line, f"design → {key}",
                                    f"{proc.name} needs design.{key} ({what}) as a whole number",
                                    f"add `{key}: …` under design:", code="insight-design"))
    for d in decks:
        if d.players > L.MAX_SEATS:
            problems.append(Problem(src.file, line, "insight → simulate", f"{d.players} players: the simulator "
                                    f"plays at most {L.MAX_SEATS}", "simulate fewer players", code="insight-players"))
        dealt = d.players * d.hand + d.dead_wall
        if dealt > d.size:  # the compiled procedure would read past the shuffled deck
            i = next(i for i, pc in enumerate(m.setup.player_counts) if pc.players == d.players)
            problems.append(game.problem(("setup", "player_counts", i, "hand"),
                                         f"{d.players} players × {d.hand} (hands) + {d.dead_wall} (dead wall) = "
                                         f"{dealt} cards are dealt, but the deck holds {d.size}, so no round "
                                         "can be played", "deal fewer cards, or add cards to the deck",
                                         code="insight-deal"))
    if not problems:
        for d in decks:
            for k in d.kinds:
                for name, col in columns.items():
                    v = k.values.get(col)
                    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= L.MAX_NUMBER:
                        problems.append(Problem(src.file, src.line(("insight", "simulate")) or line,
                                                f"{m.setup.deck} → {k.values.get('id')} → {col}",
                                                f"{col} = {v!r}: the simulator needs a whole number from 0 to {L.MAX_NUMBER}",
                                                f"declare `{col}: int` under the component's fields", code="insight-column"))
                        break
    if problems:
        raise CardgenError(problems)
    return Setup(m.game.id, m.game.title, variant.label or "as built", proc, decks, design, options, columns)


def card_arrays(deck: DealtDeck, columns: dict[str, str]) -> dict[str, np.ndarray]:
    """One int64 array per procedure column, one entry per physical card (rows × copies)."""
    return {name: np.array([int(k.values[col]) for k in deck.kinds for _ in range(k.copies)], dtype=np.int64)
            for name, col in columns.items()}


def policy_codes(policy: str, players: int, table: dict[str, int] | None = None) -> np.ndarray:
    """``greedy``, ``random`` (the names of ``table``: by default the procedures'), or one per
    seat separated by commas (``greedy,random,random``)."""
    table = L.POLICIES if table is None else table
    names = [p.strip() for p in policy.split(",")]
    bad = [n for n in names if n not in table]
    if bad or (len(names) > 1 and len(names) < players):
        raise UsageError(Problem("--policy", None, "policy", f"cannot read the policy {policy!r}" + (did_you_mean(bad[0], table) if bad else ""),
                                   f"use {', '.join(table)}, or one per seat: "
                                   + ",".join([next(iter(table))] * players), code="insight-policy"))
    return np.array([table[names[0] if len(names) == 1 else names[s]] for s in range(players)], dtype=np.int64)


def play(setup: Setup, deck: DealtDeck, rounds: int, seed: int, policy: str,
         on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
    """Play ``rounds`` rounds of one player count; one result row per round (int16, see sim_layout)."""
    arr = card_arrays(deck, setup.columns)
    prm = setup.procedure.params(deck, setup.design, setup.options, arr["number"])
    pol = policy_codes(policy, deck.players)
    res = np.empty((rounds, L.WIDTH), dtype=np.int16)
    order = np.arange(deck.size, dtype=np.int64)
    for first in range(0, rounds, CHUNK):
        part = res[first:first + CHUNK]
        setup.procedure.play_many(np.int64(seed), np.int64(first), part, order, arr["number"], arr["pon"], arr["chi"],
                                  arr["cost"], prm, pol)
        if on_chunk:
            on_chunk(len(part))
    return res


def trace_round(setup: Setup, deck: DealtDeck, order: np.ndarray, policy: str, seed: int = 0, r: int = 0):
    """Play one round from a stacked deck (``order``: card indexes, top first) and return
    (result row, events as (turn, seat, event name, a, b, c) tuples). Random choices, if any,
    come from the stream of ``(seed, r)``."""
    from cardgen.insight.rng import round_state  # lazy: +199 ms of imports here (measured)

    arr = card_arrays(deck, setup.columns)
    prm = setup.procedure.params(deck, setup.design, setup.options, arr["number"])
    trace = np.zeros((4096, 6), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    row = np.zeros(L.WIDTH, dtype=np.int64)
    setup.procedure.play_round(np.asarray(order, dtype=np.int64), arr["number"], arr["pon"], arr["chi"], arr["cost"],
                               prm, policy_codes(policy, deck.players), round_state(seed, r), row, trace, tn, True)
    events = [(int(t), int(s), L.EV_NAMES[int(e)], int(a), int(b), int(c)) for t, s, e, a, b, c in trace[:tn[0]]]
    return row, events


@dataclass
class CountResult:
    """Simulation of one player count."""

    players: int
    rounds: int
    seconds: float
    res: np.ndarray
    metrics: list[Metric]

    def metric(self, key: str) -> Metric:
        """The metric with ``key`` (StopIteration when the procedure has none)."""
        return next(m for m in self.metrics if m.key == key)

    def to_json(self) -> dict[str, Any]:
        """Estimates with standard errors, the turn histogram and the per-seat figures as plain JSON."""
        est = {}
        for m in self.metrics:
            v, se, den = m.value()
            est[m.key] = {"label": m.label, "value": v, "se": se, "n": den}
        turns = np.bincount(self.res[:, L.COL_TURN].astype(np.int64), minlength=1)
        return {"players": self.players, "rounds": self.rounds, "seconds": self.seconds,
                "rounds_per_second": self.rounds / self.seconds if self.seconds else None,
                "estimates": est, "turn_histogram": turns.tolist(),
                "points_histogram": np.bincount(self.res[self.res[:, L.COL_KIND] != L.END_DRAW, L.COL_POINTS]
                                                .astype(np.int64), minlength=1).tolist()}


@dataclass
class SimulationResult:
    """Every player count of one game (or variant)."""

    game_id: str
    title: str
    label: str
    procedure: str
    policy: str
    seed: int
    options: dict[str, Any]
    counts: list[CountResult]

    def to_json(self) -> dict[str, Any]:
        """The whole simulation (game, variant, policy, seed, options, every player count) as plain JSON."""
        return {"game": self.game_id, "title": self.title, "variant": self.label, "procedure": self.procedure,
                "policy": self.policy, "seed": self.seed, "options": self.options,
                "player_counts": [c.to_json() for c in self.counts]}


def simulate(setup: Setup, rounds: int, seed: int, policy: str, progress: Callable[[int], None] | None = None,
             players: list[int] | None = None) -> SimulationResult:
    """Play ``rounds`` rounds per player count (all counts, or ``players``) and estimate."""
    counts = []
    for deck in setup.decks:
        if players and deck.players not in players:
            continue
        t0 = time.perf_counter()
        res = play(setup, deck, rounds, seed, policy, progress)
        dt = time.perf_counter() - t0
        numbers = sorted({int(k.values[setup.columns["number"]]) for k in deck.kinds})
        counts.append(CountResult(deck.players, rounds, dt, res, metrics(res, deck.players, numbers)))
    return SimulationResult(setup.game_id, setup.title, setup.label, setup.procedure.name, policy, seed,
                            dict(setup.options), counts)
