"""The playtest simulator: whole rounds played by a registered turn procedure, from the data.

Everything that is data comes from the manifest and the card table: the dealt deck per player
count (removals included, :mod:`cardgen.insight.deck`), each card's columns the procedure reads
(``insight.simulate.columns`` maps a procedure's name to a table column, e.g. ``cost: power``),
hand size, dead wall, and the design constants (``tsumo_threshold``, ``power_bonus_cap``…). So
editing battle.csv changes the simulation with no change to code.

Round ``r`` under ``--seed s`` is dealt and played from its own random stream
(:mod:`cardgen.insight.rng`), so results depend on ``(seed, rounds)`` only, not on threads; a
comparison plays the same rounds (same streams) on both variants. Estimates are means over
rounds with standard errors; a rate over something other than rounds (e.g. the win rate of
rounds where a seat played a 2 face up) is a ratio of round sums, with the ratio estimator's
standard error ``sqrt(Σ (x_i − R y_i)²) / Σ y_i``. Differences of a comparison use the paired
per-round residuals of both variants (common random numbers).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from cardgen.core.errors import CardgenError, Problem
from cardgen.insight import sim_layout as L
from cardgen.insight.deck import DealtDeck, Kind, dealt_decks

#: rounds per call into the compiled code (progress is reported between chunks)
CHUNK = 100_000


@dataclass
class Variant:
    """Changes to a game for one side of a comparison: card values, design constants, options."""

    label: str = ""
    cards: list[tuple[dict, dict]] = field(default_factory=list)  #: (where, set) on the setup deck's rows
    design: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    source: str = ""


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


def _where_matches(values: dict, where: dict) -> bool:
    return all(str(values.get(k)) == str(v) for k, v in where.items())


def apply_variant(decks: list[DealtDeck], variant: Variant) -> list[DealtDeck]:
    """The decks with the variant's ``set`` values on every row its ``where`` matches."""
    out = []
    for d in decks:
        kinds = []
        for k in d.kinds:
            values = dict(k.values)
            for where, new in variant.cards:
                if _where_matches(values, where):
                    values.update(new)
            kinds.append(Kind(values, k.copies))
        out.append(DealtDeck(d.players, tuple(kinds), d.hand, d.dead_wall, d.turns))
    return out


def load_variant(path: Path) -> Variant:
    """Read a variant file (YAML: ``label``, ``cards: [{where: {...}, set: {...}}]``, ``design``,
    ``options``), safely (no tags, no aliases; :func:`cardgen.data.yaml_source.load_yaml`).

    Raises:
        CardgenError: unreadable YAML or a key that is not one of the above, with file:line.
    """
    from cardgen.core.errors import rel
    from cardgen.data.yaml_source import load_yaml

    loaded = load_yaml(Path(path), rel(Path(path)))
    data, src = loaded.data or {}, loaded.source
    problems = []

    def bad(where: tuple, message: str, hint: str) -> None:
        problems.append(Problem(src.file, src.line(where) or 1, " → ".join(str(w) for w in where) or "variant",
                                message, hint, code="insight-variant"))
    if not isinstance(data, dict):
        bad((), "a variant file is a mapping (label:, cards:, design:, options:)", "see docs/insight.md")
        raise CardgenError(problems)
    for key in data:
        if key not in ("label", "cards", "design", "options"):
            bad((key,), f"unknown key {key!r}", "allowed keys: label, cards, design, options")
    cards = []
    for i, entry in enumerate(data.get("cards") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("where"), dict) or not isinstance(entry.get("set"), dict):
            bad(("cards", i), "each entry needs `where: {column: value}` and `set: {column: value}`",
                "e.g. `- {where: {number: 2}, set: {pon: 1, chi: 0, power: 1}}`")
            continue
        cards.append((entry["where"], entry["set"]))
    for key in ("design", "options"):
        if not isinstance(data.get(key) or {}, dict):
            bad((key,), f"`{key}` must be a mapping of name → value", "e.g. `design: {tsumo_threshold: 18}`")
    if problems:
        raise CardgenError(problems)
    return Variant(str(data.get("label") or Path(path).stem), cards, dict(data.get("design") or {}),
                   dict(data.get("options") or {}), str(path))


def parse_options(pairs: list[str], procedure) -> dict[str, Any]:
    """``NAME=VALUE`` strings (``--option``) → option values, checked against the procedure.

    Raises:
        CardgenError: an unknown option or a value that is not true/false.
    """
    out = {}
    for text in pairs:
        name, _, value = text.partition("=")
        name = name.strip()
        if name not in procedure.options:
            raise CardgenError(Problem("--option", None, name, f"unknown option {name!r} of {procedure.name}",
                                       "options: " + ", ".join(procedure.options), code="insight-option"))
        low = value.strip().lower()
        if low not in ("true", "false", "1", "0", "yes", "no"):
            raise CardgenError(Problem("--option", None, name, f"{value!r} is not true or false",
                                       f"e.g. --option {name}=false", code="insight-option"))
        out[name] = low in ("true", "1", "yes")
    return out


def prepare(game_dir: Path | str, variant: Variant | None = None, option_args: list[str] | None = None) -> Setup:
    """Load a game and check it can be simulated (procedure, columns, design constants).

    Raises:
        CardgenError: every problem at once, naming game.yaml's line (no ``insight.simulate``,
            an unknown procedure, a missing column or design constant, numbers outside 0–15,
            more than 8 players).
    """
    from cardgen.insight.games import get, names
    from cardgen.data.game import load_game

    game = load_game(game_dir)
    m, src = game.manifest, game.source
    sim = m.insight.simulate
    if sim is None:
        raise CardgenError(Problem(src.file, None, "insight → simulate",
                                   "this game declares no turn procedure to simulate",
                                   "add `insight: simulate: {procedure: NAME}`; registered: " + ", ".join(names()),
                                   code="insight-no-procedure"))
    proc = get(sim.procedure)
    if proc is None:
        raise CardgenError(Problem(src.file, src.line(("insight", "simulate", "procedure")), "insight → simulate → procedure",
                                   f"no turn procedure {sim.procedure!r} is registered",
                                   "registered: " + ", ".join(names()), code="insight-no-procedure"))
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


def policy_codes(policy: str, players: int) -> np.ndarray:
    """``greedy``, ``random``, or one per seat separated by commas (``greedy,random,random``)."""
    names = [p.strip() for p in policy.split(",")]
    bad = [n for n in names if n not in L.POLICIES]
    if bad or (len(names) > 1 and len(names) < players):
        raise CardgenError(Problem("--policy", None, "policy", f"cannot read the policy {policy!r}",
                                   "use greedy, random, or one per seat: greedy,random,random,random",
                                   code="insight-policy"))
    return np.array([L.POLICIES[names[s % len(names)] if len(names) == 1 else names[s]] for s in range(players)],
                    dtype=np.int64)


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
    from cardgen.insight.rng import round_state

    arr = card_arrays(deck, setup.columns)
    prm = setup.procedure.params(deck, setup.design, setup.options, arr["number"])
    trace = np.zeros((4096, 6), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    row = np.zeros(L.WIDTH, dtype=np.int64)
    setup.procedure.play_round(np.asarray(order, dtype=np.int64), arr["number"], arr["pon"], arr["chi"], arr["cost"],
                               prm, policy_codes(policy, deck.players), round_state(seed, r), row, trace, tn, True)
    events = [(int(t), int(s), L.EV_NAMES[int(e)], int(a), int(b), int(c)) for t, s, e, a, b, c in trace[:tn[0]]]
    return row, events


# ---------------------------------------------------------------- estimates

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


#: a ratio over fewer than this many events (e.g. players who played a 3 face down) is printed as
#: too few to estimate: its standard error is not trustworthy (cardgen/cli/insight_output.py
#: keeps the same number)
MIN_EVENTS = 30

#: the estimates a comparison shows on the terminal and in insight.pdf (simulation.json has all)
MAIN_ESTIMATES = ("end.", "turns", "seat.", ".up_share", ".win_up", ".win_down", "pon.used", "chi.used", "points")


def is_main(key: str) -> bool:
    """True for the estimates of :data:`MAIN_ESTIMATES` (``turns.win`` excluded)."""
    return key != "turns.win" and any(part in key for part in MAIN_ESTIMATES)


def compare(a: SimulationResult, b: SimulationResult) -> list[dict[str, Any]]:
    """Per player count both have, every metric both have: a, b, b − a with its standard error and
    95 % confidence interval (paired rounds)."""
    out = []
    for ca in a.counts:
        cb = next((c for c in b.counts if c.players == ca.players), None)
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
