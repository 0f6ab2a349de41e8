"""What fontTools logs while cardgen reads a font file, kept instead of printed: a damaged or
hostile font (a collection whose faces point into garbage) makes fontTools log one line per
malformed record — megabytes of them on the terminal. Each file's messages are counted under its
path (:func:`reading`) and become one warning finding (:func:`library_warnings`)."""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

#: Font file path → [messages logged while reading it, the first one].
_LOGGED: dict[str, list] = {}
_LOCK = threading.Lock()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if not self.first:
            try:
                self.first = record.getMessage()[:160]
            except Exception:  # noqa: BLE001 - a message that cannot be formatted is still counted
                self.first = str(record.msg)[:160]


@contextmanager
def reading(path: Path | str) -> Iterator[None]:
    """Read a font file inside this block: fontTools' warnings are counted under ``path``, not printed."""
    log = logging.getLogger("fontTools")
    handler = _Collect()
    with _LOCK:
        log.addHandler(handler)
        saved, log.propagate = log.propagate, False
    try:
        yield
    finally:
        with _LOCK:
            log.removeHandler(handler)
            if not log.handlers:
                log.propagate = saved
            if handler.count:
                entry = _LOGGED.setdefault(str(path), [0, handler.first])
                entry[0] += handler.count


def library_warnings() -> list[tuple[str, int, str]]:
    """(path, messages, the first) for each font file fontTools logged about in this process."""
    with _LOCK:
        return [(p, n, first) for p, (n, first) in _LOGGED.items()]
