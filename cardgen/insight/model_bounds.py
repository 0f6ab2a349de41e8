"""Whether a compiled condition of ``insight.model`` can ever hold: the program of
:mod:`cardgen.insight.model_expr` evaluated over ranges of whole numbers (interval arithmetic)
instead of values — each card column between the deck's lowest and highest value, ``in_hand(k)``
at most the copies of ``k`` the deck has (and never more than the cards a hand holds),
``wins()`` false without base yaku and ``melds()`` without ``melds:`` or when no hand holds the
3 × sets + 2 cards it needs where it is tested, every other name between
what it can be. A condition whose range is exactly 0 is false in every
round (``tsumo.when: "in_hand(card.kind) >= 9"`` with 6 copies of each kind), which
``cardgen validate`` reports; anything it cannot decide counts as possible.
"""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.insight.model_expr import (ADD, AND, CARD, CONST, DISC, DISCARDED, EQ, FDIV, GE, GT, HELD, IN_HAND,
                                        IN_RIVER, LE, LT, MAX, MELDS, MELDS_PAIR, MIN, MOD, MUL, NE, NEAR, NEG, NOT,
                                        NOT_IN_RIVER, OR, SELECT, SUB, VAR, VARS, WINS)

INF = float("inf")
Range = tuple[float, float]
_ANY: Range = (-INF, INF)
_BOOL: Range = (0.0, 1.0)


@dataclass
class DeckBounds:
    """What the deck allows, over every player count: per attribute column (kind index, value,
    then the model's columns) the lowest and highest value, per kind its most copies, the most
    cards a hand holds (with the drawn card or the discard), and the player counts."""

    low: list[float]
    high: list[float]
    copies: list[int]
    hand: int
    players: tuple[int, int]
    deck: int
    patterns: bool = True  #: the model has base yaku to form (else `wins()` is always false)
    melds: bool = True  #: the model declares `melds:` (else `melds()` is always false)
    #: the cards `melds()` needs (3 × sets + 2), and how many a hand can hold (with the drawn card
    #: or the discard) where the condition is tested: `melds()` is false when none of them is that
    #: many (a 5-card hand and its drawn card never make 1 set and a pair); None: any number
    meld_cards: int = 0
    sizes: frozenset[int] | None = None

    @classmethod
    def of(cls, attrs: list, hands: list[int], players: list[int], width: int | None = None) -> "DeckBounds":
        """From the cards of each player count (one row a card: lists or a 2-D array), ``width``
        columns each (None: as many as a card row has)."""
        cols = width if width is not None else max((len(a[0]) for a in attrs if len(a)), default=0)
        low = [min(float(min(r[j] for r in a)) for a in attrs if len(a)) if any(len(a) for a in attrs) else 0.0
               for j in range(cols)]
        high = [max(float(max(r[j] for r in a)) for a in attrs if len(a)) if any(len(a) for a in attrs) else 0.0
                for j in range(cols)]
        nk = int(max((max(r[0] for r in a) for a in attrs if len(a)), default=-1)) + 1
        copies = [max((sum(1 for r in a if r[0] == k) for a in attrs), default=0) for k in range(nk)]
        return cls(low, high, copies, max(hands, default=0) + 1, (min(players, default=0), max(players, default=0)),
                   max((len(a) for a in attrs), default=0))


def _var(a: int, b: DeckBounds) -> Range:
    name = next(n for n, i in VARS.items() if i == a)
    return {"river.count": (0, b.deck), "turn": (1, max(b.deck, 1)), "players": b.players, "wall": (0, b.deck),
            "seat": (0, max(b.players[1] - 1, 0)), "down": _BOOL}.get(name, _ANY)


def _truth(r: Range) -> Range:
    """A value as a condition: (0, 0) never true, (1, 1) always, else (0, 1)."""
    if r == (0, 0):
        return (0, 0)
    if r[0] > 0 or r[1] < 0:
        return (1, 1)
    return _BOOL


def _mul(x: Range, y: Range) -> Range:
    products = [p for p in (x[0] * y[0], x[0] * y[1], x[1] * y[0], x[1] * y[1]) if p == p]  # inf × 0: nan
    return (min(products), max(products)) if len(products) == 4 else _ANY


def _binary(op: int, x: Range, y: Range) -> Range:
    if op == ADD:
        return (x[0] + y[0], x[1] + y[1])
    if op == SUB:
        return (x[0] - y[1], x[1] - y[0])
    if op == MUL:
        return _mul(x, y)
    if op in (MIN, MAX):
        f = min if op == MIN else max
        return (f(x[0], y[0]), f(x[1], y[1]))
    if op in (AND, OR):
        tx, ty = _truth(x), _truth(y)
        if op == AND:
            return (0, 0) if (0, 0) in (tx, ty) else (1, 1) if tx == ty == (1, 1) else _BOOL
        return (1, 1) if (1, 1) in (tx, ty) else (0, 0) if tx == ty == (0, 0) else _BOOL
    if op in (LT, LE, GT, GE, EQ, NE):
        if op in (GT, GE):
            x, y, op = y, x, LT if op == GT else LE
        if op == LT:
            return (1, 1) if x[1] < y[0] else (0, 0) if x[0] >= y[1] else _BOOL
        if op == LE:
            return (1, 1) if x[1] <= y[0] else (0, 0) if x[0] > y[1] else _BOOL
        same = x[0] == x[1] == y[0] == y[1]
        apart = x[1] < y[0] or y[1] < x[0]
        if op == EQ:
            return (1, 1) if same else (0, 0) if apart else _BOOL
        return (0, 0) if same else (1, 1) if apart else _BOOL
    return _ANY  # // and %: not followed


def value_range(program: list[tuple[int, int]], b: DeckBounds) -> Range:
    """The range of values ``program`` can take over every card, hand and round the deck allows."""
    stack: list[Range] = []
    for op, a in program:
        if op == CONST:
            stack.append((a, a))
        elif op in (CARD, HELD, DISC):
            stack.append((b.low[a], b.high[a]) if a < len(b.low) else _ANY)
        elif op == VAR:
            stack.append(_var(a, b))
        elif op == IN_HAND:
            k = stack.pop()
            kinds = range(len(b.copies)) if k[0] != k[1] else [int(k[0])] if 0 <= k[0] < len(b.copies) else []
            stack.append((0, min(max((b.copies[i] for i in kinds), default=0), b.hand)))
        elif op in (IN_RIVER, DISCARDED):
            stack.pop()
            stack.append(_BOOL)
        elif op == WINS:
            stack.append(_BOOL if b.patterns else (0, 0))
        elif op in (MELDS, MELDS_PAIR):
            stack.append(_BOOL if melds_possible(b) else (0, 0))
        elif op in (NOT_IN_RIVER, NEAR):
            stack.append((0, b.hand))
        elif op == NEG:
            x = stack.pop()
            stack.append((-x[1], -x[0]))
        elif op == NOT:
            t = _truth(stack.pop())
            stack.append((1 - t[1], 1 - t[0]))
        elif op == SELECT:
            y, x, c = stack.pop(), stack.pop(), stack.pop()
            t = _truth(c)
            stack.append(x if t == (1, 1) else y if t == (0, 0) else (min(x[0], y[0]), max(x[1], y[1])))
        elif op in (FDIV, MOD):
            stack.pop(), stack.pop()
            stack.append(_ANY)
        elif op in (ADD, SUB, MUL, MIN, MAX, AND, OR, LT, LE, GT, GE, EQ, NE):
            y, x = stack.pop(), stack.pop()
            stack.append(_binary(op, x, y))
        else:  # pattern_points(), take_gain(): anything
            stack.append(_ANY)
    return stack[-1] if stack else _ANY


def melds_possible(b: DeckBounds) -> bool:
    """Whether `melds()` (and `melds_pair()`) can be true: the model declares `melds:` and a hand
    can hold the cards they need where the condition is tested."""
    return b.melds and (b.sizes is None or b.meld_cards in b.sizes)


def never_holds(program: list[tuple[int, int]], b: DeckBounds) -> bool:
    """True when ``program``, read as a condition, is false for every card, hand and round."""
    return _truth(value_range(program, b)) == (0, 0)
