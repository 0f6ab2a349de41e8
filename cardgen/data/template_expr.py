"""Template expressions: the one jinja2 sandbox of card templates (StrictUndefined: a template
reads the card's fields ``card.X``, the game ``game.title``… and the design constants
``design.X``, and nothing else — no files, no Python), compiled once per source, and evaluated.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardgen.core.nobreak import nobreak
from cardgen.core.numfmt import FILTERS
from cardgen.core.sandbox import SafeSandbox, time_budget


@lru_cache(maxsize=1)
def sandbox() -> ImmutableSandboxedEnvironment:
    """The one jinja2 sandbox used for template expressions, with the filters ``num``
    (:mod:`cardgen.core.numfmt`: ``{{ card.points | num }}`` → ``1,000``) and ``nobreak``
    (:func:`cardgen.core.nobreak.nobreak`: the text is never broken across lines)."""
    env = SafeSandbox(undefined=StrictUndefined, autoescape=False)
    env.filters.update(FILTERS, nobreak=nobreak)
    return env


@lru_cache(maxsize=4096)
def compile_text(source: str):
    """A template string (``"{{ card.name }}"``) compiled in :func:`sandbox`, cached by source in
    memory (jinja2's ``from_string``).
    Raises jinja2's TemplateSyntaxError (callers report it at the template line)."""
    return sandbox().from_string(source)


@lru_cache(maxsize=4096)
def compile_expr(source: str):
    """An expression (an element's ``if:``) compiled in :func:`sandbox`, cached by source;
    undefined names raise instead of giving None. Raises TemplateSyntaxError."""
    return sandbox().compile_expression(source, undefined_to_none=False)



def render_text(source: str, ctx: dict[str, Any]) -> str:
    """Evaluate a template string. Raises TemplateError/SecurityError (callers report them)."""
    if "{" not in source:
        return source
    if "{%" in source:  # statements can loop: stop them after MAX_SECONDS
        with time_budget("the template text"):
            return compile_text(source).render(**ctx)
    template = compile_text(source)
    return sandbox().concat(template.root_render_func(_context(template, ctx)))


def eval_expr(source: str, ctx: dict[str, Any]) -> Any:
    """Evaluate an expression. Raises TemplateError/SecurityError (callers report them)."""
    template = compile_expr(source)._template
    context = _context(template, ctx)
    for _ in template.root_render_func(context):
        pass
    return context.vars["result"]


#: Per thread, the jinja2 context of the last ``ctx`` evaluated: ``last`` = [ctx, a copy of it, the
#: context]. See :func:`_context`.
_LAST = threading.local()


def _context(template, ctx: dict[str, Any]):
    """The jinja2 context for evaluating ``template`` (an expression, or a text without
    statements) with ``ctx``: made once per ``ctx`` and reused while that dict holds the same values.

    jinja2's ``render`` and expression call build a new context (a copy of the sandbox's globals
    and of ``ctx``) every time; a card face evaluates a dozen texts and ``if:``s against one
    ``ctx``. Reuse is safe for these templates: all come from the one :func:`sandbox`, none has
    blocks, and none writes a variable but an expression's ``result``, which is cleared before
    each use (a later evaluation never sees an earlier one's). Errors are raised as jinja2 raises
    them (``render`` only rewrites their traceback). Each thread keeps its own."""
    last = getattr(_LAST, "last", None)
    if last is not None and last[0] is ctx and ctx == last[1]:  # values compared by identity first: cheap
        context = last[2]
        context.vars.clear()
        context.exported_vars.clear()
        return context
    context = template.new_context(dict(ctx))
    _LAST.last = [ctx, dict(ctx), context]
    return context
