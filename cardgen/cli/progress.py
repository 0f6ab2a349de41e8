"""Progress bars for long build steps (rich), shown only on a terminal.

``with bars(quiet) as progress: build_game(..., progress=progress)`` — ``progress`` is None when
bars are off (``--quiet``, or standard error is not a terminal), else a factory
``progress(label, total) -> tick`` as :func:`cardgen.api.build_game` expects: each call adds a bar,
each ``tick()`` advances it by one. Bars go to standard error and vanish when the step ends.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

Factory = Callable[[str, int], Callable[[], None]]


def enabled(quiet: bool, stream=None) -> bool:
    """Bars are drawn unless ``quiet`` or ``stream`` (default stderr) is not a terminal."""
    stream = stream if stream is not None else sys.stderr
    return not quiet and hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def bars(quiet: bool = False) -> Iterator[Optional[Factory]]:
    """A progress factory for the duration of the ``with`` block (None when bars are off)."""
    if not enabled(quiet):
        yield None
        return
    from rich.console import Console  # lazy: +41 ms of imports here (measured)
    from rich.progress import (  # lazy: +53 ms of imports here (measured)
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    prog = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=True)

    def factory(label: str, total: int) -> Callable[[], None]:
        task = prog.add_task(label, total=total)
        return lambda: prog.advance(task)

    with prog:
        yield factory
