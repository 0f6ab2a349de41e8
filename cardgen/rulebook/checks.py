"""Checks on rendered rules text before anything is drawn: images, raw HTML, table sizes.

Each check returns :class:`~cardgen.core.errors.Problem` s naming the rules file and the line in the
*source* file (found by searching the source for the offending text; the rendered Markdown may
have more lines than the source when a table or a loop was expanded), so one run reports every
problem of every rules file.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterable

from cardgen.core.errors import CardgenError, Problem, rel

#: Rows (body) and columns a rulebook table may have: a larger table is data for a card
#: table, not a page (a 20,000-row table takes half a minute to lay out).
MAX_TABLE_ROWS = 1_000
MAX_TABLE_COLUMNS = 30


def source_line(source: str, needle: str) -> int | None:
    """1-based line of the first occurrence of ``needle`` in ``source`` (None when absent)."""
    needle = needle.strip()
    if not needle:
        return None
    at = source.find(needle)
    return source.count("\n", 0, at) + 1 if at >= 0 else None


def table_line(source: str, table) -> int | None:
    """1-based line of ``table``'s first row in ``source`` (its header, else its first row): the
    first line holding a ``|`` and the row's cell texts in order; else the first line holding
    its first cell's text (None when absent)."""
    from cardgen.rulebook.blocks import plain  # lazy: +10 ms of imports here (measured)

    row = table.head or (table.rows[0] if table.rows else [])
    cells = [t for t in (plain(c).strip() for c in row) if t]
    if not cells:
        return None
    for n, text in enumerate(source.splitlines(), 1):
        at = 0
        if "|" in text:
            for cell in cells:
                at = text.find(cell, at)
                if at < 0:
                    break
                at += len(cell)
            else:
                return n
    return source_line(source, cells[0])


def _walk(blocks: Iterable) -> Iterable:
    from cardgen.rulebook.blocks import ListBlock, Quote  # lazy: +10 ms of imports here (measured)

    for b in blocks:
        yield b
        if isinstance(b, ListBlock):
            for item in b.items:
                yield from _walk(item)
        elif isinstance(b, Quote):
            yield from _walk(b.blocks)


def figure_problems(blocks: list, path: Path, source: str, game,
                    image_ok: Callable[[Path], None]) -> list[Problem]:
    """Every image of ``blocks``: a ``card:`` image must name a component with a card table and
    one of its card ids; a file image must stay inside the rules folder, exist and open
    (``image_ok(path)`` raises :class:`CardgenError` otherwise)."""
    from cardgen.data.game import safe_path  # lazy: +179 ms of imports here (measured)
    from cardgen.rulebook.blocks import Figures  # lazy: +10 ms of imports here (measured)

    out: list[Problem] = []
    rules_dir = Path(path).parent
    file = rel(path)
    for b in _walk(blocks):
        if not isinstance(b, Figures):
            continue
        for f in b.images:
            line = source_line(source, f"({f.src}") or source_line(source, f.src)
            if f.src.startswith("card:"):
                comp, _, cid = f.src[5:].partition("/")
                rows = game.tables.get(comp)
                if rows is None:
                    out.append(Problem(file, line, "rulebook → image", f"{f.src!r}: no component {comp!r} with a "
                                       "card table", "components with cards: " + (", ".join(game.tables) or "none"),
                                       code="rules-image"))
                elif not any(r.id == cid for r in rows):
                    out.append(Problem(file, line, "rulebook → image", f"{f.src!r}: the component {comp!r} has no "
                                       f"card {cid!r}", "write card:COMPONENT/CARD_ID with an id from its table",
                                       code="rules-image"))
                continue
            try:
                full = safe_path(rules_dir, f.src, file, line, "rulebook → image")
                image_ok(full)
            except CardgenError as exc:
                for p in exc.problems:
                    message, hint = p.message, p.hint
                    if p.code == "path-escape":
                        message = f"the image {f.src!r} is outside the rules folder"
                        hint = "copy the image into the rules folder and name it relative to it"
                    elif p.code == "missing-file":
                        message = f"the image {f.src!r} does not exist (looked for {rel(full)})"
                        hint = "put the image in the rules folder, or fix its name (relative to the rules folder)"
                    out.append(Problem(file, line, "rulebook → image", message, hint, code=p.code))
    return out


def html_problems(markdown: str, path: Path, source: str, tokens: list | None = None) -> list[Problem]:
    """Raw HTML is not drawn (the rulebook is not a web page): every tag other than a comment
    (``<!-- pagebreak -->``, ``<!-- a note -->``) is an error, so nothing vanishes silently.
    ``tokens``: markdown-it's tokens of ``markdown`` as written, when the caller has them (else
    parsed here)."""
    from cardgen.rulebook.markdown import parser  # lazy: +221 ms of imports here (measured)

    out: list[Problem] = []
    seen: set[str] = set()
    if tokens is None:
        tokens = parser().parse(markdown)
    found = []
    for t in tokens:
        if t.type == "html_block":
            found.append(t.content)
        for c in t.children or []:
            if c.type == "html_inline":
                found.append(c.content)
    lines: set = set()
    for html in found:
        first = html.strip().splitlines()[0] if html.strip() else ""
        if not first or first.startswith("<!--") or first in seen:
            continue
        seen.add(first)
        line = source_line(source, first)
        if line is not None and line in lines:  # one message per line: <b>…</b> is one problem
            continue
        lines.add(line)
        out.append(Problem(rel(path), line, "rulebook",
                           f"raw HTML is not drawn in the rulebook: {first[:60]!r}",
                           "write it in Markdown (**bold**, a blank line between paragraphs, | tables |); "
                           "only comments such as <!-- pagebreak --> are allowed", code="rules-html"))
    return out


def table_problems(blocks: list, path: Path, source: str) -> list[Problem]:
    """Tables larger than :data:`MAX_TABLE_ROWS` rows or :data:`MAX_TABLE_COLUMNS` columns."""
    from cardgen.rulebook.blocks import Table, plain  # lazy: +7 ms of imports here (measured)

    out = []
    for b in _walk(blocks):
        if isinstance(b, Table) and (len(b.rows) > MAX_TABLE_ROWS or len(b.head) > MAX_TABLE_COLUMNS):
            head = " | ".join(plain(c) for c in b.head[:3])
            out.append(Problem(rel(path), table_line(source, b), "rulebook → table",
                               f"the table ({head[:40]}…) has {len(b.rows):,} rows and {len(b.head)} columns; "
                               f"a rulebook table holds at most {MAX_TABLE_ROWS:,} rows and "
                               f"{MAX_TABLE_COLUMNS} columns", "split it, or keep the data in a card table "
                               "(kind: data) and print a summary", code="rules-table-size"))
    return out


def locate_tables(blocks: list, path: Path, source: str) -> None:
    """Set each table's, image's and paragraph's ``where`` to ``(file, line)`` in the source (for
    messages about it made while drawing: a word too wide for its column, an image scaled down,
    a short last line that could not be pulled in)."""
    from cardgen.rulebook.blocks import Figures, Para, Table, plain  # lazy: +7 ms of imports here (measured)

    for b in _walk(blocks):
        if isinstance(b, Para):
            text = plain(b.runs).strip()
            line = next((n for n in (source_line(source, k) for k in (text[:12], text[:6], text[-12:], text[-6:])
                                     if k.strip()) if n), None)
            b.where = (rel(path), line)
        if isinstance(b, Figures):
            for f in b.images:
                f.where = (rel(path), source_line(source, f"({f.src}") or source_line(source, f.src))
        if isinstance(b, Table):
            b.where = (rel(path), table_line(source, b))


def icon_problems(blocks: list, path: Path, source: str, known: tuple[str, ...]) -> list[Problem]:
    """Inline icons (``:name:``) of the rendered rules text whose name is not in ``known`` (the
    built-in icons and the game's own, :data:`cardgen.layout.icon_names.BUILTIN_ICONS` and
    :func:`cardgen.check.icons.icon_specs`): one error per name and source line holding
    ``:name:`` (as many lines as the text uses it; no line when the name came from the game's data
    through a template expression), in line order,
    with card text's message (:func:`cardgen.layout.icon_names.unknown_icon`: the closest known
    name and every known one) and code ``unknown-icon``. Without it the rulebook drew a grey square."""
    from cardgen.layout.icon_names import UNKNOWN_ICON_HINT, unknown_icon  # lazy: +5 ms of imports here (measured)
    from cardgen.rulebook.blocks import Heading, IconRun, Para, Table  # lazy: +7 ms of imports here (measured)

    names: list[str] = []
    for b in _walk(blocks):
        cells = [b.runs] if isinstance(b, (Heading, Para)) else \
            [*b.head, *(c for row in b.rows for c in row)] if isinstance(b, Table) else []
        names += [r.name for rs in cells for r in rs if isinstance(r, IconRun) and r.name not in known]
    found: dict[tuple[str, int | None], None] = {}
    for name in dict.fromkeys(names):
        lines = [source.count("\n", 0, m.start()) + 1 for m in re.finditer(re.escape(f":{name}:"), source)]
        for line in lines[:names.count(name)] or [None]:  # the n-th use at the n-th place typed
            found[(name, line)] = None
    return [Problem(rel(path), line, "rulebook → text", unknown_icon(name, known), UNKNOWN_ICON_HINT,
                    code="unknown-icon") for name, line in sorted(found, key=lambda k: (k[1] is None, k[1] or 0))]


def _text_roles(blocks: list, design) -> Iterable[tuple[str, str]]:
    """``(font role, text)`` of every run as the rulebook sets it (page design ``design``)."""
    from cardgen.rulebook.blocks import (  # lazy: +7 ms of imports here (measured)
        Heading,
        ListBlock,
        Para,
        Quote,
        Span,
        Table,
    )

    def runs(rs, role):
        for r in rs:
            if isinstance(r, Span):
                st = design.code if r.code else design.strong if r.bold else design.emphasis if r.italic else None
                yield (st.font if st is not None else role), r.text + r.ruby

    for b in _walk(blocks):
        if isinstance(b, Heading):
            role = design.title.font if b.title else design.heading(max(0, b.level - 2)).font
            yield from runs(b.runs, role)
        elif isinstance(b, Para):
            yield from runs(b.runs, design.body.font)
        elif isinstance(b, Table):
            for cell in b.head:
                yield from runs(cell, "heading")
            for row in b.rows:
                for cell in row:
                    yield from runs(cell, design.table.font)
        elif isinstance(b, (ListBlock, Quote)):
            continue  # their paragraphs come through _walk


def glyph_problems(blocks: list, path: Path, source: str, missing_chars) -> list[Problem]:
    """Characters of the rules text that the font they are set in lacks (they would print as
    empty boxes): one error per font role and source line, listing that line's characters (each
    character once, at the first source line holding it), as card faces list theirs.
    ``missing_chars(role, text) -> list[str]``; ``missing_chars.design``: the page design."""
    found: dict[tuple[str, int | None], list[str]] = {}
    seen: set[tuple[str, str]] = set()
    for role, text in _text_roles(blocks, missing_chars.design):
        for ch in missing_chars(role, text.replace("\n", "").replace("\u2060", "")):
            if (role, ch) in seen or ch.isspace():
                continue
            seen.add((role, ch))
            found.setdefault((role, source_line(source, ch)), []).append(ch)
    out = []
    for (role, line), chars in found.items():
        codes = ", ".join(f"U+{ord(c):04X}" for c in chars)
        boxes = "they would print as empty boxes" if len(chars) > 1 else "it would print as an empty box"
        out.append(Problem(rel(path), line, "rulebook → text",
                           f"the {role} font has no glyph for {' '.join(chars)} ({codes}): {boxes}",
                           f"write other characters, or set the {role} role to a font that has them "
                           "(fonts/fonts.yaml or the manifest's fonts:)", code="rules-missing-glyph"))
    return out
