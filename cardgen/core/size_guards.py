"""Size guards for untrusted jinja2 expressions: what one step, and one evaluation in all, may build.

A single C-level allocation (``'x' * 10**10``, ``'%999999999d' % 1``, ``s.replace('', s)``) cannot
be interrupted once started, so each operator, filter and string method that builds something is
checked *before* it runs, against the limits below; what it built is counted (:func:`spend`) against
:data:`MAX_BUILT` for the whole evaluation. :class:`cardgen.core.sandbox.SafeSandbox` wires these
guards into jinja2; the operating-system budget (:mod:`cardgen.core.budget`) is the guarantee behind them.
"""
from __future__ import annotations

import re
from typing import Any

from jinja2.exceptions import SecurityError

#: Largest string or list an expression may build in one step (``*``, ``join``, ``center``…).
MAX_SEQUENCE = 100_000
#: Largest exponent for ``**``.
MAX_EXPONENT = 1_000
#: Largest integer an expression may build with ``**``, in bits (about 30,000 decimal digits).
MAX_INT_BITS = 100_000

#: Characters (or items) all the filters and string methods of one evaluation may build
#: together: ``range(100000) | map('center', 100000)`` builds 100,000 texts, each allowed alone.
MAX_BUILT = MAX_SEQUENCE * 100

_NUMBER = re.compile(r"\d+")
#: Filters whose numeric arguments are sizes of what they build.
SIZED_FILTERS = ("center", "indent", "wordwrap", "batch", "slice", "truncate", "format", "replace")
#: str / int methods whose numeric arguments are sizes of what they build.
SIZED_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs", "to_bytes"}

_built = [0]


def reset_allowance() -> None:
    """Start a new evaluation: what earlier ones built no longer counts against :data:`MAX_BUILT`."""
    _built[0] = 0


def spend(result: Any) -> Any:
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


#: The hint for a :class:`LimitError`.
LIMIT_HINT = ("keep numbers, strings and loops small: an expression may build at most "
              f"{MAX_SEQUENCE:,} items in one step (docs/security.md lists the limits)")


def too_big(n: int) -> SecurityError:
    """The LimitError for a sequence of ``n`` items (more than :data:`MAX_SEQUENCE`)."""
    return LimitError(f"the expression would build a sequence of {n:,} items (at most {MAX_SEQUENCE:,})")


def check_sizes(args, kwargs) -> None:
    """Refuse a numeric argument, or a number written in a format string, above MAX_SEQUENCE."""
    for a in (*args, *kwargs.values()):
        if isinstance(a, int) and not isinstance(a, bool) and abs(a) > MAX_SEQUENCE:
            raise too_big(abs(a))
        if isinstance(a, str) and ("%" in a or "{" in a):
            check_format(a)


def check_format(fmt: str) -> None:
    """Refuse a ``%``/``{}`` format string that writes a width or precision above MAX_SEQUENCE (LimitError)."""
    for m in _NUMBER.finditer(fmt):
        digits = m.group()
        if len(digits) > 6 and (len(digits) > 18 or int(digits) > MAX_SEQUENCE):
            shown = f"{int(digits):,}" if len(digits) <= 18 else f"a {len(digits)}-digit number of"
            raise LimitError(f"the format {fmt[:40]!r} asks for a width of {shown} characters "
                             f"(at most {MAX_SEQUENCE:,})")


def _length(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple)) else len(str(value))


def check_join(seq: Any, sep: Any) -> list | str | tuple:
    """The items of ``seq`` (a generator is read once: join the returned value), refused when
    the joined text would pass ``100 × MAX_SEQUENCE`` characters."""
    items = list(seq) if not isinstance(seq, (list, tuple, str)) else seq
    if len(items) > MAX_SEQUENCE:
        raise too_big(len(items))
    total = max(len(items) - 1, 0) * _length(sep) + sum(_length(x) for x in items)
    if total > MAX_SEQUENCE * 100:  # text, not items: a rules page may join a long list
        raise LimitError(f"the expression would build a text of {total:,} characters "
                            f"(at most {MAX_SEQUENCE * 100:,})")
    return items


def deep_len(seq: Any) -> int:
    """Items of ``seq`` counting one level of nested texts and lists (``[[1] * 10**5]`` is 100,001)."""
    return len(seq) + sum(len(x) for x in seq if isinstance(x, (str, list, tuple))) \
        if isinstance(seq, (list, tuple)) else len(seq)


def check_replace(s: Any, old: Any, new: Any, count: Any = -1) -> None:
    """Refuse ``s.replace(old, new)`` when the result would pass ``100 × MAX_SEQUENCE`` characters."""
    s, old, new = str(s), str(old), str(new)
    hits = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        hits = min(hits, count)
    if len(s) + hits * len(new) > MAX_SEQUENCE * 100:
        raise too_big(len(s) + hits * len(new))


def check_filter(name: str, args: tuple, kwargs: dict) -> None:
    """Size checks of one filter call: numbers and formats (:func:`check_sizes`), and what
    ``replace``, ``indent`` and ``sum`` would build. ``args[0]`` is the filtered value."""
    value, rest = (args[0], args[1:]) if args else (None, ())
    if name == "replace" and len(rest) >= 2:
        check_replace(value, *rest[:3])
        return
    check_sizes(rest, kwargs)
    if name == "indent":
        width = rest[0] if rest else kwargs.get("width", 4)
        size = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        lines = str(value).count("\n") + 1
        if size * lines > MAX_SEQUENCE * 100:
            raise too_big(size * lines)


def guard_sum(fn):
    """jinja2's ``sum`` filter, refusing a non-number ``start`` (``sum(start=[])`` concatenates lists without bound)."""
    def total(*args, **kwargs):
        start = kwargs.get("start", args[3] if len(args) > 3 else 0)
        if not isinstance(start, (int, float)) or isinstance(start, bool):
            raise LimitError("sum adds numbers; start it from a number (join texts with `join`)")
        return fn(*args, **kwargs)
    total.jinja_pass_arg = getattr(fn, "jinja_pass_arg", None)
    return total


def guard_filter(fn, name: str = ""):
    """``fn`` (a jinja2 filter) with its arguments size-checked first and its result counted
    (:data:`MAX_BUILT`); pass-context markers kept."""
    passes_arg = getattr(fn, "jinja_pass_arg", None) is not None

    def guarded(*args, **kwargs):
        check_filter(name, args[1:] if passes_arg else args, kwargs)  # args[0]: the context, if passed
        return spend(fn(*args, **kwargs))
    guarded.__wrapped__ = fn
    for attr in ("jinja_pass_arg",):
        if hasattr(fn, attr):
            setattr(guarded, attr, getattr(fn, attr))
    return guarded


def guard_join(fn):
    """jinja2's ``join`` filter with the joined size checked first (:func:`check_join`)."""
    def join(eval_ctx, value, d="", attribute=None):
        items = check_join(value, d)
        if attribute is not None:
            check_join([getattr(v, attribute, "") if not isinstance(v, dict) else v.get(attribute, "")
                         for v in items], d)
        return fn(eval_ctx, items, d, attribute)
    join.jinja_pass_arg = fn.jinja_pass_arg
    return join
