"""A loaded document (manifest, template or card table): plain data and where each value came from.

:class:`Source` maps a data path (tuple of keys / indexes) to a 1-based line, so later stages can
say ``file:line``, and names that path in messages (:func:`display_path`); numbers keep their
written form (:class:`RawInt` / :class:`RawFloat`), so a field declared as text gets exactly what
the designer typed (``1.10`` stays ``"1.10"``). Made by :func:`cardgen.data.yaml_source.load_yaml`
and :func:`cardgen.data.card_tables.load_table`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardgen.core.errors import Problem

PathKey = tuple  # tuple[str | int, ...]


class _Raw:
    """A number that remembers how it was written (``raw``)."""

    raw: str

    def __new__(cls, value, raw: str):
        obj = super().__new__(cls, value)  # type: ignore[call-arg]
        obj.raw = raw
        return obj

    def __reduce__(self):
        """Pickled with what was written (a build's results travel from its child process)."""
        return (self.__class__, (self.__class__.__mro__[2](self), self.raw))


class RawInt(_Raw, int):
    """An int that remembers how it was written (``raw``), e.g. ``007``."""


class RawFloat(_Raw, float):
    """A float that remembers how it was written (``raw``), e.g. ``1.10``."""


@dataclass
class Source:
    """Where each value of a loaded document came from.

    Attributes:
        file: the file as shown in messages (relative to the working folder where possible).
        lines: data path → 1-based line. The empty tuple maps to line 1.
    """

    file: str
    lines: dict[PathKey, int] = field(default_factory=dict)

    def line(self, path: PathKey) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)

    def problem(self, path: PathKey, message: str, hint: str = "", code: str = "", severity: str = "error",
                data: Any = None) -> Problem:
        """A :class:`Problem` at ``path`` (keys and list indexes, e.g. ``("setup", "player_counts", 0)``):
        the file, the line (:meth:`line`) and the text naming it (:func:`display_path` over ``data``,
        the loaded document or its model: ``setup → player_counts → 4 players``) come from the one
        path, so they cannot drift apart."""
        return Problem(self.file, self.line(path), display_path(tuple(path), data), message, hint, severity, code)


def _item_label(item: Any, index: int) -> str:
    """How a list item is named in messages: its ``id`` or ``name`` (text), else ``N players``
    (a player count), else ``item N`` (1-based)."""
    def get(key: str) -> Any:
        return item.get(key) if isinstance(item, dict) else getattr(item, key, None)

    if isinstance(item, (str, int, float, list, tuple)) or item is None:
        return f"item {index + 1}"
    for key in ("id", "name"):
        if isinstance(get(key), str) and get(key):
            return get(key)
    players = get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return f"{players} players"
    return f"item {index + 1}"


def display_path(loc: tuple, data: Any = None) -> str:
    """A data path for messages: keys as written, list positions named by the item
    (:func:`_item_label`: ``components → battle → count``, ``player_counts → 3 players``,
    ``remove → item 1``). ``data`` is the document (dicts and lists) or its pydantic model; without
    it list positions read ``item N``."""
    parts = []
    node = data
    for part in loc:
        label = str(part)
        if isinstance(part, int):
            item = node[part] if isinstance(node, (list, tuple)) and 0 <= part < len(node) else None
            label = _item_label(item, part)
            node = item
        elif isinstance(node, dict):
            node = node.get(part)
        elif node is not None and not isinstance(node, (str, int, float, list, tuple)):
            node = getattr(node, part, None)
        else:
            node = None
        parts.append(label)
    return " → ".join(parts)


@dataclass
class Loaded:
    """A loaded file: its data and its :class:`Source`."""

    data: Any
    source: Source
