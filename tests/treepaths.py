"""Paths into nested YAML data, shared by the tests that put values into every field."""
from __future__ import annotations


def value_paths(node, prefix=()):
    """Every place in ``node`` a value can go: the root, each mapping value and list item (leaves and branches).

    Yields tuples of keys and list indexes, e.g. ``()``, ``("game",)``, ``("game", "title")``.
    """
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from value_paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from value_paths(v, prefix + (i,))
