"""The font helper of ``cardgen validate``: a game's font set-up done early, in a second process,
while the command loads its libraries.

Before the check can lay out a face it needs the font-name index of the system font folders and
a parse of every font file the roles resolve to: about 0.13 s of CPU when nothing is cached (a
first run, ``--no-cache``), spent only after the command has loaded its libraries (click,
pydantic, the manifest models: about as long again). On a machine with a second core that work
can run meanwhile. :func:`start` (called by :mod:`cardgen.cli.entry` before click is imported,
when :func:`worth_it`: the caches are off or still empty) forks the helper (:class:`cardgen.core.beside.Beside`); it resolves the game's font roles as
:func:`cardgen.fonts.fontset.fonts_for` would — the project's ``fonts/fonts.yaml`` and the
``fonts:`` mapping of the game's ``game.yaml`` as written (no manifest model) — which reads the
font names and parses the files (through the on-disk caches when they are on, so a warm helper is
quick), and sends back what it read (:mod:`cardgen.fonts.prefetch`, where the check takes it).
The libraries both need (reportlab's font parser, PyYAML) are loaded before the fork, so the
helper does no work twice: on a machine whose second core is busy it costs little more than
doing the same work in the check.

What it guessed wrong (a game whose manifest is not what it looks like) costs nothing but its own
work, and nothing it sends is trusted past the file it came from. This is not a cache: nothing
outlives the command. The helper runs under the command's budget
(:func:`cardgen.core.budget.limit_helper`), prints nothing (its standard output and error go to
/dev/null: every problem is reported by the check), and is killed once the check has ended
(:func:`cardgen.fonts.prefetch.stop`), or with its parent.
"""
from __future__ import annotations

import os
from pathlib import Path

from cardgen.fonts import prefetch


def worth_it(no_cache: bool) -> bool:
    """Whether the font set-up costs enough to hand it to a helper: with the caches off (``no_cache``,
    ``CARDGEN_NO_CACHE=1``), or before a first run has filled them (no font-name cache yet). With
    the caches filled it takes the check about 15 ms, less than the fork costs."""
    from cardgen.core.disk_cache import cache_dir, enabled
    from cardgen.fonts.index import NAME_CACHE

    return no_cache or not enabled() or not os.path.exists(os.path.join(cache_dir(), NAME_CACHE))


def start(game_dir: str, budget, no_cache: bool = False) -> None:
    """Fork the helper for the game folder ``game_dir`` under ``budget``
    (:class:`cardgen.core.budget.Budget`; ``no_cache``: it reads and writes no cache, as
    ``CARDGEN_NO_CACHE=1``); a no-op without ``os.fork`` or when one runs already. The command
    that forks it ends it with :func:`cardgen.fonts.prefetch.stop`."""
    if prefetch.running() or not hasattr(os, "fork"):
        return
    from cardgen.core.beside import Beside
    # what both the helper and the check need, loaded once, before the fork (reportlab's font
    # parser, PyYAML): the helper then only works, and the check finds them loaded
    from cardgen.data import yaml_source
    from cardgen.fonts import fontset
    del yaml_source, fontset

    prefetch.started(Beside(_helper, game_dir, init=lambda: _helper_init(budget, no_cache)))


def _helper_init(budget, no_cache: bool) -> None:
    """In the helper, first: output to /dev/null, the command's budget, the cache as the command has it."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    from cardgen.core.budget import limit_helper

    limit_helper(budget)
    if no_cache:
        os.environ["CARDGEN_NO_CACHE"] = "1"


def _helper(game_dir: str) -> dict:
    """The helper's work: set up the fonts of ``game_dir``; → what was read."""
    record = prefetch.recording()
    try:
        _set_up(Path(game_dir))
    except BaseException:  # noqa: BLE001 - its budget stop, memory too: what it read so far is still good;
        pass  # the check reports the rest (an exception sent back would be raised in the check as its own)
    return record


def _set_up(game_dir: Path) -> None:
    """Resolve and register the game's font roles as :func:`cardgen.fonts.fontset.fonts_for`
    does, from the files as written (no manifest model)."""
    from cardgen.data.project import Project
    from cardgen.fonts.fontset import load_fontset

    project = Project.for_game(game_dir)
    overrides = _manifest_fonts(game_dir / "game.yaml")
    load_fontset(project.root, overrides or None, game_dir, trusted_config=project.trusted_config)


def _manifest_fonts(manifest: Path) -> dict:
    """The ``fonts:`` mapping of ``game.yaml`` as written ({} when there is none or it cannot be read)."""
    from cardgen.data.yaml_source import load_yaml

    try:
        data = load_yaml(manifest, str(manifest)).data
    except Exception:  # noqa: BLE001 - the check reports it
        return {}
    fonts = data.get("fonts") if isinstance(data, dict) else None
    return {str(k): v for k, v in fonts.items()} if isinstance(fonts, dict) else {}
