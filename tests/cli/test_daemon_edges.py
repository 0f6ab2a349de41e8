"""``cardgen daemon`` at its edges (a tester's findings against tests/cli/test_daemon.py's daemon):
commands running at once, a daemon that does not answer, a child that cannot take its command,
several starts at once, callers under other process settings, edited library files, long socket
paths, global options before ``daemon``.

Same rules as tests/cli/test_daemon.py: each daemon runs in its own ``XDG_RUNTIME_DIR`` and is
stopped by the test (or its fixture); waits are on conditions, never sleeps.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
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
    client = subprocess.Popen([CARDGEN, "build", str(first), "--out", str(tmp_path / "o1"), "--cpu-limit", "5"],
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


def _stopped_daemon(daemon) -> int:
    """SIGSTOP the daemon (the caller SIGCONTs it); → its pid."""
    pid = int(daemon.status()["pid"])
    os.kill(pid, signal.SIGSTOP)
    base._wait(lambda: Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T", "the daemon to stop")
    return pid


def test_a_stopped_daemon_does_not_hold_the_command(daemon, tmp_path):
    """A daemon that does not answer (stopped here): the client gives up after a short wait and
    runs the command itself, with the same output; its standard output and error (pipes here) were
    never sent to the stopped daemon, so their reader is not kept waiting by it."""
    pid = _stopped_daemon(daemon)
    try:
        res = subprocess.run([CARDGEN, "--version"], env=daemon.env, capture_output=True, timeout=60)
    finally:
        os.kill(pid, signal.SIGCONT)
    alone = daemon.run("--version", env={**daemon.env, "CARDGEN_NO_DAEMON": "1"})
    base._same(res, alone)


def test_ctrl_c_while_the_daemon_does_not_answer_ends_the_client(daemon, tmp_path):
    """Ctrl-C while the client waits for a stopped daemon's answer: exit 130 with the usual message
    (it was queued, and the client hung, before)."""
    game = attack_game(tmp_path, text=base.LOOP)
    pid = _stopped_daemon(daemon)
    client = subprocess.Popen([CARDGEN, "build", str(game), "--out", str(tmp_path / "out"), "--cpu-limit", "120"],
                              env=daemon.env, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def connected() -> bool:
            try:
                return any(os.readlink(f"/proc/{client.pid}/fd/{fd}").startswith("socket:")
                           for fd in os.listdir(f"/proc/{client.pid}/fd"))
            except OSError:
                return False
        base._wait(connected, "the client to reach the daemon")
        client.send_signal(signal.SIGINT)
        _, stderr = client.communicate(timeout=60)
    finally:
        os.kill(pid, signal.SIGCONT)
        if client.poll() is None:
            client.kill()
            client.communicate()
    assert client.returncode == 130, stderr
    assert stderr.decode().endswith(base.INTERRUPTED)
    assert b"Traceback" not in stderr


def test_a_child_that_cannot_take_the_request_declines_it(daemon):
    """A request whose standard streams do not match its mask (as when ``ulimit -n`` cuts the file
    descriptors off): the daemon's child answers "declined" (the client then runs the command
    itself) instead of ending with 70 and nothing said."""
    from cardgen.cli import daemon_client

    sock_path = next(daemon.folder.glob("*.sock"))
    sock = daemon_client.connect(str(sock_path))
    here = os.open(".", os.O_PATH | os.O_DIRECTORY)
    try:
        sock.settimeout(60)
        daemon_client.send_request(sock, [daemon_client.MAGIC, b"run", sock_path.stem.encode(), b"18", b"7", b"",
                                          b"utf-8,strict,0", b"2", b"cardgen", b"--version"], [here])
        answers = daemon_client.Lines(sock)
        assert answers.next().startswith("pid ")
        daemon_client.send_request(sock, [b"streams"], [])  # mask 7, no stream sent
        assert answers.next() == "declined"
    finally:
        os.close(here)
        sock.close()
    res = daemon.run("--version")
    assert res.returncode == 0 and res.stdout  # the daemon still serves


def test_starts_at_once_leave_one_daemon(tmp_path):
    """Three ``daemon start`` at once: one daemon, and each start names it."""
    runtime = tempfile.mkdtemp(prefix="m", dir=os.environ["XDG_RUNTIME_DIR"])
    d = base.Daemon({**os.environ, "XDG_RUNTIME_DIR": runtime})
    try:
        starts = [subprocess.Popen([CARDGEN, "daemon", "start"], env=d.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE) for _ in range(3)]
        outs = [s.communicate(timeout=120) for s in starts]
        assert [s.returncode for s in starts] == [0, 0, 0], outs
        pids = {line.split()[1] for out, _ in outs for line in out.decode().splitlines() if "pid:" in line}
        assert len(pids) == 1, outs
        assert [o.decode().splitlines()[0] for o, _ in outs].count("cardgen daemon: started") == 1
        assert len(list(d.folder.glob("*.sock"))) == 1
    finally:
        _stop_every_daemon(d)
        shutil.rmtree(runtime, True)


def _stop_every_daemon(d) -> None:
    """``daemon stop``, then kill any daemon process started in this test's folder that is left."""
    d.run("daemon", "stop")
    mine = str(d.folder).encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                environ = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            if b"XDG_RUNTIME_DIR=" + mine[: -len(b"/cardgen")] + b"\0" in environ:
                try:
                    os.kill(int(entry), signal.SIGKILL)
                except OSError:
                    pass


def test_a_socket_path_too_long_with_its_temporary_name_is_refused_clearly(tmp_path):
    """The daemon binds ``<key>.sock.<pid>.tmp`` first: an XDG_RUNTIME_DIR whose socket path fits
    but whose temporary name does not is refused with the usual message, before anything starts."""
    pid_digits = len(Path("/proc/sys/kernel/pid_max").read_text().strip())
    # <runtime>/cardgen/<20 hex>.sock fits in 100 bytes; with .<pid>.tmp it passes 108
    runtime = Path(tempfile.mkdtemp(prefix="l", dir="/tmp"))
    runtime = runtime / ("r" * (66 - len(str(runtime)) - 1))
    assert len(str(runtime)) == 66 and 66 + 34 + 1 + pid_digits + 4 > 108
    runtime.mkdir(mode=0o700)
    try:
        res = subprocess.run([CARDGEN, "daemon", "start"], env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
                             capture_output=True, text=True, timeout=120)
        assert not list(runtime.rglob("*.sock"))
    finally:
        shutil.rmtree(runtime.parent, True)
    assert res.returncode == 1
    assert "error: the socket path is too long for a Unix socket" in res.stderr, res.stderr
    assert "hint: set XDG_RUNTIME_DIR to a shorter folder" in res.stderr
    assert "did not start" not in res.stderr and "Traceback" not in res.stderr


def test_daemon_commands_after_global_options_are_not_sent_to_the_daemon(daemon, tmp_path):
    before = daemon.served()
    for args in (["--project", str(tmp_path), "daemon", "status"], [f"--project={tmp_path}", "daemon", "status"]):
        res = daemon.run(*args)
        assert res.returncode == 0 and res.stdout.startswith(b"cardgen daemon: running"), res
    assert daemon.served() == before  # run here, not in a child of the daemon


def test_no_daemon_takes_only_1_and_status_says_it_is_set(daemon):
    before = daemon.served()
    assert daemon.run("--version", env={**daemon.env, "CARDGEN_NO_DAEMON": "0"}).returncode == 0
    assert daemon.served() == before + 1
    res = daemon.run("daemon", "status", env={**daemon.env, "CARDGEN_NO_DAEMON": "1"})
    assert res.returncode == 0
    assert res.stdout.startswith(b"cardgen daemon: running (but CARDGEN_NO_DAEMON=1 is set: commands here run without it)")


def test_callers_under_other_process_settings_are_not_served(daemon):
    """A caller with another nice value, CPU set or blocked signals runs the command itself (the
    daemon's child would escape them): containment is never silently left."""
    def nicer():
        os.nice(5)

    def one_cpu():
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    def blocked():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})

    settings = [nicer, blocked] + ([one_cpu] if len(os.sched_getaffinity(0)) > 1 else [])
    before = daemon.served()
    for setting in settings:
        res = subprocess.run([CARDGEN, "--version"], env=daemon.env, capture_output=True, timeout=120,
                             preexec_fn=setting)
        assert res.returncode == 0 and res.stdout, setting.__name__
        assert daemon.served() == before, f"served under {setting.__name__}"
    assert daemon.run("--version").returncode == 0
    assert daemon.served() == before + 1  # the daemon's own settings: served


def test_an_edited_library_file_ends_the_daemon_and_a_new_file_beside_it_does_not(tmp_path):
    """A module the daemon loaded (here the standard library's ``statistics``, shadowed by a copy
    on PYTHONPATH) edited in place: the next command runs without the daemon, which ends. A new
    file in a ``sys.path`` folder (a log, an editor's swap file) changes nothing."""
    import statistics

    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(statistics.__file__, lib / "statistics.py")
    runtime = tempfile.mkdtemp(prefix="e", dir=os.environ["XDG_RUNTIME_DIR"])
    d = base.Daemon({**os.environ, "XDG_RUNTIME_DIR": runtime, "PYTHONPATH": str(lib)})
    try:
        info = d.start()
        (lib / "validate-log.txt").write_text("a log written beside the library\n")
        assert d.run("--version").returncode == 0
        assert d.served() == 1
        with open(lib / "statistics.py", "a") as f:
            f.write("\nEDITED = True\n")
        res = d.run("--version")
        assert res.returncode == 0 and res.stdout
        base._wait(lambda: not base._alive(int(info["pid"])), "the stale daemon to end")
        assert not list(d.folder.glob("*.sock"))
    finally:
        d.stop()
        shutil.rmtree(runtime, True)


def test_a_daemon_started_with_closed_streams_prints_as_the_client_would(tmp_path):
    """PYTHONIOENCODING=latin-1 and a daemon started with every standard stream closed: a served
    command prints what a run without the daemon prints (escapes for what latin-1 cannot hold),
    its streams made as the client's were."""
    runtime = tempfile.mkdtemp(prefix="o", dir=os.environ["XDG_RUNTIME_DIR"])
    d = base.Daemon({**os.environ, "XDG_RUNTIME_DIR": runtime, "PYTHONIOENCODING": "latin-1"})
    try:
        subprocess.run(f"{CARDGEN} daemon start <&- >&- 2>&-", shell=True, env=d.env, timeout=120, check=True)
        game = str(Path(__file__).resolve().parents[2] / "card_data" / "tenjanpai")
        served, alone = d.both("validate", game)
        base._same(served, alone)
        assert b"\\u5929\\u96c0\\u724c" in served.stdout
    finally:
        d.stop()
        shutil.rmtree(runtime, True)


def test_status_of_a_daemon_that_does_not_answer(daemon):
    pid = _stopped_daemon(daemon)
    try:
        res = daemon.run("daemon", "status")
    finally:
        os.kill(pid, signal.SIGCONT)
    assert res.returncode == 1
    assert res.stdout.startswith(f"cardgen daemon: not answering (pid {pid}: busy or stopped".encode()), res.stdout


def test_a_silent_connection_does_not_hold_the_daemon_for_long(daemon, tmp_path):
    """A connection that sends nothing: the daemon drops it after READ_DEADLINE_S, and a command
    sent meanwhile is still served by it (its client waits PID_TIMEOUT_S for the daemon's child;
    before, the daemon waited 5 s on the silent one and the command ran in its client)."""
    from cardgen.cli import daemon_client, fork_server

    assert fork_server.READ_DEADLINE_S < daemon_client.PID_TIMEOUT_S
    silent = daemon_client.connect(str(next(daemon.folder.glob("*.sock"))))
    client = None
    try:
        client, pid, _out = base._start_loop_build(daemon, tmp_path)  # the daemon's child runs the build
        assert not Path(f"/proc/{client.pid}/task/{client.pid}/children").read_text().split()
    finally:
        silent.close()
        if client is not None:
            client.send_signal(signal.SIGINT)
            client.communicate(timeout=60)


def test_a_dead_socket_is_removed_only_while_it_is_the_one_refused(tmp_path):
    """The client removes a socket nobody listens on, but not one a new daemon renamed to that path
    between the client's look and its removal (compared by inode)."""
    import socket

    from cardgen.cli import daemon_client

    path = tmp_path / "k.sock"

    def dead_socket(at: Path) -> None:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(str(at))
        s.close()  # bound, never listening: a connection is refused

    dead_socket(path)
    looked = os.lstat(path)
    dead_socket(tmp_path / "new.tmp")
    os.replace(tmp_path / "new.tmp", path)  # another socket took the path since
    assert daemon_client.connect(str(path), looked) is None
    assert path.exists()
    assert daemon_client.connect(str(path)) is None  # the one refused now: removed
    assert not path.exists()


def test_an_uncaught_exception_s_traceback_starts_at_the_console_entry():
    """A traceback printed by the daemon's child starts with the command's own frames, not with
    the fork server's (here the entry raises; run in its own process: _run_entry runs atexit)."""
    code = ("import signal, sys\n"
            "from cardgen.cli import daemon_client, fork_server\n"
            "def main():\n"
            "    raise RuntimeError('boom')\n"
            "daemon_client.ENTRY = main\n"
            "sys.exit(fork_server._run_entry(signal.pthread_sigmask(signal.SIG_BLOCK, ())))\n")
    res = subprocess.run([base.sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 1
    lines = res.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert "in main" in lines[1], res.stderr
    assert "fork_server" not in res.stderr
    assert lines[-1] == "RuntimeError: boom"
