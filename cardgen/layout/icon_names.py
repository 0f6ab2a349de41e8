"""The names of the built-in icons a card may use, as ``:name:`` in text or as ``icon:`` of an
``icon``/``icons`` element (drawn by :mod:`cardgen.render.icons`), and the finding for a name
that is none of them."""
from __future__ import annotations

import difflib

#: Call icons, each also as ``<name>_off`` (the call is not available on this card).
CALL_ICONS = ("pon", "chi", "ron", "tsumo", "kan")
#: Every built-in icon name.
BUILTIN_ICONS: tuple[str, ...] = ("power", "power_empty", "stick_dot") + CALL_ICONS + tuple(f"{n}_off" for n in CALL_ICONS)


def unknown_icon(name: str, known: tuple[str, ...] = BUILTIN_ICONS) -> str | None:
    """None for a known icon name; else the message naming the closest known name and listing
    them all, e.g. ``unknown icon 'powr' (did you mean 'power'?); known icons: power, …``."""
    if name in known:
        return None
    close = difflib.get_close_matches(name, known, 1, 0.5)
    guess = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown icon {name!r}{guess}; known icons: {', '.join(known)}"
