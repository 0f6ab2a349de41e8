"""A time budget per input file over one long job that works through several files in turn (the
rulebook's layout: each rules file's flowables are laid out in the order of the book, over
several passes): :class:`FileClock` charges the time to the file being worked on and stops the job
when one file has used its budget, naming it."""
from __future__ import annotations

import signal
import threading
import time

from cardgen.core import sandbox
from cardgen.core.sandbox import BudgetExceeded


class FileClock:
    """``with FileClock("laying out") as clock: … clock.switch(name) …``: from each
    :meth:`switch` on, the time goes to file ``name`` (None: to no file — the job's own parts);
    a file that has used ``seconds`` of CPU time in all (:data:`cardgen.core.sandbox.MAX_SECONDS`
    by default) raises :class:`~cardgen.core.sandbox.BudgetExceeded` inside the job, and
    :attr:`stopped_in` names it. CPU time, not time on the clock: a file's layout is stopped for
    its own work, however busy the machine. One interval timer (``ITIMER_PROF``, apart from the
    ``ITIMER_VIRTUAL`` of :func:`cardgen.core.sandbox.time_budget`): only in the main thread of a Unix
    process and when no other such clock runs (elsewhere it counts nothing; the OS budget of the
    whole build still holds)."""

    def __init__(self, what: str, seconds: float | None = None):
        self.what = what
        self.seconds = sandbox.MAX_SECONDS if seconds is None else seconds
        self.spent: dict[str, float] = {}
        self.current: str | None = None
        self.stopped_in: str | None = None  #: the file whose budget ran out
        self._since = 0.0
        self._on = False
        self._previous = None

    def __enter__(self) -> "FileClock":
        self._on = (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
                    and not signal.getitimer(signal.ITIMER_PROF)[0])
        if self._on:
            self._previous = signal.signal(signal.SIGPROF, self._expired)
        return self

    def __exit__(self, *exc) -> None:
        if self._on:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self._previous)
            self._on = False

    def message(self) -> str:
        """What stopped: ``laying out rules.md used more than 20 seconds of CPU time and was stopped``."""
        name = (self.stopped_in or "").rsplit("/", 1)[-1]
        unit = "second" if self.seconds == 1 else "seconds"
        return f"{self.what} {name} used more than {self.seconds:g} {unit} of CPU time and was stopped"

    def switch(self, name: str | None) -> None:
        """The time from now on goes to ``name`` (None: to no file)."""
        if not self._on or name == self.current:
            return
        now = time.process_time()
        if self.current is not None:
            self.spent[self.current] = self.spent.get(self.current, 0.0) + now - self._since
        self.current, self._since = name, now
        if name is None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            return
        left = self.seconds - self.spent.get(name, 0.0)
        if left <= 0:
            self._expired()
        signal.setitimer(signal.ITIMER_PROF, left)

    def _expired(self, _signum=None, _frame=None) -> None:
        self.stopped_in = self.current
        if self._on:
            signal.setitimer(signal.ITIMER_PROF, 0)
        raise BudgetExceeded(self.message())
