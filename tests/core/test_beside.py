"""A function run in a forked process beside this one (cardgen.core.beside.Beside): its value or its
exception comes back, a process that died or took too long is a BesideFailed, and it is reaped."""
from __future__ import annotations

import os
import time

import pytest

from cardgen.core.beside import Beside, BesideFailed
from cardgen.core.budget import run_limited
from cardgen.core.errors import CardgenError, Problem


def _pid_and(x):
    return os.getpid(), x


def _raise():
    raise CardgenError(Problem("f.md", 3, "", "bad rules", "fix it", code="x"))


def _sleep():
    time.sleep(30)


def test_the_value_comes_back_from_another_process():
    b = Beside(_pid_and, [1, "二"])
    pid, value = b.result()
    assert value == [1, "二"] and pid == b.pid != os.getpid()
    with pytest.raises(ChildProcessError):
        os.waitpid(b.pid, os.WNOHANG)  # reaped
    assert b.result()[1] == [1, "二"]  # once collected, kept


def test_init_runs_first_in_that_process():
    b = Beside(os.environ.get, "BESIDE_TEST", init=lambda: os.environ.__setitem__("BESIDE_TEST", "set there"))
    assert b.result() == "set there" and "BESIDE_TEST" not in os.environ


def test_its_exception_is_raised_here():
    with pytest.raises(CardgenError) as exc:
        Beside(_raise).result()
    assert exc.value.problems[0].message == "bad rules"


def test_a_killed_process_fails_and_a_slow_one_is_stopped():
    b = Beside(_sleep)
    os.kill(b.pid, 9)
    with pytest.raises(BesideFailed):
        b.result()
    slow = Beside(_sleep)
    t = time.monotonic()
    with pytest.raises(BesideFailed):
        slow.result(wait_s=0.3)
    assert time.monotonic() - t < 5
    with pytest.raises(ChildProcessError):
        os.waitpid(slow.pid, os.WNOHANG)


def test_a_process_forked_later_collects_it():
    b = Beside(_pid_and, "x")
    assert run_limited(lambda: b.result()[1]) == "x"  # the budget child reads it; only this process reaps
    b.stop()
    with pytest.raises(ChildProcessError):
        os.waitpid(b.pid, os.WNOHANG)


def test_an_unpicklable_value_comes_back_as_its_words():
    with pytest.raises(RuntimeError, match="lambda"):
        Beside(lambda: (lambda: 1)).result()
