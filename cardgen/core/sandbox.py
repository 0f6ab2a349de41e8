"""The jinja2 sandbox every untrusted expression runs in, with resource limits.

jinja2's :class:`ImmutableSandboxedEnvironment` already refuses attributes starting with ``_``,
Python builtins and mutation, and caps ``range()`` at 100,000 items. That still lets an
expression or a rules file ask for gigabytes or hours in one step: ``'x' * 10**10``,
``9 ** 999 ** 999 ** 999`` (jinja2's ``**`` is left-associative), ``'%999999999d' % 1``,
``s.replace('', s)``, ``'-' | center(10**9)``, ``range(10**5) | join('x' * 10**5)``, or two nested
``{% for %}`` loops over 100,000 items. :class:`SafeSandbox` refuses each of these *before* the
work is done (a single C-level allocation cannot be interrupted), and :func:`time_budget` stops
what is left (loops, recursive macros) after :data:`MAX_SECONDS`. Violations raise
:class:`jinja2.exceptions.SecurityError`; callers report them as problems with ``file:line``.
"""
from __future__ import annotations

import math
import os
import re
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

from jinja2 import TemplateError, meta, nodes
from jinja2.compiler import CodeGenerator
from jinja2.exceptions import SecurityError, TemplateSyntaxError, UndefinedError
from jinja2.lexer import TOKEN_FLOAT, Token, TokenStream
from jinja2.parser import Parser
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter

from cardgen.core.size_guards import (
    MAX_EXPONENT,
    MAX_INT_BITS,
    MAX_SEQUENCE,
    SIZED_FILTERS,
    SIZED_METHODS,
    LimitError,
    check_format,
    check_join,
    check_replace,
    check_sizes,
    deep_len,
    guard_filter,
    guard_join,
    guard_sum,
    reset_allowance,
    spend,
    too_big,
)

#: CPU seconds one evaluation (a card's text, a design rule over a table, one rules file) may take.
MAX_SECONDS = 20.0

#: jinja2 globals a card game has no use for (``lipsum(10**5, …)`` builds megabytes of text).
_DROPPED_GLOBALS = ("lipsum", "cycler", "joiner")


class BudgetExceeded(LimitError):
    """An evaluation used more than :data:`MAX_SECONDS` of CPU time."""


#: A run of digits Python will not turn into an int (sys.get_int_max_str_digits(): 4,300 by default).
_LONG_NUMBER = re.compile(r"\d{4301,}")


def _finite_numbers(stream: TokenStream, name, filename) -> Iterator[Token]:
    """The tokens of ``stream``, refusing a float literal that is not finite (``1e400``)."""
    for token in stream:
        if token.type == TOKEN_FLOAT and not math.isfinite(token.value):
            raise TemplateSyntaxError(f"a number in it is too large to read (a decimal number is at most about "
                                      f"{sys.float_info.max:.1e})".replace("e+", "e"), token.lineno, name, filename)
        yield token


class _CountingCodeGenerator(CodeGenerator):
    """jinja2's code generator, with every ``~`` (string concatenation) counted against the
    evaluation's allowance (:func:`cardgen.core.size_guards.spend`) like a filter's result."""

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.concatenated(")
        super().visit_Concat(node, frame)
        self.write(")")


class SafeSandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox (no attribute starting with ``_``, no mutation of values, no
    Python builtins), plus limits on ``*``, ``**``, ``%``, size arguments of filters and string
    methods, and ``join`` (see the module doc). Violations raise
    :class:`jinja2.exceptions.SecurityError`."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _CountingCodeGenerator

    def _tokenize(self, source, name, filename=None, state=None):
        """jinja2 hook before every parse: a number literal of more than 4,300 digits is a syntax
        error (jinja's lexer reads it with int(), which Python refuses with a ValueError), and so is
        a decimal number too large for a float (``1e400`` reads as ``inf``, which jinja2 compiles
        to the name ``inf``: a NameError when the template runs)."""
        if _LONG_NUMBER.search(source):
            raise TemplateSyntaxError("a number in it is too long to read (more than 4,300 digits)", 1, name, filename)
        stream = super()._tokenize(source, name, filename, state)
        return TokenStream(_finite_numbers(stream, name, filename), name, filename)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in SIZED_FILTERS:
            if name in self.filters:
                self.filters[name] = guard_filter(self.filters[name], name)
        self.filters["join"] = guard_join(self.filters["join"])
        self.filters["sum"] = guard_sum(self.filters["sum"])
        for name in _DROPPED_GLOBALS:
            self.globals.pop(name, None)

    def unsafe_undefined(self, obj, attribute):
        """Refuse at once (jinja2 would return an undefined value and fail later, naming the
        wrong attribute)."""
        raise SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe")

    def concatenated(self, value):
        """What a ``~`` built, counted against the evaluation's allowance (LimitError past it)."""
        return spend(value)

    def call_binop(self, context, operator, left, right):
        """jinja2 hook for binary operators: ``**``, ``*`` and ``%`` raise LimitError before building a result
        past MAX_EXPONENT, MAX_INT_BITS or MAX_SEQUENCE; ``+`` of strings or lists is counted against
        the evaluation's allowance like a filter's result; other operators are jinja2's own."""
        if operator == "+":
            result = left + right
            return spend(result) if isinstance(result, (str, list, tuple)) else result
        if operator == "**":
            if isinstance(right, (int, float)) and not isinstance(right, bool) and abs(right) > MAX_EXPONENT:
                raise LimitError(f"the exponent {right!r} is too large (at most {MAX_EXPONENT})")
            if isinstance(left, int) and isinstance(right, int) and right > 0 and \
                    left.bit_length() * right > MAX_INT_BITS:
                raise LimitError(f"the power would have about {int(left.bit_length() * right * 0.30103):,} "
                                    f"digits (at most {int(MAX_INT_BITS * 0.30103):,})")
            return left ** right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and deep_len(seq) * n > MAX_SEQUENCE:
                    raise too_big(deep_len(seq) * n)
            return left * right
        if operator == "%":
            if isinstance(left, str):
                check_format(left)
                if "*" in left:  # '%*d' % (width, value): the widths come from the arguments
                    check_sizes(right if isinstance(right, tuple) else (right,), {})
            return spend(left % right)
        return super().call_binop(context, operator, left, right)  # pragma: no cover

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja2's signature)
        """jinja2 hook for every call: str/int methods that build big results have their size
        arguments checked first (LimitError), then jinja2's sandboxed call."""
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, (str, int)) and not isinstance(owner, bool):
            if name in SIZED_METHODS:
                check_sizes(args, kwargs)
                if name == "expandtabs" and isinstance(owner, str):
                    size = (args[0] if args else kwargs.get("tabsize", 8))
                    if isinstance(size, int) and owner.count("\t") * size > MAX_SEQUENCE * 100:
                        raise too_big(owner.count("\t") * size)
            elif name == "replace" and isinstance(owner, str) and len(args) >= 2:
                check_replace(owner, *args[:3])
            elif name == "join" and isinstance(owner, str) and args:
                args = (check_join(args[0], owner), *args[1:])
            return spend(super().call(__context, __obj, *args, **kwargs))
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value):
        """``'…'.format(…)`` and ``format_map``: every field's final format spec (nested ``{}``
        widths filled in) is checked before the field is formatted."""
        if super().wrap_str_format(value) is None:
            return None
        text: str = value.__self__
        formatter = _CheckedFormatter(self)
        is_map = value.__name__ == "format_map"

        def checked(*args, **kwargs):
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                args, kwargs = (), args[0]
            return spend(formatter.vformat(text, args, kwargs))
        return checked


class _CheckedFormatter(SandboxedFormatter):
    """jinja2's sandboxed ``str.format`` with each field's width checked once it is known."""

    def format_field(self, value, format_spec):
        check_format(format_spec)
        return super().format_field(value, format_spec)


@contextmanager
def time_budget(what: str, seconds: float | None = None) -> Iterator[None]:
    """Raise :class:`BudgetExceeded` inside the block when it has used more than ``seconds``
    (:data:`MAX_SECONDS`) of the process's CPU time — its own work, however busy the machine (a
    build beside a compile or a test run is not stopped early). Uses ``ITIMER_VIRTUAL`` /
    ``SIGVTALRM`` (apart from :class:`cardgen.core.file_clock.FileClock`'s ``ITIMER_PROF``): only
    in the main thread of a Unix process (elsewhere the block simply runs; the operating-system
    budget of the whole build still holds); an enclosing budget keeps counting (the inner one is
    nested in it)."""
    seconds = MAX_SECONDS if seconds is None else seconds
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    outer_left, _ = signal.getitimer(signal.ITIMER_VIRTUAL)
    if outer_left and outer_left <= seconds:  # an enclosing budget ends first: let it fire
        yield
        return

    def expired(_signum, _frame):
        raise BudgetExceeded(f"{what} used more than {seconds:g} seconds of CPU time and was stopped "
                             "(a loop or a recursive macro that does not end?)")

    start = os.times().user
    previous = signal.signal(signal.SIGVTALRM, expired)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        if outer_left:  # the enclosing budget goes on, less the CPU time spent here
            signal.setitimer(signal.ITIMER_VIRTUAL, max(outer_left - (os.times().user - start), 0.001))


@contextmanager
def evaluation(where: str, what: str = "the expression", timed: bool = True) -> Iterator[None]:
    """One untrusted evaluation at ``where`` (``file:line``): a fresh :data:`cardgen.core.size_guards.MAX_BUILT`
    allowance, ``where`` recorded for the build budget's messages (:func:`cardgen.core.budget.evaluating`),
    and (``timed``) :func:`time_budget` ``what`` — the cheap per-call guard; the operating-system
    budget of the whole build (:mod:`cardgen.core.budget`) is the guarantee."""
    from cardgen.core.budget import evaluating  # lazy: +11 ms of imports here (measured)

    reset_allowance()
    with evaluating(where):
        if timed:
            with time_budget(what):
                yield
        else:
            yield


_PLAIN = re.compile(r"^(?:[^{]|\{(?![{%#])|\{\{\s*[\w.]+\s*\}\})*$")


def is_plain(source: str) -> bool:
    """True when ``source`` only reads values (``{{ card.name }}`` and text): nothing in it can
    loop or build, so it needs no per-call guard."""
    return len(source) < 10_000 and bool(_PLAIN.match(source))


def is_bounded(expression: str) -> bool:
    """True when the bare ``expression`` (an element's ``if:`` or ``repeat:``, e.g.
    ``not (design.limit is defined and card.stage >= design.limit)``) can neither loop nor build:
    it only reads names, attributes and items, compares, tests (``is defined``), combines with
    ``and``/``or``/``not``/``… if … else …``, adds, subtracts or divides, and writes literal lists.
    No call, filter, ``*``, ``**``, ``%`` or ``~``: its work is bounded by the size of the card's
    data, so it needs no per-call guard (:func:`evaluation`). False for anything else, and for an
    expression that does not parse (its error is reported where it is compiled)."""
    if len(expression) >= 10_000:
        return False

    allowed = (nodes.Name, nodes.Const, nodes.Getattr, nodes.Getitem, nodes.Slice, nodes.Compare, nodes.Operand,
               nodes.And, nodes.Or, nodes.Not, nodes.CondExpr, nodes.List, nodes.Tuple, nodes.Neg, nodes.Pos,
               nodes.Add, nodes.Sub, nodes.Div, nodes.FloorDiv, nodes.Test)
    try:
        parser = Parser(_bounded_env(), expression, state="variable")
        tree = parser.parse_expression()
        if not parser.stream.eos:
            return False
    except Exception:  # noqa: BLE001 - any parse failure: not provably bounded
        return False
    todo = [tree]
    while todo:
        node = todo.pop()
        if not isinstance(node, allowed) or isinstance(node, nodes.Test) and (node.dyn_args or node.dyn_kwargs):
            return False
        todo.extend(node.iter_child_nodes())
    return True


_ENV: list = []


def _bounded_env() -> SafeSandbox:
    """A sandbox environment for parsing only (:func:`is_bounded`); made once."""
    if not _ENV:
        _ENV.append(SafeSandbox())
    return _ENV[0]


_NO_ATTRIBUTE = re.compile(r"has no attribute '([^']{1,100})'")


def field_list(fields: dict) -> tuple[list[str], str]:
    """A mapping's field names for a message, sorted (``_copies`` and other internal keys left
    out), and as one text of at most 200 characters."""
    keys = sorted(str(k) for k in fields if not str(k).startswith("_"))
    listed = ", ".join(keys)
    return keys, listed if len(listed) <= 200 else listed[:200] + "…"


def missing_name(exc: BaseException, names: dict | None, source: str = "") -> str | None:
    """For jinja2's "'dict object' has no attribute 'valeu'": which of ``names`` (the expression's
    context, e.g. ``{"card": {...}, "design": {...}}``) lacks the field, the closest field it has,
    and its fields — e.g. ``card has no field 'valeu'; did you mean 'value'? (card fields: count, id,
    value)``. ``source`` (the expression text) tells which name was read (``card.valeu``). None when
    the error is of another kind or no name lacks the field."""
    from cardgen.core.errors import did_you_mean  # lazy: +9 ms of imports here (measured)
    m = _NO_ATTRIBUTE.search(str(exc)) if isinstance(exc, UndefinedError) and names else None
    if not m:
        return None
    attr = m.group(1)
    owners = re.findall(r"\b(\w+)\s*\.\s*" + re.escape(attr) + r"\b", source) or list(names)
    for owner in owners:
        fields = names.get(owner)
        if isinstance(fields, dict) and attr not in fields:
            keys, listed = field_list(fields)
            return (f"{owner} has no field {attr!r}" + did_you_mean(attr, keys)
                    + f" ({owner} fields: {listed})")
    return None


def misread_names(env, sources: list[tuple[str | None, bool]], names: dict, list_names: bool = True) -> list[str]:
    """Every name the ``sources`` read that their context ``names`` lacks, in the words of
    :func:`missing_name` (``card has no field 'nuber'; did you mean 'number'? (card fields: …)``)
    or jinja2's (``'mx' is undefined``): evaluation stops at the first, so ``card.numbr +
    card.nuber`` would name numbr alone. ``sources``: (text, whole) pairs, a bare expression
    (``whole``) or a text with ``{{ }}``; ``names``: the context (``card``: its fields…). A field is
    checked only on a non-empty mapping of ``names`` the sources do not assign; ``env``'s globals
    are known names; ``list_names``: an undefined name's message lists the names there are.
    Raises TemplateSyntaxError for a source that cannot be read."""
    return [message for _line, message in misread_lines(env, sources, names, list_names)]


def misread_lines(env, sources: list[tuple[str | None, bool]], names: dict,
                  list_names: bool = True) -> list[tuple[int, str]]:
    """:func:`misread_names` with the line of each name's first use in its source (1-based)."""
    from cardgen.core.errors import did_you_mean  # lazy: +9 ms of imports here (measured)
    out: dict[str, int] = {}
    known = [*names, *env.globals]
    for source, whole in sources:
        if not source or (not whole and "{" not in source):
            continue
        tree = env.parse("{{ " + source + " }}" if whole else source)
        bound = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
        undefined = meta.find_undeclared_variables(tree) - set(known)
        first = {}
        for n in tree.find_all(nodes.Name):
            if n.name in undefined:
                first.setdefault(n.name, n.lineno)
        for name in sorted(undefined, key=lambda x: (first.get(x, 0), x)):
            listed = f" (names here: {', '.join(names)})" if list_names else ""
            out.setdefault(f"{name!r} is undefined{did_you_mean(name, known)}{listed}", first.get(name, 1))
        read = [(n.node.name, n.attr, n.lineno) for n in tree.find_all(nodes.Getattr) if isinstance(n.node, nodes.Name)]
        read += [(n.node.name, str(n.arg.value), n.lineno) for n in tree.find_all(nodes.Getitem)
                 if isinstance(n.node, nodes.Name) and isinstance(n.arg, nodes.Const)]
        for owner, attr, line in read:
            fields = names.get(owner)
            if owner in bound or not isinstance(fields, dict) or not fields or attr in fields or hasattr(dict, attr):
                continue
            keys, listed = field_list(fields)
            out.setdefault(f"{owner} has no field {attr!r}{did_you_mean(attr, keys)} ({owner} fields: {listed})", line)
    return [(line, message) for message, line in out.items()]


def expression_error(exc: BaseException, names: dict | None = None, source: str = "") -> str:
    """An evaluation failure of a designer's expression in words, at most 300 characters: the
    exception type is named where the text alone is unclear (``ZeroDivisionError: division by
    zero``), a recursion says so, a misspelt field names the closest one (:func:`missing_name`,
    given the expression's ``names`` and ``source``)."""
    if isinstance(exc, RecursionError):
        return "the expression calls itself without end (a recursive macro?)"
    named = missing_name(exc, names, source)
    if named:
        return named
    text = (str(exc).strip() or type(exc).__name__)
    if len(text) > 300:
        text = text[:300] + "…"
    if isinstance(exc, (TemplateError, TypeError, ValueError)):
        return text
    return f"{type(exc).__name__}: {text}"
