"""What a font's licence says about embedding it: the OS/2 table's ``fsType`` (OpenType spec,
"OS/2 — fsType": bit 1 = Restricted License embedding, bit 2 = Preview & Print, bit 3 = Editable,
bit 8 = No subsetting, bit 9 = Bitmap embedding only).

Written in the shop branch with the name and signature the "untrusted" helper agreed to
(``embedding_restriction(path) -> str | None``), because theirs was not on main when the shop
output needed it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont, TTLibError

from cardgen.fonts.index import collection_size
from cardgen.fonts.library_log import reading

RESTRICTED = 0x0002  #: the font must not be embedded at all
NO_SUBSET = 0x0100  #: embedded only whole (cardgen subsets every font)
BITMAP_ONLY = 0x0200  #: only bitmaps may be embedded (cardgen embeds outlines)


@lru_cache(maxsize=64)
def _fs_type(path: str, index: int) -> int | None:
    try:
        if index >= collection_size(Path(path)):  # TTCollection would read every face the header claims
            return None
        with reading(path):
            font = TTFont(path, lazy=True, fontNumber=index)
            return int(font["OS/2"].fsType) if "OS/2" in font else None
    except (OSError, ValueError, TTLibError, IndexError, KeyError, AttributeError, AssertionError):
        return None


def embedding_restriction(path: str | Path, index: int = 0) -> str | None:
    """Why the font at ``path`` may not be embedded as cardgen embeds it (a subset of its outlines
    in a PDF), in words; None when its licence bits allow that (or it has no OS/2 table)."""
    fs = _fs_type(str(path), index)
    if fs is None:
        return None
    if fs & RESTRICTED and not fs & 0x000C:
        return "forbids embedding (OS/2 fsType: restricted licence)"
    if fs & BITMAP_ONLY:
        return "allows only bitmap embedding (OS/2 fsType bit 9)"
    if fs & NO_SUBSET:
        return "forbids subsetting (OS/2 fsType bit 8), and cardgen embeds subsets"
    return None
