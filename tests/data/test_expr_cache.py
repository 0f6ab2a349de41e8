"""Compiled card-template texts on disk (cardgen.data.expr_cache): a stored code object is used only
for the same source under the same jinja2, Python and sandbox; it renders what a fresh compile
renders; a bad entry, a syntax error or CARDGEN_NO_CACHE=1 leaves nothing behind that is trusted."""
from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import TemplateSyntaxError

from cardgen.core import disk_cache
from cardgen.data import expr_cache
from cardgen.data.template_expr import compile_text, render_text, sandbox

SOURCE = "{{ card.name }}は{{ card.power | num }}点{% if card.pon %}（ポン）{% endif %}"
CTX = {"card": {"name": "李紅蓮", "power": 12000, "pon": True}}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    compile_text.cache_clear()
    yield Path(disk_cache.cache_dir()) / expr_cache.KIND
    compile_text.cache_clear()


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bin")) if folder.is_dir() else []


def _fresh(source: str):
    """compile_text as a new process meets it (nothing in memory)."""
    compile_text.cache_clear()
    return compile_text(source)


def test_second_compile_takes_the_stored_code_and_renders_the_same(cache, monkeypatch):
    first = _fresh(SOURCE).render(**CTX)
    assert len(_entries(cache)) == 1
    compiled = []
    real = type(sandbox()).compile
    monkeypatch.setattr(type(sandbox()), "compile", lambda self, *a, **k: compiled.append(a) or real(self, *a, **k))
    assert _fresh(SOURCE).render(**CTX) == first == "李紅蓮は12,000点（ポン）"
    assert compiled == []  # the code object came from the entry
    assert render_text(SOURCE, CTX) == first


def test_another_source_is_another_entry(cache):
    _fresh(SOURCE)
    assert _fresh(SOURCE + " ").render(**CTX) == "李紅蓮は12,000点（ポン） "
    assert len(_entries(cache)) == 2


def test_a_changed_sandbox_or_jinja2_gives_another_key(cache, monkeypatch):
    env = sandbox()
    salt = expr_cache._salt(env)
    expr_cache._salt.cache_clear()
    monkeypatch.setitem(env.filters, "shout", str.upper)  # a filter name known at compile time
    assert expr_cache._salt(env) != salt
    monkeypatch.delitem(env.filters, "shout")
    expr_cache._salt.cache_clear()
    import jinja2
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert expr_cache._salt(env) != salt
    expr_cache._salt.cache_clear()


def test_the_sandbox_code_is_in_the_key(cache, monkeypatch, tmp_path):
    pkg = tmp_path / "pkg"
    for name in expr_cache.SANDBOX_CODE:
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_bytes((expr_cache._PKG / name).read_bytes())
    monkeypatch.setattr(expr_cache, "_PKG", pkg)
    expr_cache._salt.cache_clear()
    salt = expr_cache._salt(sandbox())
    (pkg / "core" / "sandbox.py").write_bytes((pkg / "core" / "sandbox.py").read_bytes() + b"\n# changed\n")
    expr_cache._salt.cache_clear()
    assert expr_cache._salt(sandbox()) != salt
    expr_cache._salt.cache_clear()


def test_a_damaged_entry_is_compiled_again(cache):
    _fresh(SOURCE)
    (entry,) = _entries(cache)
    data = bytearray(entry.read_bytes())
    data[-5] ^= 0xFF  # inside the marshalled code: the entry's checksum no longer matches
    entry.write_bytes(bytes(data))
    assert _fresh(SOURCE).render(**CTX) == "李紅蓮は12,000点（ポン）"


def test_entry_of_a_foreign_python_format_is_not_used(cache, monkeypatch):
    """jinja2's bucket refuses a payload whose magic (bytecode format, Python version) differs."""
    _fresh(SOURCE)
    real_read = disk_cache.read
    monkeypatch.setattr(disk_cache, "read", lambda kind, key: b"not jinja2 bytecode" if kind == expr_cache.KIND
                        else real_read(kind, key))
    assert _fresh(SOURCE).render(**CTX) == "李紅蓮は12,000点（ポン）"


def test_syntax_error_is_raised_and_not_stored(cache):
    with pytest.raises(TemplateSyntaxError):
        _fresh("{{ card.name ")
    assert _entries(cache) == []


def test_no_cache_reads_and_writes_nothing(cache, monkeypatch):
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert _fresh(SOURCE).render(**CTX) == "李紅蓮は12,000点（ポン）"
    assert _entries(cache) == []


# --- expressions (compile_expression): if:, design rules, setup.derive, rulebook values ---------

EXPRESSIONS = [
    ("card.power == card.pon + card.chi", {"card": {"power": 3, "pon": 1, "chi": 2}}),
    ("players - 1", {"players": 4}),
    ("cards | map('string') | join(',') if cards else 'none'", {"cards": [1, 2]}),
    ("(a, b)", {"a": 1, "b": "二"}),
    ("card.name ~ '（' ~ card.title ~ '）'", {"card": {"name": "李紅蓮", "title": "炎掌"}}),
    ("missing_name", {}),
]


def _env(kind: str):
    from cardgen.check.design_rules import rule_env
    return sandbox() if kind == "sandbox" else rule_env()


def _value(call):
    from jinja2 import Undefined
    try:
        value = call()
        return ("undefined",) if isinstance(value, Undefined) else ("ok", value)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return ("raise", type(exc).__name__, str(exc))


@pytest.mark.parametrize("kind", ["sandbox", "rules"])
def test_a_cached_expression_answers_as_jinja2s_own_stored_or_not(cache, monkeypatch, kind):
    env = _env(kind)
    want = {(source, u): _value(lambda: env.compile_expression(source, u)(**ctx))
            for source, ctx in EXPRESSIONS for u in (False, True)}
    assert want[("missing_name", True)] == ("ok", None) and want[("missing_name", False)] == ("undefined",)
    for source, ctx in EXPRESSIONS:  # compiled and stored
        for u in (False, True):
            assert _value(lambda: expr_cache.compile_expression(env, source, u)(**ctx)) == want[(source, u)]
    assert len(_entries(cache)) == len(EXPRESSIONS)  # one per source: undefined_to_none acts at the call
    monkeypatch.setattr(type(env), "compile", lambda *a, **k: pytest.fail("compiled again instead of read"))
    for source, ctx in EXPRESSIONS:  # read back from the entries
        for u in (False, True):
            assert _value(lambda: expr_cache.compile_expression(env, source, u)(**ctx)) == want[(source, u)]
    assert len(_entries(cache)) == len(EXPRESSIONS)


@pytest.mark.parametrize("source", ["card.power ==", "a b", "1" * 5000, "{{ x }}", ""])
def test_an_expression_that_cannot_be_read_raises_as_jinja2_does_and_is_not_stored(cache, source):
    env = sandbox()
    with pytest.raises(TemplateSyntaxError) as theirs:
        env.compile_expression(source, False)
    with pytest.raises(TemplateSyntaxError) as ours:
        expr_cache.compile_expression(env, source, False)
    assert (ours.value.message, ours.value.lineno) == (theirs.value.message, theirs.value.lineno)
    assert _entries(cache) == []


def test_an_expression_and_a_card_text_of_the_same_words_are_two_entries(cache):
    assert _fresh("card.name").render(**CTX) == "card.name"
    assert expr_cache.compile_expression(sandbox(), "card.name", False)(**CTX) == "李紅蓮"
    assert len(_entries(cache)) == 2


def test_no_cache_compiles_expressions_without_entries(cache, monkeypatch):
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert expr_cache.compile_expression(sandbox(), "card.power * 2", False)(**CTX) == 24000
    assert _entries(cache) == []
