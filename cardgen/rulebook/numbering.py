"""Heading numbers of the rulebook (manifest ``rulebook.numbering``) and circled numbers. Pure.

``plain`` none; ``decimal`` ``1.`` / ``1.1`` / ``1.1.1``; ``statute`` ``第1章`` / ``第1条``
(articles count on across chapters) / ``1項`` or ``①``; in statute style ordered lists are
marked ① ② ③ (and a bullet list whose items begin with ① ② … typed by hand becomes one,
:mod:`cardgen.rulebook.markdown`). ``number_from`` is the Markdown level that gets the first
number (level 2 by default: ``#`` is the book title), ``depth`` how many levels are numbered.
"""
from __future__ import annotations

from cardgen.data.manifest import RulebookSettings

#: The circled numbers ① … ⑳ (statute-style items and ordered lists).
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


class Numberer:
    """Heading numbers per :class:`cardgen.data.manifest.RulebookSettings`."""

    def __init__(self, settings: RulebookSettings):
        self.s = settings
        self.counts = [0] * 6
        self.article = 0  # statute: articles count on across chapters

    def number(self, level: int) -> tuple[str, int | None]:
        """The label of the next heading at Markdown ``level`` and its 0-based depth (None: unnumbered)."""
        d = level - self.s.number_from
        if d < 0:
            return "", None
        if d >= len(self.counts):
            return "", d
        self.counts[d] += 1
        for i in range(d + 1, len(self.counts)):
            self.counts[i] = 0
        if d == 1:
            self.article += 1
        if self.s.numbering == "plain" or d >= self.s.depth:
            return "", d
        if self.s.numbering == "decimal":
            nums = self.counts[: d + 1]
            return (f"{nums[0]}." if d == 0 else ".".join(str(n) for n in nums)), d
        # statute
        if d == 0:
            return f"第{self.counts[0] + self.s.first_chapter - 1}章", d
        if d == 1:
            return f"第{self.article + self.s.first_article - 1}条", d
        n = self.counts[d]
        if self.s.item_style == "circled" and n <= len(CIRCLED):
            return CIRCLED[n - 1], d
        return f"{n}項", d


def circled(n: int) -> str:
    """``n`` as a circled number (① for 1 … ⑳ for 20; ``(n)`` beyond)."""
    return CIRCLED[n - 1] if 1 <= n <= len(CIRCLED) else f"({n})"
