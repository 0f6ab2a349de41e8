"""Template texts and expressions evaluated against one reused jinja2 context per card
(cardgen.data.template_expr; issue 19: jinja2 copied its globals and the card's values into a new
context for each of a face's dozen texts and ``if:``s). The values, the errors and the isolation
between evaluations are jinja2's own: each result is compared with a fresh jinja2 render."""
from __future__ import annotations

import pytest
from jinja2 import TemplateError

from cardgen.data.template_expr import eval_expr, render_text, sandbox

CTX = {"card": {"name": "白翠鈴", "stage": 3, "draft": False, "kind": "pon", "points": 1000},
       "game": {"title": "天雀牌", "version": "draft 3"}, "design": {"undress_limit": 3}, "tables": {"c": [{"id": 1}]}}

TEXTS = ["{{ card.name }}", "スキル「{{ card.name }}」", "{{ card.stage }}/3", "{{ card.points | num }}",
         "{{ game.title }} {{ game.version }}", "{{ tables.c[0].id }}", "{{ card.draft }}", "plain"]
EXPRESSIONS = ["card.draft", "not (design.undress_limit is defined and card.stage >= design.undress_limit)",
               "card.kind in ['pon', 'chi']", "card.points // 3", "design.missing is defined", "tables.c | length"]


def _fresh_text(source, ctx):
    return sandbox().from_string(source).render(**ctx)


def _fresh_expr(source, ctx):
    return sandbox().compile_expression(source, undefined_to_none=False)(**ctx)


def test_every_text_and_expression_as_a_fresh_context_gives_it():
    for ctx in (CTX, {**CTX, "card": {**CTX["card"], "stage": 1, "draft": True}}):
        for _ in range(2):  # the second round reuses the context of the first
            for text, expr in zip(TEXTS, EXPRESSIONS + EXPRESSIONS):
                assert render_text(text, ctx) == _fresh_text(text, ctx)
                assert eval_expr(expr, ctx) == _fresh_expr(expr, ctx)


def test_one_evaluation_leaves_nothing_for_the_next():
    """An expression's ``result`` (the variable jinja2 stores it in) is not seen by the next one."""
    assert eval_expr("card.stage", CTX) == 3
    assert eval_expr("result is defined", CTX) is False
    assert render_text("{{ result is defined }}", CTX) == "False"


def test_a_changed_context_is_seen():
    """The same dict given other values (a caller reusing it) is evaluated with the new values."""
    ctx = dict(CTX)
    assert render_text("{{ card.name }}", ctx) == "白翠鈴"
    ctx["card"] = {"name": "楊彩雲"}
    assert render_text("{{ card.name }}", ctx) == "楊彩雲"
    ctx["extra"] = 5
    assert eval_expr("extra + 1", ctx) == 6


@pytest.mark.parametrize("source", ["{{ card.nme }}", "{{ card.name.upper.__self__ }}", "{{ 1 / 0 }}"])
def test_errors_are_jinjas_own(source):
    render_text("{{ card.name }}", CTX)  # a context to reuse
    with pytest.raises(Exception) as ours:
        render_text(source, CTX)
    with pytest.raises(Exception) as theirs:
        _fresh_text(source, CTX)
    assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)
    assert isinstance(ours.value, (TemplateError, ArithmeticError))


def test_threads_do_not_share_a_context():
    """Two threads evaluating against the same ``ctx`` at once (a library caller's threads) each
    read their own expression's result."""
    import sys
    import threading

    exprs = {"card.stage": 3, "card.kind": "pon"}
    results: dict[str, set] = {e: set() for e in exprs}
    start = threading.Barrier(2)

    def work(expr: str) -> None:
        start.wait()
        for _ in range(3000):
            try:
                results[expr].add(eval_expr(expr, CTX))
            except KeyError as exc:  # the other thread cleared this one's result
                results[expr].add(f"KeyError {exc}")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, inside an evaluation too
    try:
        threads = [threading.Thread(target=work, args=(e,)) for e in exprs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert results == {e: {want} for e, want in exprs.items()}
