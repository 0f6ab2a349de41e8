"""What one save of ``cardgen watch`` leaves warm for the next, held in the watch process only
(never on disk). Each save runs in a new budgeted child forked from the watch
(:mod:`cardgen.core.budget`), so whatever the watch holds, every save's child starts with.

The child runs the save through :func:`keeping` and hands back, with its result, what it loaded
that the watch does not hold yet; the watch takes it in (:func:`take_in`):

- the rulebook check's findings per block (:mod:`cardgen.rulebook.block_memo`, under its own key);
- card templates parsed and checked, under their key (resolved path, path as shown, hash of the
  file's bytes: everything loading a template reads; :mod:`cardgen.data.template`);
- the names of the modules the save imported (cardgen's own and its libraries', imported in the
  watch by name: code of the installed packages, nothing from the game folder; :func:`import_modules`,
  which ``cardgen serve`` uses too);
- the hyphenation dictionaries it loaded, by language (pyphen's own files, loaded in the watch).

Nothing untrusted runs in the watch: the game's files are read, parsed and laid out only in the
children; what comes back is their parsed result, keyed by every input it was made from, so a
cache entry can never give another answer than the work it saves.
"""
from __future__ import annotations

import pickle
import sys
from importlib import import_module
from typing import Callable

from cardgen.data import template
from cardgen.layout import western
from cardgen.rulebook import block_memo


def keeping(fn: Callable, *args, **kwargs) -> tuple[object, dict]:
    """``(fn(*args, **kwargs), what the call loaded that the parent lacks)``: run in a save's child."""
    modules = set(sys.modules)
    templates = set(template._LOADED)
    languages = set(western.LOADED_LANGUAGES)
    value, memo = block_memo.remembering(fn, *args, **kwargs)
    kept = {}
    for key, loaded in template._LOADED.items():
        if key not in templates:
            try:
                pickle.dumps(loaded)
            except Exception:  # noqa: BLE001 - a template that cannot travel is parsed again next time
                continue
            kept[key] = loaded
    return value, {"memo": memo, "templates": kept, "modules": sorted(set(sys.modules) - modules),
                   "languages": sorted(western.LOADED_LANGUAGES - languages)}


def import_modules(names) -> None:
    """Import here the modules a save's child imported (by name: code of the installed packages,
    nothing from the game folder), so the next child starts with them (``cardgen serve`` too)."""
    for name in names:
        if name not in sys.modules and not name.startswith("__"):
            try:
                import_module(name)
            except Exception:  # noqa: BLE001 - a module the child made up (none is known): the child imports it
                pass


def take_in(warm: dict) -> None:
    """Hold what a save's child loaded (:func:`keeping`) in this process, for the next save's child."""
    block_memo.take_in(warm.get("memo", {}))
    import_modules(warm.get("modules", ()))
    if len(template._LOADED) + len(warm.get("templates", {})) > 256:
        template._LOADED.clear()
    template._LOADED.update(warm.get("templates", {}))
    western.preload(warm.get("languages", ()))
