"""Colours as designers write them: ``#rgb``, ``#rrggbb``, ``#rrggbbaa`` (the last two hex digits
are the opacity) and the CSS colour names (``white``, ``teal``, ``rebeccapurple``), any case.

The CSS names and their values are those of Pillow's ``ImageColor.colormap`` (the CSS Color
Module Level 3/4 extended keywords)."""
from __future__ import annotations

import re

_HEX = re.compile(r"^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$")


def parse_colour(value: str) -> tuple[int, int, int, int] | None:
    """``value`` → ``(r, g, b, a)`` with each 0–255 (``a`` 255 = opaque), or None when it is
    none of the forms above (``#12``, ``rgb(…)``, ``reddish``)."""
    from PIL import ImageColor  # lazy: +27 ms of imports here (measured)

    v = value.strip() if isinstance(value, str) else ""
    if not (_HEX.match(v) or v.lower() in ImageColor.colormap):
        return None
    rgb = ImageColor.getrgb(v.lower())
    return (*rgb[:3], rgb[3] if len(rgb) == 4 else 255)
