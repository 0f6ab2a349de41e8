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

import re
import signal
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter

#: Largest string or list an expression may build in one step (``*``, ``join``, ``center``…).
MAX_SEQUENCE = 100_000
#: Largest exponent for ``**``.
MAX_EXPONENT = 1_000
#: Largest integer an expression may build with ``**``, in bits (about 30,000 decimal digits).
MAX_INT_BITS = 100_000
#: Seconds one evaluation (a card's text, a design rule over a table, one rules file) may take.
MAX_SECONDS = 20.0

#: Characters (or items) all the filters and string methods of one evaluation may build
#: together: ``range(100000) | map('center', 100000)`` builds 100,000 texts, each allowed alone.
MAX_BUILT = MAX_SEQUENCE * 100

_NUMBER = re.compile(r"\d+")
#: Filters whose numeric arguments are sizes of what they build.
_SIZED_FILTERS = ("center", "indent", "wordwrap", "batch", "slice", "truncate", "format", "replace")
#: str / int methods whose numeric arguments are sizes of what they build.
_SIZED_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs", "to_bytes"}
#: jinja2 globals a card game has no use for (``lipsum(10**5, …)`` builds megabytes of text).
_DROPPED_GLOBALS = ("lipsum", "cycler", "joiner")

_built = [0]


def reset_allowance() -> None:
    """Start a new evaluation: what earlier ones built no longer counts against :data:`MAX_BUILT`."""
    _built[0] = 0


def _spend(result: Any) -> Any:
    """Count what a filter or string method built against :data:`MAX_BUILT`; returns ``result``."""
    if isinstance(result, (str, bytes, list, tuple)):
        _built[0] += len(result)
        if _built[0] > MAX_BUILT:
            total = _built[0]
            _built[0] = 0
            raise LimitError(f"the expression builds {total:,} characters or items in all "
                             f"(at most {MAX_BUILT:,} in one text, condition or rule)")
    return result


class LimitError(SecurityError):
    """An expression asked for more memory or time than the limits of this module allow."""


class BudgetExceeded(LimitError):
    """An evaluation ran longer than :data:`MAX_SECONDS`."""


#: The hint for a :class:`LimitError`.
LIMIT_HINT = ("keep numbers, strings and loops small: an expression may build at most "
              f"{MAX_SEQUENCE:,} items in one step (README → Security lists the limits)")


def _too_big(n: int) -> SecurityError:
    return LimitError(f"the expression would build a sequence of {n:,} items (at most {MAX_SEQUENCE:,})")


def _check_sizes(args, kwargs) -> None:
    """Refuse a numeric argument, or a number written in a format string, above MAX_SEQUENCE."""
    for a in (*args, *kwargs.values()):
        if isinstance(a, int) and not isinstance(a, bool) and abs(a) > MAX_SEQUENCE:
            raise _too_big(abs(a))
        if isinstance(a, str) and ("%" in a or "{" in a):
            _check_format(a)


def _check_format(fmt: str) -> None:
    for m in _NUMBER.finditer(fmt):
        digits = m.group()
        if len(digits) > 6 and (len(digits) > 18 or int(digits) > MAX_SEQUENCE):
            shown = f"{int(digits):,}" if len(digits) <= 18 else f"a {len(digits)}-digit number of"
            raise LimitError(f"the format {fmt[:40]!r} asks for a width of {shown} characters "
                             f"(at most {MAX_SEQUENCE:,})")


def _length(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple)) else len(str(value))


def _check_join(seq: Any, sep: Any) -> list | str | tuple:
    """The items of ``seq`` (a generator is read once: join the returned value), refused when
    the joined text would pass ``100 × MAX_SEQUENCE`` characters."""
    items = list(seq) if not isinstance(seq, (list, tuple, str)) else seq
    if len(items) > MAX_SEQUENCE:
        raise _too_big(len(items))
    total = max(len(items) - 1, 0) * _length(sep) + sum(_length(x) for x in items)
    if total > MAX_SEQUENCE * 100:  # text, not items: a rules page may join a long list
        raise LimitError(f"the expression would build a text of {total:,} characters "
                            f"(at most {MAX_SEQUENCE * 100:,})")
    return items


def _deep_len(seq: Any) -> int:
    """Items of ``seq`` counting one level of nested texts and lists (``[[1] * 10**5]`` is 100,001)."""
    return len(seq) + sum(len(x) for x in seq if isinstance(x, (str, list, tuple))) \
        if isinstance(seq, (list, tuple)) else len(seq)


def _check_replace(s: Any, old: Any, new: Any, count: Any = -1) -> None:
    """Refuse ``s.replace(old, new)`` when the result would pass ``100 × MAX_SEQUENCE`` characters."""
    s, old, new = str(s), str(old), str(new)
    hits = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        hits = min(hits, count)
    if len(s) + hits * len(new) > MAX_SEQUENCE * 100:
        raise _too_big(len(s) + hits * len(new))


def _check_filter(name: str, args: tuple, kwargs: dict) -> None:
    """Size checks of one filter call: numbers and formats (:func:`_check_sizes`), and what
    ``replace``, ``indent`` and ``sum`` would build. ``args[0]`` is the filtered value."""
    value, rest = (args[0], args[1:]) if args else (None, ())
    if name == "replace" and len(rest) >= 2:
        _check_replace(value, *rest[:3])
        return
    _check_sizes(rest, kwargs)
    if name == "indent":
        width = rest[0] if rest else kwargs.get("width", 4)
        size = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        lines = str(value).count("\n") + 1
        if size * lines > MAX_SEQUENCE * 100:
            raise _too_big(size * lines)


def _guard_sum(fn):
    def total(*args, **kwargs):
        start = kwargs.get("start", args[3] if len(args) > 3 else 0)
        if not isinstance(start, (int, float)) or isinstance(start, bool):
            raise LimitError("sum adds numbers; start it from a number (join texts with `join`)")
        return fn(*args, **kwargs)
    total.jinja_pass_arg = getattr(fn, "jinja_pass_arg", None)
    return total


def _guard_filter(fn, name: str = ""):
    """``fn`` (a jinja2 filter) with its arguments size-checked first and its result counted
    (:data:`MAX_BUILT`); pass-context markers kept."""
    passes_arg = getattr(fn, "jinja_pass_arg", None) is not None

    def guarded(*args, **kwargs):
        _check_filter(name, args[1:] if passes_arg else args, kwargs)  # args[0]: the context, if passed
        return _spend(fn(*args, **kwargs))
    guarded.__wrapped__ = fn
    for attr in ("jinja_pass_arg",):
        if hasattr(fn, attr):
            setattr(guarded, attr, getattr(fn, attr))
    return guarded


def _guard_join(fn):
    def join(eval_ctx, value, d="", attribute=None):
        items = _check_join(value, d)
        if attribute is not None:
            _check_join([getattr(v, attribute, "") if not isinstance(v, dict) else v.get(attribute, "")
                         for v in items], d)
        return fn(eval_ctx, items, d, attribute)
    join.jinja_pass_arg = fn.jinja_pass_arg
    return join


class SafeSandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox (no attribute starting with ``_``, no mutation of values, no
    Python builtins), plus limits on ``*``, ``**``, ``%``, size arguments of filters and string
    methods, and ``join`` (see the module doc). Violations raise
    :class:`jinja2.exceptions.SecurityError`."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in _SIZED_FILTERS:
            if name in self.filters:
                self.filters[name] = _guard_filter(self.filters[name], name)
        self.filters["join"] = _guard_join(self.filters["join"])
        self.filters["sum"] = _guard_sum(self.filters["sum"])
        for name in _DROPPED_GLOBALS:
            self.globals.pop(name, None)

    def unsafe_undefined(self, obj, attribute):
        """Refuse at once (jinja2 would return an undefined value and fail later, naming the
        wrong attribute)."""
        raise SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe")

    def call_binop(self, context, operator, left, right):
        """jinja2 hook for binary operators: ``**``, ``*`` and ``%`` raise LimitError before building a result
        past MAX_EXPONENT, MAX_INT_BITS or MAX_SEQUENCE; other operators are jinja2's own."""
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
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and _deep_len(seq) * n > MAX_SEQUENCE:
                    raise _too_big(_deep_len(seq) * n)
            return left * right
        if operator == "%":
            if isinstance(left, str):
                _check_format(left)
                if "*" in left:  # '%*d' % (width, value): the widths come from the arguments
                    _check_sizes(right if isinstance(right, tuple) else (right,), {})
            return _spend(left % right)
        return super().call_binop(context, operator, left, right)  # pragma: no cover

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja2's signature)
        """jinja2 hook for every call: str/int methods that build big results have their size
        arguments checked first (LimitError), then jinja2's sandboxed call."""
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, (str, int)) and not isinstance(owner, bool):
            if name in _SIZED_METHODS:
                _check_sizes(args, kwargs)
                if name == "expandtabs" and isinstance(owner, str):
                    size = (args[0] if args else kwargs.get("tabsize", 8))
                    if isinstance(size, int) and owner.count("\t") * size > MAX_SEQUENCE * 100:
                        raise _too_big(owner.count("\t") * size)
            elif name == "replace" and isinstance(owner, str) and len(args) >= 2:
                _check_replace(owner, *args[:3])
            elif name == "join" and isinstance(owner, str) and args:
                args = (_check_join(args[0], owner), *args[1:])
            return _spend(super().call(__context, __obj, *args, **kwargs))
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
            return _spend(formatter.vformat(text, args, kwargs))
        return checked


class _CheckedFormatter(SandboxedFormatter):
    """jinja2's sandboxed ``str.format`` with each field's width checked once it is known."""

    def format_field(self, value, format_spec):
        _check_format(format_spec)
        return super().format_field(value, format_spec)


@contextmanager
def time_budget(what: str, seconds: float | None = None) -> Iterator[None]:
    """Raise :class:`BudgetExceeded` inside the block when it runs longer than ``seconds``
    (:data:`MAX_SECONDS`). Uses ``SIGALRM``: only in the main thread of a Unix process (elsewhere
    the block simply runs); an enclosing budget keeps counting (the inner one is nested in it)."""
    seconds = MAX_SECONDS if seconds is None else seconds
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer_left and outer_left <= seconds:  # an enclosing budget ends first: let it fire
        yield
        return

    def expired(_signum, _frame):
        raise BudgetExceeded(f"{what} took longer than {seconds:g} seconds and was stopped "
                             "(a loop or a recursive macro that does not end?)")

    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:  # the enclosing budget goes on, less the time spent here
            signal.setitimer(signal.ITIMER_REAL, max(outer_left - (time.monotonic() - start), 0.001))


@contextmanager
def evaluation(where: str, what: str = "the expression", timed: bool = True) -> Iterator[None]:
    """One untrusted evaluation at ``where`` (``file:line``): a fresh :data:`MAX_BUILT`
    allowance, ``where`` recorded for the build budget's messages (:func:`cardgen.core.budget.evaluating`),
    and (``timed``) :func:`time_budget` ``what`` — the cheap per-call guard; the operating-system
    budget of the whole build (:mod:`cardgen.core.budget`) is the guarantee."""
    from cardgen.core.budget import evaluating

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


def expression_error(exc: BaseException) -> str:
    """An evaluation failure of a designer's expression in words, at most 300 characters: the
    exception type is named where the text alone is unclear (``ZeroDivisionError: division by
    zero``), a recursion says so."""
    if isinstance(exc, RecursionError):
        return "the expression calls itself without end (a recursive macro?)"
    text = (str(exc).strip() or type(exc).__name__)
    if len(text) > 300:
        text = text[:300] + "…"
    from jinja2 import TemplateError
    if isinstance(exc, (TemplateError, TypeError, ValueError)):
        return text
    return f"{type(exc).__name__}: {text}"
