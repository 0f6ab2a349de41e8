"""Exact odds of a dealt hand, computed from the card table (``insight.odds`` in game.yaml).

The hand is a uniformly random ``k``-card subset of the dealt deck (``k`` = hand + ``extra``).
Instead of walking card permutations or card ids, we walk the multisets of card *kinds*
(values of the ``by`` column): a multiset ``m`` with ``m_v ≤ n_v`` copies of each value ``v``
occurs in ``∏ C(n_v, m_v)`` of the ``C(N, k)`` equally likely hands (multivariate
hypergeometric). Every probability is kept as an exact integer count of hands over ``C(N, k)``.

Two kinds of odds (model: :class:`cardgen.data.manifest.OddsDeclaration`):

- ``pairs``: P(two or more cards share a value — a ron on a pair is possible), P(three of a
  kind), and per value P(holding at least one) and P(holding two or more).
- ``yaku``: P(the hand forms each yaku of a yaku table), P(any base yaku), the expected base
  points, and the expected total the dealer receives for a tsumo on the first draw per player
  count (payments from :mod:`cardgen.check.scoring`). Yaku shapes are the ``tiles`` column in the
  tile-pattern notation of :mod:`cardgen.check.multiset`; the hand forms a yaku when it *is* one of
  the pattern's multisets (the shapes use exactly ``win_tiles`` tiles).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import comb, prod
from typing import Any, Iterator

from cardgen.check.multiset import hands
from cardgen.check.scoring import PaymentRules, tsumo_share
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.game import Game
from cardgen.data.manifest import OddsDeclaration
from cardgen.insight.deck import DealtDeck, dealt_decks


def pct(p: float) -> str:
    """A probability as a percentage: ``40.73%``; below 0.1 % with three significant digits."""
    if p == 0:
        return "0%"
    return f"{p * 100:.2f}%" if p >= 0.001 else f"{p * 100:.3g}%"


def multisets(caps: list[int], k: int) -> Iterator[tuple[int, ...]]:
    """Every vector ``m`` with ``0 ≤ m_i ≤ caps[i]`` and ``Σ m_i = k``, in lexicographic order."""
    n = len(caps)
    rest = [sum(caps[i:]) for i in range(n + 1)]

    def walk(i: int, left: int, acc: tuple[int, ...]):
        if i == n:
            if left == 0:
                yield acc
            return
        for m in range(max(0, left - rest[i + 1]), min(caps[i], left) + 1):
            yield from walk(i + 1, left - m, acc + (m,))
    yield from walk(0, k, ())


def ways(caps: list[int], m: tuple[int, ...]) -> int:
    """Number of card-id subsets with exactly ``m[i]`` cards of kind ``i`` (∏ C(caps_i, m_i))."""
    return prod(comb(c, x) for c, x in zip(caps, m))


@dataclass
class Line:
    """One row of an odds table: exact count of hands out of ``total``."""

    key: str
    label: str
    hands: int
    total: int
    points: int | None = None

    @property
    def p(self) -> float:
        """The probability of this line: hands / total (0.0 when there are no hands)."""
        return self.hands / self.total if self.total else 0.0

    def to_json(self) -> dict[str, Any]:
        """This line as plain JSON (report.json and ``--format json``)."""
        out = {"key": self.key, "label": self.label, "hands": self.hands, "total": self.total, "p": self.p}
        if self.points is not None:
            out["points"] = self.points
        return out


@dataclass
class CountOdds:
    """The odds of one declaration at one player count."""

    players: int
    deck: int
    cards: int
    total: int  #: C(deck, cards): the number of equally likely hands
    lines: list[Line] = field(default_factory=list)
    per_value: list[dict[str, Any]] = field(default_factory=list)  #: pairs: value, p_one, p_two
    expected: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """This player count's odds as plain JSON."""
        return {"players": self.players, "deck": self.deck, "cards": self.cards, "total": self.total,
                "lines": [x.to_json() for x in self.lines], "per_value": self.per_value, "expected": self.expected}


@dataclass
class OddsResult:
    """One declaration's odds for every player count."""

    id: str
    kind: str
    label: str
    by: str
    counts: list[CountOdds]
    word: str = ""  #: the game's word for ``by`` (its ``terms``; ``number``: 数字)

    def to_json(self) -> dict[str, Any]:
        """This question's odds for every player count as plain JSON."""
        return {"id": self.id, "kind": self.kind, "label": self.label, "by": self.by,
                "player_counts": [c.to_json() for c in self.counts]}


def _problem(game: Game, i: int, key: str, message: str, hint: str) -> Problem:
    src = game.source
    return Problem(src.file, src.line(("insight", "odds", i, key)) or src.line(("insight", "odds", i)),
                   f"insight → odds → {i + 1} → {key}", message, hint, code="insight-odds")


def pair_odds(deck: DealtDeck, by: str, extra: int = 0, terms: dict | None = None, name: str = "name") -> CountOdds:
    """``pairs`` odds of a ``deck.hand + extra``-card hand (see the module docstring), labelled in
    the game's words (``terms``: the manifest's; ``by`` names the kind, ``pair`` what a pair is for).
    Each value's ``label`` is the kind's word and the value, with the cards' name (column ``name``)
    when every card of that value has the same one (種類 7（風）)."""
    terms = terms or {}
    word = kind_word(terms, by)
    names: dict[str, set] = {}
    for kind in deck.kinds:
        names.setdefault(str(kind.values.get(by)), set()).add(str(kind.values.get(name) or ""))
    groups = deck.grouped(by)
    values, caps = list(groups), list(groups.values())
    k = deck.hand + extra
    total = comb(deck.size, k)
    pair = triple = 0
    one = [0] * len(values)
    two = [0] * len(values)
    for m in multisets(caps, k):
        w = ways(caps, m)
        if max(m, default=0) >= 2:
            pair += w
        if max(m, default=0) >= 3:
            triple += w
        for i, x in enumerate(m):
            if x >= 1:
                one[i] += w
            if x >= 2:
                two[i] += w
    out = CountOdds(deck.players, deck.size, k, total,
                    [Line("pair", f"同じ{word}が2枚以上" + (f"（{terms['pair']}）" if terms.get("pair") else ""), pair, total),
                     Line("triple", f"同じ{word}が3枚以上", triple, total)])
    out.per_value = [{"value": v, "label": _value_label(word, v, names.get(str(v), set())),
                      "name": _shared_name(v, names.get(str(v), set())), "copies": c,
                      "p_one": one[i] / total, "p_two": two[i] / total, "hands_one": one[i], "hands_two": two[i]}
                     for i, (v, c) in enumerate(zip(values, caps))]
    return out


def _name_column(game: Game) -> str:
    """The setup deck's column of card names (its ``tts: name:``, else ``name``)."""
    comp = game.component(game.manifest.setup.deck) if game.manifest.setup else None
    tts = getattr(comp, "tts", None)
    return tts.name if tts is not None else "name"


def kind_word(terms: dict, by: str) -> str:
    """The game's word for the column ``by`` that makes cards alike (``terms``; ``number``: 数字)."""
    return terms.get(by, "数字" if by == "number" else by)


def _shared_name(value: Any, names: set) -> str:
    """The one name every card of ``value`` has (``風``), or ``""`` (none, several, or the value itself)."""
    one = next(iter(names)) if len(names) == 1 else ""
    return one if one != str(value) else ""


def _value_label(word: str, value: Any, names: set) -> str:
    """``種類 7（風）``: the kind's word and value, and the one name its cards share."""
    one = _shared_name(value, names)
    return f"{word} {value}" + (f"（{one}）" if one else "")


def _yaku_rows(game: Game, decl: OddsDeclaration, i: int) -> list[tuple[str, str, int, bool, set]]:
    """(id, name, points, bonus, set of sorted tile tuples) of each yaku with a shape."""
    rows = game.tables.get(decl.yaku or "", None)
    if rows is None:
        raise CardgenError(_problem(game, i, "yaku", f"{decl.yaku!r} is not a component with a card table",
                                    "name the yaku table's component id, e.g. `yaku: yaku`"))
    out = []
    for r in rows:
        v = r.values
        pattern = str(v.get("tiles") or "").strip()
        if not pattern:
            continue
        try:
            shapes = {tuple(sorted(h)) for h in hands(pattern)}
        except ValueError as exc:
            raise CardgenError(Problem(r.file, r.line, f"{decl.yaku} → {v.get('id')} → tiles", str(exc),
                                       "write the shape in the tile-pattern notation (see docs/manifest.md)",
                                       code="insight-odds"))
        out.append((str(v.get("id")), str(v.get("name", v.get("id"))), int(v.get("points") or 0),
                    bool(v.get("bonus")), shapes))
    return out


def yaku_odds(game: Game, deck: DealtDeck, decl: OddsDeclaration, i: int) -> CountOdds:
    """``yaku`` odds of a ``deck.hand + decl.extra``-tile hand (see the module docstring)."""
    yaku = _yaku_rows(game, decl, i)
    groups = deck.grouped(decl.by)
    values, caps = [str(v) for v in groups], list(groups.values())
    k = deck.hand + decl.extra
    total = comb(deck.size, k)
    hit = Counter()
    any_base = 0
    base_points = 0  # Σ ways × best base points
    scoring = dict(game.manifest.design.get("scoring") or {})
    try:
        rules = PaymentRules.from_design(scoring) if scoring else None
    except (ValueError, TypeError):
        rules = None
    dealer_total = 0
    for m in multisets(caps, k):
        key = tuple(sorted(v for v, x in zip(values, m) for _ in range(x)))
        matched = [y for y in yaku if key in y[4]]
        if not matched:
            continue
        w = ways(caps, m)
        for y in matched:
            hit[y[0]] += w
        base = [y[2] for y in matched if not y[3]]
        if base:
            any_base += w
            best = max(base)
            base_points += w * best
            if rules is not None and deck.players >= 2:
                dealer_total += w * tsumo_share(best, deck.players, rules, dealer_wins=True) * (deck.players - 1)
    out = CountOdds(deck.players, deck.size, k, total)
    for yid, name, pts, bonus, _ in yaku:
        out.lines.append(Line(yid, name + ("（ボーナス役）" if bonus else ""), hit[yid], total, pts))
    out.lines.append(Line("any", "いずれかの役（ボーナス役を除く）", any_base, total))
    out.expected = {"base_points": base_points / total}
    if rules is not None:
        out.expected["dealer_tsumo_total"] = dealer_total / total
    return out


def compute_odds(game: Game) -> list[OddsResult]:
    """Every ``insight.odds`` declaration of the manifest, for every player count.

    Raises:
        CardgenError: a declaration names a column the deck lacks or a missing yaku table
            (every problem at once, with the manifest line).
    """
    decls = game.manifest.insight.odds
    if not decls:
        return []
    decks = dealt_decks(game)
    problems = []
    deck_component = game.component(game.manifest.setup.deck)
    quantity = deck_component.quantity if deck_component is not None else "count"
    columns = {c for c in (decks[0].kinds[0].values if decks and decks[0].kinds else {}) if c != quantity}
    for i, d in enumerate(decls):
        if d.by not in columns:
            problems.append(_problem(game, i, "by", f"the deck {game.manifest.setup.deck!r} has no column {d.by!r}",
                                     "use one of: " + ", ".join(sorted(columns))))
        if d.kind == "yaku" and not d.yaku:
            problems.append(_problem(game, i, "yaku", "`kind: yaku` needs `yaku:` naming the yaku table",
                                     "add e.g. `yaku: yaku`"))
        for deck in decks:
            if deck.hand + d.extra > deck.size:
                problems.append(_problem(game, i, "extra", f"{deck.hand} + {d.extra} cards is more than the "
                                         f"{deck.size}-card deck of {deck.players} players", "lower `extra`"))
    if problems:
        raise CardgenError(problems)
    out = []
    for i, d in enumerate(decls):
        counts = [pair_odds(deck, d.by, d.extra, game.manifest.terms, _name_column(game)) if d.kind == "pairs"
                  else yaku_odds(game, deck, d, i) for deck in decks]
        out.append(OddsResult(d.id, d.kind, d.label or d.id, d.by, counts, kind_word(game.manifest.terms, d.by)))
    return out
