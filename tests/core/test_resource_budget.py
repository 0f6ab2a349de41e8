"""The resource-attack suite (issue 18): each way a game folder from a stranger tried to exhaust
the machine ends in a clean error (exit 1, one message naming the file and line or the game and
the limit, no traceback) in bounded time, under the default budget (4 GB, 120 s CPU) unless the
test names a lower one with --memory-limit / --cpu-limit to stay fast.

Most attacks are stopped by the cheap per-call guards of cardgen/core/sandbox.py before any
work is done; the last tests show the operating-system budget (cardgen/core/budget.py) holding
where no guard applies. The whole module runs in well under a minute on the 2-core machine.

Where the time went (measured at load ≈ 9 on the 2 cores): each in-process case forks a build
child, and every child parsed the IPAex fonts again (0.15 s of the 0.19 s CPU a case took), and
the CPU tests burnt their whole budget in fresh ``python -m cardgen`` processes. The fonts of the
base game are now registered once in the test process (:func:`_fonts_once`), so each forked child
inherits them, as the children of one ``cardgen build`` of several games would not — the child
still reads and checks the game's own fonts.yaml and every path in it; only the parse of the
system font files is shared. The CLI runs in its own process where that matters: the default
memory budget and the --memory-limit flag (a forked pytest process may already hold more address
space than a low limit allows)."""
from __future__ import annotations

import os
import time

import pytest
from click.testing import CliRunner

from attack_game import attack_game, run_cli
from cardgen.cli.commands import cli
from cardgen.core.budget import Budget, evaluating, run_limited
from cardgen.core.errors import CardgenError



@pytest.fixture(scope="module", autouse=True)
def _fonts_once():
    """Register the base game's fonts in this process before the first case forks its build child."""
    from attack_game import BASE
    from cardgen.data.game import load_game
    from cardgen.fonts.fontset import fonts_for

    fonts_for(load_game(BASE))


SLOW = "range(100000)|map('center', 99999)|map('replace', ' ', 'ab')|map('length')|sum"

#: attack → (where it goes, what the message says). Each is an example from issue 18.
ATTACKS = {
    "replace filter": (dict(text="{{ ('x'*2000)|replace('', 'x'*100000) }}"),
                       "card.yaml:22: error: elements → text → the template expression asks for too much"),
    "nested format width": (dict(text="{{ '{:{}}'.format(1,'999999999') }}"),
                            "asks for a width of 999,999,999 characters"),
    "%*d width": (dict(text="{{ '%*d' % (999999999,1) }}"), "999,999,999 items"),
    "int.to_bytes": (dict(text="{{ (1).to_bytes(999999999,'big') }}"), "999,999,999 items"),
    "expandtabs": (dict(text="{{ ('\t'*100000).expandtabs(100000) }}"), "10,000,000,000 items"),
    "indent": (dict(text="{{ ('x\n'*50000)|indent(100000) }}"), "5,000,100,000 items"),
    "map center": (dict(text="{{ range(100000)|map('center',100000)|list|length }}"),
                   "characters or items in all (at most 10,000,000"),
    "sum start list": (dict(text="{{ ([[1]*10]*10)|sum(start=[])|length }}"), "sum adds numbers"),
    "nested list repeat": (dict(text="{{ ([[1]*100000]*1000)|length }}"), "100,001,000 items"),
    "lipsum": (dict(text="{{ lipsum(100000, false, 100000, 100000) }}"), "'lipsum' is undefined"),
    "slow text": (dict(text="{{ " + SLOW + " }}"), "card.yaml:22: error: elements → text →"),
    "slow if": (dict(if_=SLOW + " > 0"), "card.yaml:22: error: elements → text →"),
    "slow derive": (dict(derive=SLOW), "game.yaml:22: error: setup → derive → turns →"),
    "slow rulebook value": (dict(values=SLOW), "game.yaml:23: error: rulebook → values → attack → too much asked"),
    "hands pattern": (dict(rule="hands('x999999999') | length > 0"),
                      "the repeat count 999999999 is too large (a hand has at most 1,000 tiles)"),
    "fonts.yaml billion laughs": (
        dict(fonts_yaml="a: &a ['x','x','x','x','x','x','x','x','x']\n"
             + "".join(f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefg", "bcdefgh"))
             + "body: IPAexGothic\n"),
        "fonts/fonts.yaml:2: error: YAML aliases (*name) are not supported"),
    "10 million cards": (dict(rows="".join(f"r{i},1,t,10000\n" for i in range(1000))),
                         "the table gives 10,000,006 cards, more than cardgen prints for one component (100,000)"),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_is_a_clean_error_in_bounded_time(name, tmp_path, monkeypatch):
    parts, expected = ATTACKS[name]
    attack_game(tmp_path, **parts)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDGEN_DEBUG", raising=False)
    start = time.monotonic()
    result = CliRunner().invoke(cli, ["build", "game", "--out", "out"])
    took = time.monotonic() - start
    output = result.output
    assert result.exit_code == 1, output
    assert expected in output
    assert "Traceback" not in output and "internal error" not in output
    assert not (tmp_path / "out" / "g").exists(), "a refused build writes nothing"
    assert took < 20, f"{name}: {took:.1f} s"


def test_long_explain_over_many_rows_is_cut(tmp_path, monkeypatch):
    """A long ``explain:`` over 600 failing rows printed 1.5 GB; each message now shows at most
    300 characters of it, and the rule's whole evaluation shares one size allowance."""
    rows = "".join(f"r{i},1,t,1\n" for i in range(600))
    game = attack_game(tmp_path, rule="false", explain="'x' * 99999", rows=rows)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["validate", str(game)])
    assert result.exit_code == 1
    assert len(result.output) < 1_000_000
    assert "… (99,999 characters, cut)" in result.output


def test_huge_text_cell_with_a_wide_size_range_is_laid_out_quickly(tmp_path, monkeypatch):
    """A 131,072-character cell in a box with ``size: 500, min_size: 1`` ran past 300 s: the
    sizes are now searched by halving (at most about 20 line breakings of the text)."""
    from cardgen.layout import text as text_mod

    calls = tmp_path / "calls"  # a line per call: the build runs in a budgeted child forked from here
    real = text_mod.compose_text  # each size fit_text tries is one composition of the text

    def counted(*a, **k):
        with calls.open("a") as fh:
            fh.write("1\n")
        return real(*a, **k)

    monkeypatch.setattr(text_mod, "compose_text", counted)
    template = {"elements": [{"kind": "text", "name": "text", "box": [6, 30, 51, 40], "text": "{{ card.text }}",
                              "font": "body", "size": 500, "min_size": 1}]}
    attack_game(tmp_path, rows="big,1," + "あ" * 131_072 + ",1\n", template=template)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["sheets", "game", "--out", "out", "--force"])
    assert "Traceback" not in result.output
    assert "big" in result.output and "does not fit" in result.output  # the overflow is reported
    n = len(calls.read_text().split())
    assert 0 < n <= 3 * 24, n  # three texts per face, each capped (counted in the child that laid them out)


def test_card_face_pixel_budget(tmp_path, monkeypatch):
    """A 600 mm card at 1200 dpi needs 8.6 GB for one face: refused before rendering."""
    attack_game(tmp_path, manifest={"print": {"card_size": {"width": 600, "height": 600}}})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["png", "game", "--out", "out", "--dpi", "1200", "--force"])
    assert result.exit_code == 1, result.output
    assert "would be 28,630 × 28,630 pixels, more than the limit of 100,000,000 per face" in result.output
    assert "use a lower --dpi" in result.output


# --- the operating-system budget, where no per-call guard applies -------------------------

LOOP = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
#: 100,000 turns of the same 99,999 characters (10 GB of text once joined): each step is within
#: the per-call limits, only the whole is too much — the operating-system budget stops it.
GROW = "{% set s = 'x' * 99999 %}{% for i in range(100000) %}{{ s }}{% endfor %}"


def test_cpu_budget_stops_a_build_naming_the_template_line(tmp_path, monkeypatch):
    game = attack_game(tmp_path, text=LOOP)
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    result = CliRunner().invoke(cli, ["build", str(game), "--out", str(tmp_path / "out"), "--cpu-limit", "1"])
    code, out, took = result.exit_code, result.output, time.monotonic() - start
    assert code == 1, out
    assert f"{game}: error: the build used more than 1 seconds of CPU time and was stopped while evaluating " \
           "game/templates/cards/card.yaml:22" in out
    assert "raise the budget with --cpu-limit SECONDS" in out
    assert "Traceback" not in out
    assert took < 30
    assert not (tmp_path / "out" / "g").exists()


def test_default_memory_budget_holds(tmp_path):
    """A template whose text grows to 10 GB under the default 4 GB budget: stopped cleanly,
    naming the template line."""
    game = attack_game(tmp_path, text=GROW)
    code, out, took = run_cli("build", str(game), "--out", str(tmp_path / "out"), cwd=tmp_path, timeout=120)
    assert code == 1, out
    assert "needed more than 4,096 MB of memory and was stopped while evaluating game/templates/cards/card.yaml:22" \
        in out, out
    assert "Traceback" not in out
    assert not (tmp_path / "out" / "g").exists()


def test_lower_memory_budget_by_flag(tmp_path):
    game = attack_game(tmp_path, text=GROW)
    code, out, _took = run_cli("validate", str(game), "--memory-limit", "1024", cwd=tmp_path)
    assert code == 1 and "needed more than 1,024 MB of memory" in out, out  # validate lays out every face too
    code, out, took = run_cli("sheets", str(game), "--out", str(tmp_path / "out"), "--memory-limit", "1024",
                              cwd=tmp_path, timeout=60)
    assert code == 1, out
    assert "needed more than 1,024 MB of memory" in out and "--memory-limit MB" in out
    assert took < 30


def test_budget_flags_are_checked():
    result = CliRunner().invoke(cli, ["build", "x", "--memory-limit", "10"])
    assert result.exit_code == 2 and "--memory-limit" in result.output


def test_run_limited_returns_values_and_exceptions_as_they_were():
    assert run_limited(lambda a, b=0: a + b, 2, b=3) == 5
    with pytest.raises(CardgenError) as err:
        run_limited(lambda: (_ for _ in ()).throw(CardgenError("bad input")))
    assert err.value.problems[0].message == "bad input"
    with pytest.raises(ZeroDivisionError):
        run_limited(lambda: 1 / 0)


def test_run_limited_memory_and_where():
    def hog():
        with evaluating("x.yaml:3"):
            return bytearray(2 * 1024 ** 3)
    with pytest.raises(CardgenError) as err:
        run_limited(hog, budget=Budget(memory_mb=512), game="g")
    p = err.value.problems[0]
    assert p.code == "memory-limit" and p.message.endswith("stopped while evaluating x.yaml:3")


def test_run_limited_cpu_in_c_code_is_killed_by_the_hard_limit():
    """``sum(range(10**12))`` never returns to Python, so the clean stop cannot run: the kernel's
    hard limit (here 1 + 1 s) kills the child and the parent still reports the CPU budget."""
    start = time.monotonic()
    with pytest.raises(CardgenError) as err:
        run_limited(sum, range(10 ** 12), budget=Budget(cpu_s=1, grace_s=1), game="g")
    assert err.value.problems[0].code == "cpu-limit"
    assert time.monotonic() - start < 90  # 6 s of CPU; wall time on a loaded 2-core machine


def test_the_memory_message_states_the_limit_in_force(tmp_path):
    """--memory-limit 8192 under a hard address-space limit of 2,048 MB (ulimit -v, a container):
    the child gets 2,048 MB, and the message says so (it said 8,192)."""
    import os
    import resource
    import subprocess
    import sys

    game = attack_game(tmp_path, text=GROW)
    hard = 2048 * 2**20
    env = {k: v for k, v in os.environ.items() if k != "CARDGEN_DEBUG"}
    done = subprocess.run([sys.executable, "-m", "cardgen", "validate", str(game), "--memory-limit", "8192"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (hard, hard)))
    assert done.returncode == 1, done.stderr
    assert "needed more than 2,048 MB of memory" in done.stderr, done.stderr
    assert "8,192" not in done.stderr


def _reporting(n: int) -> str:
    from cardgen.core.budget import send_event

    for k in range(n):
        send_event(("step", k, "x" * 100_000))  # larger than a pipe's buffer: the parent reads as they come
    return "done"


def test_a_child_hands_values_to_the_parent_while_it_runs():
    """``on_event``: what the child sends with send_event reaches the parent in order, before its
    result; send_event in a process without a parent listening does nothing."""
    got = []
    assert run_limited(_reporting, 3, on_event=got.append) == "done"
    assert [(kind, k, len(text)) for kind, k, text in got] == [("step", k, 100_000) for k in range(3)]
    assert run_limited(_reporting, 2) == "done"  # nobody listening: the child's events go nowhere
    _reporting(1)  # not in a child: a no-op


def _report_then_die() -> None:
    from cardgen.core.budget import send_event

    send_event("before")
    os._exit(3)


def test_events_sent_before_the_child_died_still_arrive():
    got = []
    with pytest.raises(CardgenError, match="ended unexpectedly"):
        run_limited(_report_then_die, on_event=got.append, game="g")
    assert got == ["before"]
