"""Turn procedures of the playtest simulator, one small module per game, registered by name.

A procedure is what ``insight.simulate.procedure`` in game.yaml names. It declares the card
columns it reads, its open questions (options with the build's answer as default, each
switchable with ``cardgen simulate --option NAME=VALUE``) and its policies, and turns a dealt
deck plus the manifest's design constants into a :class:`cardgen.insight.simulate.Kernel` (numba
functions that play rounds). Register with ``@procedure("name")`` like the rulebook's
``@table`` builders; the modules are imported by :func:`get`.
"""
from __future__ import annotations

import importlib
from typing import Callable

#: name → procedure object (see :class:`cardgen.insight.games.tenjanpai.TenjanpaiDraft3`)
PROCEDURES: dict[str, object] = {}
_MODULES = ("cardgen.insight.games.tenjanpai",)


def procedure(name: str) -> Callable:
    """Class decorator: register a turn procedure under ``name``."""
    def deco(cls):
        PROCEDURES[name] = cls()
        cls.name = name
        return cls
    return deco


def get(name: str):
    """The registered procedure ``name``, or None."""
    for m in _MODULES:
        importlib.import_module(m)
    return PROCEDURES.get(name)


def names() -> list[str]:
    """Every registered procedure name."""
    for m in _MODULES:
        importlib.import_module(m)
    return sorted(PROCEDURES)
