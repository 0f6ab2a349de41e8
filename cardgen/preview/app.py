"""``cardgen serve`` as a library call: the server and the rebuild loop on their threads
(:func:`serve`); the CLI command is a thin layer over it."""
from __future__ import annotations

import importlib
import threading
from pathlib import Path
from typing import Callable

from cardgen.core.budget import Budget
from cardgen.core.errors import Problem, UsageError
from cardgen.preview.live import Preview
from cardgen.preview.server import PreviewServer

#: Modules the rebuild children use, imported before any thread starts (:func:`warm_imports`).
WARM = ("PIL.PngImagePlugin", "pypdfium2", "cardgen.api", "cardgen.render.card_pdf", "cardgen.render.png_cards",
        "cardgen.rulebook.pdf", "cardgen.steps.exports", "cardgen.check.print_setup", "cardgen.render.images",
        "cardgen.steps.game_check", "watchfiles")


def warm_imports() -> None:
    """Import :data:`WARM` now: a child forked while another thread holds the import lock would
    wait for it for ever, and a child that imports nothing starts faster."""
    for name in WARM:
        importlib.import_module(name)


def serve(game_dir: Path, host: str = "127.0.0.1", port: int = 8000, budget: Budget | None = None,
          on_ready: Callable[[str], None] | None = None, stop: threading.Event | None = None, options=None):
    """Serve the live preview of ``game_dir`` on ``host:port`` until ``stop`` is set (or Ctrl-C).

    ``on_ready(url)`` is called once the server listens and the first cards are laid out. Returns
    when stopped.

    Raises:
        UsageError: the address cannot be listened on (port in use, unknown host).
    """
    warm_imports()
    stop = stop or threading.Event()
    preview = Preview(game_dir, budget=budget, options=options)
    try:
        server = PreviewServer((host, port), preview)
    except OSError as exc:
        raise UsageError(Problem(f"{host}:{port}", None, "", f"cannot listen there: {exc.strerror or exc}",
                                 "choose another --port (0 picks a free one)", code="serve-bind")) from None
    ready = threading.Event()
    loop = threading.Thread(target=preview.run, args=(stop,), kwargs={"ready": ready}, name="preview-watch", daemon=True)
    http = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, name="preview-http", daemon=True)
    http.start()
    loop.start()
    try:
        ready.wait()
        if on_ready is not None:
            on_ready(server.url())
        while not stop.wait(0.5):
            pass
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        loop.join(timeout=5)
