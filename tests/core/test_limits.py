"""Resource limits and option ranges (docs/security.md): each refused input is one message
block, exit 1 or 2, no traceback, and is refused before the work is done (cardgen.core.sandbox)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner
from jinja2.exceptions import SecurityError

from cardgen.cli.commands import cli
from cardgen.data.template_expr import render_text, sandbox

REFUSED = [
    "9 ** 999 ** 999 ** 999",              # ** is left-associative: the exponent cap alone lets this through
    "'x' * 10 ** 9",
    "'%999999999d' % 1",
    "'{:>999999999}'.format(1)",
    "'{:>{}}'.format(1, 10 ** 9)",
    "'-' | center(10 ** 9)",
    "'a' | indent(10 ** 9)",
    "[1] | slice(10 ** 9) | list",
    "range(100000) | join('x' * 100000)",
    "'-'.join(range(100000) | map('string') | list) ~ ('ab' * 50000).replace('', 'ab' * 50000)",
    "'x'.ljust(10 ** 7)",
]


@pytest.mark.parametrize("expr", REFUSED)
def test_expression_limits_refuse_before_allocating(expr: str) -> None:
    with pytest.raises(SecurityError):
        sandbox().compile_expression(expr)()


@pytest.mark.parametrize("expr, want", [
    ("2 ** 10", 1024), ("'%5d' % 3", "    3"), ("'{:>4}'.format(7)", "   7"),
    ("range(5) | join('-')", "0-1-2-3-4"), ("'-'.join(range(3) | map('string'))", "0-1-2"),
    ("[{'a': 1}, {'a': 2}] | join(',', attribute='a')", "1,2"), ("'ab'.center(6)", "  ab  "),
])
def test_ordinary_expressions_still_work(expr: str, want) -> None:
    assert sandbox().compile_expression(expr)() == want


def test_a_template_loop_that_does_not_end_is_stopped(monkeypatch) -> None:
    from cardgen.core.sandbox import BudgetExceeded
    monkeypatch.setattr("cardgen.core.sandbox.MAX_SECONDS", 0.3)
    with pytest.raises(BudgetExceeded, match="used more than 0.3 seconds of CPU time"):
        render_text("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", {})


def test_the_budget_counts_cpu_time_not_time_on_the_clock() -> None:
    """A block that waits (a busy machine: the process gets no core) is not stopped; a block that
    computes is. 0.3 s of sleep: the shortest wait a wall-clock budget of 0.1 s would stop."""
    import time

    from cardgen.core.sandbox import BudgetExceeded, time_budget
    with time_budget("waiting", 0.1):
        time.sleep(0.3)
    with pytest.raises(BudgetExceeded, match="computing used more than 0.1 seconds of CPU time"):
        with time_budget("computing", 0.1):
            while True:
                pass


def test_an_inner_budget_leaves_the_outer_one_counting() -> None:
    import signal

    from cardgen.core.sandbox import BudgetExceeded, time_budget
    with pytest.raises(BudgetExceeded, match="outer"):
        with time_budget("outer", 0.2):
            with time_budget("inner", 5):
                pass
            assert 0 < signal.getitimer(signal.ITIMER_VIRTUAL)[0] <= 0.21  # the outer 0.2 s, to a timer tick
            while True:
                pass


def test_budget_restores_the_alarm() -> None:
    import signal

    from cardgen.core.sandbox import time_budget
    before = signal.getsignal(signal.SIGVTALRM)
    with time_budget("x", 5):
        pass
    assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGVTALRM) is before


BASE = "tests/fixtures/bad/_base"


@pytest.mark.parametrize("args, needle", [
    (["sheets", BASE, "--margin", "-5"], "'--margin': -5.0 is not in the range 0<=x<=50"),
    (["sheets", BASE, "--margin", "200"], "'--margin': 200.0 is not in the range 0<=x<=50"),
    (["sheets", BASE, "--margin", "nan"], "'--margin': 'nan' is not a number from 0 to 50"),
    (["png", BASE, "--dpi", "nan"], "'--dpi': 'nan' is not a number from 36 to 1200"),
    (["png", BASE, "--dpi", "0"], "'--dpi': 0.0 is not in the range 36<=x<=1200"),
    (["sheets", BASE, "--back-offset", "abc"], "--back-offset: error: wants two numbers in mm"),
    (["sheets", BASE, "--back-offset", "1000,0"], "--back-offset: error: '1000,0' is out of range"),
    (["calibration", BASE, "--back-offset", "nan,0"], "--back-offset: error: 'nan,0' is out of range"),
])
def test_option_out_of_range_is_a_usage_error(args, needle, tmp_path) -> None:
    result = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert needle in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_paper_name_is_case_insensitive(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["calibration", BASE, "--paper", "A4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "g" / "duplex-calibration.pdf").is_file()
