"""The rules validator: deck math per player count, declared counts, design rules, draft content.

Pure functions over a loaded :class:`cardgen.schema.Game`; they return a :class:`Report` and
never print. Deck math (DESIGN.md): ``deck − removed = players × hand + players × turns + dead_wall``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from statistics import mean
from typing import Any

from jinja2 import TemplateSyntaxError, Undefined
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardgen.errors import Problem, ProblemList
from cardgen.schema import CardRow, Game


@dataclass
class PlayerCountReport:
    """Deck math for one player count (all counts are cards)."""

    players: int
    deck: int  #: cards in the deck after removals
    removed: int
    hand: int
    dead_wall: int
    draw_pile: int  #: deck − players × hand − dead_wall
    turns: float | int | None  #: draw_pile / players, None when it does not split evenly
    declared_turns: int | None
    ok: bool
    arithmetic: str  #: the sum written out, for messages and the rulebook
    wins_per_round: int | None = None


@dataclass
class Report:
    """The validation report of one game (``cardgen validate --format json``)."""

    game: str
    title: str
    version: str
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    player_counts: list[PlayerCountReport] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "version": self.version,
            "ok": self.ok,
            "errors": [p.to_json() for p in self.errors],
            "warnings": [p.to_json() for p in self.warnings],
            "player_counts": [asdict(pc) for pc in self.player_counts],
            "components": self.components,
        }


def _env() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(undefined=_StrictUndefined)
    env.globals.update(RULE_HELPERS)
    return env


class _StrictUndefined(Undefined):
    def _fail(self, *args, **kwargs):
        raise UndefinedError(self._undefined_message)

    __bool__ = __eq__ = __ne__ = __lt__ = __gt__ = __le__ = __ge__ = __add__ = __radd__ = _fail
    __sub__ = __mul__ = __int__ = __float__ = __iter__ = __len__ = __str__ = _fail


def _values(cards, key: str) -> list:
    return [c[key] for c in cards]


def _mean_by(cards, key: str, value: str) -> list[float]:
    """Mean of ``value`` per distinct ``key``, ordered by key (rows weighted by their copies)."""
    groups: dict[Any, list] = {}
    for c in cards:
        groups.setdefault(c[key], []).extend([c[value]] * int(c.get("_copies", 1)))
    return [mean(groups[k]) for k in sorted(groups)]


def _total(cards, key: str) -> float:
    """Sum of ``key`` over all physical cards (rows × copies)."""
    return sum(c[key] * int(c.get("_copies", 1)) for c in cards)


def _count(cards) -> int:
    """Number of physical cards (rows × copies)."""
    return sum(int(c.get("_copies", 1)) for c in cards)


def _non_decreasing(seq) -> bool:
    seq = list(seq)
    return all(a <= b for a, b in zip(seq, seq[1:]))


#: Functions available inside design-rule expressions.
RULE_HELPERS = {
    "mean_by": _mean_by,
    "total": _total,
    "count": _count,
    "non_decreasing": _non_decreasing,
    "values": _values,
}


def _row_context(row: CardRow) -> dict[str, Any]:
    d = dict(row.values)
    d["_copies"] = row.quantity
    return d


def _deck_math(game: Game, problems: ProblemList) -> list[PlayerCountReport]:
    m = game.manifest
    if m.setup is None:
        return []
    src = game.source
    rows = game.tables.get(m.setup.deck, [])
    full = sum(r.quantity for r in rows)
    out = []
    for i, pc in enumerate(m.setup.player_counts):
        base = ("setup", "player_counts", i)
        removed = 0
        for j, rem in enumerate(pc.remove):
            matching = [r for r in rows if all(_same(r.values.get(k), v) for k, v in rem.where.items())]
            have = sum(r.quantity for r in matching)
            unknown = [k for k in rem.where if rows and k not in rows[0].values]
            want = have if rem.count == "all" else rem.count
            path = f"setup → player_counts → {pc.players} players → remove → {j + 1}"
            if unknown:
                problems.error(src.file, src.line(base + ("remove", j)), path,
                               f"the deck {m.setup.deck!r} has no column {unknown[0]!r}",
                               f"columns: {', '.join(rows[0].values)}", code="bad-removal")
            elif have < want or have == 0:
                problems.error(src.file, src.line(base + ("remove", j)), path,
                               f"removes {want} card(s) where {_where(rem.where)}, but the deck has {have}",
                               "remove only cards the deck has, or fix the `where` values", code="bad-removal")
            removed += min(want, have)
        deck = full - removed
        draw = deck - pc.players * pc.hand - pc.dead_wall
        turns: float | int | None
        even = pc.players > 0 and draw >= 0 and draw % pc.players == 0
        turns = draw // pc.players if even else (round(draw / pc.players, 3) if pc.players else None)
        declared = pc.turns
        arith = (f"{full} − {removed} removed = {deck} cards; " if removed else f"{deck} cards; ") + (
                 f"{deck} − {pc.players} × {pc.hand} (hands) − {pc.dead_wall} (dead wall) = {draw} to draw; "
                 f"{draw} ÷ {pc.players} players = {turns if even else draw / pc.players:g} turns each")
        ok = True
        where = src.line(base)
        label = f"setup → player_counts → {pc.players} players"
        if draw < 0:
            ok = False
            problems.error(src.file, where, label,
                           f"the deck is too small: {arith}",
                           "lower the hand size or the dead wall, or add cards", code="deck-math")
        elif not even:
            ok = False
            problems.error(src.file, where, label,
                           f"the draw pile does not split evenly: {arith}",
                           "change hand, dead wall or removals so the draw pile is a multiple of the player count",
                           code="deck-math")
        if declared is not None and even and turns != declared:
            ok = False
            need = pc.players * pc.hand + pc.players * declared + pc.dead_wall
            problems.error(src.file, src.line(base + ("turns",)) or where, f"{label} → turns",
                           f"declares {declared} turns but the deck gives {turns}: {arith}. "
                           f"{declared} turns need {pc.players} × {pc.hand} + {pc.players} × {declared} + "
                           f"{pc.dead_wall} = {need} cards, the deck has {deck}",
                           f"set turns to {turns}, or change the deck by {need - deck:+d} cards", code="turns-mismatch")
        if pc.wins_per_round is not None and pc.wins_per_round != pc.players - 1 and m.design.get("wins_per_round") == "players - 1":
            ok = False
            problems.error(src.file, src.line(base + ("wins_per_round",)), f"{label} → wins_per_round",
                           f"declares {pc.wins_per_round} wins per round but the rule gives {pc.players} − 1 = {pc.players - 1}",
                           f"set wins_per_round to {pc.players - 1}", code="wins-mismatch")
        out.append(PlayerCountReport(pc.players, deck, removed, pc.hand, pc.dead_wall, draw,
                                     turns if even else None, declared, ok, arith, pc.wins_per_round))
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, str):
        return str(a) == b
    if isinstance(b, (int, float)) and isinstance(a, str):
        return a == str(b)
    return a == b


def _where(where: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in where.items())


def _components(game: Game, problems: ProblemList) -> list[dict[str, Any]]:
    out = []
    src = game.source
    for i, c in enumerate(game.manifest.components):
        rows = game.tables.get(c.id, [])
        actual = sum(r.quantity for r in rows) if c.cards is not None else None
        entry = {"id": c.id, "name": c.name, "kind": c.kind, "declared": c.count, "count": actual}
        if c.count is not None and actual is not None and actual != c.count:
            problems.error(src.file, src.line(("components", i, "count")), f"components → {c.id} → count",
                           f"declares {c.count} pieces but the card table has {actual}",
                           f"fix the copies in the table or set count to {actual}", code="count-mismatch")
        draft_rows = [r for r in rows if r.values.get("draft") is True]
        if c.draft or draft_rows:
            n = sum(r.quantity for r in draft_rows) if draft_rows else (actual or 0)
            lines = sorted({r.line for r in draft_rows if r.line})
            problems.warning(draft_rows[0].file if draft_rows else src.file,
                             lines[0] if lines else src.line(("components", i)),
                             f"components → {c.id}",
                             f"{n} of {actual} pieces are draft content (placeholder text)",
                             "replace the draft text and set draft to false before a final print", code="draft")
        out.append(entry)
    return out


def _design_rules(game: Game, problems: ProblemList) -> None:
    env = _env()
    src = game.source
    for i, rule in enumerate(game.manifest.design_rules):
        rows = game.tables.get(rule.deck, [])
        where = src.line(("design_rules", i))
        label = f"design_rules → {rule.id}"
        try:
            check = env.compile_expression(rule.check, undefined_to_none=False)
            when = env.compile_expression(rule.when, undefined_to_none=False) if rule.when else None
        except TemplateSyntaxError as exc:
            problems.error(src.file, where, label, f"the expression cannot be read: {exc.message}",
                           "design rules use jinja2 expression syntax, e.g. `card.power == card.pon + card.chi`",
                           code="rule-syntax")
            continue
        try:
            if rule.scope == "deck":
                if not check(cards=[_row_context(r) for r in rows], design=game.manifest.design):
                    problems.error(src.file, where, label, f"the rule fails: {rule.description} ({rule.check})",
                                   "change the card table so the rule holds, or change the rule", code="design-rule")
                continue
            failing = []
            for r in rows:
                ctx = {"card": _row_context(r), "design": game.manifest.design}
                if when is not None and not when(**ctx):
                    continue
                if not check(**ctx):
                    failing.append(r)
            for r in failing:
                problems.error(r.file, r.line, f"{rule.deck} → {r.id}",
                               f"breaks the design rule {rule.id!r}: {rule.description} ({rule.check})",
                               f"fix this row of {r.file} or the rule in {src.file}", code="design-rule")
        except (UndefinedError, SecurityError, TypeError, ValueError, KeyError, ZeroDivisionError) as exc:
            problems.error(src.file, where, label, f"the rule cannot be evaluated: {exc}",
                           "name only columns the card table has (as card.COLUMN) and the helpers "
                           + ", ".join(RULE_HELPERS), code="rule-eval")


def validate(game: Game) -> Report:
    """Run every check on a loaded game.

    Returns:
        :class:`Report` with errors, warnings (including the loader's) and the deck math.
    """
    problems = ProblemList(list(game.problems))
    comps = _components(game, problems)
    counts = _deck_math(game, problems)
    _design_rules(game, problems)
    m = game.manifest
    return Report(m.game.id, m.game.title, m.game.version, problems.errors, problems.warnings, counts, comps)
