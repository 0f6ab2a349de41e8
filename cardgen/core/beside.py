"""A function run in a forked process beside this one, its value collected later (:class:`Beside`).

On a machine with a second core, work that does not depend on what this process does next can run
meanwhile: the font set-up of ``cardgen validate`` while the command loads its libraries
(:mod:`cardgen.fonts.helper`). The value (or the exception) travels back pickled through a
pipe, as :func:`cardgen.core.budget.run_limited` sends a build's; the forked process inherits the
budget limits in force (``setrlimit`` limits are per process: it gets its own CPU seconds and
address space under the same limits), dies with the process that forked it and leaves Ctrl-C to
it. Without ``os.fork`` the function runs at once, in this process.
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import time
from typing import Any, Callable


class BesideFailed(Exception):
    """The process beside ended without a value (killed, out of its budget, past the wait)."""


class Beside:
    """``fn(*args)`` started now in a forked process; :meth:`result` gives its value.

    ``init``, when given, runs first in the forked process (limits, redirections); what it
    raises is what :meth:`result` raises. The process that created the object, or any process
    forked from it later, may collect the value, once; only the creator reaps the process.
    """

    def __init__(self, fn: Callable[..., Any], *args: Any, init: Callable[[], None] | None = None):
        self._done: tuple | None = None
        self._creator = os.getpid()
        if not hasattr(os, "fork"):  # pragma: no cover - not POSIX: run here
            self.pid, self._fd = None, None
            self._done = _call(fn, args, init)
            return
        from cardgen.core.budget import before_fork

        r, w = os.pipe()
        before_fork()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs beside (measured by its effects)
            os.close(r)
            _serve(fn, args, init, w)
        os.close(w)
        self.pid, self._fd = pid, r

    def result(self, wait_s: float | None = None) -> Any:
        """The value of ``fn(*args)``, waiting for it (at most ``wait_s`` seconds, then the
        process is killed); re-raises what it raised.

        Raises:
            BesideFailed: it ended without a value, or did not finish within ``wait_s``.
        """
        if self._done is None:
            self._done = self._collect(wait_s)
        kind, value = self._done
        if kind == "ok":
            return value
        if kind == "raise":
            raise value
        raise BesideFailed(value)

    def _collect(self, wait_s: float | None) -> tuple:
        fd, chunks = self._fd, []
        deadline = None if wait_s is None else time.monotonic() + wait_s
        try:
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                if left is not None and not select.select([fd], [], [], left)[0]:
                    self.stop()
                    return ("failed", f"no answer within {wait_s} s")
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError as exc:
            return ("failed", str(exc))
        finally:
            self._close()
        self._reap()
        try:
            out = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - nothing, or cut short: it died
            return ("failed", "it ended without an answer")
        return out if isinstance(out, tuple) and len(out) == 2 else ("failed", "an answer of another shape")

    def _close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def _reap(self) -> None:
        if self.pid is not None and os.getpid() == self._creator:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass

    def stop(self) -> None:
        """Kill the process if it still runs and reap it (when this process created it); its
        value is then lost. Safe to call at any time."""
        self._close()
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._reap()
        if self._done is None:
            self._done = ("failed", "stopped")


def _call(fn, args, init) -> tuple:
    try:
        if init is not None:
            init()
        return ("ok", fn(*args))
    except BaseException as exc:  # noqa: BLE001 - handed to the collector as it was
        return ("raise", exc)


def _serve(fn, args, init, w: int) -> None:
    """In the forked process: die with the creator, leave Ctrl-C to it, run, send, end."""
    status = 0
    try:
        from cardgen.core.budget import send_result, worker_init

        worker_init()
        send_result(w, _call(fn, args, init))
    except BaseException:  # noqa: BLE001 - nothing may escape into the creator's code
        status = 70
    finally:
        os._exit(status)
