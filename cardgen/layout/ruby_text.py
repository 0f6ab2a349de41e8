"""Ruby (ふりがな) notation in rules text. Pure.

Two notations authors already know:

- Aozora Bunko (青空文庫): ``｜聴牌《テンパイ》`` — the base runs from ``｜`` to ``《``; without
  ``｜`` the base is the run of kanji just before ``《`` (``聴牌《テンパイ》``).
- でんでんマークダウン: ``{聴牌|テンパイ}`` (not inside a table: ``|`` separates cells there).

Ruby is group ruby (the reading centred over the whole base); the base is never broken across
lines.
"""
from __future__ import annotations

import re

_RUBY = re.compile(
    r"[｜|](?P<a_base>[^｜|《》\n]+)《(?P<a_read>[^《》\n]+)》"
    r"|(?P<k_base>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ\U00020000-\U0003134f]+)《(?P<k_read>[^《》\n]+)》"
    r"|\{(?P<d_base>[^{}|\n]+)\|(?P<d_read>[^{}|\n]+)\}")


def split_ruby(text: str) -> list[tuple[str, str]]:
    """``text`` as ``(piece, reading)`` pairs in order; ``reading`` is "" for plain text.

    >>> split_ruby("｜聴牌《テンパイ》です")
    [('聴牌', 'テンパイ'), ('です', '')]
    """
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _RUBY.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], ""))
        base = m.group("a_base") or m.group("k_base") or m.group("d_base")
        reading = m.group("a_read") or m.group("k_read") or m.group("d_read")
        out.append((base, reading.strip()))
        pos = m.end()
    if pos < len(text) or not out:
        out.append((text[pos:], ""))
    return out
