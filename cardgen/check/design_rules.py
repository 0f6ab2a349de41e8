"""Design rules: the manifest's ``design_rules`` checked card by card or over a whole deck.

Each rule is a jinja2 expression evaluated in the shared sandbox (:mod:`cardgen.core.sandbox`: time
and size limits) with ``card`` (one row, ``_copies`` = its quantity), ``cards`` (a deck's rows),
``tables``, ``design`` and the :data:`RULE_HELPERS`. A rule that fails, or cannot be read or
evaluated, is a problem at the rule's line (or at the row that breaks it). The same sandbox
(:func:`rule_env`) evaluates ``setup.derive`` in :mod:`cardgen.check.deck_math`.
"""
from __future__ import annotations

from statistics import mean
from typing import Any

from jinja2 import TemplateSyntaxError, Undefined, nodes
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardgen.check.multiset import any_fits, hands, unformable, unscored
from cardgen.core.errors import ProblemList
from cardgen.core.sandbox import BudgetExceeded, SafeSandbox, evaluation, expression_error, misread_names
from cardgen.core.size_guards import LIMIT_HINT, LimitError
from cardgen.data.card_rows import CardRow
from cardgen.data.game import Game


def rule_env() -> ImmutableSandboxedEnvironment:
    """A sandbox for rule expressions: undefined names fail loudly, :data:`RULE_HELPERS` are globals."""
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
    "unscored": unscored,
}


#: Longest ``explain`` text shown in one message (characters).
MAX_EXPLAIN = 300


def _row_context(row: CardRow) -> dict[str, Any]:
    d = dict(row.values)
    d["_copies"] = row.quantity
    return d


def check_design_rules(game: Game, problems: ProblemList) -> None:
    """Check every rule of ``game.manifest.design_rules``; failures go to ``problems`` as errors or
    warnings (the rule's ``severity``). Expression faults are errors (rule-syntax, rule-eval,
    rule-sandbox, rule-limit, rule-budget)."""
    env = rule_env()
    src = game.source
    tables = {cid: [_row_context(r) for r in rows] for cid, rows in game.tables.items()}
    design = game.manifest.design
    for i, rule in enumerate(game.manifest.design_rules):
        rows = game.tables.get(rule.deck, [])
        report = problems.error if rule.severity == "error" else problems.warning

        def at_rule(message: str, hint: str = "", code: str = "", severity: str = "error", i=i, key=None) -> None:
            problems.add(game.problem(("design_rules", i) + ((key,) if key else ()), message, hint, code, severity))

        compiled, unreadable = {}, False
        for key in ("check", "when", "explain"):  # each fault at the line of its own key
            text = getattr(rule, key)
            try:
                compiled[key] = env.compile_expression(text, undefined_to_none=False) if text else None
            except (TemplateSyntaxError, RecursionError) as exc:
                unreadable = True
                at_rule(f"the expression cannot be read: {getattr(exc, 'message', None) or 'nested too deeply'}",
                        "design rules use jinja2 expression syntax, e.g. `card.power == card.pon + card.chi`",
                        code="rule-syntax", key=key)
        if unreadable:
            continue
        names: dict[str, Any] = ({"cards": tables.get(rule.deck, [])} if rule.scope == "deck" else
                                 {"card": {k: None for r in rows for k in _row_context(r)}})
        names.update(tables=tables, design=design)
        # every misspelt name, each at its key's line, in the file's order
        misread = sorted(((src.line(("design_rules", i, key)) or 0, key, message)
                          for key in ("when", "check", "explain")
                          for message in misread_names(env, [(getattr(rule, key), True)], names)), key=lambda m: m[0])
        for _line, key, message in misread:
            at_rule(f"the rule cannot be evaluated: {message}",
                    "name only columns the card table has (as card.COLUMN), tables.COMPONENT and the helpers "
                    + ", ".join(RULE_HELPERS), code="rule-eval", key=key)
        if misread:
            continue
        check, when, explain = compiled["check"], compiled["when"], compiled["explain"]

        used = _card_columns(env, rule.when, rule.check)
        ctx: dict = {}

        def why(ctx) -> str:
            if explain is None:
                return ""
            value = explain(**ctx)
            if isinstance(value, (list, tuple)):
                value = "; ".join(map(str, value[:20])) + ("; …" if len(value) > 20 else "")
            value = "" if value is None else str(value)
            if len(value) > MAX_EXPLAIN:
                value = value[:MAX_EXPLAIN] + f"… ({len(value):,} characters, cut)"
            return f": {value}" if value else ""

        try:
            with evaluation(f"{src.file}:{src.line(('design_rules', i))}", f"the design rule {rule.id!r}"):
                if rule.scope == "deck":
                    ctx = {"cards": tables.get(rule.deck, []), "tables": tables, "design": design}
                    if not check(**ctx):
                        at_rule(f"the rule fails: {rule.description} ({rule.check}){why(ctx)}",
                                "change the card table so the rule holds, or change the rule", code="design-rule",
                                severity=rule.severity)
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
            at_rule(str(exc),
                    "a rule should look at each card or the table once; simplify the expression",
                    code="rule-budget")
        except LimitError as exc:
            at_rule(f"the rule asks for too much: {exc}", LIMIT_HINT, code="rule-limit")
        except SecurityError as exc:
            at_rule(f"the rule uses something design rules may not touch: {exc}",
                    "a rule reads card.COLUMN, cards, tables.COMPONENT, design.NAME and the helpers "
                    + ", ".join(RULE_HELPERS) + "; nothing else is reachable", code="rule-sandbox")
        except MemoryError:
            raise
        except Exception as exc:  # the expression is the designer's: any failure is a problem with the rule
            text_numbers = _text_numbers(env, rule, rows) if isinstance(exc, TypeError) and "'str'" in str(exc) else []
            at_rule(f"the rule cannot be evaluated: {expression_error(exc, ctx, ' '.join(filter(None, (rule.when, rule.check, rule.explain))))}",
                    (f"{', '.join(f'card.{c}' for c in text_numbers)} "
                     f"{'is' if len(text_numbers) == 1 else 'are'} text: the column has no type in the component's "
                     f"`fields:`, so its numbers are read as words; declare it, e.g. fields: "
                     f"{{{', '.join(f'{c}: int' for c in text_numbers)}}}") if text_numbers else
                    "name only columns the card table has (as card.COLUMN), tables.COMPONENT and the helpers "
                    + ", ".join(RULE_HELPERS), code="rule-eval", key="check")


def _text_numbers(env, rule, rows) -> list[str]:
    """The columns a rule reads as ``card.COLUMN`` whose cells are numbers written as text (the
    column has no type in ``fields:``): comparing one with a number fails."""
    read = _card_columns(env, rule.when, rule.check, rule.explain)
    return sorted(c for c in read if rows and all(
        isinstance(r.values.get(c), str) and r.values[c].strip().lstrip("-").isdigit() for r in rows))


def _card_columns(env, *exprs: str | None) -> set[str]:
    """Columns that the jinja2 expressions read as ``card.COLUMN`` or ``card['COLUMN']``."""
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

