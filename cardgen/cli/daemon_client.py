"""The client of ``cardgen daemon``, the opt-in preloaded fork server (:mod:`cardgen.cli.fork_server`).

:func:`run_elsewhere` is the first thing the console entry (:func:`cardgen.cli.entry.main`) does.
When a daemon started by ``cardgen daemon start`` listens on the socket named by this process's
:func:`key`, the command runs in a child the daemon forks: this process sends it the command line,
the current folder, the umask, the environment and its standard input, output and error (the file
descriptors themselves, ``SCM_RIGHTS``), forwards Ctrl-C (SIGINT), SIGTERM and SIGHUP to the
child's process group, and ends with the child's exit status. Otherwise — no daemon for this key,
``CARDGEN_NO_DAEMON=1``, a ``cardgen daemon …`` command, a folder that is not private, a daemon
that answers "stale", a socket file left by a killed daemon (removed here) — it returns, and the
command runs in this process as it always did.

The socket's name is the key: a digest of everything that makes a preloaded process differ from a
fresh one (:func:`key`: cardgen's files, the Python executable and version, its flags and path,
the installed packages' folders, the resource limits and the environment). A daemon never
serves a process whose key differs, so code edited after ``daemon start``, a ``pip install``,
another virtual environment or another environment variable (a test run's own ``XDG_CACHE_HOME``)
never meets it: that command runs here.

Only the standard library's built-in modules are imported (``_socket``, ``_signal``, ``_sha1``):
a process that finds no daemon pays a ``listdir`` of the socket folder, and one that finds one
pays about a millisecond for the key (≈ 200 ``stat`` calls).
"""
from __future__ import annotations

import os
import stat
import sys

#: Environment variables left out of the key: they change from shell to shell or terminal to
#: terminal (the same user in another window, tmux pane or ssh session) without changing what a
#: command does, and no module reads them as it loads (the child still gets them, with the rest
#: of the client's environment).
VOLATILE = frozenset({b"PWD", b"OLDPWD", b"_", b"SHLVL", b"CARDGEN_NO_DAEMON", b"WINDOWID", b"TERM_SESSION_ID",
                      b"ITERM_SESSION_ID", b"KITTY_WINDOW_ID", b"WEZTERM_PANE", b"TMUX_PANE", b"STY", b"SSH_TTY",
                      b"SSH_CLIENT", b"SSH_CONNECTION", b"GPG_TTY"})
#: The line every way a command can be interrupted ends with (exit 130): this client, the console
#: entry (:func:`cardgen.cli.entry.main`) and the command line (:mod:`cardgen.cli.commands`).
INTERRUPTED = "cardgen: interrupted; each output folder holds all its new files or all its previous ones, never a mix"
#: Protocol tag, first field of every request.
MAGIC = b"cardgen-daemon-3"
#: The signals the client passes on to the command's process group.
FORWARDED = (2, 15, 1)  # SIGINT, SIGTERM, SIGHUP (the same numbers on every Linux)
#: How long the client waits for the daemon's child to say "pid" (seconds): a daemon that is busy,
#: stopped (SIGSTOP) or stuck does not hold the command; it runs in the client instead.
PID_TIMEOUT_S = 2.0
_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: The environment as the console entry found it (:func:`run_elsewhere` takes it before
#: :func:`cardgen.cli.entry.main` sets anything): ``cardgen daemon start`` keys the daemon by it.
START_ENV: dict[bytes, bytes] | None = None
#: Set in the daemon's children: the command runs in this process.
IN_DAEMON = False
#: The console entry (:func:`cardgen.cli.entry.main`) that called :func:`run_elsewhere`.
ENTRY = None


def disabled() -> bool:
    """Whether ``CARDGEN_NO_DAEMON=1`` asks commands not to use a daemon (only the value 1 does)."""
    return os.environ.get("CARDGEN_NO_DAEMON") == "1"


def command_name(argv: list[str]) -> str | None:
    """The command word of ``argv`` (``sys.argv``) after the global options that take a value
    (``--project X``, ``--project=X``), or None."""
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--project":
            i += 2
        elif word.startswith("--project="):
            i += 1
        else:
            return word
    return None


def folder() -> str:
    """The folder of this user's daemon sockets: ``$XDG_RUNTIME_DIR/cardgen`` when that variable
    names an absolute path, else ``/tmp/cardgen-<uid>``."""
    base = os.environ.get("XDG_RUNTIME_DIR", "")
    if base.startswith("/"):
        return os.path.join(base, "cardgen")
    return f"/tmp/cardgen-{os.getuid()}"


def folder_problem(path: str) -> str | None:
    """What makes ``path`` unfit to hold this user's sockets — not a folder (a link is not
    followed), another owner, open to others (any group or other permission bit) — in words,
    or None when it is fit. Raises ``FileNotFoundError`` when it does not exist."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link, not a folder"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != os.getuid():
        return f"belongs to user id {st.st_uid}, not to you (user id {os.getuid()})"
    if st.st_mode & 0o077:
        return f"can be used by other users (mode {stat.S_IMODE(st.st_mode):04o}; it must be 0700)"
    return None


def _hasher():
    try:
        from _sha1 import sha1  # built in: ≈ 0.1 ms, where hashlib loads OpenSSL (≈ 2 ms)
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import sha1
    return sha1()


def key(environ: dict[bytes, bytes]) -> str:
    """The daemon key of this process with environment ``environ`` (20 hex digits): a digest of
    cardgen's files (relative path, size, modification and change times, inode — any write changes
    the change time; ``__pycache__`` left out), the Python
    executable, version, ``sys.flags``, ``-W`` and ``-X`` options and ``sys.path``, the
    modification times of its ``site-packages`` folders (a ``pip install`` of a new package changes
    them; not the other ``sys.path`` folders, such as an editable install's checkout, where any new
    file — a log, an editor's swap file — would change the key: an edited file of a module the
    daemon loaded is caught by the daemon itself, :mod:`cardgen.cli.module_watch`),
    ``~/.reportlab_settings`` (read by reportlab at import), the user
    and group ids, the resource limits (``ulimit``), the process settings a command would run
    under (:func:`containment`) and ``environ`` without :data:`VOLATILE`."""
    h = _hasher()
    out = [sys.executable, sys.version, repr(tuple(sys.flags)), repr(sys.warnoptions),
           repr(sorted(sys._xoptions.items())), repr(sys.path), repr((os.getuid(), os.getgid(), os.getgroups()))]
    installed = [e for e in sys.path if os.path.basename(e) in ("site-packages", "dist-packages")]
    for entry in installed + [os.path.join(os.environ.get("HOME", "/nonexistent"), ".reportlab_settings")]:
        try:
            out.append(f"{entry}:{os.stat(entry).st_mtime_ns}")
        except (OSError, ValueError):
            out.append(f"{entry}:-")
    try:
        import resource

        out.append(repr([resource.getrlimit(getattr(resource, n)) for n in sorted(dir(resource))
                         if n.startswith("RLIMIT_")]))
    except ImportError:  # pragma: no cover - not POSIX
        pass
    out.append(containment())
    h.update("\0".join(out).encode("utf-8", "surrogateescape"))
    _hash_tree(h, _PKG, "")
    for name, value in sorted(environ.items()):
        if name not in VOLATILE:
            h.update(b"\0E" + name + b"=" + value)
    return h.hexdigest()[:20]


def containment() -> str:
    """What confines this process that a daemon's child would not inherit from its client: the
    nice value, the CPUs it may run on (``taskset``), its control groups (``systemd-run -p
    MemoryMax=…``: ``/proc/self/cgroup``) and its blocked signals, in words. A client whose
    settings differ from the daemon's never meets it (the key differs): its command runs in the
    client, confined as it was."""
    import _signal

    parts = []
    for name, get in (("nice", lambda: os.getpriority(os.PRIO_PROCESS, 0)),
                      ("cpus", lambda: sorted(os.sched_getaffinity(0))),
                      ("blocked", lambda: sorted(int(s) for s in _signal.pthread_sigmask(_signal.SIG_BLOCK, ())))):
        try:
            parts.append(f"{name}={get()}")
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            parts.append(f"{name}=-")
    try:
        with open("/proc/self/cgroup", "rb") as f:
            parts.append("cgroup=" + f.read().decode("utf-8", "replace"))
    except OSError:  # pragma: no cover - not Linux
        parts.append("cgroup=-")
    return " ".join(parts)


def _hash_tree(h, path: str, rel: str) -> None:
    with os.scandir(path) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name == "__pycache__":
                continue
            st = entry.stat(follow_symlinks=False)
            h.update(f"\0F{rel}{entry.name}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
                     .encode("utf-8", "surrogateescape"))
            if entry.is_dir(follow_symlinks=False):
                _hash_tree(h, entry.path, f"{rel}{entry.name}/")


def socket_path(folder_path: str, daemon_key: str) -> str:
    """The socket of the daemon keyed ``daemon_key`` in ``folder_path``."""
    return os.path.join(folder_path, f"{daemon_key}.sock")


def peer_uid(sock) -> int:
    """The user id of the process at the other end of the Unix socket ``sock`` (``SO_PEERCRED``)."""
    import _socket

    cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)  # struct ucred: pid, uid, gid
    return int.from_bytes(cred[4:8], sys.byteorder)


def unlink_if_same(path: str, stamp) -> None:
    """Remove the socket file ``path`` if it is still the file ``stamp`` (its ``lstat`` before the
    connection) names: a new daemon that renamed its socket there meanwhile keeps it."""
    try:
        now = os.lstat(path)
        if stat.S_ISSOCK(now.st_mode) and (now.st_dev, now.st_ino) == (stamp.st_dev, stamp.st_ino):
            os.unlink(path)
    except OSError:
        pass


def peer_pid(sock) -> int:
    """The pid of the process at the other end of the Unix socket ``sock`` (``SO_PEERCRED``)."""
    import _socket

    cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    return int.from_bytes(cred[0:4], sys.byteorder)


def connect(path: str, stamp=None):
    """A stream socket connected to the daemon at ``path`` and owned by this user, or None when
    nothing listens there. A socket file nobody listens on (its daemon was killed) is removed,
    when it is still the file ``stamp`` names (``os.lstat(path)`` taken before; by default, now).

    Raises:
        OSError: ``path`` cannot be reached for another reason (the caller runs the command itself)."""
    import _socket

    try:
        stamp = stamp or os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except ConnectionRefusedError:
        sock.close()
        unlink_if_same(path, stamp)
        return None
    except (FileNotFoundError, NotADirectoryError):
        sock.close()
        return None
    except BaseException:
        sock.close()
        raise
    if peer_uid(sock) != os.getuid():
        sock.close()
        return None
    return sock


def send_request(sock, fields: list[bytes], fds: list[int] = ()) -> None:
    """Send one request: ``fields`` joined by NUL bytes after a 4-byte length, and ``fds`` as
    ``SCM_RIGHTS`` (the file descriptors themselves)."""
    import _socket

    data = b"\0".join(fields)
    msg = len(data).to_bytes(4, "big") + data
    ancillary = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds))] if fds else []
    sent = sock.sendmsg([msg], ancillary)
    if sent < len(msg):
        sock.sendall(msg[sent:])


class Lines:
    """The daemon's answer lines on ``sock``, read as they come."""

    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def next(self) -> str | None:
        """The next line (without its newline), or None at end of stream or on an error."""
        while b"\n" not in self.buf:
            try:
                chunk = self.sock.recv(4096)
            except OSError:
                return None
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode("ascii", "replace")


def stdio_config() -> bytes:
    """How Python's start-up made this process's standard streams (``PYTHONIOENCODING``, ``-u``,
    the locale), for the daemon's child to make its own the same way: ``encoding,errors,write_through``
    (the first open stream's encoding and write-through; stdout's, else stdin's error handler;
    stderr's is always ``backslashreplace``)."""
    streams = [s for s in (sys.__stdout__, sys.__stdin__, sys.__stderr__) if s is not None]
    first = streams[0] if streams else None
    errors = next((s.errors for s in (sys.__stdout__, sys.__stdin__) if s is not None and s.errors), "strict")
    encoding = getattr(first, "encoding", None) or "utf-8"
    return f"{encoding},{errors},{int(bool(getattr(first, 'write_through', False)))}".encode("ascii", "replace")


def _usable_fds() -> tuple[list[int], int]:
    """This process's standard input, output and error that are open (→ the fds, and a mask of
    which of 0, 1, 2 they are): a closed one stays closed in the child (``sys.stdout`` None)."""
    fds, mask = [], 0
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            continue
        fds.append(fd)
        mask |= 1 << fd
    return fds, mask


def run_elsewhere(argv: list[str], entry) -> None:
    """Run the command ``argv`` (``sys.argv``) in a child of this user's daemon when one is
    listening for this process's key, and end this process with the command's exit status (or,
    when the command died of a signal, of that signal). Returns, having done nothing visible,
    when the command is to run in this process (see the module's docstring). ``entry``: the
    console entry calling (kept as :data:`ENTRY`: a daemon started by this process runs it in its
    children)."""
    global START_ENV, ENTRY
    ENTRY = entry
    if START_ENV is None:
        START_ENV = dict(os.environb)
    if IN_DAEMON or disabled() or command_name(argv) == "daemon":
        return
    try:
        where = folder()
        try:
            if not os.listdir(where):
                return
        except OSError:  # no folder: no daemon was ever started here
            return
        if folder_problem(where) is not None:  # not private: never used (`cardgen daemon status` says why)
            return
        own_key = key(START_ENV)
        path = socket_path(where, own_key)
        stamp = os.lstat(path)
        sock = connect(path, stamp)
    except KeyboardInterrupt:
        interrupted()
    except (OSError, ValueError):
        return
    if sock is not None:
        _run(sock, argv, own_key, path, stamp)


def interrupted() -> None:
    """End this process as the console entry ends on Ctrl-C before a command started: its one
    line on standard error, exit 130."""
    sys.stderr.write(INTERRUPTED + "\n")
    sys.stderr.flush()
    os._exit(130)


def _run(sock, argv: list[str], own_key: str, path: str, stamp) -> None:
    """Hand the command to the daemon on ``sock`` and end with its status; return when the daemon
    declines (stale) or goes away before it started the command."""
    import _signal

    child = [0]

    def forward(signum, _frame):
        if child[0]:
            try:
                os.killpg(child[0], signum)
            except OSError:
                pass
            return
        # No command yet: this process ends as a run without the daemon would (the daemon kills a
        # child it forked for a client that went away).
        if signum == 2:
            interrupted()
        _signal.signal(signum, _signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    ignored = []
    for signum in FORWARDED:
        if _signal.getsignal(signum) == _signal.SIG_IGN:  # nohup, a background job: the child ignores it too
            ignored.append(signum)
        else:
            _signal.signal(signum, forward)
    try:
        fds, mask = _usable_fds()
        here = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        umask = os.umask(0o022)
        os.umask(umask)
        fields = [MAGIC, b"run", own_key.encode(), str(umask).encode(), str(mask).encode(),
                  ",".join(map(str, ignored)).encode(), stdio_config(), str(len(argv)).encode(), *map(os.fsencode, argv),
                  *(k + b"=" + v for k, v in os.environb.items())]
        sock.settimeout(PID_TIMEOUT_S)  # for the request and the "pid" line
        try:
            send_request(sock, fields, [here])
        finally:
            os.close(here)
        answers = Lines(sock)
        first = answers.next()
    except OSError:
        first = None
    last = None
    if first is not None and first.startswith("pid "):
        child[0] = int(first[4:])
        try:  # the standard streams go only to a child that waits for them: a daemon that is
            # stopped or busy never holds them (a pipe's reader would wait for it)
            sock.settimeout(None)  # the command takes as long as it takes
            send_request(sock, [b"streams"], fds)
            last = answers.next()
        except OSError:  # the child is gone before it had them: the command never started
            last = "declined"
    if first is None or not first.startswith("pid ") or last == "declined":
        # "stale", "declined" (its child could not take this process's state), no answer within
        # PID_TIMEOUT_S, or the daemon went away: run here
        child[0] = 0
        sock.close()
        if first == "stale":  # it ends; its socket goes now, unless a new daemon's took its place
            unlink_if_same(path, stamp)
        for signum in FORWARDED:
            if signum not in ignored:
                _signal.signal(signum, _signal.default_int_handler if signum == 2 else _signal.SIG_DFL)
        return
    if last is not None and last.startswith("exit "):
        os._exit(int(last[5:]))
    if last is not None and last.startswith("signal "):
        signum = int(last[7:])
        _signal.signal(signum, _signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        os._exit(128 + signum)
    try:  # the daemon was killed while the command ran (its child went with it)
        os.killpg(child[0], 9)
    except OSError:
        pass
    sys.stderr.write(f"cardgen: error: the cardgen daemon ended while it ran this command (pid {child[0]}); "
                     "its output folders hold all their new files or all their previous ones\n"
                     "    hint: run the command again; `cardgen daemon status` says whether a daemon runs\n")
    sys.stderr.flush()
    os._exit(1)

