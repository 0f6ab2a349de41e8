"""What `cardgen simulate` says about its own wait: the first run compiles the interpreter (a
minute or two on a busy machine, silent when piped before), so one line says so on stderr even
when stderr is not a terminal; a compiled interpreter says nothing."""
from __future__ import annotations

from cardgen.cli import insight as cli_insight


def test_the_first_run_says_it_is_compiling_even_when_piped(monkeypatch, capsys):
    monkeypatch.setattr("cardgen.insight.api.interpreter_compiled", lambda: False)
    assert cli_insight._progress(100) is None  # stderr is not a terminal here: no bar
    assert capsys.readouterr().err == "compiling the simulator (first run only; a minute or two)…\n"


def test_a_compiled_interpreter_says_nothing(monkeypatch, capsys):
    monkeypatch.setattr("cardgen.insight.api.interpreter_compiled", lambda: True)
    cli_insight._progress(100)
    assert capsys.readouterr().err == ""


def test_compiled_is_read_from_numbas_cache_index(monkeypatch):
    """An empty index (none yet, or one numba found stale for this source) is "not compiled"."""
    from cardgen.insight import model_round as R
    from cardgen.insight.api import interpreter_compiled

    cache_file = R.play_many._cache._cache_file
    monkeypatch.setattr(cache_file, "_load_index", lambda: {})
    assert interpreter_compiled() is False
    monkeypatch.setattr(cache_file, "_load_index", lambda: {("sig", "target"): "entry"})
    assert interpreter_compiled() is True
