"""The rulebook check's findings per block, held in memory by a resident process (``cardgen
watch``): an edit to one paragraph of the rules lays out that paragraph only on the next save.

Nothing is kept on disk: a one-off ``cardgen validate`` checks every block. :class:`BlockMemo`
holds, under the book's key (the page design, the paper, the book info, every font role's file
and the stamp of the font registered for it, the game's own icons: :func:`book_key`), what each
top-level block found while built and its short last lines, by the block itself (its ``repr``:
a dataclass, every field — text, runs, numbers, source file and line — nested blocks included).
A block that asked for a card face or an image file while it was built (a figure: those answers
are not keyed), or whose findings name a card, a detail or a field, is never kept. Only the
latest book is held (one game per watch).

The memo is on only where :func:`remembering` runs the check (the watch's child): a one-off
command, or a library caller, lays every block out. The check runs in a forked, budgeted child:
what it kept there goes back to the watch with its result and is taken in (:func:`take_in`), so
the next child inherits it.
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Callable

from cardgen.core.disk_cache import stamp
from cardgen.core.errors import Problem
from cardgen.fonts.registration import registered_stamp

#: book key → {block id → (findings while built, short last lines)}; the latest book only.
_BOOKS: dict[bytes, dict[str, tuple[list[Problem], list[Problem]]]] = {}
#: What this process kept since :func:`remembering` began (sent back to the parent).
_NEW: dict[bytes, dict[str, tuple[list[Problem], list[Problem]]]] = {}
#: Whether checks in this process use the memo (set by :func:`remembering`).
_ON: list[bool] = [False]


def on() -> bool:
    """Whether the rulebook check of this process is to use a :class:`BlockMemo`."""
    return _ON[0]


def _font_stamps(fonts) -> list:
    """Each font role's name, files and the stamp of the font the check measures with (the one
    this process registered, else the file as it is now)."""
    out = []
    for role in sorted(fonts.faces):
        face = fonts.faces[role]
        try:
            now = list(registered_stamp(face.embedded) or stamp(os.stat(face.embedded)))
        except OSError as exc:
            now = ["unreadable", exc.errno]
        out.append([role, face.name, str(face.source), face.index, str(face.embedded), now])
    return out


def book_key(design, page_mm, info, fonts, icons: dict | None = None) -> bytes:
    """What every block's findings depend on besides the block (see the module docstring)."""
    own = [[name, spec.file, spec.label, spec.label_colour] for name, spec in sorted((icons or {}).items())]
    h = hashlib.sha256()
    for part in (design.model_dump_json(), repr(tuple(page_mm)), repr(info), json.dumps(_font_stamps(fonts)),
                 json.dumps(own, ensure_ascii=False)):
        h.update(part.encode("utf-8", "surrogateescape") + b"\n")
    return h.digest()


class BlockMemo:
    """The findings kept for one book (:func:`book_key`), for :func:`cardgen.rulebook.pdf.check_story`.
    ``card_plan`` and ``resolve_image`` are the check's, counted (:meth:`asked`)."""

    def __init__(self, key: bytes, card_plan: Callable, resolve_image: Callable):
        self._key, self._calls = key, 0
        self._kept = _BOOKS.get(key, {})
        self._card_plan, self._resolve_image = card_plan, resolve_image

    def card_plan(self, *args, **kwargs):
        """The check's ``card_plan``, counted."""
        self._calls += 1
        return self._card_plan(*args, **kwargs)

    def resolve_image(self, src: str):
        """The check's ``resolve_image``, counted."""
        self._calls += 1
        return self._resolve_image(src)

    @staticmethod
    def _id(block) -> str:
        return hashlib.sha256(repr(block).encode("utf-8", "surrogateescape")).hexdigest()

    def get(self, block) -> tuple[list[Problem], list[Problem]] | None:
        """``(findings while built, short last lines)`` kept for ``block``, or None."""
        return self._kept.get(self._id(block))

    def asked(self) -> int:
        """How many card faces and image files the check has asked for so far."""
        return self._calls

    def keep(self, block, built: list[Problem], short: list[Problem], asked: bool) -> None:
        """Keep what ``block`` found (unless it ``asked`` for a face or an image, or a finding names a card)."""
        if asked or not all(p.card is None and p.detail is None and not p.field for p in built + short):
            return
        entry = (list(built), list(short))
        book = _BOOKS.setdefault(self._key, {})
        if self._key not in _NEW and len(_BOOKS) > 1:  # another book: the old one is not wanted again
            for other in [k for k in _BOOKS if k != self._key]:
                del _BOOKS[other]
        book[self._id(block)] = entry
        _NEW.setdefault(self._key, {})[self._id(block)] = entry


def remembering(fn: Callable, *args, **kwargs) -> tuple[object, dict]:
    """``(fn(*args, **kwargs), what the memo kept meanwhile)``: run in the watch's child, so the
    findings kept there reach the watch (:func:`take_in`)."""
    _NEW.clear()
    _ON[0] = True
    try:
        return fn(*args, **kwargs), dict(_NEW)
    finally:
        _ON[0] = False


def take_in(kept: dict) -> None:
    """Hold ``kept`` (from :func:`remembering` in a child) in this process: its children inherit it."""
    for key, blocks in kept.items():
        if key not in _BOOKS:
            _BOOKS.clear()
        _BOOKS.setdefault(key, {}).update(blocks)
