"""``cardgen daemon`` at its edges (a tester's findings against tests/cli/test_daemon.py's daemon):
commands running at once, a daemon that does not answer, a child that cannot take its command,
several starts at once, callers under other process settings, edited library files, long socket
paths, global options before ``daemon``.

Same rules as tests/cli/test_daemon.py: each daemon runs in its own ``XDG_RUNTIME_DIR`` and is
stopped by the test (or its fixture); waits are on conditions, never sleeps.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from tests.attack_game import attack_game
from tests.cli import test_daemon as base

daemon = base.daemon  # the fixture: a started daemon of this test's own
CARDGEN = base.CARDGEN


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14, 15 of proc(5))


def test_commands_at_once_each_name_their_own_file_on_a_budget_stop(daemon, tmp_path):
    """Two builds stopped by their CPU budget while both ran: each names its own template's line
    (the "where is the build" page is the command's own, not one shared by every child of the daemon)."""
    first = attack_game(tmp_path, text=base.LOOP, name="first")
    second = attack_game(tmp_path, text=base.LOOP, name="second")
    client = subprocess.Popen([CARDGEN, "build", str(first), "--out", str(tmp_path / "o1"), "--cpu-limit", "3"],
                              env=daemon.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        base._wait(lambda: base._children(daemon.status() or {"children": "-"}), "the daemon to fork the command")
        pid = base._children(daemon.status())[0]

        def looping() -> bool:  # the budgeted child has run the loop for a while: its line is recorded
            try:
                kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                return False
            return bool(kids) and _cpu_ticks(int(kids[0])) >= 30
        base._wait(looping, "the first build's loop")
        res = daemon.run("build", str(second), "--out", str(tmp_path / "o2"), "--cpu-limit", "1")
        _, stderr = client.communicate(timeout=120)
    finally:
        if client.poll() is None:
            client.kill()
            client.communicate()
    assert res.returncode == 1
    assert f"stopped while evaluating {second}/templates/cards/card.yaml:".encode() in res.stderr, res.stderr
    assert client.returncode == 1
    assert f"stopped while evaluating {first}/templates/cards/card.yaml:".encode() in stderr, stderr
