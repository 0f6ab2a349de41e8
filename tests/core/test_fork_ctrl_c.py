"""A Ctrl-C that arrives while ``core.budget.start_limited`` is inside ``os.fork()`` stops the
command: it is not raised inside an at-fork hook (logging registers one), where Python swallows it
("Exception ignored in: <function _releaseLock …>") and the build ran on. Seen under load
by a Ctrl-C test of the command line."""
from __future__ import annotations

import subprocess
import sys

PROBE = """
import os, signal, logging
from cardgen.core import budget
armed = [True]
def ctrl_c_during_the_fork():  # runs in the parent inside os.fork(), after logging's own hook
    if armed[0]:
        armed[0] = False
        os.kill(os.getpid(), signal.SIGINT)
os.register_at_fork(after_in_parent=ctrl_c_during_the_fork)
try:
    limited = budget.start_limited(sum, [1, 2])
    print("swallowed", limited.result())
except KeyboardInterrupt:
    print("interrupted")
"""


def test_a_ctrl_c_during_the_fork_reaches_the_command():
    res = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["interrupted"], res.stdout + res.stderr
    assert "Exception ignored" not in res.stderr
