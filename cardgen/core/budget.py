"""A budget for a whole build, enforced by the operating system.

Everything cardgen does with a game folder from someone else (load, validate, lay out, render)
runs in a child process started by :func:`run_limited`, under ``resource.setrlimit`` limits on
address space (``RLIMIT_AS``, memory) and CPU time (``RLIMIT_CPU``). Whatever an expression, a
font file or a card table makes the code do, the child cannot take more than the budget: an
allocation past the memory limit fails (``MemoryError``, or the child dies), and past the CPU
limit the kernel sends ``SIGXCPU`` (turned into a clean stop here) and then ``SIGKILL``
:data:`HARD_GRACE_S` seconds later (CPU seconds: a stop that C code delays cannot outlast it). The parent reports either as one problem naming the game,
the limit and, where known, the ``file:line`` being evaluated (:func:`evaluating` records it in a
page of memory the parent can still read after the child was killed).

The cheap per-call guards of :mod:`cardgen.core.sandbox` stay for good messages; this budget is the
guarantee. The child runs in its own process group, so Ctrl-C reaches only the parent, which
kills the child's whole group (PNG workers included) at once: no worker tracebacks, no hang.
"""
from __future__ import annotations

import atexit
import mmap
import os
import pickle
import re
import resource
import select
import signal
import stat
import sys
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from cardgen.core.budget_limits import DEFAULT_CPU_S, DEFAULT_MEMORY_MB, HARD_GRACE_S
from cardgen.core.errors import CardgenError, Problem


@dataclass(frozen=True)
class Budget:
    """Limits of one game's build: ``memory_mb`` (address space, MB), ``cpu_s`` (CPU seconds),
    ``grace_s`` (seconds between the clean stop and the kernel's kill)."""

    memory_mb: int = DEFAULT_MEMORY_MB
    cpu_s: int = DEFAULT_CPU_S
    grace_s: int = HARD_GRACE_S

    def in_force(self) -> "Budget":
        """The limits a child actually gets: each no higher than this process's hard limit (a
        ``ulimit -v`` or a container's limit wins over ``--memory-limit``; :func:`_limit`)."""
        mem_hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        mem = self.memory_mb if mem_hard == resource.RLIM_INFINITY else min(self.memory_mb, mem_hard // 2**20)
        cpu = self.cpu_s if cpu_hard == resource.RLIM_INFINITY else min(self.cpu_s, cpu_hard)
        return replace(self, memory_mb=mem, cpu_s=cpu)


class BudgetStop(BaseException):
    """Raised in the child when its CPU budget is spent (SIGXCPU). A BaseException, so no
    ``except Exception`` on the way turns it into an ordinary message."""


# --- where the build is: a shared page the parent reads after the child ended -------------

_PAGE_SIZE = 1024
_PAGE = mmap.mmap(-1, _PAGE_SIZE)  # anonymous and shared: forked children write, the parent reads


def _write(text: str) -> None:
    data = text.encode("utf-8", "replace")[: _PAGE_SIZE - 2]
    _PAGE[:2] = len(data).to_bytes(2, "big")
    _PAGE[2:2 + len(data)] = data


def current() -> str:
    """What the build is evaluating now (``file:line``), or ""."""
    n = int.from_bytes(_PAGE[:2], "big")
    return _PAGE[2:2 + n].decode("utf-8", "replace")


@contextmanager
def evaluating(where: str) -> Iterator[None]:
    """Record ``where`` (``file:line`` of an expression, a template, a table) for the duration of
    the block, so a budget stop can name it. Cheap (a memory copy); nests."""
    before = current()
    _write(where)
    try:
        yield
    except (MemoryError, RecursionError, BudgetStop):
        raise  # the build stops here: keep ``where`` for the parent's message
    except BaseException:
        _write(before)
        raise
    _write(before)


# --- the child ----------------------------------------------------------------------------

_LIBC: list = []  # the C library (ctypes), once loaded: [CDLL] or [None] where it cannot be
_FORKER: int | None = None  # the pid of the process that last called before_fork (inherited by its children)


def _libc():
    if not _LIBC:
        import ctypes  # only processes that fork need it (``cardgen --help`` does not load it)
        try:
            _LIBC.append(ctypes.CDLL(None, use_errno=True))
        except OSError:  # pragma: no cover - no C library to load
            _LIBC.append(None)
    return _LIBC[0]


def before_fork() -> None:
    """Call in a process just before it forks a child that will call :func:`_die_with_parent`
    (a budgeted child, a pool of workers): records this process as the parent the child
    must die with, and loads the C library, so the child's request takes microseconds."""
    global _FORKER
    _FORKER = os.getpid()
    _libc()


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG); a no-op
    elsewhere. A parent that died between the fork and the request (:func:`before_fork` recorded
    it) is not seen by the kernel: the child then ends itself at once, rather than run on as an
    orphan holding the command's output pipes until its CPU budget is spent."""
    try:
        libc = _libc()
        if libc is None:  # pragma: no cover - not Linux
            return
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except AttributeError:  # pragma: no cover - not Linux
        return
    if _FORKER is not None and os.getppid() != _FORKER:
        os.kill(os.getpid(), signal.SIGKILL)


def worker_init() -> None:
    """Initializer for worker processes of a build (PNG rendering): die with the build process,
    and leave Ctrl-C to the parent (no worker tracebacks)."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _limit(kind: int, soft: int, hard: int) -> None:
    _old_soft, old_hard = resource.getrlimit(kind)
    if old_hard != resource.RLIM_INFINITY:
        soft, hard = min(soft, old_hard), min(hard, old_hard)
    resource.setrlimit(kind, (soft, hard))


def _apply(budget: Budget) -> None:
    mem = budget.memory_mb * 1024 * 1024
    _limit(resource.RLIMIT_AS, mem, mem)
    _limit(resource.RLIMIT_CPU, budget.cpu_s, budget.cpu_s + budget.grace_s)

    def spent(_signum, _frame):
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # once; the kernel kills at the hard limit
        raise BudgetStop()
    signal.signal(signal.SIGXCPU, spent)


#: Clean-ups registered by :func:`at_exit` in this process while it is a budget child (it ends
#: with ``os._exit``, which runs no ``atexit`` handler: they are run by :func:`_child` instead).
_CHILD_CLEANUPS: list[tuple[Callable[..., Any], tuple]] = []
_IN_CHILD = False


def at_exit(fn: Callable[..., Any], *args: Any) -> None:
    """Call ``fn(*args)`` when this process ends: at interpreter exit (``atexit``), and in a child
    of :func:`run_limited` before it ends (its ``os._exit`` skips ``atexit``: a temporary folder
    made in the child would stay behind). Handlers registered in the parent before the fork stay
    the parent's (the child never runs them). Errors of ``fn`` are ignored in the child."""
    atexit.register(fn, *args)
    if _IN_CHILD:
        _CHILD_CLEANUPS.append((fn, args))


def private_temp_dir(prefix: str) -> str:
    """A new private temporary folder (``tempfile.mkdtemp``) removed when this process ends
    (:func:`at_exit`), named ``{prefix}pg{PGID}-…`` after this process's group. A budgeted child
    leads its own group (its workers join it), so when the parent kills that group (Ctrl-C, a
    hard limit) — and no clean-up of the child can run — the parent removes the group's folders
    itself (:func:`_remove_group_temps`). → the folder's path.

    Raises:
        OSError: the temporary folder cannot be made."""
    import shutil  # lazy: +6 ms of imports here (measured)
    import tempfile  # lazy: +8 ms of imports here (measured)

    _remove_orphan_temps(prefix)
    path = tempfile.mkdtemp(prefix=f"{prefix}pg{os.getpgid(0)}-")
    at_exit(shutil.rmtree, path, True)
    return path


def _remove_orphan_temps(prefix: str) -> None:
    """Remove this user's ``{prefix}pg{PGID}-…`` folders whose process group has no process left:
    what a run killed as a whole (``kill -9``, the out-of-memory killer) left, since neither it nor
    its parent could clean up. The folders of running groups are kept."""
    import tempfile  # lazy: +8 ms of imports here (measured)

    pattern = re.compile(re.escape(prefix) + r"pg(\d+)-[A-Za-z0-9_]+")
    base = tempfile.gettempdir()
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        try:
            os.killpg(int(match.group(1)), 0)
            continue  # the group still has a process
        except ProcessLookupError:
            pass
        except (PermissionError, OverflowError, ValueError):  # another user's group, a bad number
            continue
        _remove_own_folder(os.path.join(base, name))


def _remove_group_temps(pgid: int) -> None:
    """Remove the folders :func:`private_temp_dir` made in process group ``pgid`` (a budgeted
    child's, ended) that are still there: only ``cardgen-*`` folders owned by this user.

    Runs after every budgeted child: names are compared as strings (``glob``'s pattern match cost
    ~9 ms per run in a temporary folder of 3,000 entries)."""
    import tempfile  # lazy: +8 ms of imports here (measured)

    base, mark = tempfile.gettempdir(), f"pg{pgid}-"
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        if name.startswith("cardgen-") and mark in name:
            _remove_own_folder(os.path.join(base, name))


def _remove_own_folder(path: str) -> None:
    """Remove ``path`` when it is a folder (not a link) owned by this user."""
    import shutil  # lazy: +9 ms of imports here (measured)

    try:
        st = os.lstat(path)
    except OSError:
        return
    if st.st_uid == os.getuid() and stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path, ignore_errors=True)


def _run_cleanups() -> None:
    while _CHILD_CLEANUPS:
        fn, args = _CHILD_CLEANUPS.pop()
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - a clean-up that fails must not stop the child's exit
            pass


def _child(fn: Callable[..., Any], args, kwargs, budget: Budget, w: int, mask: set = frozenset()) -> None:
    """Run ``fn`` under ``budget`` and send ``(kind, value)`` through ``w``; never returns.
    ``mask``: the signal mask to restore once SIGINT is ignored (:func:`fork_holding`)."""
    global _IN_CHILD
    _IN_CHILD = True
    status = 0
    try:
        os.setpgid(0, 0)  # own process group: Ctrl-C goes to the parent, which stops us all
        _die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _apply(budget)
        try:
            out: tuple = ("ok", fn(*args, **kwargs))
        except MemoryError:
            out = ("memory", None)
        except RecursionError:
            out = ("recursion", None)
        except BudgetStop:
            out = ("cpu", None)
        except BaseException as exc:  # noqa: BLE001 - handed to the parent as it was
            out = ("raise", exc)
        send_result(w, out)
    except BaseException:  # noqa: BLE001 - nothing may escape into the parent's code
        status = 70
    finally:
        try:
            _run_cleanups()
        finally:
            os._exit(status)


#: The write end of the event pipe, in a child started with ``on_event`` (:func:`send_event`).
_EVENTS: list[int] = []


def send_event(value: Any) -> None:
    """Hand ``value`` to the parent now, while this child goes on: in a child of
    :func:`start_limited` given ``on_event``, the parent calls ``on_event(value)`` as it arrives
    (pickled, like the result); anywhere else a no-op. A ``cardgen watch`` save reports its
    findings and each output swapped in so, before its rulebook is drawn."""
    if not _EVENTS:
        return
    data = pickle.dumps(value)
    view = memoryview(len(data).to_bytes(4, "big") + data)
    while view:
        view = view[os.write(_EVENTS[0], view):]


def _frames(buf: bytearray) -> Iterator[Any]:
    """The whole events at the start of ``buf`` (4-byte length, pickle), removed from it."""
    while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4], "big"):
        n = int.from_bytes(buf[:4], "big")
        value = pickle.loads(bytes(buf[4:4 + n]))
        del buf[:4 + n]
        yield value


def _read_with_events(r: int, er: int, on_event: Callable[[Any], None]) -> bytes:
    """:func:`_read_all` of the result pipe ``r`` while the events of ``er`` go to ``on_event``.
    Once the result is in, the events still in the pipe are read without waiting (a worker the
    child left may hold the pipe open)."""
    chunks, buf = [], bytearray()
    while True:
        ready, _, _ = select.select([r, er], [], [])
        if er in ready:
            b = os.read(er, 1 << 16)
            if b:
                buf += b
                for value in _frames(buf):
                    on_event(value)
            else:
                return b"".join(chunks) + _read_all(r)
        if r in ready:
            b = os.read(r, 1 << 16)
            if b:
                chunks.append(b)
                continue
            os.set_blocking(er, False)
            try:
                while b := os.read(er, 1 << 16):
                    buf += b
            except BlockingIOError:
                pass
            for value in _frames(buf):
                on_event(value)
            return b"".join(chunks)


def send_result(w: int, out: tuple) -> None:
    """Write ``out`` (``(kind, value)``) pickled to the pipe ``w``, whole; an exception that cannot
    be pickled goes as a ``RuntimeError`` keeping its words (the forked side of :func:`run_limited`)."""
    try:
        data = pickle.dumps(out)
    except Exception:  # noqa: BLE001 - an unpicklable value or exception: keep its words
        data = pickle.dumps(("raise", RuntimeError(f"{type(out[1]).__name__}: {out[1]}")))
    view = memoryview(data)
    while view:
        view = view[os.write(w, view):]


def _read_all(r: int) -> bytes:
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            return b"".join(chunks)
        chunks.append(b)


def _stop_group(pid: int, reaped: bool = False) -> None:
    """SIGKILL the child's process group (its workers), and the child itself unless reaped."""
    targets = [lambda: os.killpg(pid, signal.SIGKILL)] + ([] if reaped else [lambda: os.kill(pid, signal.SIGKILL)])
    for target in targets:
        try:
            target()
        except (ProcessLookupError, PermissionError):
            pass


def run_limited(fn: Callable[..., Any], *args, budget: Budget | None = None, game: str = "",
                on_event: Callable[[Any], None] | None = None, **kwargs) -> Any:
    """``fn(*args, **kwargs)`` in a forked child under ``budget``; returns its value.

    The value and any exception travel back pickled (a :class:`CardgenError` arrives as it was
    raised, so the caller prints it as usual). ``game`` names the game in budget messages.
    ``on_event``: see :func:`start_limited`.

    Raises:
        CardgenError: the child ran out of memory or CPU time, recursed too deeply, or died
            (naming ``game``, the limit and the ``file:line`` being evaluated when known).
        KeyboardInterrupt: Ctrl-C in the parent; the child and its workers are killed first.
        whatever ``fn`` raised.
    """
    return start_limited(fn, *args, budget=budget, game=game, on_event=on_event, **kwargs).result()


class Limited:
    """A budgeted child started by :func:`start_limited`; :meth:`result` waits for its value."""

    def __init__(self, pid: int | None, r: int | None, budget: Budget, game: str, done: tuple | None = None,
                 events: tuple[int, Callable[[Any], None]] | None = None):
        self.pid, self._r, self.budget, self.game = pid, r, budget, game
        self._done = done  # ("ok", value) / ("raise", exc) once known
        self._events = events  # (read end of the event pipe, on_event)

    def _close_events(self) -> None:
        if self._events is not None:
            os.close(self._events[0])
            self._events = None

    def result(self) -> Any:
        """The child's value, as :func:`run_limited` returns it (and raises what it raises);
        once collected, the same answer again."""
        if self._done is None:
            self._done = self._collect()
        kind, value = self._done
        if kind == "ok":
            return value
        raise value

    def _collect(self) -> tuple:
        pid, r = self.pid, self._r
        try:
            try:
                data = _read_with_events(r, *self._events) if self._events is not None else _read_all(r)
                _, status = os.waitpid(pid, 0)
            except BaseException:  # Ctrl-C (or anything) while waiting: stop the child's whole group
                _stop_group(pid)
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
                _remove_group_temps(pid)
                raise
            finally:
                os.close(r)
                self._r = None
                self._close_events()
        except BaseException as exc:
            self._done = ("raise", exc)
            raise
        _stop_group(pid, reaped=True)  # workers the child left behind
        _remove_group_temps(pid)  # a child killed (a hard limit) could not remove its folders
        where = current()
        if data:
            try:
                kind, value = pickle.loads(data)
            except Exception:  # noqa: BLE001 - a truncated message (the child died writing it), or a bug
                kind, value = ("died" if status else "unreadable"), None
        else:
            kind, value = "died", None
        if kind in ("ok", "raise"):
            return kind, value
        return "raise", CardgenError(_stopped(kind, status, self.budget, self.game, where))

    def stop(self) -> None:
        """Kill the child and its workers if it still runs, and reap it (its value is lost)."""
        if self._r is None:
            return
        _stop_group(self.pid)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        _remove_group_temps(self.pid)
        os.close(self._r)
        self._r = None
        self._close_events()


def start_limited(fn: Callable[..., Any], *args, budget: Budget | None = None, game: str = "",
                  on_event: Callable[[Any], None] | None = None, **kwargs) -> Limited:
    """Start ``fn(*args, **kwargs)`` in a forked child under ``budget`` now; :meth:`Limited.result`
    gives what :func:`run_limited` would (``run_limited`` is ``start_limited(...).result()``), and
    :meth:`Limited.stop` ends a child whose value is not wanted. Without ``os.fork`` the call runs
    here, at once. ``on_event``: called in this process, while :meth:`Limited.result` waits, with
    each value the child hands over with :func:`send_event`.

    Raises:
        OSError: no pipe or process can be made (``ulimit -n``, ``ulimit -u``)."""
    budget = budget or Budget()
    if not hasattr(os, "fork"):  # pragma: no cover - not POSIX: no OS budget, run here
        try:
            return Limited(None, None, budget, game, ("ok", fn(*args, **kwargs)))
        except Exception as exc:  # noqa: BLE001 - raised again by result()
            return Limited(None, None, budget, game, ("raise", exc))
    _write("")
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    er, ew = os.pipe() if on_event is not None else (None, None)
    before_fork()
    pid, mask = fork_holding()
    if pid == 0:  # pragma: no cover - runs in the child (measured by its effects)
        os.close(r)
        if er is not None:
            os.close(er)
            _EVENTS[:] = [ew]
        _child(fn, args, kwargs, budget, w, mask)
    os.close(w)
    if ew is not None:
        os.close(ew)
    limited = Limited(pid, r, budget, game, events=(er, on_event) if er is not None else None)
    try:
        try:
            os.setpgid(pid, pid)  # also here: no race with a Ctrl-C before the child did it
        except OSError:
            pass
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a Ctrl-C held back during the fork is raised here
    except BaseException:  # Ctrl-C right after the fork: the child goes too
        limited.stop()
        raise
    return limited


def fork_holding(signals=frozenset({signal.SIGINT})) -> tuple[int, set]:
    """``os.fork()`` with ``signals`` blocked (default: SIGINT); → (pid, the signal mask to
    restore). A Ctrl-C during the fork would otherwise be raised inside an at-fork hook (logging's
    ``_releaseLock``, run by ``os.fork`` in the parent), which swallows it ("Exception ignored in:
    …") and the build ran on; a signal sent to a child before it set its own handlers would meet
    the parent's. The parent restores the mask once it can stop the child (a held-back signal is
    raised there), the child once its handlers are its own (:func:`start_limited`)."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        return os.fork(), mask
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise


def _stopped(kind: str, status: int, budget: Budget, game: str, where: str) -> Problem:
    budget = budget.in_force()  # the message states the limit the child had, not only the one asked for
    at = f" while evaluating {where}" if where else ""
    if kind == "died" and os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGKILL, signal.SIGXCPU):
        kind = "cpu"  # the kernel's hard CPU limit (or the OOM killer): name the CPU budget, it is the usual one
    if kind == "memory":
        return Problem(game, None, "", f"the build needed more than {budget.memory_mb:,} MB of memory and was "
                       f"stopped{at}", "an expression, a card table or a card size asks for far too much; fix it, "
                       "or raise the budget with --memory-limit MB", code="memory-limit")
    if kind == "cpu":
        return Problem(game, None, "", f"the build used more than {budget.cpu_s:,} seconds of CPU time and was "
                       f"stopped{at}", "a loop, an expression or a text box takes far too long; fix it, or raise "
                       "the budget with --cpu-limit SECONDS", code="cpu-limit")
    if kind == "recursion":
        return Problem(game, None, "", f"the build recursed too deeply and was stopped{at}",
                       "a macro or an expression that calls itself without end?", code="recursion-limit")
    if kind == "unreadable":
        return Problem(game, None, "", "the build finished but its result could not be read back",
                       "this is a bug in cardgen: please report it with the command you ran", code="build-died")
    how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit status {os.WEXITSTATUS(status)}")
    return Problem(game, None, "", f"the build process ended unexpectedly ({how}){at}",
                   f"the budget is {budget.memory_mb:,} MB and {budget.cpu_s:,} s CPU (--memory-limit, --cpu-limit); "
                   "if this repeats with a small game, it is a bug in cardgen: please report it", code="build-died")
