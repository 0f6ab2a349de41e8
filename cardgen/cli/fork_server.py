"""``cardgen daemon``: an opt-in preloaded fork server, for commands whose start-up is most of
their time (a 10-card ``cardgen sheets`` spends ~0.2 s of ~0.33 s importing click, pydantic,
jinja2, reportlab and cardgen).

:func:`start` (``cardgen daemon start``) double-forks a detached process (``setsid``) that imports
everything the commands use (:func:`preload`), freezes those objects out of the garbage collector
(``gc.freeze``) and listens on a Unix socket in this user's private folder
(:func:`cardgen.cli.daemon_client.folder`, mode 0700, owner checked, never a link), named by the
key of the environment it was started in (:func:`cardgen.cli.daemon_client.key`). For each
command a client (:func:`cardgen.cli.daemon_client.run_elsewhere`) hands it, after checking the
peer's user id (``SO_PEERCRED``), the daemon forks a child (:func:`_child`) that takes the
client's folder, umask, environment, standard streams and command line and runs the console
entry's normal path — budgets, the validate fast paths and all (:func:`cardgen.cli.entry.main`) —
then reports its exit status. When the client goes away (killed), the child's process group is
killed (its budgeted children die with it: ``PR_SET_PDEATHSIG``, :mod:`cardgen.core.budget`).

The daemon ends after ``idle`` seconds without a request and with no command running, on
``cardgen daemon stop`` (or SIGTERM) once its running commands end, and as soon as its key no
longer matches cardgen's files (checked after each command and every minute): a stale daemon
answers "stale" and the client runs the command itself.
"""
from __future__ import annotations

import gc
import os
import signal
import sys
import time

from cardgen.cli import daemon_client

#: Default idle time before the daemon ends (seconds).
DEFAULT_IDLE_S = 30 * 60
#: How often an idle daemon checks that its key still matches cardgen's files (seconds).
STALE_CHECK_S = 60.0
#: The longest path a Unix socket can be bound to on Linux (``sun_path`` is 108 bytes, NUL included).
_SUN_PATH_MAX = 107
#: How long the daemon waits for a client's whole request (seconds).
REQUEST_TIMEOUT_S = 5.0
#: How long the daemon's loop waits, in all, for the request of a client it accepted (seconds): a
#: client sends it whole right after connecting, so a silent or trickling one delays the others
#: (which give up after :data:`cardgen.cli.daemon_client.PID_TIMEOUT_S`) by at most this.
READ_DEADLINE_S = 0.5
#: How long a command's child waits for the client's standard streams after saying "pid" (seconds):
#: the client sends them as soon as it reads it.
STREAMS_DEADLINE_S = 10.0

#: Modules not preloaded: the playtest simulator (numba, numpy), the live preview, the PDF
#: booklet (pypdf) and the visual diff (rich's tables): loading them would add ≈ 200 MB of address
#: space to every child, which a ``--memory-limit`` of a few hundred MB would feel.
_NOT_PRELOADED = ("cardgen.__main__", "cardgen.insight", "cardgen.cli.insight", "cardgen.preview", "cardgen.cli.watch",
                  "cardgen.cli.diff_output", "cardgen.render.booklet_pdf")
#: Libraries the commands import inside functions (on first use), loaded by :func:`preload`.
_LAZY_LIBRARIES = ("PIL.Image", "PIL.ImageFile", "PIL.PngImagePlugin", "PIL.JpegImagePlugin", "PIL.ImageSequence",
                   "fontTools.ttLib.tables._n_a_m_e", "fontTools.ttLib.tables.otTables", "fontTools.ttLib.tables.otBase",
                   "fontTools.ttLib.tables.otConverters", "fontTools.ttLib.tables._f_v_a_r",
                   "fontTools.ttLib.tables.C_P_A_L_", "fontTools.ttLib.tables.TupleVariation",
                   "fontTools.misc.arrayTools", "fontTools.misc.bezierTools", "fontTools.pens.boundsPen",
                   "fontTools.encodings.codecs", "fontTools.misc.encodingTools",
                   "reportlab.pdfgen.canvas", "reportlab.platypus", "statistics", "pyphen", "uharfbuzz", "linkify_it",
                   "mdit_py_cjk_friendly", "encodings.cp932", "encodings.shift_jis", "encodings.euc_jp")


class DaemonError(Exception):
    """The daemon cannot be started, reached or stopped; the message says why and how to fix it."""


def preload() -> int:
    """Import cardgen's modules (all but :data:`_NOT_PRELOADED`) and :data:`_LAZY_LIBRARIES`;
    → the number of modules loaded. A library that is not installed is skipped."""
    import importlib
    import pkgutil

    import cardgen

    for info in pkgutil.walk_packages(cardgen.__path__, "cardgen."):
        if not info.name.startswith(_NOT_PRELOADED):
            importlib.import_module(info.name)
    for name in _LAZY_LIBRARIES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    return len(sys.modules)


# --- the daemon's folder and its sockets ---------------------------------------------------

def private_folder(create: bool) -> str:
    """This user's socket folder (:func:`cardgen.cli.daemon_client.folder`), made (mode 0700)
    when ``create`` and missing; → its path.

    Raises:
        DaemonError: it is not a private folder of this user's (a link, another owner, open to
            others), or cannot be made; or it is missing and ``create`` is false."""
    path = daemon_client.folder()
    try:
        problem = daemon_client.folder_problem(path)
    except FileNotFoundError:
        if not create:
            raise DaemonError(f"{path}: no cardgen daemon was started here") from None
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:  # made meanwhile: checked below
            pass
        except OSError as exc:
            raise DaemonError(f"{path}: error: cannot make the daemon's socket folder ({exc.strerror or exc})\n"
                              "    hint: set XDG_RUNTIME_DIR to a folder of yours") from None
        problem = daemon_client.folder_problem(path)
    if problem is not None:
        raise DaemonError(f"{path}: error: refused: the daemon's socket folder {problem}\n"
                          f"    hint: remove it (rm -r {path}) or set XDG_RUNTIME_DIR to a private folder of yours; "
                          "cardgen makes it again with mode 0700")
    return path


def _connected(path: str):
    """A connection to the daemon at ``path``, or None when none can be made."""
    try:
        return daemon_client.connect(path)
    except OSError:
        return None


def ask(path: str, kind: bytes) -> str | None:
    """Send a ``status`` or ``stop`` request to the daemon at ``path``; → its answer line, or None
    when no daemon listens there."""
    sock = _connected(path)
    if sock is None:
        return None
    try:
        sock.settimeout(REQUEST_TIMEOUT_S)
        daemon_client.send_request(sock, [daemon_client.MAGIC, kind])
        return daemon_client.Lines(sock).next()
    except OSError:
        return None
    finally:
        sock.close()


def listening_pid(path: str) -> int | None:
    """The pid of the process listening on ``path`` (``SO_PEERCRED``; a connection is accepted by
    the kernel even while that process is busy or stopped), or None when none listens."""
    sock = _connected(path)
    if sock is None:
        return None
    try:
        return daemon_client.peer_pid(sock)
    finally:
        sock.close()


def parse_status(line: str | None) -> dict | None:
    """A ``status``/``stop`` answer (``key=value`` words) as a dict, or None."""
    if not line or not line.startswith("status "):
        return None
    return dict(word.split("=", 1) for word in line.split()[1:] if "=" in word)


def own_key() -> str:
    """The key of this command's environment as it started (before the console entry set anything)."""
    env = daemon_client.START_ENV if daemon_client.START_ENV is not None else dict(os.environb)
    return daemon_client.key(env)


def status() -> tuple[dict | None, str, list[dict]]:
    """→ (the status of the daemon serving this environment or None, its socket path, the
    statuses of this user's other daemons: started under other code or another environment).
    A daemon that listens but does not answer (busy, stopped) has the status
    ``{"pid": …, "answering": "no"}``.

    Raises:
        DaemonError: the folder is not private (see :func:`private_folder`)."""
    try:
        folder = private_folder(create=False)
    except DaemonError as exc:
        if "no cardgen daemon was started here" in str(exc):
            return None, daemon_client.socket_path(daemon_client.folder(), own_key()), []
        raise
    path = daemon_client.socket_path(folder, own_key())
    mine, others = parse_status(ask(path, b"status")), []
    if mine is None:
        silent = listening_pid(path)
        if silent is not None:
            mine = {"pid": str(silent), "answering": "no"}
    for name in sorted(os.listdir(folder)):
        other = os.path.join(folder, name)
        if name.endswith(".sock") and other != path:
            answer = parse_status(ask(other, b"status"))
            if answer is not None:
                others.append(answer)
    return mine, path, others


def stop_all() -> list[dict]:
    """Ask every daemon of this user's (in :func:`private_folder`) to stop: each removes its socket
    at once and ends when its running commands have ended; waits (up to 10 s) for those running
    none to end. → their answers (``pid``, ``running``: the commands still running).

    Raises:
        DaemonError: the folder is not private."""
    try:
        folder = private_folder(create=False)
    except DaemonError as exc:
        if "no cardgen daemon was started here" in str(exc):
            return []
        raise
    stopped = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".sock"):
            answer = parse_status(ask(os.path.join(folder, name), b"stop"))
            if answer is not None:
                stopped.append(answer)
    for answer in stopped:
        if answer.get("running") == "0":
            _wait_gone(int(answer["pid"]), 10.0)
    return stopped


def _wait_gone(pid: int, timeout_s: float) -> bool:
    """Wait until process ``pid`` (not a child of ours) has ended; → whether it did in time."""
    import select

    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except OSError:  # pragma: no cover - a kernel without pidfd_open
        return False
    try:
        return bool(select.select([pidfd], [], [], timeout_s)[0])
    finally:
        os.close(pidfd)


# --- starting -----------------------------------------------------------------------------

def start(idle_s: float = DEFAULT_IDLE_S) -> tuple[bool, dict, str]:
    """Start this environment's daemon unless it runs; returns when it is listening.
    → (whether it was started now, its status, its socket path).

    Raises:
        DaemonError: the folder is not private, the socket path is too long, or the daemon failed
            to start (its error in words)."""
    _check_platform()
    folder = private_folder(create=True)
    env = daemon_client.START_ENV if daemon_client.START_ENV is not None else dict(os.environb)
    key = daemon_client.key(env)
    path = daemon_client.socket_path(folder, key)
    longest = len(os.fsencode(_bind_name(path, _largest_pid())))
    if longest > _SUN_PATH_MAX:
        raise DaemonError(f"{path}: error: the socket path is too long for a Unix socket (it is bound as "
                          f"{longest} bytes with its temporary suffix; at most {_SUN_PATH_MAX})\n"
                          "    hint: set XDG_RUNTIME_DIR to a shorter folder")
    import fcntl

    lock = os.open(os.path.join(folder, f"{key}.lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one start of this key at a time: the later ones find the first's daemon
        return _start_locked(path, key, env, idle_s)
    finally:
        os.close(lock)


def _largest_pid() -> int:
    """The largest pid this system gives (``/proc/sys/kernel/pid_max`` − 1; else Linux's largest)."""
    try:
        with open("/proc/sys/kernel/pid_max", "rb") as f:
            return int(f.read()) - 1
    except (OSError, ValueError):
        return 4194303


def _bind_name(path: str, pid: int) -> str:
    """The temporary name the daemon ``pid`` binds its socket under before renaming it to ``path``."""
    return f"{path}.{pid}.tmp"


def _start_locked(path: str, key: str, env: dict[bytes, bytes], idle_s: float) -> tuple[bool, dict, str]:
    """:func:`start`'s work, under its lock."""
    running = parse_status(ask(path, b"status"))
    if running is not None:
        return False, running, path
    if daemon_client.ENTRY is None:
        raise DaemonError("cardgen: error: the daemon is started by the cardgen command (its console entry), "
                          "not from inside another program\n    hint: run `cardgen daemon start`")
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the daemon (tested through its socket)
        os.close(r)
        try:
            os.setsid()
            if os.fork():
                os._exit(0)
            _Server(path, key, env, idle_s, w).run()
        except BaseException as exc:  # noqa: BLE001 - reported to `daemon start` through the pipe
            try:
                os.write(w, f"error {type(exc).__name__}: {exc}\n".encode("utf-8", "replace"))
            finally:
                os._exit(1)
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    with os.fdopen(r, "rb") as pipe:
        said = pipe.read().decode("utf-8", "replace").strip()
    if not said.startswith("ready"):
        raise DaemonError(f"{path}: error: the daemon did not start ({said or 'it ended without a word'})\n"
                          "    hint: CARDGEN_NO_DAEMON=1 runs commands without it")
    answer = parse_status(ask(path, b"status"))
    if answer is None:
        raise DaemonError(f"{path}: error: the daemon started but does not answer\n"
                          "    hint: cardgen daemon stop, then start it again")
    return True, answer, path


def _check_platform() -> None:
    """Raise :class:`DaemonError` unless this is Linux 5.3 or later: the daemon needs
    ``SO_PEERCRED``, ``O_PATH`` and ``pidfd_open`` (without the last it could not tell a child's end
    from its client's, and a command might run twice)."""
    try:
        os.close(os.pidfd_open(os.getpid()))
        ok = sys.platform.startswith("linux") and hasattr(os, "O_PATH")
    except (AttributeError, OSError):
        ok = False
    if not ok:
        raise DaemonError("cardgen: error: `cardgen daemon` needs Linux 5.3 or later (pidfd_open, SO_PEERCRED)\n"
                          "    hint: commands run as usual without it")


class _Server:
    """The daemon's process: preloads, listens, forks a child per command (see the module)."""

    def __init__(self, path: str, key: str, env: dict[bytes, bytes], idle_s: float, ready_w: int):
        self.path, self.key, self.env, self.idle_s, self.ready_w = path, key, env, idle_s, ready_w
        self.started = time.time()
        self.served = 0
        self.running: dict[int, tuple] = {}  # child pid → (connection or None, pidfd)
        self.stopping = False
        self.last = time.monotonic()

    # the daemon's own set-up
    def run(self) -> None:
        import selectors
        import socket

        os.chdir("/")
        os.closerange(3, self.ready_w)  # nothing of the starting command's is kept open (a caller's pipe)
        os.closerange(self.ready_w + 1, os.sysconf("SC_OPEN_MAX"))
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self.prepare()
        from cardgen.cli.module_watch import ModuleWatch

        self.watch = ModuleWatch()  # every loaded module's file: an edit in place makes the daemon stale
        self._leave_click()
        from cardgen.core import budget

        budget.before_fork()  # loads the C library: each child's PR_SET_PDEATHSIG takes microseconds
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        os.set_blocking(self.wake_r, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGTERM, self._on_term)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the loop (the pidfds say which child)
        old_umask = os.umask(0o077)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        temp = _bind_name(self.path, os.getpid())
        listener.bind(temp)
        listener.listen(64)
        os.rename(temp, self.path)  # whole: a client never meets a socket that does not listen yet
        os.umask(old_umask)
        self.listener = listener
        self.inode = os.stat(self.path).st_ino
        gc.collect()
        gc.freeze()  # the preloaded objects stay out of every child's collections (fewer copied pages)
        os.write(self.ready_w, f"ready {os.getpid()}\n".encode())
        os.close(self.ready_w)
        self.sel = selectors.DefaultSelector()
        self.sel.register(listener, selectors.EVENT_READ, ("accept", None))
        self.sel.register(self.wake_r, selectors.EVENT_READ, ("wake", None))
        import select

        # the clients' connections, watched for their end only (EPOLLRDHUP): the command's child
        # reads the client's streams from it, so the daemon never reads there
        self.hangups = select.epoll()
        self.hangup_pids: dict[int, int] = {}  # connection fd → command pid
        self.sel.register(self.hangups.fileno(), selectors.EVENT_READ, ("hangup", None))
        try:
            self._loop()
        finally:
            self._unlink()
        os._exit(0)

    def prepare(self) -> None:
        """Load what the commands use as a command would load it: in the environment the daemon
        was started in, with ``PYDANTIC_DISABLE_PLUGINS=__all__`` unless it is set there (the
        console entry sets it before any model is built, :func:`cardgen.cli.entry.main`: the
        preloaded models are built without pydantic's plugins, as in a command run alone); then
        cardgen's code is hashed once (:func:`cardgen.steps.check_cache.fix_code`: the key covers it)."""
        os.environb.clear()
        os.environb.update(self.env)
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
        preload()
        from cardgen.steps import check_cache

        check_cache.fix_code()

    @staticmethod
    def _leave_click() -> None:
        """Pop the contexts of the ``cardgen daemon start`` command this process was forked in."""
        from click import globals as click_globals

        while click_globals.get_current_context(silent=True) is not None:
            click_globals.pop_context()

    def _on_term(self, _signum, _frame) -> None:
        self.stopping = True

    def _unlink(self) -> None:
        """Remove the socket file if it is still this daemon's."""
        try:
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        except OSError:
            pass

    def _stale(self) -> bool:
        """Whether this daemon must serve no more: its key changed (cardgen's files, …) or a file
        of a module it loaded did (:class:`cardgen.cli.module_watch.ModuleWatch`)."""
        try:
            return self.watch.changed() or daemon_client.key(self.env) != self.key
        except OSError:
            return True

    def _loop(self) -> None:
        next_check = time.monotonic() + STALE_CHECK_S
        while True:
            if self.stopping and self.listener is not None:
                self.sel.unregister(self.listener)
                self.listener.close()
                self.listener = None
                self._unlink()
            if self.stopping and not self.running:
                return
            now = time.monotonic()
            if not self.running and now - self.last >= self.idle_s:
                return
            if now >= next_check:
                next_check = now + STALE_CHECK_S
                if not self.running and self._stale():
                    return
            timeout = min(next_check - now, max(0.0, self.last + self.idle_s - now)) if not self.running else None
            for selected, _ in self.sel.select(timeout):
                what, pid = selected.data
                if what == "child" and pid not in self.running:
                    continue  # ended earlier in this batch (the client left as its command ended)
                if what == "accept" and self.listener is not None:
                    self._accept()
                elif what == "wake":
                    try:
                        os.read(self.wake_r, 512)
                    except BlockingIOError:
                        pass
                elif what == "hangup":
                    for fd, _events in self.hangups.poll(0):
                        gone = self.hangup_pids.get(fd)
                        if gone in self.running:
                            self._client_spoke(gone)
                elif what == "child":
                    self._child_ended(pid)

    def _status_line(self, word: str = "status") -> bytes:
        return (f"{word} pid={os.getpid()} key={self.key} started={self.started:.0f} served={self.served} "
                f"running={len(self.running)} children={','.join(map(str, self.running)) or '-'} idle={self.idle_s:.0f}\n").encode()

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        fds: list[int] = []
        try:
            if daemon_client.peer_uid(conn) != os.getuid():
                return
            fields, fds = _read_request(conn, time.monotonic() + READ_DEADLINE_S)
            if fields[0] != daemon_client.MAGIC:
                return
            kind = fields[1]
            if kind == b"status":
                conn.sendall(self._status_line())
            elif kind == b"stop":
                self.stopping = True
                self.listener_close_now()
                conn.sendall(self._status_line())
            elif kind == b"run":
                if fields[2].decode() != self.key or self.watch.changed():  # a socket renamed, a key computed
                    # otherwise, or a loaded module's file edited since the preload
                    conn.sendall(b"stale\n")
                    self.stopping = True
                    return
                self._fork(conn, fields, fds)
                fds = []
                conn = None  # kept open: the command's status goes there
        except (OSError, ValueError, IndexError, UnicodeDecodeError):
            pass
        finally:
            for fd in fds:
                os.close(fd)
            if conn is not None:
                conn.close()

    def listener_close_now(self) -> None:
        """Stop listening and remove the socket now (``daemon stop``: a client started after it
        returns runs the command itself)."""
        if self.listener is not None:
            self.sel.unregister(self.listener)
            self.listener.close()
            self.listener = None
            self._unlink()

    def _fork(self, conn, fields: list[bytes], fds: list[int]) -> None:
        from cardgen.core import budget

        budget.before_fork()
        # Ctrl-C, SIGTERM, SIGHUP held back until the child has its own handlers (it inherits the
        # daemon's: SIGINT ignored): one sent as soon as the client learns the pid is not lost
        pid, mask = budget.fork_holding({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
        if pid == 0:  # pragma: no cover - the command's child (tested through the client)
            self._child(conn, fields, fds, mask)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        for fd in fds:
            os.close(fd)
        import selectors

        pidfd = os.pidfd_open(pid)
        self.running[pid] = (conn, pidfd)
        self.sel.register(pidfd, selectors.EVENT_READ, ("child", pid))
        try:  # the child itself sends "pid" and reads the client's streams (_become_command)
            conn.setblocking(True)
            import select

            self.hangups.register(conn.fileno(), select.EPOLLRDHUP)
            self.hangup_pids[conn.fileno()] = pid
        except (OSError, ValueError):  # the client is gone already
            self._client_spoke(pid)
        self.last = time.monotonic()

    def _unwatch(self, conn) -> None:
        try:
            self.hangups.unregister(conn.fileno())
        except (OSError, ValueError):
            pass
        self.hangup_pids.pop(conn.fileno(), None)

    def _client_spoke(self, pid: int) -> None:
        """The client of ``pid`` went away (its end of the connection shut): kill the command's
        process group."""
        conn, pidfd = self.running[pid]
        if conn is None:
            return
        self._unwatch(conn)
        conn.close()
        self.running[pid] = (None, pidfd)
        for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                target()
            except OSError:
                pass

    def _child_ended(self, pid: int) -> None:
        conn, pidfd = self.running.pop(pid)
        self.sel.unregister(pidfd)
        os.close(pidfd)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = 0
        try:
            os.killpg(pid, signal.SIGKILL)  # anything the command left in its group
        except OSError:
            pass
        self.served += 1
        self.last = time.monotonic()
        if conn is not None:
            self._unwatch(conn)
            word = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}")
            try:
                conn.sendall(f"{word}\n".encode())
            except OSError:
                pass
            conn.close()
        if self._stale():
            self.stopping = True

    # the command's child
    def _child(self, conn, fields: list[bytes], fds: list[int], mask: set) -> None:
        """Become the command (``mask``: the signal mask to go back to once its handlers are set):
        never returns. A child that cannot take the client's state (its standard streams cut off
        by ``ulimit -n``, …) answers "declined" (before or after "pid") and ends: the client runs
        the command itself. One that fails once it has the streams says why on the command's
        standard error and ends with 70 (``EX_SOFTWARE``)."""
        code = 70
        told = [False]
        try:
            code = _become_command(self, conn, fields, fds, mask, told)
        except BaseException:  # noqa: BLE001 - in a forked child: said below, then os._exit
            if not told[0]:
                try:
                    conn.sendall(b"declined\n")
                except OSError:
                    pass
            else:
                try:
                    import traceback

                    sys.stderr.write("cardgen: error: the daemon's child could not run the command "
                                     "(hint: CARDGEN_NO_DAEMON=1 runs it without the daemon)\n")
                    traceback.print_exc()
                    sys.stderr.flush()
                except BaseException:  # noqa: BLE001 - nowhere to say it
                    pass
        finally:
            os._exit(code)


def _read_request(conn, deadline: float) -> tuple[list[bytes], list[int]]:
    """One request from ``conn``, read whole by ``deadline`` (``time.monotonic()``): its
    NUL-separated fields and the file descriptors sent with it.

    Raises:
        ValueError: the request is malformed or too large; OSError: the connection failed or the
            deadline passed (``TimeoutError``)."""
    import array
    import socket

    def wait_at_most() -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not come in time")
        conn.settimeout(left)

    fds = array.array("i")
    wait_at_most()
    data, ancdata, _flags, _addr = conn.recvmsg(1 << 16, socket.CMSG_SPACE(8 * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    received = list(fds)
    try:
        if len(data) < 4:
            raise ValueError("short request")
        size = int.from_bytes(data[:4], "big")
        if size > 16 << 20:
            raise ValueError("request too large")
        body = bytearray(data[4:])
        while len(body) < size:
            wait_at_most()
            chunk = conn.recv(min(1 << 16, size - len(body)))
            if not chunk:
                raise ValueError("request cut short")
            body += chunk
        return bytes(body).split(b"\0"), received
    except BaseException:
        for fd in received:
            os.close(fd)
        raise


def _become_command(server: _Server, conn, fields: list[bytes], fds: list[int], sigmask: set, told: list) -> int:
    """In the forked child: take the client's state (``fields``: run, key, umask, fd mask, ignored
    signals, stdio config, argc, argv…, environment…; ``fds``: its folder; ``sigmask``: the daemon's
    signal mask, restored once the handlers are set), tell the client "pid <this pid>" once its
    handlers are the command's, then take the open standard streams the client sends in answer
    (a ``streams`` message; ``told[0]`` set: from then on a failure is the command's), run the
    console entry's normal path and → the exit code, as the interpreter would end with it.

    Raises:
        OSError, ValueError: the client's state cannot be taken, or the client is gone."""
    from cardgen.core import budget

    os.setpgid(0, 0)
    budget.die_with_parent()  # PR_SET_PDEATHSIG; the signals are set below (never SIG_IGN first: it
    # would drop a Ctrl-C held back by the mask)
    budget.own_page()  # not the page every child of the daemon inherited from its preload
    signal.set_wakeup_fd(-1)
    for fd in (server.wake_r, server.wake_w, server.sel.fileno(), server.hangups.fileno()):
        os.close(fd)
    server.watch.close()
    if server.listener is not None:
        server.listener.close()
    for other, pidfd in server.running.values():  # the other commands' (this one's is not there yet)
        os.close(pidfd)
        if other is not None:
            other.close()
    umask, mask = int(fields[3]), int(fields[4])
    ignored = {int(s) for s in fields[5].split(b",") if s}
    encoding, errors, write_through = fields[6].decode("ascii").split(",")
    stdio = {"encoding": encoding, "errors": errors, "write_through": write_through == "1"}
    argc = int(fields[7])
    argv = [os.fsdecode(a) for a in fields[8:8 + argc]]
    env = dict(item.split(b"=", 1) for item in fields[8 + argc:] if b"=" in item)
    here, = fds
    os.fchdir(here)
    os.close(here)
    os.umask(umask)
    os.environb.clear()
    os.environb.update(env)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        if signum in ignored:
            signal.signal(signum, signal.SIG_IGN)
        elif signum == signal.SIGINT:
            signal.signal(signum, signal.default_int_handler)
        else:
            signal.signal(signum, signal.SIG_DFL)
    conn.setblocking(True)
    conn.sendall(f"pid {os.getpid()}\n".encode())  # a client that gave up: EPIPE, the command never starts
    # its standard streams only now: a daemon that never got this far (stopped, busy) holds none
    # of them, so a pipe's reader is not kept waiting by it
    first, std = _read_request(conn, time.monotonic() + STREAMS_DEADLINE_S)
    if first[:1] != [b"streams"]:
        raise ValueError("no standard streams")
    wanted = [fd for fd in (0, 1, 2) if mask & (1 << fd)]
    if len(wanted) != len(std):
        raise ValueError("file descriptors do not match the mask")
    for target, fd in zip(wanted, std):
        os.dup2(fd, target)
    for fd in std:
        if fd not in (0, 1, 2):
            os.close(fd)
    for fd in (0, 1, 2):
        if not mask & (1 << fd):
            os.close(fd)
    _make_stdio(mask, stdio)
    told[0] = True
    conn.close()
    sys.argv = argv
    _forget_warnings()
    daemon_client.IN_DAEMON = True
    return _run_entry(sigmask)


def _forget_warnings() -> None:
    """Let a warning the daemon met while it loaded (sent to its /dev/null) be shown again in the
    command, as in a fresh process: the "already shown" records of every module are dropped."""
    import warnings

    warnings.onceregistry.clear()
    try:
        warnings._filters_mutated()  # invalidates each module's __warningregistry__ (CPython)
    except AttributeError:  # pragma: no cover - another Python
        pass


def _make_stdio(mask: int, config: dict) -> None:
    """``sys.stdin``, ``sys.stdout``, ``sys.stderr`` (and their ``__std*__``) made as Python's
    start-up made the client's (``config``: its encoding, error handler and write-through, sent
    with the request: ``PYTHONIOENCODING``, ``-u``, the locale are the client's), as it makes them (``create_stdio`` in CPython's ``pylifecycle.c``): a buffered binary
    stream under a text wrapper with the start-up's encoding; stdin/stdout with its error
    handler, stderr with ``backslashreplace``; line-buffered when a terminal, stderr always;
    newline ``\\n``; a closed descriptor gives None."""
    import io

    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if not mask & (1 << fd):
            stream = None
        else:
            write = fd != 0
            unbuffered = config["write_through"] and write
            buf = io.open(fd, "wb" if write else "rb", buffering=0 if unbuffered else -1, closefd=False)
            raw = buf if unbuffered else buf.raw
            raw.name = f"<{name}>"
            tty = raw.isatty()
            stream = io.TextIOWrapper(buf, encoding=config["encoding"],
                                      errors="backslashreplace" if fd == 2 else config["errors"], newline="\n",
                                      line_buffering=not config["write_through"] and (tty or fd == 2),
                                      write_through=config["write_through"])
            stream.mode = "w" if write else "r"
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _run_entry(mask: set) -> int:
    """Restore the signal ``mask`` (a Ctrl-C held back since the fork ends the command now, with the
    console entry's line and exit 130), run the console entry (:data:`cardgen.cli.daemon_client.ENTRY`,
    :func:`cardgen.cli.entry.main`) and end as Python's own exit would: ``SystemExit``'s code
    (None → 0; a message → printed on stderr, 1), an uncaught exception's traceback (1; a
    KeyboardInterrupt ends by SIGINT), then threads joined, ``atexit`` handlers run, standard output
    and error flushed (120 when stdout cannot be)."""
    import atexit

    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal held back since the fork arrives now
    except KeyboardInterrupt:  # Ctrl-C before the command started: as the client ends on it
        daemon_client.interrupted()
    code = 0
    try:
        daemon_client.ENTRY()
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except KeyboardInterrupt:
        _print_uncaught()
        _flush(sys.stderr)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        code = 130
    except BaseException:  # noqa: BLE001 - printed as the interpreter prints it
        _print_uncaught()
        code = 1
    threading = sys.modules.get("threading")
    if threading is not None and hasattr(threading, "_shutdown"):
        threading._shutdown()
    atexit._run_exitfuncs()
    if sys.stdout is not None and not getattr(sys.stdout, "closed", True):
        try:
            sys.stdout.flush()
        except Exception as exc:  # noqa: BLE001 - reported as Python reports it
            _flush_failed(sys.stdout, exc)
            code = 120
    if not _flush(sys.stderr):
        code = 120
    return code


def _print_uncaught() -> None:
    """Print the exception being handled as the interpreter prints an uncaught one, from the
    console entry's frame on (this module's frame left out: a traceback reads as one of a run
    without the daemon, less the console script's line)."""
    kind, exc, tb = sys.exc_info()
    tb = tb.tb_next or tb
    sys.excepthook(kind, exc.with_traceback(tb), tb)  # the hook prints the exception's own traceback


def _exit_code(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    try:
        sys.stderr.write(f"{value}\n")
    except Exception:  # noqa: BLE001 - nowhere to say it
        pass
    return 1


def _flush(stream) -> bool:
    if stream is None or getattr(stream, "closed", True):
        return True
    try:
        stream.flush()
        return True
    except Exception:  # noqa: BLE001 - as the interpreter: nothing is said
        return False


def _flush_failed(stream, exc: BaseException) -> None:
    """What Python prints when its last flush of standard output fails."""
    try:
        sys.stderr.write(f"Exception ignored in: {stream!r}\n{type(exc).__name__}: {exc}\n")
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - nowhere to say it
        pass
