"""The rules validator: deck math per player count, declared counts, design rules, draft content.

Pure functions over a loaded :class:`cardgen.data.game.Game`; they return a :class:`Report` and
never print. Deck math (DESIGN.md): ``deck − removed = players × hand + players × turns + dead_wall``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from jinja2 import Undefined

from cardgen.check.design_rules import check_design_rules, rule_env
from cardgen.check.open_questions import check_open_questions
from cardgen.core.errors import CardgenError, Problem, ProblemList, rel
from cardgen.core.sandbox import evaluation, expression_error
from cardgen.data.card_rows import CardRow
from cardgen.data.game import Game
from cardgen.data.rulebook_sources import blank_rulebook_sources, rulebook_source_files


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


#: What each field of :class:`PlayerCountReport` means: the ``player_counts`` list of the rules
#: text has one mapping per player count with these keys (documented in docs/manifest.md).
PLAYER_COUNT_FIELDS: dict[str, str] = {
    "players": "the player count (`setup.player_counts[].players`)",
    "deck": "cards in play after the removals for this player count",
    "removed": "cards removed for this player count (`remove`), 0 when none",
    "hand": "cards dealt to each player (`hand`)",
    "dead_wall": "cards set aside face down that are never drawn (`dead_wall`, 王牌)",
    "draw_pile": "cards left to draw: deck − players × hand − dead_wall",
    "turns": "draws per player: draw_pile ÷ players; empty (none) when it does not split evenly",
    "declared_turns": "the `turns` the manifest declares for this player count (empty when not declared)",
    "ok": "true when the deck math of this player count adds up",
    "arithmetic": "the sum written out, e.g. `42 cards; 42 − 4 × 3 (hands) − 6 (dead wall) = 24 to draw; 24 ÷ 4 players = 6 turns each`",
    "wins_per_round": "wins possible in one round (`setup.derive.wins_per_round`, empty when not derived)",
    "derived": "every `setup.derive` value for this player count, by name",
}


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
        """True when there are no errors (warnings allowed)."""
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data (``cardgen validate --format json``); shapes in docs/ARCHITECTURE.md."""
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


def _removed(game: Game, rows: list[CardRow], pc, base: tuple, problems: ProblemList) -> int:
    """Cards removed for one player count; bad removals are reported."""
    m = game.manifest
    removed = 0
    for j, rem in enumerate(pc.remove):
        matching = removal_rows(rows, rem.where)
        have = sum(r.quantity for r in matching)
        unknown = [k for k in rem.where if rows and k not in rows[0].values]
        want = have if rem.count == "all" else rem.count
        if unknown:
            problems.add(game.problem(base + ("remove", j), f"the deck {m.setup.deck!r} has no column {unknown[0]!r}",
                                      f"columns: {', '.join(rows[0].values)}", code="bad-removal"))
        elif have == 0:
            # name what the deck has instead: the values of each column the `where` reads, in table order
            seen = {k: list(dict.fromkeys(str(r.values.get(k)) for r in rows)) for k in rem.where}
            hint = "; ".join(f"{k} is one of {', '.join(v[:12])}{' …' if len(v) > 12 else ''}" for k, v in seen.items())
            problems.add(game.problem(base + ("remove", j),
                                      f"no card of the deck {m.setup.deck!r} has {_where(rem.where)}, so nothing is removed",
                                      f"fix the `where` values ({hint})" if rows else
                                      "remove only cards the deck has", code="bad-removal"))
        elif have < want:
            problems.add(game.problem(base + ("remove", j),
                                      f"removes {want} card(s) where {_where(rem.where)}, but the deck has {have}",
                                      "remove only cards the deck has, or fix the `where` values", code="bad-removal"))
        removed += min(want, have)
    return removed


def _derive(game: Game, pc, base: tuple, problems: ProblemList) -> tuple[dict[str, Any], bool]:
    """``setup.derive`` values for one player count, checked against what the count states."""
    m = game.manifest
    formulas = dict(m.setup.derive)
    if isinstance(m.design.get("wins_per_round"), str):  # older manifests: design.wins_per_round: "players - 1"
        formulas.setdefault("wins_per_round", m.design["wins_per_round"])
    out: dict[str, Any] = {}
    ok = True
    env = rule_env()
    for key, expr in formulas.items():
        try:
            with evaluation(f"{game.manifest_file}:{game.line('setup', 'derive', key)}", f"setup → derive → {key}"):
                value = env.compile_expression(expr, undefined_to_none=False)(players=pc.players, design=m.design)
                if isinstance(value, Undefined):  # a bare unknown name ('A'): fail here, not at the comparison below
                    value._fail_with_undefined_error()
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001 - the expression is the designer's: any failure is a message
            problems.add(game.problem(("setup", "derive", key),
                                      f"the expression {expr[:200]!r} cannot be evaluated: {expression_error(exc)}",
                                      "use `players`, `design.NAME`, numbers and + − × ÷, e.g. `players - 1`",
                                      code="derive-eval"))
            ok = False
            continue
        out[key] = value
        stated = pc.values.get(key, getattr(pc, key, None) if key in type(pc).model_fields else None)
        if stated is not None and stated != value:
            ok = False
            shown = expr.replace("players", str(pc.players)).replace("*", "×").replace("-", "−")
            where = ("values", key) if key in pc.values else (key,)
            problems.add(game.problem(base + where, f"states {key} = {stated}, but {expr} gives {shown} = {value}",
                                      f"set {key} to {value}, or change setup → derive → {key}", code="derive-mismatch"))
    return out, ok


def _deck_math(game: Game, problems: ProblemList) -> list[PlayerCountReport]:
    m = game.manifest
    if m.setup is None:
        return []
    rows = game.tables.get(m.setup.deck, []) if m.setup.deck else []
    full = sum(r.quantity for r in rows)
    out = []
    words = {"hands": "hands", "dead_wall": "dead wall", "turns": "turns", **m.terms}
    has_wall = any(pc.dead_wall for pc in m.setup.player_counts)  # "dead wall" only where the game has one

    def wall(n: int, sign: str) -> str:  # named only where this player count sets one aside
        return f" {sign} {n} ({words['dead_wall']})" if n else ""
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
                 f"{deck} − {pc.players} × {pc.hand} ({words['hands']}){wall(pc.dead_wall, '−')} = {draw} to draw; "
                 f"{draw} ÷ {pc.players} players = " + (
                     f"{turns} turns each" if even else f"{draw / pc.players:g} turns each" if draw < 0 else
                     f"{draw // pc.players} turns each, {draw % pc.players} card(s) left over"))
        if draw < 0:
            ok = False
            problems.add(game.problem(base, f"the deck is too small: {arith}",
                                      "lower the hand size" + (f" or the {words['dead_wall']}" if has_wall else "")
                                      + ", or add cards", code="deck-math"))
        elif not even:
            ok = False
            problems.add(game.problem(base, f"the draw pile does not split evenly: {arith}",
                                      "change hand, " + (f"{words['dead_wall']} " if has_wall else "")
                                      + "or removals so the draw pile is a multiple of the "
                                      "player count", code="deck-math"))
        if declared is not None and even and turns != declared:
            ok = False
            need = pc.players * pc.hand + pc.players * declared + pc.dead_wall
            diff = deck - need
            problems.add(game.problem(base + ("turns",),
                           f"declares {declared} turns per player, but the numbers give {turns}: {arith}. "
                           f"{declared} turns each need {pc.players} × {pc.hand} ({words['hands']}) + {pc.players} × "
                           f"{declared} ({words['turns']}){wall(pc.dead_wall, '+')} = {need} cards; the deck has {deck} "
                           f"({abs(diff)} {'too many' if diff > 0 else 'too few'})",
                           f"set turns to {turns}, or " + (
                               f"use up the {diff} extra card(s): remove them from the deck, or add them to "
                               f"{words['hands']}" + (f" or the {words['dead_wall']}" if has_wall else "") if diff > 0 else
                               f"find {-diff} more card(s): add them to the deck, or take them from {words['hands']}, "
                               + (f"the {words['dead_wall']} " if has_wall else "") + "or the removals"),
                           code="turns-mismatch"))
        out.append(PlayerCountReport(pc.players, deck, removed, pc.hand, pc.dead_wall, draw,
                                     turns if even else None, declared, ok, arith, wins, derived))
    return out


def removal_rows(rows: list[CardRow], where: dict) -> list[CardRow]:
    """The card rows a ``setup.player_counts[].remove`` entry's ``where`` selects (a number in
    the table matches the same number written as text in the manifest, and back)."""
    return [r for r in rows if all(_same(r.values.get(k), v) for k, v in where.items())]


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
            hint = f"fix the copies in the table or set count to {actual}"
            if rows and c.quantity not in rows[0].values:  # no copies column: every row counted once
                hint = (f"the table has no {c.quantity!r} column, so each row counts as one card: name the column of "
                        f"copies {c.quantity!r}, or set `quantity:` to its name; else {hint}")
            problems.add(game.problem(("components", i, "count"), f"declares {c.count} pieces but the card table has {actual}",
                                      hint, code="count-mismatch"))
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


def _blank_rulebook_sources(game: Game, problems: ProblemList) -> None:
    """A warning per rules file (``rules/*.md``) holding only whitespace: it adds nothing to the
    rulebook, usually by mistake. (When every file is empty the rulebook step fails instead.)"""
    rules_dir = game.rules_dir
    if not rules_dir.is_dir():
        return
    try:
        rulebook_source_files(rules_dir, game.root)
    except CardgenError as exc:  # a rules folder or file leading outside the game folder
        for p in exc.problems:
            problems.add(p)
        return
    for f in blank_rulebook_sources(rules_dir):
        problems.warning(rel(f), None, "rulebook", f"the rules file {f.name} is empty: it adds nothing to the rulebook",
                         "write its rules in Markdown, or delete the file", code="empty-rules")


def _deprecated_keys(game: Game, problems: ProblemList) -> None:
    """A warning for each key an older manifest may still use (it keeps working)."""
    if isinstance(game.manifest.design.get("wins_per_round"), str):  # read by _derive as setup.derive
        problems.add(game.problem(("design", "wins_per_round"),
                                  "design.wins_per_round as an expression is an old spelling; it is read as "
                                  "setup → derive → wins_per_round",
                                  "move it: `setup: {derive: {wins_per_round: \"players - 1\"}}`",
                                  code="deprecated-key", severity="warning"))


def validate(game: Game) -> Report:
    """Run every check on a loaded game.

    Returns:
        :class:`Report` with errors, warnings (including the loader's) and the deck math.
    """
    problems = ProblemList(list(game.problems))
    _deprecated_keys(game, problems)
    comps = _components(game, problems)
    counts = _deck_math(game, problems)
    check_design_rules(game, problems)
    _blank_rulebook_sources(game, problems)
    check_open_questions(game, problems)
    m = game.manifest
    return Report(m.game.id, m.game.title, m.game.version, problems.errors, problems.warnings, counts, comps)
