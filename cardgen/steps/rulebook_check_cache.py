"""The rulebook check's findings kept on disk, so ``cardgen validate`` after an edit that leaves
the rules text as it was (a card name, a template) does not lay the rules out again.

:func:`cardgen.rulebook.pdf.check_story` builds the story of the assembled rules blocks and breaks
the lines of the paragraphs it reports on; what it finds (short last lines, words too wide for a
table column, images scaled down to the frame) depends only on what :func:`cached_check` keys:

- the assembled blocks (their text, runs, numbers and source ``file:line``; the rules text is
  rendered with the game's data before this, so a card table the text reads is in the blocks),
  except the text of card figures' captions, by whether there is one (:func:`blocks_shape`: a
  caption is a label in the figure, which the check never lays out; the card's name is the
  default caption, and a renamed card must not lay the whole book out again);
- the page design, the paper (mm) and the book's title block (:class:`~cardgen.rulebook.story.BookInfo`);
- every font role: its registered name, the file registered and that file's size, modification
  time and inode (the widths lines break by come from it);
- the game's own icons (name, file, label, label colour; the built-in ones are cardgen's code):
  the check's canvas is given them. An icon name the rules text uses that is none of these is an
  error of :func:`cardgen.rulebook.assemble.rulebook_blocks`, found on every run before this
  cache is asked (the check that is kept never runs on such text);
- cardgen's own code, the installed distributions and the Python version
  (:func:`cardgen.steps.check_cache.code_digest`);
- what the check asked for while it ran, recorded with the entry and asked again before the entry
  is used: each card face a figure lays out (component, card, side → its width and height in pt, or
  none) and each image file (source → the file, its bytes' SHA-256).

Entries live in cardgen's cache folder (:mod:`cardgen.core.disk_cache`, kind :data:`KIND`) as
JSON, read with :func:`cardgen.core.disk_cache.read_regular` rules (through
:func:`~cardgen.core.disk_cache.read`); ``--no-cache`` / ``CARDGEN_NO_CACHE=1`` neither reads nor
writes them. A check that raised (a card figure that cannot be laid out, an image outside the
rules folder) is not kept: it runs again next time. Only the standard library and
:mod:`cardgen.core` are imported here.
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Callable

from cardgen.core import disk_cache
from cardgen.core.errors import CardgenError, Problem

#: Cache sub-folder (the digit is the entry version).
KIND = "rulebook-check-1"
#: Image files larger than this (bytes) are keyed by size, times and inode instead of their bytes.
BIG = 16 << 20
_FIELDS = ("file", "line", "path", "message", "hint", "severity", "code")


def _file_digest(path: str) -> list:
    """What an image file is keyed by: its bytes' SHA-256 (size, times and inode when over
    :data:`BIG`); its error number when it cannot be read."""
    try:
        st = os.stat(path)
        if st.st_size > BIG:
            return ["big", *disk_cache.stamp(st)]
        with open(path, "rb") as fh:
            return ["sha256", hashlib.sha256(fh.read(BIG + 1)).hexdigest()]
    except OSError as exc:
        return ["unreadable", exc.errno]


def _font_stamps(fonts) -> list:
    """Each font role's name, files and stamp; the stamp of the file as it was when this process
    registered it (:func:`cardgen.fonts.registration.registered_stamp`), since that is the font the
    check measured with, else as it is now."""
    from cardgen.fonts.registration import registered_stamp

    out = []
    for role in sorted(fonts.faces):
        face = fonts.faces[role]
        registered = registered_stamp(face.embedded)  # the font the check measured with
        try:
            st = os.stat(face.embedded)
            stamp = list(registered or disk_cache.stamp(st))
        except OSError as exc:
            stamp = ["unreadable", exc.errno]
        out.append([role, face.name, str(face.source), face.index, str(face.embedded), stamp])
    return out


def blocks_shape(blocks: list) -> str:
    """``repr(blocks)`` for the key, with each card figure's caption (a ``card:`` image's alt
    text, a ``card_row``'s card captions) as whether it has one. Lists and quotes are gone into
    (they hold blocks); every other block is its dataclass ``repr``, every field included."""
    from dataclasses import replace

    from cardgen.rulebook.blocks import CardFigureBlock, Figures, ListBlock, Quote

    out = []
    for b in blocks:
        if isinstance(b, Figures):
            images = [replace(f, alt="+" if f.alt else "") if f.src.startswith("card:") else f for f in b.images]
            out.append(repr(replace(b, images=images)))
        elif isinstance(b, CardFigureBlock):
            cards = [{**c, "caption": bool(c.get("caption"))} if isinstance(c, dict) else c
                     for c in b.data.get("cards", [])]
            out.append(repr(replace(b, data={**b.data, "cards": cards})))
        elif isinstance(b, ListBlock):
            out.append(repr(replace(b, items=[])) + "[" + ", ".join(blocks_shape(item) for item in b.items) + "]")
        elif isinstance(b, Quote):
            out.append(repr(replace(b, blocks=[])) + blocks_shape(b.blocks))
        else:
            out.append(repr(b))
    return "[" + ", ".join(out) + "]"


def check_key(blocks: list, design, page_mm, info, fonts, icons: dict | None = None,
              parts: list[str] | None = None) -> bytes:
    """The key of the check's fixed inputs (see the module docstring). ``icons``: the game's own,
    name → :class:`cardgen.layout.icon_names.IconSpec`; ``parts``: :func:`key_parts` of the same
    inputs when the caller has them (they are computed here otherwise)."""
    return _key(KIND, blocks_shape(blocks), parts if parts is not None else key_parts(design, page_mm, info, fonts, icons))


def book_key(design, page_mm, info, fonts, icons: dict | None = None, parts: list[str] | None = None) -> bytes:
    """The key of what every block's findings depend on besides the block (:class:`BlockMemo`):
    :func:`check_key` without the blocks. ``parts``: as in :func:`check_key`."""
    return _key(BLOCKS_KIND, "", parts if parts is not None else key_parts(design, page_mm, info, fonts, icons))


def key_parts(design, page_mm, info, fonts, icons: dict | None = None) -> list[str]:
    """What :func:`check_key` and :func:`book_key` both hash after the blocks: the page design, the
    paper (mm), the book info, the font roles' files and stamps, the game's own icons and
    cardgen's code (:func:`cardgen.steps.check_cache.code_digest`) — as they are now, so a caller
    that needs both keys reads the code and the fonts once."""
    from cardgen.steps.check_cache import code_digest

    own = [[name, spec.file, spec.label, spec.label_colour] for name, spec in sorted((icons or {}).items())]
    return [design.model_dump_json(), repr(tuple(page_mm)), repr(info), json.dumps(_font_stamps(fonts)),
            json.dumps(own, ensure_ascii=False), code_digest()]


def _key(kind: str, blocks: str, parts: list[str]) -> bytes:
    h = hashlib.sha256()
    for part in (kind, blocks, *parts):
        h.update(part.encode("utf-8", "surrogateescape") + b"\n")
    return h.digest()


#: Cache sub-folder of the findings per block (one entry per book key; the digit is the entry version).
BLOCKS_KIND = "rulebook-blocks-1"


class BlockMemo:
    """What each top-level block of the rules text found when it was last built and laid out
    (:func:`cardgen.rulebook.pdf.check_story`), kept on disk under :func:`book_key` as one entry:
    block → its findings while built and its short last lines. A block is found by its ``repr``
    (a dataclass: every field — text, runs, numbers, source file and line — nested blocks
    included), so an edit to one paragraph lays out that paragraph only; a block that asked for a
    card face or an image file while it was built (a figure: those answers are not keyed), or
    whose findings carry a card, a detail or a field, is never kept. ``asked`` counts those
    requests (the recorder of :func:`cached_check`). The entry written holds the blocks of this
    run only."""

    def __init__(self, key: bytes, recorder: "_Recorder"):
        self._key, self._rec = key, recorder
        payload = disk_cache.read(BLOCKS_KIND, key)
        try:
            old = json.loads(payload.decode("utf-8")) if payload is not None else {}
        except ValueError:
            old = {}
        self._old = old if isinstance(old, dict) else {}
        self._new: dict[str, list] = {}

    @staticmethod
    def _id(block) -> str:
        return hashlib.sha256(repr(block).encode("utf-8", "surrogateescape")).hexdigest()

    def get(self, block) -> tuple[list[Problem], list[Problem]] | None:
        """``(findings while built, short last lines)`` kept for ``block``, or None."""
        bid = self._id(block)
        entry = self._old.get(bid)
        if not (isinstance(entry, list) and len(entry) == 2):
            return None
        built, short = _problems({"problems": entry[0]}), _problems({"problems": entry[1]})
        if built is None or short is None:
            return None
        self._new[bid] = entry
        return built, short

    def asked(self) -> int:
        """How many card faces and image files the check has asked for so far."""
        return self._rec.calls

    def keep(self, block, built: list[Problem], short: list[Problem], asked: bool) -> None:
        """Keep what ``block`` found (unless it ``asked`` for a face or an image, or a finding names a card)."""
        if asked or not all(p.card is None and p.detail is None and not p.field for p in built + short):
            return
        self._new[self._id(block)] = [[[getattr(p, f) for f in _FIELDS] for p in built],
                                      [[getattr(p, f) for f in _FIELDS] for p in short]]

    def save(self) -> None:
        """Write the entry (the blocks of this run), unless it is what was read."""
        if self._new != self._old:
            disk_cache.write(BLOCKS_KIND, self._key, json.dumps(self._new, ensure_ascii=False).encode("utf-8"))


class _Recorder:
    """``card_plan`` and ``resolve_image`` of the check, recording what they answered."""

    def __init__(self, card_plan: Callable, resolve_image: Callable):
        self._card_plan, self._resolve_image = card_plan, resolve_image
        self.faces: dict[str, list] = {}
        self.images: dict[str, list] = {}
        self.failed = False  #: one of them raised (its answer is not recorded: the result is not kept)
        self.calls = 0  #: faces and images asked for so far

    def card_plan(self, component: str, card_id: str | None = None, side: str = "front"):
        self.calls += 1
        try:
            plan = self._card_plan(component, card_id, side)
        except BaseException:
            self.failed = True
            raise
        self.faces[json.dumps([component, card_id, side])] = _dims(plan)
        return plan

    def resolve_image(self, src: str):
        self.calls += 1
        try:
            path = self._resolve_image(src)
        except BaseException:
            self.failed = True
            raise
        self.images[src] = [str(path), _file_digest(str(path))]
        return path


def _dims(plan) -> list | None:
    return None if plan is None else [plan.width, plan.height]


def _still(entry: dict, card_plan: Callable, resolve_image: Callable) -> bool:
    """Whether the faces and image files the stored check asked for answer as they did."""
    try:
        for args, dims in entry["faces"].items():
            component, card_id, side = json.loads(args)
            if _dims(card_plan(component, card_id, side)) != dims:
                return False
        for src, (path, digest) in entry["images"].items():
            now = str(resolve_image(src))
            if now != path or _file_digest(now) != digest:
                return False
    except (CardgenError, StopIteration, ValueError, TypeError, KeyError):
        return False
    return True


def _problems(entry: dict) -> list[Problem] | None:
    try:
        return [Problem(**dict(zip(_FIELDS, p))) for p in entry["problems"]]
    except (TypeError, KeyError):
        return None


def cached_check(key: Callable[[], bytes], card_plan: Callable, resolve_image: Callable,
                 check: Callable[..., list[Problem]], blocks_key: Callable[[], bytes] | None = None) -> list[Problem]:
    """``check(card_plan, resolve_image)`` (the rulebook check, :func:`cardgen.rulebook.pdf.check_story`),
    or its stored result for ``key()`` (:func:`check_key`, not taken when the cache is off) when the
    faces and images it asked for are unchanged. A result is stored unless asking for a face or an
    image raised (the check reports that as a problem; it runs again next time). With
    ``blocks_key`` (:func:`book_key`), a check that runs is given a :class:`BlockMemo` under that
    key as its third argument (``check(card_plan, resolve_image, memo)``)."""
    if not disk_cache.enabled():
        return check(card_plan, resolve_image)
    key = key()
    payload = disk_cache.read(KIND, key)
    if payload is not None:
        try:
            entry = json.loads(payload.decode("utf-8"))
        except ValueError:
            entry = None
        if isinstance(entry, dict) and _still(entry, card_plan, resolve_image):
            found = _problems(entry)
            if found is not None:
                return found
    rec = _Recorder(card_plan, resolve_image)
    if blocks_key is None:
        found = check(rec.card_plan, rec.resolve_image)
    else:  # the blocks an edit left as they were are not laid out again (BlockMemo)
        memo = BlockMemo(blocks_key(), rec)
        found = check(rec.card_plan, rec.resolve_image, memo)
        if not rec.failed:
            memo.save()
    if not rec.failed and all(p.card is None and p.detail is None and not p.field for p in found):
        entry = {"faces": rec.faces, "images": rec.images,
                 "problems": [[getattr(p, f) for f in _FIELDS] for p in found]}
        disk_cache.write(KIND, key, json.dumps(entry, ensure_ascii=False).encode("utf-8"))
    return found
