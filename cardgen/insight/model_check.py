"""A game's ``insight.model`` (:mod:`cardgen.data.sim_model`) checked and laid out as plain lists
(:class:`ModelPlan`), without numpy: ``cardgen validate`` runs it; :mod:`cardgen.insight.model_compile`
turns the plan into the arrays the numba interpreter plays (:mod:`cardgen.insight.model_round`).

Every problem is found at once and named at its game.yaml line: an expression outside the
vocabulary, a column the deck lacks or that is not a whole number, a yaku table whose tiles
are not kinds of the deck, an unknown ``--option``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cardgen.check.multiset import hands
from cardgen.core.errors import CardgenError, Problem, did_you_mean
from cardgen.data.game import Game
from cardgen.data.loaded import display_path
from cardgen.data.sim_model import GameModel
from cardgen.insight import model_layout as R
from cardgen.insight.deck import DealtDeck, Kind, dealt_decks
from cardgen.insight.model_bounds import DeckBounds, melds_possible, never_holds
from cardgen.insight.model_expr import (CALL_HEADS, CARD, CLAIM_HEADS, DISC, GAME_VARS, GVAR, HELD, MELDS, MELDS_PAIR,
                                        NOT_IN_RIVER, PLAY_HEADS, TAKE_GAIN, TAKE_HEADS, WINS, ExprError, Names, Programs,
                                        compile_expr, constant)
from cardgen.insight.variant import Variant, apply_variant, variant_problems

#: A kind column of whole numbers 0 … MAX_NUMBER_KINDS − 1 uses each number as its kind index.
MAX_NUMBER_KINDS = 64


@dataclass
class CountPlan:
    """One player count: the dealt deck, its cards (one row a card: kind index, value, then the
    model's columns), the round's parameters (model_layout's ``P_*``) and the game's (``GP_*``)."""

    deck: DealtDeck
    attr: list[list[int]]
    prm: list[int]
    gp: list[int] | None = None  #: None: single rounds only


@dataclass
class ModelPlan:
    """A model checked: shared programs and tables as lists, and each player count's."""

    game_id: str
    title: str
    model: GameModel
    options: dict[str, int]
    kinds: list[str]
    width: int  #: columns of a card row (kind, value, then the model's columns)
    targets: list[list[int]]  #: per base yaku: tile counts per kind
    tpoints: list[int]  #: per base yaku: its points
    progs: Programs
    calls: list[tuple[int, ...]]  #: per call: held column, when, points, face down, wall_down
    takes: list[tuple[int, ...]]  #: per take: when, cost, counts in the river
    prio: list[int]  #: per kind: its rank in `priority`
    claims: list[tuple[int, ...]]  #: per claim: model_layout's CL_* (condition, greedy's choice, where the card goes, face down)
    counts: list[CountPlan] = field(default_factory=list)
    #: warnings that do not stop a run: a way to win whose condition can never hold (model_bounds)
    notes: list[Problem] = field(default_factory=list)
    terms: dict[str, str] = field(default_factory=dict)  #: the manifest's words (reports use them)


def _int(v: Any) -> int | None:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    return None


def plan_model(game: Game, flags: dict[str, int] | None = None, variant: Variant | None = None) -> ModelPlan:
    """Check ``game.manifest.insight.model`` (with ``flags``: ``--option`` answers; ``variant``:
    changed card values and design constants of a ``--compare`` side) and lay it out as lists.

    Raises:
        CardgenError: every problem at once (see the module docstring).
    """
    m = game.manifest
    model = m.insight.model
    src = game.source
    base = ("insight", "model")
    problems: list[Problem] = []

    def at(*path, message: str, hint: str = "") -> None:
        where = base + path
        line = src.line(where) or src.line(base)
        problems.append(Problem(src.file, line, display_path(where, m), message, hint, code="insight-model"))

    decks = _model_decks(game, model, at) if model.deck else dealt_decks(game)
    if variant:
        read = [model.kind, model.value, *model.columns, *([model.melds.suit, model.melds.number] if model.melds else [])]
        problems.extend(variant_problems(variant, decks, m.design, [c for c in read if c], model.options))
        decks = apply_variant(decks, variant)
    options = dict(model.options)
    for k, v in (flags or {}).items():
        if k not in options:
            problems.append(Problem("--option", None, "option", f"the model has no option {k!r}" + did_you_mean(k, options),
                                    "options: " + (", ".join(options) or "none (add `options:` to insight.model)"),
                                    code="insight-option"))
        else:
            options[k] = v
    rows = [k for d in decks for k in d.kinds]
    have = set(rows[0].values) if rows else set()
    columns = ["kind", "value", *model.columns]
    for i, col in enumerate([model.kind, model.value, *model.columns]):
        if col is not None and col not in have:
            key = ("kind",) if i == 0 else ("value",) if i == 1 else ("columns",)
            at(*key, message=f"the deck {m.setup.deck!r} has no column {col!r}", hint="columns: " + ", ".join(sorted(have)))
    raw_kinds = [k.values.get(model.kind) for k in rows]
    if raw_kinds and all(_int(v) is not None and 0 <= _int(v) < MAX_NUMBER_KINDS for v in raw_kinds):
        kinds = [str(i) for i in range(max(_int(v) for v in raw_kinds) + 1)]  # a number is its own kind index
    else:
        kinds = list(dict.fromkeys(str(v) for v in raw_kinds))
    for col in [model.value, *model.columns]:
        if col is not None and col in have:
            bad = next((k for k in rows if _int(k.values.get(col)) is None), None)
            if bad is not None:
                at("columns" if col != model.value else "value",
                   message=f"{col} = {bad.values.get(col)!r} on card {bad.values.get('id')!r}: the model reads "
                           "whole numbers or true/false", hint=f"declare `{col}: int` (or bool) under the component's fields")
    design = {k: v for k, v in {**m.design, **(variant.design if variant else {})}.items() if _int(v) is not None}
    by_name = {"kind": 0, model.kind: 0, "value": 1, **({model.value: 1} if model.value else {}),
               **{c: 2 + i for i, c in enumerate(model.columns)}}
    maxes = {name: max((_int(k.values.get(col)) or 0 for k in rows), default=0)
             for name, col in [("kind", model.kind), (model.kind, model.kind), ("value", model.value),
                               (model.value, model.value), *[(c, c) for c in model.columns]]
             if name and col in have and all(_int(k.values.get(col)) is not None for k in rows)}
    names = Names(by_name, {k: i for i, k in enumerate(kinds)}, options, design, maxes)
    progs = Programs()
    #: where a function the interpreter works out beforehand may stand
    chooses = ("greedy", "greedy_down", "face_down")

    def prog(text: str, *path, heads=PLAY_HEADS) -> int:
        try:
            program = compile_expr(text, names.where(heads))
        except ExprError as exc:
            for message in exc.messages:  # every problem of the expression, each its own finding
                at(*path, message=message, hint="see docs/insight-model.md for the vocabulary")
            return -1
        ops = {op for op, _ in program}
        if TAKE_GAIN in ops and path[0] not in chooses:
            at(*path, message="take_gain() is read only where a card is chosen (greedy, greedy_down, face_down)",
               hint="write the take's own condition under `takes:`")
        if NOT_IN_RIVER in ops and path[0] in ("takes", "gain"):
            at(*path, message="not_in_river() is not read in a take or in gain",
               hint="use in_river(card.kind) for one card")
        return progs.add(program)

    targets, tpoints = _patterns(game, model, kinds, at)
    gain = prog(model.gain, "gain")
    face_down = prog(model.face_down, "face_down")
    greedy = prog(model.greedy, "greedy") if model.greedy else -1
    greedy_down = prog(model.greedy_down, "greedy_down") if model.greedy_down else -1
    if model.greedy_down and not model.choose_face:
        at("greedy_down", message="greedy_down is read only when the player chooses the face",
           hint="add `choose_face: true`, or remove greedy_down")
    if model.tsumo and model.tsumo.any_card and model.tsumo.after != "draw":
        at("tsumo", "any_card", message="any_card is read with `after: draw` only",
           hint="set `after: draw`, or remove any_card")
    t_when = prog(model.tsumo.when, "tsumo", "when") if model.tsumo else -1
    t_points = prog(model.tsumo.points, "tsumo", "points") if model.tsumo else -1
    calls = []
    for i, c in enumerate(model.calls):
        held = -1
        if c.holding is not None:
            if c.holding not in model.columns:
                at("calls", i, "holding", message=f"{c.holding!r} is not one of the model's columns",
                   hint="add it to `columns:`")
            else:
                held = by_name[c.holding]
        calls.append((held, prog(c.when, "calls", i, "when", heads=CALL_HEADS),
                      prog(c.points, "calls", i, "points", heads=CALL_HEADS), int(c.face_down),
                      prog(c.wall_down, "calls", i, "wall_down", heads=CALL_HEADS)))
    takes = []
    for i, tk in enumerate(model.takes):
        try:
            counts_in = constant(compile_expr(tk.in_river, Names({}, {}, options, design)), 0)
        except ExprError as exc:
            at("takes", i, "in_river", message=str(exc), hint="an expression of option.X and design.X, e.g. `true`")
            counts_in = 1
        takes.append((prog(tk.when, "takes", i, "when", heads=TAKE_HEADS),
                      prog(tk.cost, "takes", i, "cost", heads=TAKE_HEADS), int(counts_in != 0)))
    claims = []
    for i, cl in enumerate(model.claims):
        if cl.name in [c.name for c in model.claims[:i]]:
            at("claims", i, "name", message=f"two claims are named {cl.name!r}: the reports could not tell them apart",
               hint="give each claim a name of its own")
        claims.append((prog(cl.when, "claims", i, "when", heads=CLAIM_HEADS),
                       prog(cl.greedy, "claims", i, "greedy", heads=CLAIM_HEADS),
                       R.CL_RIVER if cl.to == "river" else R.CL_HAND, int(cl.face_down)))
    prio = [len(model.priority) + 1] * max(len(kinds), 1)
    for r, k in enumerate(model.priority):
        if str(k) not in kinds:
            at("priority", message=f"{k!r} is not a kind of card", hint="kinds: " + ", ".join(kinds))
        else:
            prio[kinds.index(str(k))] = min(prio[kinds.index(str(k))], r)
    game_progs = _game_programs(model, names, progs, at) if model.game else None
    if problems:
        raise CardgenError(problems)
    counts = []
    negative: dict[int, int] = {}  #: player count → turns below 0 (one message for them all)
    no_win: dict[int, int] = {}  #: player count → wins_per_round below 1
    for d in decks:
        dealt = d.players * d.hand + d.dead_wall
        if dealt > d.size or d.hand + 1 > R.MAX_HAND:
            i = next(i for i, pc in enumerate(m.setup.player_counts) if pc.players == d.players)
            problems.append(game.problem(("setup", "player_counts", i, "hand"),
                                         f"{d.players} players × {d.hand} (hands) + {d.dead_wall} (dead wall) = "
                                         f"{dealt} cards are dealt, but the deck holds {d.size}, so no round "
                                         "can be played" if dealt > d.size else
                                         f"a hand of {d.hand} cards: the simulator holds at most {R.MAX_HAND - 1}",
                                         "deal fewer cards, or add cards to the deck", code="insight-deal"))
            continue
        attr = [[kinds.index(str(k.values.get(model.kind))),
                 _int(k.values.get(model.value)) or 0 if model.value else 0,
                 *[_int(k.values.get(c)) or 0 for c in model.columns]]
                for k in d.kinds for _ in range(k.copies)]
        try:
            turns_prog = compile_expr(model.turns, Names({}, {}, options, {**design, "players": d.players}))
        except ExprError as exc:
            at("turns", message=str(exc))
            continue
        turns = constant(turns_prog, d.players)
        if turns < 0:
            negative[d.players] = turns
            continue
        try:
            need = constant(compile_expr(model.wins_per_round, Names({}, {}, options, design)), d.players)
        except ExprError as exc:
            at("wins_per_round", message=str(exc), hint="e.g. `players - 1`")
            continue
        if need < 1:
            no_win[d.players] = need
            continue
        nk = max(len(kinds), 1)
        prm = [0] * R.N_PARAMS + [-1] * (2 * nk)
        prm[R.P_WINS] = need
        if model.melds is not None:
            prm[R.P_MELDS], prm[R.P_MELD_SETS] = 1, model.melds.sets
            _put(prm, R.N_PARAMS, _neighbours(d, model, kinds, at))
        prm[R.P_PLAYERS], prm[R.P_HAND], prm[R.P_DEAD], prm[R.P_TURNS] = d.players, d.hand, d.dead_wall, turns
        prm[R.P_TSUMO_AFTER] = 0 if model.tsumo is None else (1 if model.tsumo.after == "draw" else 2)
        prm[R.P_TSUMO_WHEN], prm[R.P_TSUMO_POINTS] = t_when, t_points
        prm[R.P_GAIN], prm[R.P_FACEDOWN], prm[R.P_GREEDY] = gain, face_down, greedy
        prm[R.P_NCALLS], prm[R.P_NKINDS] = len(calls), max(len(kinds), 1)
        prm[R.P_NTAKES], prm[R.P_CHOOSE_FACE], prm[R.P_GREEDY_DOWN] = len(takes), int(model.choose_face), greedy_down
        prm[R.P_TSUMO_ANY] = int(bool(model.tsumo and model.tsumo.any_card))
        prm[R.P_NCLAIMS] = len(claims)
        gp = None
        if game_progs is not None:
            starts = []
            for j, counter in enumerate(model.game.counters):
                try:
                    starts.append(constant(compile_expr(counter.start, Names({}, {}, options, design)), d.players))
                except ExprError as exc:
                    at("game", "counters", j, "start", message=str(exc), hint="e.g. `30000` or `0`")
            gp = game_params(model.game, game_progs, starts)
        counts.append(CountPlan(d, attr, prm, gp))
    if negative:
        at("turns", message=f"{model.turns!r} is {_per_count(negative)}: a player takes 0 turns (until the wall runs "
                            "dry) or more", hint="e.g. `turns: \"8\"`, or `\"0\"` to play until the wall runs dry")
    if no_win:
        at("wins_per_round", message=f"{model.wins_per_round!r} is {_per_count(no_win)}: a round ends after at least "
                                     "1 win", hint="e.g. `players - 1`")
    if problems:
        raise CardgenError(problems)
    return ModelPlan(m.game.id, m.game.title, model, options, kinds, len(columns), targets, tpoints, progs, calls, takes,
                     prio, claims, counts, _impossible_wins(game, model, progs, counts, len(columns), t_when, calls, claims,
                                                            len(targets) > 0), dict(m.terms))


def _impossible_wins(game: Game, model: GameModel, progs: Programs, counts: list[CountPlan], width: int,
                     t_when: int, calls: list[tuple], claims: list[tuple], patterns: bool) -> list[Problem]:
    """A warning for each way to win (``tsumo.when``, a call's ``when``) and each claim's ``when``
    that no card, hand or round of the deck can make true
    (:func:`cardgen.insight.model_bounds.never_holds`)."""
    names = [model.kind, model.value or "value", *model.columns]
    bounds = DeckBounds.of([c.attr for c in counts], [c.deck.hand for c in counts], [c.deck.players for c in counts],
                           width if counts else 0)
    bounds.patterns, bounds.melds = patterns, model.melds is not None
    sets = model.melds.sets if model.melds is not None else 0
    bounds.meld_cards = 3 * sets + 2
    # the cards a hand holds where each way is tested: the deal and the drawn card (an own-turn win
    # after the draw), or the discard (a call, a claim); after the play, the drawn card may be gone.
    # A claim laid out in the river leaves the caller's hand a card short: then any number.
    dealt = sorted({c.deck.hand for c in counts})
    shrinks = any(c.to == "river" for c in model.claims)
    drawn = None if shrinks else frozenset(h + 1 for h in dealt)
    after_play = None if shrinks else frozenset(h + d for h in dealt for d in (0, 1))
    tsumo_sizes = after_play if model.tsumo is not None and model.tsumo.after == "play" else drawn
    ways = ([(("tsumo", "when"), model.tsumo.name, model.tsumo.when, t_when, tsumo_sizes)] if model.tsumo else []) + [
        (("calls", i, "when"), c.name, c.when, calls[i][1], drawn) for i, c in enumerate(model.calls)] + [
        (("claims", i, "when"), c.name, c.when, claims[i][R.CL_WHEN], drawn) for i, c in enumerate(model.claims)]
    out = []
    for path, name, text, index, sizes in ways:
        if index < 0:
            continue
        start, n = progs.spans[index]
        program = progs.code[start:start + n]
        bounds.sizes = sizes
        if never_holds(program, bounds):
            where = ("insight", "model", *path)
            read = sorted({a for op, a in program if op in (CARD, HELD, DISC) and a > 0})
            ranges = "".join(f", {names[a]} from {bounds.low[a]:g} to {bounds.high[a]:g}" for a in read)
            ops = {op for op, _ in program}
            ranges += "; wins() is false without a yaku table to form (`patterns:`)" if WINS in ops and not patterns else ""
            hint = "check the numbers in the condition against the card table"
            uses_melds = bool(ops & {MELDS, MELDS_PAIR})
            if uses_melds and not bounds.melds:
                ranges += "; melds() is false without `melds:`"
            elif uses_melds and not melds_possible(bounds):
                held = _or(sorted(sizes or ()))
                ranges += (f"; melds() needs {bounds.meld_cards} cards ({sets} set{'s' if sets != 1 else ''} and a "
                           f"pair), and the hand holds {held} when {name} is tested")
                fits = sorted({(k - 2) // 3 for k in sizes or () if k >= 2 and (k - 2) % 3 == 0})
                hint = (f"deal {bounds.meld_cards - 1} cards a hand for `melds: {{sets: {sets}}}` "
                        f"({bounds.meld_cards} with the drawn card or the discard)"
                        + (f", or set `sets: {_or(fits)}` for the hand dealt" if fits else ""))
            out.append(Problem(game.source.file, game.source.line(where), display_path(where, game.manifest),
                               f"{name} can never happen: {' '.join(str(text).split())!r} is false for every card and "
                               f"hand the deck allows (at most {max(bounds.copies, default=0)} copies of a kind, "
                               f"{bounds.hand} cards in a hand with the drawn card or the discard{ranges})",
                               hint, severity="warning", code="insight-model-never"))
    return out


def _or(values: list) -> str:
    """``6`` / ``5 or 6`` / ``4, 5 or 6``."""
    shown = [str(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _per_count(values: dict[int, int]) -> str:
    """``-1 at 3 and 4 players`` / ``-2 at 3 players, -1 at 4 players``: a value per player count."""
    if len(set(values.values())) == 1:
        return f"{next(iter(values.values()))} at " + " and ".join(map(str, values)) + " players"
    return ", ".join(f"{v} at {n} players" for n, v in values.items())


def game_params(game, progs: dict[str, Any], starts: list[int]) -> list[int]:
    """The game's parameter vector (model_layout's ``GP_*``) of one player count."""
    gp = [-1] * R.GP_WIDTH
    gp[R.GP_NC], gp[R.GP_NENDS], gp[R.GP_NRANK] = len(game.counters), len(game.ends), len(game.rank)
    gp[R.GP_CARRY], gp[R.GP_POT], gp[R.GP_STAYS], gp[R.GP_OUT] = progs["carry"], progs["pot"], progs["stays"], progs["out"]
    gp[R.GP_MAXR], gp[R.GP_READY] = game.max_rounds, int(progs["ready"])
    _put(gp, R.GP_START, [0] * 8)
    _put(gp, R.GP_START, starts)
    _put(gp, R.GP_AFTER, progs["after"])
    _put(gp, R.GP_ENDS, progs["ends"])
    _put(gp, R.GP_RANK, progs["rank"])
    return gp


def _put(vector: list[int], start: int, values: list[int]) -> None:
    """``vector[start:start + len(values)] = values``, the vector's length kept (a value past its
    end is an error, as in a numpy array)."""
    if start + len(values) > len(vector):
        raise ValueError(f"{len(values)} values do not fit at {start} of {len(vector)}")
    vector[start:start + len(values)] = values


def _game_programs(model: GameModel, names: Names, progs: Programs, at) -> dict[str, Any]:
    """The game's expressions (``insight.model.game``) compiled with the game's names; every
    problem at its line. → program indexes by role, and whether one reads ``ready()``."""
    game = model.game
    counters = [c.name for c in game.counters]
    gnames = names.of_game(counters)
    seen: set[str] = set()
    for j, c in enumerate(game.counters):
        if c.name in GAME_VARS or c.name in seen:
            at("game", "counters", j, "name", message=f"{c.name!r} is " + ("already a counter" if c.name in seen else
                                                                          "a name of the round's end"),
               hint="give the counter a name of its own, e.g. `score`")
        seen.add(c.name)
    ready = False

    def gprog(text: str, *path) -> int:
        nonlocal ready
        try:
            program = compile_expr(text, gnames)
        except ExprError as exc:
            at("game", *path, message=str(exc), hint="see docs/insight-model.md (the game) for the names")
            return -1
        ready |= (GVAR, GAME_VARS["ready()"]) in program
        return progs.add(program)

    if "ready()" in "".join([game.carry, game.pot, game.dealer_stays, game.out, *game.rank,
                             *(c.after for c in game.counters), *(e.when for e in game.ends)]) \
            and not model.patterns and not model.melds:
        at("game", message="ready() needs the win test of `patterns` or `melds`",
           hint="add `patterns:` or `melds:` to insight.model, or remove ready()")
    out = {"after": [gprog(c.after, "counters", j, "after") for j, c in enumerate(game.counters)],
           "carry": gprog(game.carry, "carry"), "pot": gprog(game.pot, "pot"),
           "stays": gprog(game.dealer_stays, "dealer_stays"), "out": gprog(game.out, "out"),
           "ends": [gprog(e.when, "ends", i, "when") for i, e in enumerate(game.ends)],
           "rank": [gprog(r, "rank", i) for i, r in enumerate(game.rank)]}
    out["ready"] = ready
    return out


#: most kinds a `[a, b]` range of the model's own deck may make
MAX_DECK_ROWS = 512


def _model_decks(game: Game, model: GameModel, at) -> list[DealtDeck]:
    """``insight.model.deck`` (ranges expanded) dealt at every player count of the setup."""
    kinds = []
    for i, row in enumerate(model.deck):
        spans = {k: v for k, v in row.items() if isinstance(v, list)}
        bad = [k for k, v in spans.items() if len(v) != 2 or not all(isinstance(x, int) for x in v) or v[1] < v[0]]
        lengths = {v[1] - v[0] + 1 for k, v in spans.items() if k not in bad}
        count = row.get("count", 1)
        if bad or len(lengths) > 1 or not isinstance(count, int) or count < 0:
            at("deck", i, message="a range is written [first, last] (whole numbers, first ≤ last), ranges in one row "
                                  "have the same length, and `count` is a whole number",
               hint="e.g. `{kind: [1, 9], suit: 1, number: [1, 9], count: 4}`")
            continue
        n = lengths.pop() if lengths else 1
        if len(kinds) + n > MAX_DECK_ROWS:
            at("deck", i, message=f"the deck has more than {MAX_DECK_ROWS} kinds", hint="write fewer or shorter ranges")
            break
        for j in range(n):
            values = {k: (v[0] + j if isinstance(v, list) else v) for k, v in row.items() if k != "count"}
            kinds.append(Kind({"id": f"deck-{i + 1}-{j + 1}", **values}, count))
    hand = model.hand
    out = []
    for pc in game.manifest.setup.player_counts if game.manifest.setup else []:
        h = hand if hand is not None else pc.hand
        if h is None:
            at("hand", message="the model's deck needs a hand size", hint="add `hand: N` to insight.model")
            return []
        out.append(DealtDeck(pc.players, tuple(kinds), h, model.dead_wall, None))
    return out


def _neighbours(d: DealtDeck, model: GameModel, kinds: list[str], at) -> list[int]:
    """For melds(): per kind the kind of the next number in its suit, then of the previous one (−1 none; suit 0: none)."""
    where = {}
    for k in d.kinds:
        suit, number = _int(k.values.get(model.melds.suit)), _int(k.values.get(model.melds.number))
        if suit is None or number is None:
            at("melds", message=f"card {k.values.get('id')!r} has no whole-number {model.melds.suit!r} and "
                                f"{model.melds.number!r}", hint="name the suit and number columns under melds:")
            return [-1] * (2 * len(kinds))
        where[(suit, number)] = kinds.index(str(k.values.get(model.kind)))
    nxt, prv = [-1] * len(kinds), [-1] * len(kinds)
    for (suit, number), i in where.items():
        if suit > 0:
            nxt[i] = where.get((suit, number + 1), -1)
            prv[i] = where.get((suit, number - 1), -1)
    return nxt + prv


def _patterns(game: Game, model: GameModel, kinds: list[str], at) -> tuple[list[list[int]], list[int]]:
    """The base yaku of ``model.patterns`` as tile counts per kind (one row a pattern) and their points."""
    empty: tuple[list[list[int]], list[int]] = ([], [])
    if not model.patterns:
        return empty
    rows = game.tables.get(model.patterns)
    if rows is None:
        at("patterns", message=f"{model.patterns!r} is not a component with a card table",
           hint="name the yaku table's component id, e.g. `patterns: yaku`")
        return empty
    targets, points = [], []
    for r in rows:
        v = r.values
        pattern = str(v.get("tiles") or "").strip()
        if not pattern or v.get("bonus"):
            continue
        try:
            shapes = hands(pattern)
        except ValueError as exc:
            at("patterns", message=f"{model.patterns} → {v.get('id')} → tiles: {exc}")
            continue
        for h in shapes:
            c = Counter(h)
            unknown = [t for t in c if t not in kinds]
            if unknown:
                at("patterns", message=f"{model.patterns} → {v.get('id')}: {''.join(unknown)} is not a kind of the deck",
                   hint="kinds: " + ", ".join(kinds))
                break
            targets.append([c.get(k, 0) for k in kinds])
            points.append(int(v.get("points") or 0))
    return targets, points
