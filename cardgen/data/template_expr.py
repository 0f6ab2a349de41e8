"""Template expressions: the one jinja2 sandbox of card templates (StrictUndefined: a template
reads the card's fields ``card.X``, the game ``game.title``… and the design constants
``design.X``, and nothing else — no files, no Python), compiled once per source, and evaluated.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardgen.core.sandbox import SafeSandbox, time_budget


@lru_cache(maxsize=1)
def sandbox() -> ImmutableSandboxedEnvironment:
    """The one jinja2 sandbox used for template expressions, with the filters ``num``
    (:mod:`cardgen.core.numfmt`: ``{{ card.points | num }}`` → ``1,000``) and ``nobreak``
    (:func:`cardgen.core.nobreak.nobreak`: the text is never broken across lines)."""
    from cardgen.core.nobreak import nobreak
    from cardgen.core.numfmt import FILTERS

    env = SafeSandbox(undefined=StrictUndefined, autoescape=False)
    env.filters.update(FILTERS, nobreak=nobreak)
    return env


@lru_cache(maxsize=4096)
def compile_text(source: str):
    """A template string (``"{{ card.name }}"``) compiled in :func:`sandbox`, cached by source.
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
    return compile_text(source).render(**ctx)


def eval_expr(source: str, ctx: dict[str, Any]) -> Any:
    """Evaluate an expression. Raises TemplateError/SecurityError (callers report them)."""
    return compile_expr(source)(**ctx)
