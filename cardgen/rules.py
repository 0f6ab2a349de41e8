"""The rules validator: deck math per player count, declared counts, design rules, draft content.

Pure functions over a loaded :class:`cardgen.schema.Game`; they return a :class:`Report` and
never print. Deck math (DESIGN.md): ``deck − removed = players × hand + players × turns + dead_wall``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from statistics import mean
from typing import Any

from jinja2 import TemplateError, TemplateSyntaxError, Undefined
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardgen.errors import Problem, ProblemList
from cardgen.multiset import any_fits, hands, unformable
from cardgen.schema import CardRow, Game
from cardgen.sandbox import LIMIT_HINT, BudgetExceeded, LimitError, SafeSandbox, time_budget


@dataclass
class PlayerCountReport:
    """Deck math for one player count (all counts are cards; None where the game has no dealt deck)."""

    players: int
    deck: int | None  #: cards in the deck after removals
    removed: int | None
    hand: int | None
    dead_wall: int | None
    draw_pile: int | None  #: deck − players × hand − dead_wall
    turns: float | int | None  #: draw_pile / players, None when it does not split evenly
    declared_turns: int | None
    ok: bool
    arithmetic: str  #: the sum written out, for messages and the rulebook
    wins_per_round: int | None = None
    derived: dict[str, Any] = field(default_factory=dict)  #: ``setup.derive`` values for this count


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
    env = SafeSandbox(undefined=_StrictUndefined)
    env.globals.update(RULE_HELPERS)
    return env


class _StrictUndefined(Undefined):
    def _fail(self, *args, **kwargs):
        raise UndefinedError(self._undefined_message)

    __bool__ = __eq__ = __ne__ = __lt__ = __gt__ = __le__ = __ge__ = __add__ = __radd__ = _fail
    __sub__ = __mul__ = __int__ = __float__ = __iter__ = __len__ = __str__ = _fail


def _values(cards, key: str) -> list:
    """The ``key`` column of every row, in table order (rows, not copies)."""
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
    """True when every value is ≤ the next, e.g. ``non_decreasing(mean_by(cards, 'number', 'power'))``."""
    seq = list(seq)
    return all(a <= b for a, b in zip(seq, seq[1:]))


def _dot(cards, a: str, b: str) -> float:
    """Sum over rows of ``row[a] × row[b]`` (rows, not copies), e.g. stick value × sticks per player."""
    return sum(c[a] * c[b] for c in cards)


def _supply(cards, key: str) -> dict:
    """Physical copies per value of ``key``, e.g. ``{"お": 2, "ん": 18}`` for a tile table."""
    out: dict = {}
    for c in cards:
        out[c[key]] = out.get(c[key], 0) + int(c.get("_copies", 1))
    return out


def _diff_counts(actual: dict, expected: dict) -> str:
    """Where two count tables differ, e.g. ``"3: 6 (expected 7)"``; "" when equal. Keys compare as
    text (YAML mapping keys are text: ``{1: 10}`` in a manifest has the key "1")."""
    a = {str(k): v for k, v in actual.items()}
    e = {str(k): v for k, v in expected.items()}
    keys = list(dict.fromkeys([*e, *a]))
    return ", ".join(f"{k}: {a.get(k, 0)} (expected {e.get(k, 0)})" for k in keys if a.get(k, 0) != e.get(k, 0))


#: Functions available inside design-rule expressions.
RULE_HELPERS = {
    "mean_by": _mean_by,
    "total": _total,
    "count": _count,
    "non_decreasing": _non_decreasing,
    "values": _values,
    "dot": _dot,
    "supply": _supply,
    "diff_counts": _diff_counts,
    "hands": hands,
    "any_fits": any_fits,
    "unformable": unformable,
}


def _row_context(row: CardRow) -> dict[str, Any]:
    d = dict(row.values)
    d["_copies"] = row.quantity
    return d


def _removed(game: Game, rows: list[CardRow], pc, base: tuple, problems: ProblemList) -> int:
    """Cards removed for one player count; bad removals are reported."""
    m, src = game.manifest, game.source
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
    return removed


def _derive(game: Game, pc, base: tuple, problems: ProblemList) -> tuple[dict[str, Any], bool]:
    """``setup.derive`` values for one player count, checked against what the count states."""
    m, src = game.manifest, game.source
    formulas = dict(m.setup.derive)
    if isinstance(m.design.get("wins_per_round"), str):  # older manifests: design.wins_per_round: "players - 1"
        formulas.setdefault("wins_per_round", m.design["wins_per_round"])
    out: dict[str, Any] = {}
    ok = True
    env = _env()
    label = f"setup → player_counts → {pc.players} players"
    for key, expr in formulas.items():
        try:
            value = env.compile_expression(expr, undefined_to_none=False)(players=pc.players, design=m.design)
        except (TemplateSyntaxError, UndefinedError, SecurityError, TypeError, ValueError, ZeroDivisionError) as exc:
            problems.error(src.file, src.line(("setup", "derive", key)), f"setup → derive → {key}",
                           f"the expression {expr!r} cannot be evaluated: {exc}",
                           "use `players`, `design.NAME`, numbers and + − × ÷, e.g. `players - 1`", code="derive-eval")
            ok = False
            continue
        out[key] = value
        stated = pc.values.get(key, getattr(pc, key, None) if key in type(pc).model_fields else None)
        if stated is not None and stated != value:
            ok = False
            shown = expr.replace("players", str(pc.players)).replace("*", "×").replace("-", "−")
            where = ("values", key) if key in pc.values else (key,)
            problems.error(src.file, src.line(base + where) or src.line(base), f"{label} → {key}",
                           f"states {key} = {stated}, but {expr} gives {shown} = {value}",
                           f"set {key} to {value}, or change setup → derive → {key}", code="derive-mismatch")
    return out, ok


def _deck_math(game: Game, problems: ProblemList) -> list[PlayerCountReport]:
    m = game.manifest
    if m.setup is None:
        return []
    src = game.source
    rows = game.tables.get(m.setup.deck, []) if m.setup.deck else []
    full = sum(r.quantity for r in rows)
    out = []
    for i, pc in enumerate(m.setup.player_counts):
        base = ("setup", "player_counts", i)
        derived, ok = _derive(game, pc, base, problems)
        wins = derived.get("wins_per_round", pc.wins_per_round)
        if m.setup.deck is None or pc.hand is None:
            out.append(PlayerCountReport(pc.players, None, None, pc.hand, pc.dead_wall, None, None, pc.turns, ok,
                                         "", wins, derived))
            continue
        removed = _removed(game, rows, pc, base, problems)
        deck = full - removed
        draw = deck - pc.players * pc.hand - pc.dead_wall
        turns: float | int | None
        even = pc.players > 0 and draw >= 0 and draw % pc.players == 0
        turns = draw // pc.players if even else (round(draw / pc.players, 3) if pc.players else None)
        declared = pc.turns
        arith = (f"{full} − {removed} removed = {deck} cards; " if removed else f"{deck} cards; ") + (
                 f"{deck} − {pc.players} × {pc.hand} (hands) − {pc.dead_wall} (dead wall) = {draw} to draw; "
                 f"{draw} ÷ {pc.players} players = {turns if even else draw / pc.players:g} turns each")
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
            diff = deck - need
            problems.error(src.file, src.line(base + ("turns",)) or where, f"{label} → turns",
                           f"declares {declared} turns per player, but the numbers give {turns}: {arith}. "
                           f"{declared} turns each need {pc.players} × {pc.hand} (hands) + {pc.players} × {declared} "
                           f"(turns) + {pc.dead_wall} (dead wall) = {need} cards; the deck has {deck} "
                           f"({abs(diff)} {'too many' if diff > 0 else 'too few'})",
                           f"set turns to {turns}, or " + (
                               f"use up the {diff} extra card(s): remove them from the deck, or add them to "
                               f"hands or the dead wall" if diff > 0 else
                               f"find {-diff} more card(s): add them to the deck, or take them from hands, "
                               f"the dead wall or the removals"),
                           code="turns-mismatch")
        out.append(PlayerCountReport(pc.players, deck, removed, pc.hand, pc.dead_wall, draw,
                                     turns if even else None, declared, ok, arith, wins, derived))
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
    tables = {cid: [_row_context(r) for r in rows] for cid, rows in game.tables.items()}
    design = game.manifest.design
    for i, rule in enumerate(game.manifest.design_rules):
        rows = game.tables.get(rule.deck, [])
        where = src.line(("design_rules", i))
        label = f"design_rules → {rule.id}"
        report = problems.error if rule.severity == "error" else problems.warning
        try:
            check = env.compile_expression(rule.check, undefined_to_none=False)
            when = env.compile_expression(rule.when, undefined_to_none=False) if rule.when else None
            explain = env.compile_expression(rule.explain, undefined_to_none=False) if rule.explain else None
        except (TemplateSyntaxError, RecursionError) as exc:
            problems.error(src.file, where, label, f"the expression cannot be read: {getattr(exc, 'message', None) or 'nested too deeply'}",
                           "design rules use jinja2 expression syntax, e.g. `card.power == card.pon + card.chi`",
                           code="rule-syntax")
            continue

        used = _card_columns(env, rule.when, rule.check)

        def why(ctx) -> str:
            if explain is None:
                return ""
            value = explain(**ctx)
            if isinstance(value, (list, tuple)):
                value = "; ".join(map(str, value))
            return f": {value}" if value not in (None, "") else ""

        try:
            with time_budget(f"the design rule {rule.id!r}"):
                if rule.scope == "deck":
                    ctx = {"cards": tables.get(rule.deck, []), "tables": tables, "design": design}
                    if not check(**ctx):
                        report(src.file, where, label, f"the rule fails: {rule.description} ({rule.check}){why(ctx)}",
                               "change the card table so the rule holds, or change the rule", code="design-rule")
                    continue
                for r in rows:
                    ctx = {"card": _row_context(r), "tables": tables, "design": design}
                    if when is not None and not when(**ctx):
                        continue
                    if not check(**ctx):
                        values = ", ".join(f"{k} = {_shown(v)}" for k, v in r.values.items() if k in used)
                        report(r.file, r.line, f"{rule.deck} → {r.id}",
                               f"breaks the design rule {rule.id!r}: {rule.description} ({rule.check}){why(ctx)}"
                               + (f"; this card has {values}" if values else ""),
                               f"fix this row of {r.file} or the rule in {src.file}", code="design-rule")
        except BudgetExceeded as exc:
            problems.error(src.file, where, label, str(exc),
                           "a rule should look at each card or the table once; simplify the expression",
                           code="rule-budget")
        except LimitError as exc:
            problems.error(src.file, where, label, f"the rule asks for too much: {exc}", LIMIT_HINT, code="rule-limit")
        except SecurityError as exc:
            problems.error(src.file, where, label, f"the rule uses something design rules may not touch: {exc}",
                           "a rule reads card.COLUMN, cards, tables.COMPONENT, design.NAME and the helpers "
                           + ", ".join(RULE_HELPERS) + "; nothing else is reachable", code="rule-sandbox")
        except Exception as exc:  # the expression is the designer's: any failure is a problem with the rule
            problems.error(src.file, where, label, f"the rule cannot be evaluated: {_exc_text(exc)}",
                           "name only columns the card table has (as card.COLUMN), tables.COMPONENT and the helpers "
                           + ", ".join(RULE_HELPERS), code="rule-eval")


def _card_columns(env, *exprs: str | None) -> set[str]:
    """Columns that the jinja2 expressions read as ``card.COLUMN`` or ``card['COLUMN']``."""
    from jinja2 import nodes

    cols: set[str] = set()
    for expr in exprs:
        if not expr:
            continue
        tree = env.parse("{{ " + expr + " }}")
        for n in tree.find_all(nodes.Getattr):
            if isinstance(n.node, nodes.Name) and n.node.name == "card":
                cols.add(n.attr)
        for n in tree.find_all(nodes.Getitem):
            if isinstance(n.node, nodes.Name) and n.node.name == "card" and isinstance(n.arg, nodes.Const):
                cols.add(str(n.arg.value))
    return cols


def _shown(value: Any) -> str:
    """A card value as the designer wrote it: numbers bare, booleans true/false, text as is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value not in (None, "") else "(empty)"


def _exc_text(exc: Exception) -> str:
    """An evaluation failure in words; the exception type is named where the text alone is unclear."""
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, (TemplateError, TypeError, ValueError)):
        return text
    return f"{type(exc).__name__}: {text}"


def _blank_rules(game: Game, problems: ProblemList) -> None:
    """A warning per rules file (``rules/*.md``) holding only whitespace: it adds nothing to the
    rulebook, usually by mistake. (When every file is empty the rulebook step fails instead.)"""
    from cardgen.errors import rel
    from cardgen.layout.rulebook_context import blank_rule_files

    rules_dir = game.root / "rules"
    if not rules_dir.is_dir():
        return
    for f in blank_rule_files(rules_dir):
        problems.warning(rel(f), None, "rulebook", f"the rules file {f.name} is empty: it adds nothing to the rulebook",
                         "write its rules in Markdown, or delete the file", code="empty-rules")


def validate(game: Game) -> Report:
    """Run every check on a loaded game.

    Returns:
        :class:`Report` with errors, warnings (including the loader's) and the deck math.
    """
    problems = ProblemList(list(game.problems))
    comps = _components(game, problems)
    counts = _deck_math(game, problems)
    _design_rules(game, problems)
    _blank_rules(game, problems)
    m = game.manifest
    return Report(m.game.id, m.game.title, m.game.version, problems.errors, problems.warnings, counts, comps)
