"""The preview's state in the server process, and the loop that keeps it current.

Each rebuild runs in a child process under the build budget (:func:`cardgen.core.budget.run_limited`,
as ``cardgen build`` and ``cardgen watch`` do), so a hostile game folder cannot take more than the
budget from the server. The parent keeps what outlives a rebuild: the face cache
(:class:`cardgen.preview.faces.FaceCache`, grown by the entries each child sends back), the images
by key, the JSON state the page reads, and what every child would otherwise load again (the
modules a rebuild imports, trusted fonts ready to embed, hyphenation dictionaries, parsed
templates). A rebuild has two phases:

1. cards (:func:`cardgen.preview.snapshot.card_snapshot`): the faces of the edition shown (only
   the changed ones laid out and rasterised) are published as soon as the child has them, with
   ``checking`` set: the problems shown are still the last check's, and the page says so; then
   validation, deck math and every edition's faces → published with ``checking`` cleared;
2. pages (:func:`cardgen.preview.snapshot.page_snapshot`): print sheets and rulebook as images,
   on their own thread, so a save is not held up by them; a newer save supersedes a running one.

On an error the state keeps the last good faces and pages and says what is wrong (``stale``); a
rebuild that fails after its faces were shown puts the last good ones back. ``rules_checking`` is
set while the pages (and so the rulebook's problems) of the latest save are still being made.
Subscribers (the server's event streams) wait on :meth:`Preview.wait` for a newer ``version``.
"""
from __future__ import annotations

import copy
import json
import threading
import time
from pathlib import Path
from typing import Any, Callable

from cardgen.core.boundary import inside
from cardgen.core.budget import Budget, send_event, start_limited
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.project import Project
from cardgen.fonts.fontset import preload
from cardgen.layout import western
from cardgen.preview.faces import FaceCache
from cardgen.preview.snapshot import CARD_DPI, PAGE_DPI, card_snapshot, page_snapshot, problems_json
from cardgen.steps.changes import steps_for, watch_paths
from cardgen.steps.warm_state import import_modules

#: Seconds without a new save before the rulebook and sheet pages are built again.
PAGES_QUIET_S = 0.8


class Preview:
    """The live preview of one game folder (see the module doc).

    ``budget``: the build budget of each rebuild; ``limited(fn, *args, on_event=…, **kwargs)``: runs
    a rebuild under it, handing what the child sends while it runs to ``on_event`` (default
    :func:`cardgen.core.budget.start_limited` under a fork lock; tests may pass a plain call).
    """

    def __init__(self, game_dir: Path, budget: Budget | None = None, card_dpi: float = CARD_DPI,
                 page_dpi: float = PAGE_DPI, options=None, limited: Callable | None = None):
        self.game_dir = Path(game_dir).resolve()
        self.budget = budget or Budget()
        self.card_dpi, self.page_dpi, self.options = card_dpi, page_dpi, options
        self.cache = FaceCache()
        self.templates: dict = {}  #: loaded templates by path and content (see cardgen.data.template.remember_templates)
        self.images: dict[str, bytes] = {}
        self.state: dict[str, Any] = {"version": 0, "game": "", "title": "", "components": [], "pages": None,
                                      "deck_math": [], "problems": [], "rules_problems": [], "stale": False,
                                      "building": True, "checking": False, "rules_checking": True}
        self.version = 0
        self._json: tuple[int, bytes] | None = None
        self._cond = threading.Condition()
        self._pages_wanted = 0
        self._pages_event = threading.Event()
        self._limited = limited or self._run_limited
        #: held while a child is forked and while modules are imported here: a child forked while
        #: another thread imports would find that module's import lock held for ever
        self._forking = threading.Lock()
        self._before: list | None = None  #: the components shown before this save's faces came (a rebuild in flight)

    def _run_limited(self, fn, *args, on_event=None, **kwargs):
        with self._forking:
            child = start_limited(fn, *args, budget=self.budget, game=str(self.game_dir), on_event=on_event, **kwargs)
        return child.result()

    # --- publishing ---------------------------------------------------------------------

    def _publish(self, **changes) -> None:
        with self._cond:
            self.state.update(changes)
            self.version += 1
            self.state["version"] = self.version
            self._prune()
            self._cond.notify_all()

    def _prune(self) -> None:
        """Drop images no part of the state shows any more (nor the faces a rebuild in flight
        may put back, :attr:`_before`)."""
        shown = set()
        for comp in (self.state.get("components") or []) + (self._before or []):
            for card in comp["cards"]:
                shown.update(card.get(f) for f in ("front", "back") if card.get(f))
        for keys in (self.state.get("pages") or {}).values():
            shown.update(keys)
        for k in [k for k in self.images if k not in shown]:
            del self.images[k]

    def wait(self, after: int, timeout: float) -> int:
        """Block until the state's version is newer than ``after`` (or ``timeout`` s); returns the version."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > after, timeout=timeout)
            return self.version

    def snapshot(self) -> dict[str, Any]:
        """A copy of the JSON state (taken under the lock)."""
        with self._cond:
            return copy.deepcopy(self.state)

    def state_json(self) -> bytes:
        """The state as UTF-8 JSON, serialised once per version (every open page asks after each update)."""
        with self._cond:
            if self._json is None or self._json[0] != self.version:
                self._json = (self.version, json.dumps(self.state, ensure_ascii=False).encode("utf-8"))
            return self._json[1]

    def image(self, key: str) -> bytes | None:
        """The PNG bytes of image ``key``, or None."""
        with self._cond:
            return self.images.get(key)

    # --- rebuilding ---------------------------------------------------------------------

    def _failed(self, problems: list[Problem], where: str) -> None:
        self._publish(problems=problems_json(problems, []), stale=True, building=False, failed=where, checking=False,
                      **self._put_back())

    def _put_back(self) -> dict[str, Any]:
        """The state's change that shows the faces of before this save again, when its faces were
        shown before its check failed (the page then says they are the last good build's)."""
        before, self._before = self._before, None
        with self._cond:
            return {"components": before} if before is not None and before is not self.state.get("components") else {}

    def _faces_shown(self, faces: dict[str, Any]) -> None:
        """The faces of the edition shown, from a rebuild's child before its check
        (:func:`cardgen.preview.snapshot.shown_faces`): published at once, ``checking`` set (and
        ``stale`` cleared: the faces are this save's). A component missing from them (it could
        not be laid out) keeps the faces it had."""
        with self._cond:
            old = list(self.state.get("components") or [])
            self.images.update(faces["images"])
        by_id = {c["id"]: c for c in faces["components"]}
        shown = {c["id"] for c in old}
        self._publish(components=[by_id.get(c["id"], c) for c in old]
                      + [c for c in faces["components"] if c["id"] not in shown], checking=True, stale=False)

    def refresh_cards(self) -> dict[str, Any] | None:
        """Phase 1 (see the module doc): the changed faces of the edition shown, published as soon as
        they are drawn; then the check of the game, published. Returns the child's stats, or None
        when the rebuild failed (the state says why)."""
        start = time.perf_counter()
        with self._cond:
            known = set(self.images)
            self._before = list(self.state.get("components") or [])
        try:
            got = self._limited(card_snapshot, self.game_dir, self.cache, known, self.card_dpi, self.templates,
                                early=send_event, on_event=self._faces_shown)
        except CardgenError as exc:
            self._failed(exc.problems, "cards")
            return None
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the server: show it
            self._failed([Problem("", None, "", f"internal error: {type(exc).__name__}: {exc}",
                                  "this is a bug in cardgen, please report it", code="internal")], "cards")
            return None
        new = got["state"]
        self.templates.update(got.get("templates", {}))
        with self._forking:
            import_modules(got.get("modules", ()))
        with self._cond:
            self.images.update(got["images"])
        if new["components"] is None:  # the game could not be read: keep the last good faces
            self._publish(**{k: v for k, v in new.items() if k != "components"}, stale=True, building=False,
                          checking=False, **self._put_back())
            return got.get("stats")
        if not new["ok"]:
            new["components"] = self._keep_lost(new["components"], new["problems"])
        self._before = None
        self.cache.merge(got["entries"], keep=got["used"])
        self._preload(got.get("fonts", ()), got.get("languages", ()))
        self._publish(**new, stale=False, building=False, failed="", checking=False,
                      timing={**got.get("stats", {}), "cards_s": round(time.perf_counter() - start, 4)})
        return got.get("stats")

    def _keep_lost(self, components: list, problems: list) -> list:
        """A component the last good state showed and this failed rebuild could not lay out (its
        template does not parse, …) keeps its last good faces, in its place, with the errors
        (``error``: their text) the page shows above them."""
        with self._cond:
            before = list(self._before if self._before is not None else self.state.get("components") or [])
        errors = [p["text"] for p in problems if p["severity"] == "error"]
        by_id = {c["id"]: c for c in components}
        shown = {c["id"] for c in before}
        return ([by_id.get(old["id"]) or {**old, "error": errors, "stale": True} for old in before]
                + [c for c in components if c["id"] not in shown])

    def _preload(self, fonts, languages=()) -> None:
        """Parse the game's fonts (ready to embed: every child embeds a subset to draw its faces)
        and its editions' hyphenation dictionaries (pyphen's own files, ≈ 0.1 s each) once here, so every forked rebuild finds them loaded, as a watch does
        (:mod:`cardgen.steps.warm_state`) — only fonts outside the game folder (installed or the
        project's: trusted); a game's own font files are parsed in the budgeted children only."""
        western.preload(languages)

        for path, index in fonts:
            if not inside(Path(path).resolve(), self.game_dir):
                try:
                    preload(path, index)
                except (OSError, ValueError):
                    pass  # the children report it

    def refresh_pages(self) -> None:
        """Phase 2: print sheets and rulebook pages as images; keeps the last good pages on an error."""
        try:
            got = self._limited(page_snapshot, self.game_dir, self.page_dpi, self.options)
        except CardgenError as exc:
            self._publish(rules_problems=problems_json(exc.problems, []), rules_checking=self._pages_event.is_set())
            return
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the server: show it
            self._publish(rules_problems=problems_json([Problem("", None, "", f"internal error: {type(exc).__name__}: "
                                                                f"{exc}", "this is a bug in cardgen", code="internal")], []),
                          rules_checking=self._pages_event.is_set())
            return
        with self._cond:
            self.images.update(got["images"])
        changes: dict[str, Any] = {"rules_problems": got["problems"], "rules_checking": self._pages_event.is_set()}
        if got["pages"] is not None:
            changes["pages"] = got["pages"]
        self._publish(**changes)

    def want_pages(self) -> None:
        """Ask the pages thread for a new build of the sheets and rulebook (the page says the
        rulebook's problems are being checked until it is done)."""
        self._pages_wanted += 1
        self._pages_event.set()
        if not self.state.get("rules_checking"):
            self._publish(rules_checking=True)

    def pages_loop(self, stop: threading.Event, quiet_s: float = PAGES_QUIET_S) -> None:
        """Build pages whenever asked (:meth:`want_pages`), the latest request only, once no new
        request came for ``quiet_s`` seconds (a designer saving again and again gets the cards at
        once and the pages when they pause), until ``stop``."""
        while not stop.is_set():
            if not self._pages_event.wait(timeout=0.2):
                continue
            self._pages_event.clear()
            if quiet_s and self._pages_event.wait(timeout=quiet_s):
                continue  # asked again meanwhile: wait for the quiet
            self.refresh_pages()

    def run(self, stop: threading.Event, debounce_ms: int = 50, ready: threading.Event | None = None) -> None:
        """Build now, then after every save in the game folder or the project's templates/fonts,
        until ``stop`` is set. Sets ``ready`` once the first cards are published."""
        from watchfiles import watch as fs_watch  # lazy: +15 ms of imports here (measured)

        root = Project.for_game(self.game_dir).root
        pages = threading.Thread(target=self.pages_loop, args=(stop,), name="preview-pages", daemon=True)
        pages.start()
        self.refresh_cards()
        if ready is not None:
            ready.set()
        self.want_pages()
        for changes in fs_watch(*watch_paths(self.game_dir, root), stop_event=stop, debounce=debounce_ms, step=20,
                                raise_interrupt=False):
            steps = steps_for(sorted({Path(p) for _kind, p in changes}), self.game_dir, root)
            if not steps:
                continue
            if steps & {"sheets", "validate"}:
                self.refresh_cards()
            if steps & {"sheets", "rulebook"}:
                self.want_pages()

