"""Editions of one game (the manifest's ``editions:``, :mod:`cardgen.data.edition_model`): the
translation table of an edition, the texts it translates, and :func:`apply_edition`, which makes
the :class:`~cardgen.data.game.Game` of an edition from the loaded default one.

The translation table (one per edition, a CSV or spreadsheet in the game folder) holds one
translated text a row::

    table,id,field,source_hash,text
    characters,c1-1,skill_text,3f2a91c0,Gain 1 :power:.
    components,battle,name,5d0e7b12,Battle cards
    game,,title,9a1c33e4,Tenjanpai
    choices,pon-caller,options.1,0b7dd2a1,A player other than the one whose turn it is
    rules,01_intro.md,file,c41e0f9a,01_intro.md

``table`` is a component id (its ``translate:`` columns), ``components`` (a component's
``name``/``note``), ``game`` (``title``/``subtitle``), ``choices`` (an open question's
``question``, ``options.N``, ``why``) or ``rules`` (a rules file, translated as a whole in the
edition's rules folder; ``text`` names the translated file). ``source_hash`` is
:func:`source_hash` of the default edition's text when it was translated: when that text
changes, the translation is stale (:mod:`cardgen.check.coverage`).
"""
from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardgen.core.errors import CardgenError, Problem, did_you_mean, rel
from cardgen.data.card_tables import load_table
from cardgen.data.edition_model import LATIN_LANGUAGES, RESERVED_EDITION_IDS, Edition
from cardgen.data.paths import safe_path
from cardgen.data.spreadsheet import split_sheet

#: The columns of a translation table, in order.
COLUMNS = ("table", "id", "field", "source_hash", "text")
#: Manifest texts an edition may translate (``table`` value → fields).
MANIFEST_FIELDS = {"game": ("title", "subtitle"), "components": ("name", "note")}
HASH_LENGTH = 8


def source_hash(text: str) -> str:
    """The short hash kept beside a translation: the first 8 hex digits of the SHA-256 of the
    source text in NFC (a text re-typed with the same characters keeps its hash)."""
    return hashlib.sha256(unicodedata.normalize("NFC", text).encode("utf-8")).hexdigest()[:HASH_LENGTH]


@dataclass(frozen=True)
class Translation:
    """One row of a translation table, with where it was written."""

    table: str
    id: str
    field: str
    source_hash: str
    text: str
    file: str
    line: int | None

    @property
    def key(self) -> tuple[str, str, str]:
        """``(table, id, field)``: what the row translates."""
        return (self.table, self.id, self.field)


@dataclass(frozen=True)
class SourceText:
    """A text of the default edition that an edition translates, and where it is written."""

    text: str
    file: str
    line: int | None
    path: str  #: the data path as messages show it


@dataclass
class EditionInfo:
    """The edition a :class:`~cardgen.data.game.Game` is: its id, language and words."""

    id: str
    language: str
    default: bool
    rules: str = "rules"
    terms: dict[str, str] = field(default_factory=dict)
    #: a bilingual edition: component id → row id → the row's values in the second edition
    also: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    @property
    def latin(self) -> bool:
        """Set with Western line breaking and hyphenation."""
        return is_latin(self.language)


def is_latin(language: str) -> bool:
    """Whether ``language`` (a BCP 47 tag) is one of :data:`LATIN_LANGUAGES`."""
    return language.split("-")[0].lower() in LATIN_LANGUAGES


def edition_ids(game) -> list[str]:
    """The game's edition ids, the default first; ``[]`` for a game without ``editions:``."""
    return list(game.manifest.editions)


def default_edition(game) -> str | None:
    """The id of the default edition (the first listed), or None."""
    ids = edition_ids(game)
    return ids[0] if ids else None


def unknown_edition(game, eid: str) -> CardgenError:
    """The error for ``--edition EID`` the game does not have."""
    ids = edition_ids(game)
    if not ids:
        return CardgenError(Problem(game.manifest_file, None, "editions", f"--edition {eid}: the game has no `editions:`",
                                    "declare the editions in game.yaml (see docs/editions.md), or build without --edition",
                                    code="unknown-edition"))
    return CardgenError(Problem(game.manifest_file, game.line("editions"), "editions",
                                f"--edition {eid}: no such edition" + did_you_mean(eid, ids),
                                "use one of: " + ", ".join(ids) + " (or all)", code="unknown-edition"))


def source_texts(game) -> dict[tuple[str, str, str], SourceText]:
    """Every text of the default edition an edition translates, keyed ``(table, id, field)``:
    the ``translate:`` columns of each card row (empty cells are not translated), component names
    and notes, the title and subtitle, the open questions' words, and each rules file."""
    m = game.manifest
    out: dict[tuple[str, str, str], SourceText] = {}
    for comp in m.components:
        for row in game.tables.get(comp.id, []):
            for f in comp.translate:
                text = row.values.get(f)
                if isinstance(text, str) and text.strip():
                    out[(comp.id, row.id, f)] = SourceText(text, row.file, row.line, f"{comp.id} → {row.id} → {f}")
    for f in MANIFEST_FIELDS["game"]:
        text = getattr(m.game, f)
        if text:
            out[("game", "", f)] = SourceText(text, game.manifest_file, game.line("game", f), f"game → {f}")
    for i, comp in enumerate(m.components):
        for f in MANIFEST_FIELDS["components"]:
            text = getattr(comp, f)
            if text:
                out[("components", comp.id, f)] = SourceText(text, game.manifest_file, game.line("components", i, f),
                                                             f"components → {comp.id} → {f}")
    for i, q in enumerate(m.game.choices):
        parts = [("question", q.question)] + [(f"options.{k}", o) for k, o in enumerate(q.options)] + [("why", q.why)]
        for f, text in parts:
            out[("choices", q.id, f)] = SourceText(text, game.manifest_file, game.line("game", "choices", i, f.split(".")[0]),
                                                   f"game → choices → {q.id} → {f}")
    ids = edition_ids(game)
    rules = rules_dir(game.root, None) if not ids else game.root / m.editions[ids[0]].rules
    if rules.is_dir():
        for p in sorted(rules.glob("*.md")):
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeError):
                continue
            out[("rules", p.name, "file")] = SourceText(text, rel(p), 1, f"rules → {p.name}")
    return out


def read_translations(game, eid: str) -> tuple[list[Translation], list[Problem]]:
    """The rows of edition ``eid``'s translation table, and the problems of reading it (a missing
    file, missing columns, a row given twice). An edition without ``translations:`` has none."""
    spec: Edition = game.manifest.editions[eid]
    if not spec.translations:
        return [], []
    line = game.line("editions", eid, "translations")
    where = f"editions → {eid} → translations"
    try:
        name, sheet = split_sheet(spec.translations)
        path = safe_path(game.root, name, game.manifest_file, line, where)
        if not path.is_file():
            return [], [Problem(game.manifest_file, line, where, f"the translation table {name!r} does not exist",
                                f"create {rel(path)} with the columns {', '.join(COLUMNS)} (see docs/editions.md)",
                                code="missing-file")]
        loaded = load_table(path, rel(path), sheet)
    except CardgenError as exc:
        return [], list(exc.problems)
    src = loaded.source
    rows = loaded.data
    problems: list[Problem] = []
    head = list(rows[0]) if rows else []
    absent = [c for c in COLUMNS if c not in head and c != "source_hash"]
    if rows and absent:
        return [], [Problem(src.file, 1, "columns", f"the translation table lacks the column(s) {', '.join(absent)}",
                            f"its first row names the columns: {', '.join(COLUMNS)}", code="edition-columns")]
    out: list[Translation] = []
    seen: dict[tuple, int | None] = {}
    for i, r in enumerate(rows):
        t = Translation(str(r.get("table") or "").strip(), str(r.get("id") or "").strip(),
                        str(r.get("field") or "").strip(), str(r.get("source_hash") or "").strip(),
                        str(r.get("text") or ""), src.file, src.line((i,)))
        if not (t.table or t.id or t.field or t.text):
            continue  # a blank row
        if t.key in seen:
            problems.append(Problem(t.file, t.line, f"{t.table} → {t.id} → {t.field}",
                                    f"a second translation of the same text (the first is at line {seen[t.key]})",
                                    "keep one row per table, id and field", code="edition-duplicate"))
            continue
        seen[t.key] = t.line
        out.append(t)
    return out, problems


def _translated(values: dict[str, Any], fields, table: str, rid: str, by_key: dict) -> dict[str, Any]:
    new = dict(values)
    for f in fields:
        t = by_key.get((table, rid, f))
        if t is not None and t.text.strip():
            new[f] = t.text
    return new


def _tables(game, by_key: dict) -> dict:
    tables = {}
    for comp in game.manifest.components:
        rows = game.tables.get(comp.id, [])
        if comp.translate:
            rows = [replace(r, values=_translated(r.values, comp.translate, comp.id, r.id, by_key)) for r in rows]
        tables[comp.id] = rows
    return tables


def _manifest(game, spec: Edition, by_key: dict):
    m = game.manifest

    def text(table: str, rid: str, f: str, current: str) -> str:
        t = by_key.get((table, rid, f))
        return t.text if t is not None and t.text.strip() else current

    choices = []
    for q in m.game.choices:
        options = [text("choices", q.id, f"options.{k}", o) for k, o in enumerate(q.options)]
        use = options[q.options.index(q.use)] if q.use in q.options else q.use
        choices.append(q.model_copy(update={"question": text("choices", q.id, "question", q.question),
                                            "options": options, "use": use, "why": text("choices", q.id, "why", q.why)}))
    info = m.game.model_copy(update={f: text("game", "", f, getattr(m.game, f)) for f in MANIFEST_FIELDS["game"]}
                             | {"choices": choices})
    comps = [c.model_copy(update={f: text("components", c.id, f, getattr(c, f)) for f in MANIFEST_FIELDS["components"]}
                          | ({"template": spec.templates[c.id]} if c.id in spec.templates else {}))
             for c in m.components]
    return m.model_copy(update={"game": info, "components": comps, "fonts": {**m.fonts, **spec.fonts}})


def edition_problems(game) -> list[Problem]:
    """Problems of the ``editions:`` block itself: a reserved id, a bilingual ``also`` naming no
    edition or itself, a ``templates`` entry naming no component, a default edition with a
    translation table."""
    m = game.manifest
    out = []
    ids = list(m.editions)
    comps = [c.id for c in m.components]
    for k, (eid, spec) in enumerate(m.editions.items()):
        if eid in RESERVED_EDITION_IDS:
            out.append(game.problem(("editions", eid), f"the edition id {eid!r} is reserved (the default edition "
                                    f"writes output/<game>/{eid})", "use the language as the id, e.g. `en`",
                                    code="edition-id"))
        if spec.also is not None and (spec.also not in ids or spec.also == eid):
            out.append(game.problem(("editions", eid, "also"), f"`also: {spec.also}` names no other edition"
                                    + did_you_mean(spec.also, ids), "use one of: " + ", ".join(i for i in ids if i != eid),
                                    code="edition-also"))
        for cid in spec.templates:
            if cid not in comps:
                out.append(game.problem(("editions", eid, "templates", cid), f"no component has the id {cid!r}"
                                        + did_you_mean(cid, comps), "use one of: " + ", ".join(comps),
                                        code="unknown-component"))
        if k == 0 and spec.translations:
            out.append(game.problem(("editions", eid, "translations"), "the default edition (the first listed) "
                                    "translates nothing: its texts are the card tables' own",
                                    "move the translations to another edition, or list that edition first",
                                    code="edition-default-translations"))
    for i, comp in enumerate(m.components):
        columns = set(game.tables.get(comp.id, [None])[0].values) if game.tables.get(comp.id) else set()
        for j, f in enumerate(comp.translate):
            if f in ("id", comp.quantity) or comp.fields.get(f, "text") != "text":
                why = ("it is the card id" if f == "id" else "it holds the copies" if f == comp.quantity
                       else f"its type is {comp.fields[f]}")
                out.append(game.problem(("components", i, "translate", j), f"{f!r} cannot be translated: {why} "
                                        "(numbers, counts and ids are shared by every edition)",
                                        "translate text columns only", code="edition-translate-number"))
            elif columns and f not in columns:
                out.append(game.problem(("components", i, "translate", j), f"the card table has no column {f!r}"
                                        + did_you_mean(f, sorted(columns)), "name a text column of the table",
                                        code="edition-translate-column"))
    return out


def _by_key(game, eid: str) -> dict:
    if eid == default_edition(game):
        return {}
    return {t.key: t for t in read_translations(game, eid)[0]}


def apply_edition(game, eid: str | None):
    """The :class:`~cardgen.data.game.Game` of edition ``eid`` (None: the default edition): the
    translated texts in place of the default's (a text not translated keeps the default's: the
    coverage report names it), the edition's fonts, templates, rules folder and terms (over the
    default edition's). Ids, rows, order, numbers and counts are the default's.

    Raises:
        CardgenError: ``eid`` is not an edition of the game.
    """
    ids = edition_ids(game)
    if eid is None:
        if not ids:
            return game
        eid = ids[0]
    if eid not in ids:
        raise unknown_edition(game, eid)
    spec = game.manifest.editions[eid]
    base_terms = game.manifest.editions[ids[0]].terms
    by_key = _by_key(game, eid)
    info = EditionInfo(eid, spec.language, eid == ids[0], spec.rules, {**base_terms, **spec.terms})
    if spec.also is not None and spec.also in ids and spec.also != eid:
        also_tables = _tables(game, _by_key(game, spec.also))
        info.also = {cid: {r.id: r.values for r in rows} for cid, rows in also_tables.items()}
    tables = _tables(game, by_key) if by_key else game.tables
    manifest = _manifest(game, spec, by_key)
    return replace(game, manifest=manifest, tables=tables, edition=info)


def rules_dir(root: Path, edition: EditionInfo | None) -> Path:
    """The rules folder of an edition (``rules/`` without editions)."""
    return Path(root) / (edition.rules if edition is not None else "rules")
