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
from jinja2.sandbox import ImmutableSandboxedEnvironment

#: Largest string or list an expression may build in one step (``*``, ``join``, ``center``…).
MAX_SEQUENCE = 100_000
#: Largest exponent for ``**``.
MAX_EXPONENT = 1_000
#: Largest integer an expression may build with ``**``, in bits (about 30,000 decimal digits).
MAX_INT_BITS = 100_000
#: Seconds one evaluation (a card's text, a design rule over a table, one rules file) may take.
MAX_SECONDS = 20.0

_NUMBER = re.compile(r"\d+")
#: Filters whose numeric arguments are sizes of what they build.
_SIZED_FILTERS = ("center", "indent", "wordwrap", "batch", "slice", "truncate", "format")
#: str methods whose numeric arguments are sizes of what they build.
_SIZED_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs"}


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
        if len(m.group()) > 6 and int(m.group()) > MAX_SEQUENCE:
            raise LimitError(f"the format {fmt[:40]!r} asks for a width of {int(m.group()):,} characters "
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


def _guard_filter(fn):
    """``fn`` (a jinja2 filter) with its arguments size-checked first; pass-context markers kept."""
    def guarded(*args, **kwargs):
        _check_sizes(args[1:], kwargs)  # args[0] is the value (or the eval context)
        return fn(*args, **kwargs)
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
                self.filters[name] = _guard_filter(self.filters[name])
        self.filters["join"] = _guard_join(self.filters["join"])

    def unsafe_undefined(self, obj, attribute):
        """Refuse at once (jinja2 would return an undefined value and fail later, naming the
        wrong attribute)."""
        raise SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe")

    def call_binop(self, context, operator, left, right):
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
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_SEQUENCE:
                    raise _too_big(len(seq) * n)
            return left * right
        if operator == "%":
            if isinstance(left, str):
                _check_format(left)
            return left % right
        return super().call_binop(context, operator, left, right)  # pragma: no cover

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja2's signature)
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, str):
            if name in _SIZED_METHODS:
                _check_sizes(args, kwargs)
            elif name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
                hits = owner.count(args[0]) if args[0] else len(owner) + 1
                if len(owner) + hits * len(args[1]) > MAX_SEQUENCE * 100:
                    raise _too_big(len(owner) + hits * len(args[1]))
            elif name == "join" and args:
                args = (_check_join(args[0], owner), *args[1:])
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value):
        """``'…'.format(…)`` and ``format_map``: refuse a width above MAX_SEQUENCE first."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        _check_format(value.__self__)

        def checked(*args, **kwargs):
            _check_sizes(args, kwargs)
            return wrapped(*args, **kwargs)
        return checked


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
