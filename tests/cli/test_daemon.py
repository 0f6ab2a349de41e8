"""``cardgen daemon`` (the opt-in preloaded fork server, cardgen/cli/fork_server.py, and its
client at the top of the console entry, cardgen/cli/daemon_client.py): a command served by the
daemon prints, writes and exits exactly as without it; Ctrl-C, a killed client, a killed or stale
daemon, an unsafe socket folder, idle exit and ``daemon stop`` behave as documented.

Each test runs the console script in subprocesses with its own ``XDG_RUNTIME_DIR`` (a daemon of
one test is never met by another) and stops its daemon in the fixture's finalizer. Every
comparison also checks the daemon's count of served requests, so a test cannot pass because the
daemon was silently not used. No timings: waits are on conditions (a process gone, a status).
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from cardgen.cli import fork_server
from tests.attack_game import attack_game
from tests.minigame import write_game

CARDGEN = str(Path(sys.executable).parent / "cardgen")
LOOP = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
INTERRUPTED = "cardgen: interrupted; each output folder holds all its new files or all its previous ones, never a mix\n"


def _wait(condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _group_alive(pgid: int) -> bool:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


class Daemon:
    """A daemon of one test: its environment, and the console script run with it."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.folder = Path(env["XDG_RUNTIME_DIR"]) / "cardgen"

    def run(self, *args: str, cwd: Path | None = None, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
        return subprocess.run([CARDGEN, *args], cwd=cwd, env=env or self.env, capture_output=True, timeout=300, **kw)

    def both(self, *args: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
        """The command with the daemon, then without (``CARDGEN_NO_DAEMON=1``); asserts the daemon served the first."""
        before = self.served()
        served = self.run(*args, cwd=cwd)
        assert self.served() == before + 1, "the daemon did not serve the command"
        alone = self.run(*args, cwd=cwd, env={**self.env, "CARDGEN_NO_DAEMON": "1"})
        assert self.served() == before + 1
        return served, alone

    def status(self) -> dict | None:
        socks = list(self.folder.glob("*.sock")) if self.folder.is_dir() else []
        answers = [fork_server.parse_status(fork_server.ask(str(s), b"status")) for s in socks]
        answers = [a for a in answers if a is not None]
        return answers[0] if answers else None

    def served(self) -> int:
        info = self.status()
        assert info is not None, "no daemon running"
        return int(info["served"])

    def start(self, *extra: str) -> dict:
        res = self.run("daemon", "start", *extra)
        assert res.returncode == 0, res.stderr.decode()
        info = self.status()
        assert info is not None
        return info

    def stop(self) -> None:
        info = self.status()
        self.run("daemon", "stop")
        if info is not None:
            pid = int(info["pid"])
            try:
                _wait(lambda: not _alive(pid), "the daemon to end", 30)
            finally:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)


@pytest.fixture
def daemon():
    runtime = tempfile.mkdtemp(prefix="d", dir=os.environ["XDG_RUNTIME_DIR"])
    env = {k: v for k, v in os.environ.items() if k not in ("CARDGEN_DEBUG", "CARDGEN_NO_DAEMON")}
    env["XDG_RUNTIME_DIR"] = runtime
    d = Daemon(env)
    d.start("--idle", "10")
    yield d
    d.stop()
    shutil.rmtree(runtime, True)


def _same(a: subprocess.CompletedProcess, b: subprocess.CompletedProcess) -> None:
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_sheets_validate_and_help_are_byte_identical(daemon, tmp_path):
    game = write_game(tmp_path / "g")
    served, alone = daemon.both("sheets", str(game), "--out", str(tmp_path / "o1"))
    assert served.returncode == 0, served.stderr.decode()
    assert served.stdout.replace(b"/o1/", b"/o2/") == alone.stdout.replace(b"/o1/", b"/o2/")
    assert served.stderr == alone.stderr
    served2 = daemon.run("sheets", str(game), "--out", str(tmp_path / "o2"))
    assert _tree(tmp_path / "o1") == _tree(tmp_path / "o2")  # the files written by the daemon's child
    assert b"wrote" in served2.stdout
    for args in (["validate", str(game)], ["validate", "--format", "json", str(game)], ["--help"], ["sheets", "--help"],
                 ["sheets"], ["no-such-command"], ["--version"]):
        served, alone = daemon.both(*args)
        _same(served, alone)
    assert daemon.both("--help")[0].stdout.startswith(b"Usage: cardgen [OPTIONS] COMMAND")
    assert daemon.both("sheets")[0].returncode == 2  # usage error


def test_a_failing_validate_and_a_budget_stop_are_identical(daemon, tmp_path):
    game = write_game(tmp_path / "g", manifest={"game": {"players": "three"}})
    served, alone = daemon.both("validate", str(game), cwd=tmp_path)
    _same(served, alone)
    assert served.returncode == 1 and b"error" in served.stderr
    loop = attack_game(tmp_path, text=LOOP)  # the build's child runs under --cpu-limit in the daemon's child too
    served, alone = daemon.both("build", str(loop), "--out", str(tmp_path / "out"), "--cpu-limit", "1", cwd=tmp_path)
    _same(served, alone)
    assert served.returncode == 1
    assert b"the build used more than 1 seconds of CPU time and was stopped" in served.stderr
    assert not (tmp_path / "out" / "g").exists()


def test_bad_input_corpus_sample_is_reported_the_same(daemon, tmp_path):
    """Every eighth case of tests/fixtures/bad/ (and its generated inputs), run from inside the game
    folder as test_bad_input runs it: the same stdout, stderr and exit code both ways, and the
    stderr is the case's pinned message."""
    from tests.cli.test_bad_input import CASES, CORPUS, _prepare

    sample = [c for i, c in enumerate(CASES) if i % 8 == 0]
    assert len(sample) >= 15
    for name in sample:
        case_tmp = tmp_path / name
        case_tmp.mkdir()
        game, spec = _prepare(name, case_tmp)
        if "budget" in spec:  # lowers a limit in-process: not a subprocess case
            continue
        command = spec.get("command", "build")
        out = ["--out", str(case_tmp / "output")] if command not in ("validate",) else []
        served, alone = daemon.both(command, ".", *spec.get("args", []), *out, cwd=game)
        _same(served, alone)
        expected = (CORPUS / name / "expected.txt").read_text(encoding="utf-8")
        assert served.stderr.decode().replace(str(case_tmp), "<tmp>") == expected, name
        assert served.returncode == spec.get("exit", 1), name


def test_streams_closed_or_a_terminal_are_as_without(daemon, tmp_path):
    """Standard output closed (``>&-``) and a terminal as standard output (line buffering, the
    terminal's width for click's help)."""
    import pty

    try:
        for fd in os.openpty():
            os.close(fd)
    except OSError:
        pytest.skip("no pseudo-terminal here")
    closed = subprocess.run(f"{CARDGEN} --version >&-; echo rc=$?", shell=True, env=daemon.env, capture_output=True)
    closed_alone = subprocess.run(f"{CARDGEN} --version >&-; echo rc=$?", shell=True,
                                  env={**daemon.env, "CARDGEN_NO_DAEMON": "1"}, capture_output=True)
    _same(closed, closed_alone)

    def on_tty(env) -> bytes:
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover - the child
            os.execve(CARDGEN, [CARDGEN, "sheets", "--help"], env)
        chunks = []
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        os.waitpid(pid, 0)
        os.close(fd)
        return b"".join(chunks)

    before = daemon.served()
    tty = on_tty(daemon.env)
    assert daemon.served() == before + 1
    assert tty == on_tty({**daemon.env, "CARDGEN_NO_DAEMON": "1"})
    assert b"Usage: cardgen sheets" in tty


def _children(info: dict) -> list[int]:
    return [int(p) for p in info["children"].split(",") if p != "-"]


def _start_loop_build(daemon, tmp_path) -> tuple[subprocess.Popen, int, Path]:
    """A build that runs until stopped (a template loop, --cpu-limit 120), started through the
    daemon; returns once its budgeted child runs. → (client, command's pid, output folder)."""
    game = attack_game(tmp_path, text=LOOP)
    out = tmp_path / "out"
    (out / "g").mkdir(parents=True)
    (out / "g" / "print-sheets.pdf").write_bytes(b"%PDF- the previous build\n")
    client = subprocess.Popen([CARDGEN, "build", str(game), "--out", str(out), "--cpu-limit", "120"], cwd=tmp_path,
                              env=daemon.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _wait(lambda: _children(daemon.status() or {"children": "-"}), "the daemon to fork the command")
    pid = _children(daemon.status())[0]

    def budget_child_runs() -> bool:
        """The budgeted child exists and the command waits for it (sleeping on its pipe): its
        os.fork() has returned. A SIGINT while the command is still inside os.fork() lands in
        logging's at-fork hook, which swallows the KeyboardInterrupt ("Exception ignored in:
        _releaseLock"), with or without the daemon: not what these tests are about."""
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return bool(children) and state == "S"
    _wait(budget_child_runs, "the build's budgeted child")
    return client, pid, out


def test_ctrl_c_is_forwarded_and_leaves_the_previous_output(daemon, tmp_path):
    client, pid, out = _start_loop_build(daemon, tmp_path)
    client.send_signal(signal.SIGINT)
    stdout, stderr = client.communicate(timeout=60)
    assert client.returncode == 130, stderr
    assert stderr.decode().endswith(INTERRUPTED)
    assert b"Traceback" not in stderr
    assert (out / "g" / "print-sheets.pdf").read_bytes() == b"%PDF- the previous build\n"
    _wait(lambda: not _group_alive(pid), "the command's process group to end")


def test_a_killed_client_takes_the_command_and_its_children_with_it(daemon, tmp_path):
    client, pid, out = _start_loop_build(daemon, tmp_path)
    grandchildren = [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    client.kill()
    client.communicate(timeout=60)
    _wait(lambda: not _group_alive(pid), "the command's process group to end")
    _wait(lambda: not any(_alive(p) for p in grandchildren), "the budgeted build child to end")
    _wait(lambda: daemon.status()["running"] == "0", "the daemon to see its command end")
    assert (out / "g" / "print-sheets.pdf").read_bytes() == b"%PDF- the previous build\n"


def test_a_killed_daemon_leaves_a_socket_the_client_removes(daemon, tmp_path):
    info = daemon.status()
    os.kill(int(info["pid"]), signal.SIGKILL)
    _wait(lambda: not _alive(int(info["pid"])), "the daemon to die")
    socks = list(daemon.folder.glob("*.sock"))
    assert len(socks) == 1
    res = daemon.run("validate", str(write_game(tmp_path / "g")))
    assert res.returncode == 0, res.stderr
    assert not socks[0].exists()
    assert daemon.run("daemon", "status").returncode == 1


def test_a_stale_daemon_says_so_and_ends_and_the_command_runs_here(daemon, tmp_path):
    """A daemon reached under another key (its socket renamed to the key of an environment with one
    more variable) answers "stale" and ends; the client runs the command itself."""
    info = daemon.status()
    other_env = {**daemon.env, "CARDGEN_TEST_OTHER": "1"}
    status = daemon.run("daemon", "status", env=other_env)  # not running for that environment; names its socket
    assert status.returncode == 1
    wanted = Path(next(line.split(": ", 1)[1] for line in status.stdout.decode().splitlines() if "socket:" in line))
    sock = next(daemon.folder.glob("*.sock"))
    sock.rename(wanted)
    game = write_game(tmp_path / "g")
    res = daemon.run("validate", str(game), env=other_env)
    alone = daemon.run("validate", str(game), env={**other_env, "CARDGEN_NO_DAEMON": "1"})
    _same(res, alone)
    _wait(lambda: not _alive(int(info["pid"])), "the stale daemon to end")
    assert not wanted.exists()


@pytest.mark.parametrize("how", ["mode", "owner", "link"])
def test_an_unsafe_socket_folder_is_refused(tmp_path, how):
    runtime = Path(tempfile.mkdtemp(prefix="u", dir=os.environ["XDG_RUNTIME_DIR"]))
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
    folder = runtime / "cardgen"
    if how == "link":
        (runtime / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(runtime / "elsewhere")
    else:
        folder.mkdir(mode=0o700)
        if how == "mode":
            folder.chmod(0o755)
        else:
            if os.getuid() != 0:
                pytest.skip("giving a folder to another user needs root")
            os.chown(folder, 12345, 12345)
    try:
        res = subprocess.run([CARDGEN, "daemon", "start"], env=env, capture_output=True, text=True, timeout=60)
        assert res.returncode == 1
        assert res.stderr.startswith(f"{folder}: error: refused: the daemon's socket folder ")
        assert {"mode": "mode 0755", "owner": "belongs to user id 12345", "link": "symbolic link"}[how] in res.stderr
        assert "Traceback" not in res.stderr
        assert not list(runtime.rglob("*.sock"))
        res = subprocess.run([CARDGEN, "--version"], env=env, capture_output=True, text=True, timeout=60)
        assert res.returncode == 0  # commands run as usual, without a daemon
    finally:
        shutil.rmtree(runtime, True)


def test_idle_exit_and_stop(tmp_path):
    runtime = tempfile.mkdtemp(prefix="i", dir=os.environ["XDG_RUNTIME_DIR"])
    d = Daemon({**os.environ, "XDG_RUNTIME_DIR": runtime})
    try:
        info = d.start("--idle", "0.02")  # 1.2 s
        assert d.served() == 0
        _wait(lambda: not _alive(int(info["pid"])), "the idle daemon to end")
        assert not list(d.folder.glob("*.sock"))
        info = d.start()
        again = d.run("daemon", "start")
        assert again.returncode == 0 and b"already running" in again.stdout
        status = d.run("daemon", "status")
        assert status.returncode == 0 and f"pid: {info['pid']}".encode() in status.stdout
        res = d.run("daemon", "stop")
        assert res.returncode == 0 and f"stopped (pid {info['pid']})".encode() in res.stdout
        assert not _alive(int(info["pid"]))
        assert not list(d.folder.glob("*.sock"))
        status = d.run("daemon", "status")
        assert status.returncode == 1 and b"not running" in status.stdout
        assert b"none running" in d.run("daemon", "stop").stdout
    finally:
        d.stop()
        shutil.rmtree(runtime, True)


def test_no_daemon_variable_and_another_environment_are_not_served(daemon, tmp_path):
    before = daemon.served()
    assert daemon.run("--version", env={**daemon.env, "CARDGEN_NO_DAEMON": "1"}).returncode == 0
    assert daemon.run("--version", env={**daemon.env, "SOME_OTHER_VARIABLE": "x"}).returncode == 0
    assert daemon.served() == before
    assert daemon.run("--version", env={**daemon.env, "PWD": "/somewhere", "SHLVL": "7", "TMUX_PANE": "%3",
                                        "SSH_TTY": "/dev/pts/9"}).returncode == 0
    assert daemon.served() == before + 1  # volatile variables (another shell, window, pane) are not in the key


def test_fixed_code_hashes_as_the_files_do(monkeypatch):
    """The daemon hashes cardgen's code once (check_cache.fix_code): the same digest as hashing the files."""
    from cardgen.steps import check_cache

    monkeypatch.setattr(check_cache, "_FIXED_CODE", None)
    before = check_cache.code_digest()
    check_cache.fix_code()
    assert check_cache._FIXED_CODE
    assert check_cache.code_digest() == before


def test_a_result_stored_by_the_daemon_is_the_one_a_plain_run_finds(tmp_path):
    """With the validate cache on: a check run by the daemon's child stores its result under the
    key a run without the daemon computes (it prints it from the fast path), and the other way round."""
    runtime = tempfile.mkdtemp(prefix="c", dir=os.environ["XDG_RUNTIME_DIR"])
    env = {k: v for k, v in os.environ.items() if k not in ("CARDGEN_NO_CACHE", "CARDGEN_DEBUG")}
    d = Daemon({**env, "XDG_RUNTIME_DIR": runtime, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    kind = tmp_path / "cache" / "cardgen"
    game = write_game(tmp_path / "g")
    try:
        d.start()
        served = d.run("validate", str(game))
        entries = sorted(p for p in kind.rglob("*") if p.is_file() and "validate" in str(p.parent.name))
        assert len(entries) == 1, entries
        stamp = entries[0].stat().st_mtime_ns
        alone = d.run("validate", str(game), env={**d.env, "CARDGEN_NO_DAEMON": "1"})
        _same(served, alone)
        assert entries[0].stat().st_mtime_ns == stamp  # read, not stored again
        (game / "cards.csv").write_text((game / "cards.csv").read_text(encoding="utf-8") + "\n", encoding="utf-8")
        alone = d.run("validate", str(game), env={**d.env, "CARDGEN_NO_DAEMON": "1"})
        before = d.served()
        served = d.run("validate", str(game))
        assert d.served() == before + 1
        _same(served, alone)
        assert len([p for p in kind.rglob("*") if p.is_file() and "validate" in str(p.parent.name)]) == 2
    finally:
        d.stop()
        shutil.rmtree(runtime, True)


def test_sigterm_is_forwarded_and_the_client_dies_of_it_as_the_command_did(daemon, tmp_path):
    client, pid, out = _start_loop_build(daemon, tmp_path)
    client.send_signal(signal.SIGTERM)
    client.communicate(timeout=60)
    assert client.returncode == -signal.SIGTERM  # as a cardgen run without the daemon ends on SIGTERM
    _wait(lambda: not _group_alive(pid), "the command's process group to end")
    assert (out / "g" / "print-sheets.pdf").read_bytes() == b"%PDF- the previous build\n"


def test_a_daemon_whose_key_went_stale_ends_after_its_command(tmp_path):
    """A file in the key changes while a command runs (here ~/.reportlab_settings, which reportlab
    reads at import): new commands no longer reach the daemon (they run as usual), and the daemon
    ends once its running command has ended, its socket removed."""
    runtime = tempfile.mkdtemp(prefix="s", dir=os.environ["XDG_RUNTIME_DIR"])
    home = tmp_path / "home"
    home.mkdir()
    d = Daemon({**os.environ, "XDG_RUNTIME_DIR": runtime, "HOME": str(home)})
    try:
        info = d.start()
        client, _pid, _out = _start_loop_build(d, tmp_path)
        (home / ".reportlab_settings").write_text("# changed after the daemon started\n")
        before = int(d.status()["served"])
        assert d.run("--version").returncode == 0
        assert int(d.status()["served"]) == before  # run as usual: the key differs now
        client.send_signal(signal.SIGINT)
        client.communicate(timeout=60)
        assert client.returncode == 130
        _wait(lambda: not _alive(int(info["pid"])), "the stale daemon to end")
        assert not list(d.folder.glob("*.sock"))
    finally:
        d.stop()
        shutil.rmtree(runtime, True)



@pytest.mark.parametrize("setting, searched", [(None, False), ("", True)])
def test_the_daemon_builds_its_models_as_a_command_does(setting, searched):
    """pydantic's plugins are not searched while the daemon loads its models, as in a command run
    alone (the console entry sets PYDANTIC_DISABLE_PLUGINS=__all__ before any model is built),
    unless the user set the variable (empty: plugins on)."""
    probe = ("import os\n"
             "from cardgen.cli import fork_server\n"
             "fork_server._Server('/nonexistent', 'k', dict(os.environb), 60, 2).prepare()\n"
             "from pydantic.plugin import _loader\n"
             "import cardgen.data.manifest\n"
             "print(_loader._plugins is not None)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if setting is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = setting
    res = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == [str(searched)]


def test_a_ctrl_c_sent_as_soon_as_the_pid_is_known_is_not_lost(daemon, tmp_path):
    """The client forwards Ctrl-C as soon as the daemon names the command's pid, which may be
    before the child has set its handlers (it inherits the daemon's: SIGINT ignored). The signal
    is held back until then: the command ends with exit 130 instead of running on. A raw client
    here sends SIGINT the moment it reads the pid."""
    from cardgen.cli import daemon_client

    game = attack_game(tmp_path, text=LOOP)
    sock_path = next(daemon.folder.glob("*.sock"))
    sock = daemon_client.connect(str(sock_path))
    here = os.open(tmp_path, os.O_PATH | os.O_DIRECTORY)
    stdin = os.open(os.devnull, os.O_RDONLY)
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    argv = [CARDGEN, "build", str(game), "--out", str(tmp_path / "out"), "--cpu-limit", "120"]
    env = [k.encode() + b"=" + v.encode() for k, v in daemon.env.items()]
    fields = [daemon_client.MAGIC, b"run", sock_path.stem.encode(), b"18", b"7", b"", daemon_client.stdio_config(),
              str(len(argv)).encode(),
              *map(os.fsencode, argv), *env]
    daemon_client.send_request(sock, fields, [here])
    answers = daemon_client.Lines(sock)
    first = answers.next()
    assert first is not None and first.startswith("pid "), first
    os.killpg(int(first[4:]), signal.SIGINT)
    daemon_client.send_request(sock, [b"streams"], [stdin, w_out, w_err])  # the child takes them after "pid"
    for fd in (here, stdin, w_out, w_err):
        os.close(fd)
    assert answers.next() == "exit 130"
    sock.close()
    err = b""
    while chunk := os.read(r_err, 65536):
        err += chunk
    os.close(r_err)
    os.close(r_out)
    assert err.decode().endswith(INTERRUPTED)
