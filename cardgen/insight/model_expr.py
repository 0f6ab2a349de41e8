"""The expressions of ``insight.model`` compiled to a small stack program (whole numbers), for the
numba interpreter of :mod:`cardgen.insight.model_round`.

The text is parsed by the standard library's :func:`ast.parse` (``mode="eval"``) and only the
node kinds below are accepted; nothing of it is ever run as Python. Vocabulary (the manifest's
words, docs/insight-model.md):

- whole numbers, ``true``/``false`` (``True``/``False``), a kind written as text (``'ん'``);
- ``card.X`` (plays, own-turn wins), ``discard.X`` and ``held.X`` (calls), ``discard.X`` and
  ``target.X`` (takes), ``discard.X`` (claims): a column of that card (``X`` = ``kind``, the ``value`` column, or one of
  ``columns``); ``max.X``: the deck's highest value of a column;
- ``river.sum``, ``river.count``, ``river.last``, ``chips``, ``turn``, ``players``, ``wall``,
  ``seat`` (0 = the dealer), ``down`` (the card is played face down), ``won`` (the player's wins
  this round);
- ``option.X``, ``design.X`` (whole numbers of the manifest, fixed when compiled);
- ``in_river(k)``, ``discarded(k)``, ``in_hand(k)`` (how many; ``k`` a kind: ``card.kind``, ``'ん'``, ``3``),
  ``wins()``, ``pattern_points()``, ``take_gain()``, ``not_in_river()``, ``melds()``, ``melds_pair()``, ``neighbours()``,
  ``min(a, b)``, ``max(a, b)``;
- in a game expression (``insight.model.game``, :meth:`Names.of_game`) instead: the round's end for
  one player (``GAME_VARS``: ``points``, ``winner``, ``dry``, ``top_river``, ``ready()``, ``pot`` …)
  and the game's counters, read from the game's state by ``GVAR``;
- ``+ - * // %``, unary ``-``, ``not``, ``and``, ``or``, comparisons (chained), ``a if c else b``.
"""
from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass, field

# opcodes (pairs: opcode, argument)
CONST, CARD, HELD, DISC, VAR, IN_RIVER, DISCARDED, WINS, PPOINTS, IN_HAND = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
ADD, SUB, MUL, FDIV, MOD, NEG, NOT, AND, OR = 10, 11, 12, 13, 14, 15, 16, 17, 18
LT, LE, GT, GE, EQ, NE, SELECT, MIN, MAX = 19, 20, 21, 22, 23, 24, 25, 26, 27
TAKE_GAIN, NOT_IN_RIVER, MELDS, NEAR, GVAR, MELDS_PAIR = 28, 29, 30, 31, 32, 33
#: bits of a program's ``uses``: what the interpreter works out before running it
USES_PATTERN, USES_TAKE, USES_FRESH, USES_MELDS, USES_NEAR, USES_MPAIR = 1, 2, 4, 8, 16, 32

#: The names of a game expression (``insight.model.game``), read at a round's end for one
#: player → column of the game's per-player state (model_round's ``G``); counters follow.
GAME_VARS = {"points": 0, "lost": 1, "round_points": 2, "won": 3, "winner": 4, "loser": 5, "tsumo": 6, "call": 7,
             "dry": 8, "dealer": 9, "seat": 10, "winner_seat": 11, "loser_seat": 12, "river.sum": 13, "chips": 14,
             "top_river": 15, "top_rivers": 16, "ready()": 17, "pot": 18, "pay": 19, "pot_won": 20, "round": 21,
             "moves": 22, "players": 23}
#: first column of the counters in G (at most 8), then their new values, then rank keys
G_COUNTERS = 24
G_WIDTH = G_COUNTERS + 8 + 8 + 4

#: ``river.X`` and plain names → VAR argument
VARS = {"river.sum": 0, "river.count": 1, "river.last": 2, "chips": 3, "turn": 4, "players": 5, "wall": 6, "seat": 7,
        "down": 8, "won": 9}
_BIN = {ast.Add: ADD, ast.Sub: SUB, ast.Mult: MUL, ast.FloorDiv: FDIV, ast.Mod: MOD}
_CMP = {ast.Lt: LT, ast.LtE: LE, ast.Gt: GT, ast.GtE: GE, ast.Eq: EQ, ast.NotEq: NE}
_CALLS = {"in_river": (IN_RIVER, 1), "discarded": (DISCARDED, 1), "in_hand": (IN_HAND, 1), "wins": (WINS, 0), "pattern_points": (PPOINTS, 0),
          "min": (MIN, 2), "max": (MAX, 2), "take_gain": (TAKE_GAIN, 0), "not_in_river": (NOT_IN_RIVER, 0),
          "melds": (MELDS, 0), "neighbours": (NEAR, 0), "melds_pair": (MELDS_PAIR, 0)}
#: the functions as the messages list them
FUNCTIONS = ", ".join(f"{f}({'k' if n == 1 and f not in ('min', 'max') else 'a, b' if n == 2 else ''})"
                      for f, (_, n) in _CALLS.items())
#: the functions of a game expression (``game:``)
GAME_FUNCTIONS = "ready(), min(a, b), max(a, b)"
#: the cards an expression may read, by where it stands (Names.heads): head → opcode
PLAY_HEADS = {"card": CARD}
CALL_HEADS = {"discard": DISC, "held": HELD}
TAKE_HEADS = {"discard": CARD, "target": HELD}
CLAIM_HEADS = {"discard": DISC}
#: The longest expression text read, and the most operations one may compile to.
MAX_TEXT, MAX_OPS = 500, 200  # a program's stack never holds more than MAX_OPS values


class ExprError(ValueError):
    """An expression that is not in the vocabulary (the message says what and what is allowed);
    ``messages``: every problem of the expression, one a part (``str()`` joins them)."""

    def __init__(self, message: "str | list[str]") -> None:
        self.messages = list(dict.fromkeys([message] if isinstance(message, str) else message))
        super().__init__("; ".join(self.messages))


@dataclass
class Names:
    """What an expression may name: card columns (name → index), kinds (text → index), options
    and design constants (whole numbers)."""

    columns: dict[str, int]
    kinds: dict[str, int]
    options: dict[str, int] = field(default_factory=dict)
    design: dict[str, int] = field(default_factory=dict)
    maxes: dict[str, int] = field(default_factory=dict)  #: ``max.X``: the deck's highest value of column X
    heads: dict[str, int] = field(default_factory=lambda: dict(PLAY_HEADS))  #: the cards named here
    game: dict[str, int] | None = None  #: a game expression: its names (GAME_VARS and counters) → G column

    def where(self, heads: dict[str, int]) -> "Names":
        """The same names for an expression that reads the cards ``heads``."""
        return Names(self.columns, self.kinds, self.options, self.design, self.maxes, dict(heads))

    def of_game(self, counters: list[str]) -> "Names":
        """The names of a game expression: the round's end for one player (GAME_VARS) and ``counters``."""
        return Names({}, self.kinds, self.options, self.design, {}, {},
                     {**GAME_VARS, **{c: G_COUNTERS + i for i, c in enumerate(counters)}})


def compile_expr(text: str, names: Names) -> list[tuple[int, int]]:
    """``text`` → the stack program (opcode, argument) pairs.

    Raises:
        ExprError: a syntax error, a name or construct outside the vocabulary, too long.
    """
    text = str(text).strip()
    if len(text) > MAX_TEXT:
        raise ExprError(f"the expression is longer than {MAX_TEXT} characters")
    try:
        tree = ast.parse(f"(\n{text}\n)", mode="eval")  # in brackets: a folded YAML text may break lines anywhere
    except SyntaxError as exc:
        raise ExprError(f"cannot read {text!r}: {exc.msg}") from None
    out: list[tuple[int, int]] = []
    errors: list[str] = []
    _emit(tree.body, names, out, errors)
    if errors:  # every problem of the expression at once
        raise ExprError(errors)
    if len(out) > MAX_OPS:
        raise ExprError(f"the expression has more than {MAX_OPS} operations")
    return out


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _emit(node: ast.AST, names: Names, out: list, errors: list[str]) -> None:
    """Append ``node``'s program to ``out``; a part outside the vocabulary is added to ``errors``
    (and read as 0), so that one pass finds every problem of the expression."""
    try:
        _emit_node(node, names, out, errors)
    except ExprError as exc:
        errors.extend(exc.messages)
        out.append((CONST, 0))


def _emit_node(node: ast.AST, names: Names, out: list, errors: list[str]) -> None:
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool) or isinstance(v, int):
            out.append((CONST, int(v)))
        elif isinstance(v, str):
            if v not in names.kinds:
                raise ExprError(f"{v!r} is not a kind of card; kinds: {', '.join(names.kinds)}")
            out.append((CONST, names.kinds[v]))
        else:
            raise ExprError(f"{v!r}: only whole numbers, true/false and kinds as text are allowed")
    elif isinstance(node, (ast.Name, ast.Attribute)):
        name = _dotted(node)
        if name is None:
            raise ExprError("only names such as card.number, river.sum, chips are allowed")
        head, _, rest = name.partition(".")
        if names.game is not None and name in names.game and not name.endswith("()"):
            out.append((GVAR, names.game[name]))
        elif names.game is not None and name in VARS:
            raise ExprError(_unknown(name, names))
        elif name in VARS:
            out.append((VAR, VARS[name]))
        elif head in names.heads and rest in names.columns:
            out.append((names.heads[head], names.columns[rest]))
        elif name in ("card", "held", "discard", "target") and names.heads:  # a card where a number is read
            raise ExprError(f"{name!r} is a card, not a number: write a column of a card this expression reads ("
                            + ", ".join(f"{h}.{c}" for h in names.heads for c in names.columns) + ")")
        elif head in ("card", "held", "discard", "target") and rest in names.columns:
            raise ExprError(f"{name!r} is not known here: this expression reads "
                            + " and ".join(f"{h}.X" for h in names.heads))
        elif head == "max" and rest in names.maxes:
            out.append((CONST, names.maxes[rest]))
        elif head == "option" and rest in names.options:
            out.append((CONST, names.options[rest]))
        elif head == "design" and rest in names.design:
            out.append((CONST, names.design[rest]))
        elif name in ("True", "False", "true", "false"):
            out.append((CONST, int(name in ("True", "true"))))
        else:
            raise ExprError(_unknown(name, names))
    elif isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        _emit(node.left, names, out, errors)
        _emit(node.right, names, out, errors)
        out.append((_BIN[type(node.op)], 0))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        _emit(node.operand, names, out, errors)
        out.append((NEG if isinstance(node.op, ast.USub) else NOT, 0))
    elif isinstance(node, ast.BoolOp):
        _emit(node.values[0], names, out, errors)
        for v in node.values[1:]:
            _emit(v, names, out, errors)
            out.append((AND if isinstance(node.op, ast.And) else OR, 0))
    elif isinstance(node, ast.Compare):
        left = node.left
        for k, (op, right) in enumerate(zip(node.ops, node.comparators)):
            if type(op) not in _CMP:
                raise ExprError("comparisons are < <= > >= == !=")
            _emit(left, names, out, errors)
            _emit(right, names, out, errors)
            out.append((_CMP[type(op)], 0))
            if k:
                out.append((AND, 0))
            left = right
    elif isinstance(node, ast.IfExp):
        _emit(node.test, names, out, errors)
        _emit(node.body, names, out, errors)
        _emit(node.orelse, names, out, errors)
        out.append((SELECT, 0))
    elif (names.game is not None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
          and f"{node.func.id}()" in names.game and not node.args and not node.keywords):
        out.append((GVAR, names.game[f"{node.func.id}()"]))  # ready(): worked out at the round's end
    elif (names.game is not None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
          and node.func.id not in ("min", "max")):
        raise ExprError(f"{node.func.id}() is not read in a game expression; these are: {GAME_FUNCTIONS}")
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS and not node.keywords:
        op, n = _CALLS[node.func.id]
        if len(node.args) != n:
            raise ExprError(f"{node.func.id}() takes {n} argument{'s' if n != 1 else ''}")
        for a in node.args:
            if op in (IN_RIVER, DISCARDED, IN_HAND) and isinstance(a, ast.Constant) and not isinstance(a.value, bool) \
                    and isinstance(a.value, int):
                a = ast.Constant(str(a.value))  # in_hand(3): the kind written 3 (the kind column's value)
            _emit(a, names, out, errors)
        out.append((op, 0))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in _CALLS:
        close = difflib.get_close_matches(node.func.id, list(_CALLS), 1, 0.6)
        raise ExprError(f"unknown function {node.func.id}()" + (f" (did you mean {close[0]}()?)" if close else "")
                        + "; functions: " + FUNCTIONS)
    else:
        raise ExprError(f"{ast.unparse(node)!r} is not in the model's vocabulary (docs/insight-model.md)")


def _unknown(name: str, names: Names) -> str:
    known = ([n for n in names.game if not n.endswith("()")] if names.game is not None else list(VARS))
    known = (known + [f"{h}.{c}" for h in names.heads for c in names.columns]
             + [f"max.{c}" for c in names.maxes] + [f"option.{o}" for o in names.options]
             + [f"design.{d}" for d in names.design])
    close = difflib.get_close_matches(name, known, 1, 0.6)
    return f"unknown name {name!r}" + (f" (did you mean {close[0]!r}?)" if close else "") + \
        "; names: " + ", ".join(known) + "; functions: " + (GAME_FUNCTIONS if names.game is not None else FUNCTIONS)


@dataclass
class Programs:
    """Every compiled expression of a model in one code array: program ``i`` is
    ``code[start[i]:start[i] + length[i]]``."""

    code: list[tuple[int, int]] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)

    def add(self, program: list[tuple[int, int]]) -> int:
        """Append a program; returns its index."""
        self.spans.append((len(self.code), len(program)))
        self.code.extend(program)
        return len(self.spans) - 1


_PY_BIN = {ADD: lambda x, y: x + y, SUB: lambda x, y: x - y, MUL: lambda x, y: x * y,
           FDIV: lambda x, y: x // y if y else 0, MOD: lambda x, y: x % y if y else 0,
           AND: lambda x, y: int(bool(x and y)), OR: lambda x, y: int(bool(x or y)), LT: lambda x, y: int(x < y),
           LE: lambda x, y: int(x <= y), GT: lambda x, y: int(x > y), GE: lambda x, y: int(x >= y),
           EQ: lambda x, y: int(x == y), NE: lambda x, y: int(x != y), MIN: min, MAX: max}


def constant(program: list[tuple[int, int]], players: int) -> int:
    """The value of a program that reads no card, hand or river (``turns``, a take's
    ``in_river``: numbers, ``players``, options and design constants), worked out here in Python:
    every other name reads 0."""
    stack: list[int] = []
    for op, a in program:
        if op == CONST:
            stack.append(a)
        elif op == VAR:
            stack.append(players if a == VARS["players"] else 0)
        elif op in (NEG, NOT):
            x = stack.pop()
            stack.append(-x if op == NEG else int(x == 0))
        elif op == SELECT:
            y, x, c = stack.pop(), stack.pop(), stack.pop()
            stack.append(x if c else y)
        elif op in _PY_BIN:
            y, x = stack.pop(), stack.pop()
            stack.append(_PY_BIN[op](x, y))
        else:
            stack.append(0)
    return stack[-1] if stack else 0
