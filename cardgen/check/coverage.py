"""Edition coverage: what each edition (:mod:`cardgen.data.editions`) has not translated, has
translated from a text that changed since, or translates that does not exist.

- **missing**: a text of the default edition without a translation (or with an empty one), at
  the source's ``file:line`` (the card row, the manifest line, the rules file);
- **stale**: a translation whose ``source_hash`` is not the hash of the source text as it is now,
  at the translation's ``file:line``;
- **extra**: a translation of nothing (an unknown table, card id or field, a column the component
  does not ``translate:``), at its line;
- terms: a term of the default edition the edition does not give (missing), one it gives that
  the default does not have (extra).

All are warnings for a playtest build and errors with ``--final`` (:func:`final_coverage`): a
release never ships an edition with missing or stale texts.
"""
from __future__ import annotations

from dataclasses import replace

from cardgen.core.errors import Problem, did_you_mean
from cardgen.data.editions import default_edition, edition_ids, read_translations, source_hash, source_texts

#: The finding codes of coverage, by kind.
CODES = {"missing": "edition-missing", "stale": "edition-stale", "extra": "edition-extra"}


def coverage(game, eid: str, sources: dict | None = None) -> list[Problem]:
    """The coverage findings (warnings) of edition ``eid`` of ``game`` (the default edition's game,
    as loaded); none for the default edition itself. ``sources``: :func:`source_texts` of the
    game, when the caller has them."""
    if eid == default_edition(game):
        return []
    m = game.manifest
    spec = m.editions[eid]
    if not spec.translations and spec.language == m.editions[default_edition(game)].language:
        return []  # the default's own texts (a bilingual deck's first language): nothing to translate
    sources = source_texts(game) if sources is None else sources
    entries, problems = read_translations(game, eid)
    problems = [replace(p, severity="error") if p.code in ("edition-duplicate",) else p for p in problems]
    by_key = {t.key: t for t in entries}
    translatable = {c.id: set(c.translate) for c in m.components}
    for key, src in sources.items():
        t = by_key.get(key)
        if key[0] == "rules" and not spec.translations:
            continue  # the edition translates no files one by one: its rules folder is its own
        if t is None or not t.text.strip():
            file, line = (t.file, t.line) if t is not None else (src.file, src.line)
            hint = (f"add a row `{key[0]},{key[1]},{key[2]},{source_hash(src.text)},<text>` to {spec.translations}"
                    if spec.translations else f"give edition {eid!r} a translation table (`translations:`)")
            problems.append(Problem(file, line, src.path, f"edition {eid!r}: no translation of "
                                    f"{_short(src.text)}", hint, severity="warning", code=CODES["missing"]))
        elif t.source_hash != source_hash(src.text):
            problems.append(Problem(t.file, t.line, src.path, f"edition {eid!r}: the translation is stale: "
                                    f"{src.file}:{src.line} now reads {_short(src.text)}",
                                    f"update the translation, then set its source_hash to {source_hash(src.text)}",
                                    severity="warning", code=CODES["stale"]))
    for t in entries:
        if t.key in sources:
            if t.table == "rules" and not (game.root / spec.rules / t.text.strip()).is_file():
                problems.append(Problem(t.file, t.line, f"rules → {t.id}", f"edition {eid!r}: the translated rules file "
                                        f"{spec.rules}/{t.text.strip()} does not exist",
                                        f"write it, or name the file of {spec.rules}/ that translates {t.id}",
                                        severity="error", code="missing-file"))
            continue
        problems.append(Problem(t.file, t.line, f"{t.table} → {t.id} → {t.field}",
                                f"edition {eid!r}: {_nothing(t, translatable, game)}",
                                "remove the row, or fix the table, id or field it names", severity="warning",
                                code=CODES["extra"]))
    problems.extend(_terms(game, eid))
    return problems


def _nothing(t, translatable: dict, game) -> str:
    """Why the translation ``t`` translates nothing, in words."""
    tables = [*translatable, "components", "game", "choices", "rules"]
    if t.table not in tables:
        return f"no table {t.table!r}" + did_you_mean(t.table, tables)
    if t.table in translatable:
        ids = [r.id for r in game.tables.get(t.table, [])]
        if t.id not in ids:
            return f"{t.table} has no card {t.id!r}" + did_you_mean(t.id, ids)
        if t.field not in translatable[t.table]:
            fields = sorted(translatable[t.table])
            return (f"{t.table}.{t.field} is not translated (the component's `translate:` is "
                    f"{', '.join(fields) or 'empty'})") + did_you_mean(t.field, fields)
        return f"{t.table} → {t.id} → {t.field} is empty in the default edition"
    return f"{t.table} has nothing called {t.id!r} with a field {t.field!r}"


def _terms(game, eid: str) -> list[Problem]:
    m = game.manifest
    base = m.editions[default_edition(game)].terms
    terms = m.editions[eid].terms
    out = []
    for k in base:
        if k not in terms:
            out.append(game.problem(("editions", eid), f"edition {eid!r}: no term {k!r} (the default edition "
                                    f"says {_short(base[k])})", f"add `{k}: …` under editions → {eid} → terms",
                                    code=CODES["missing"], severity="warning"))
    for k in terms:
        if k not in base and not _builtin_term(k):
            out.append(game.problem(("editions", eid, "terms", k), f"edition {eid!r}: the term {k!r} is not one "
                                    "of the default edition's" + did_you_mean(k, list(base)),
                                    "add it to the default edition's terms too, or remove it",
                                    code=CODES["extra"], severity="warning"))
    return out


def _builtin_term(key: str) -> bool:
    """Terms the rulebook itself knows (its generated tables' words and notes), which the default
    edition need not list: ``setup_table.hand``, ``open_question``…"""
    return "." in key or key in BUILTIN_TERMS


#: Words of the rulebook an edition may give without the default listing them (see
#: :mod:`cardgen.rulebook.words`).
BUILTIN_TERMS = ("open_question", "in_this_edition", "options", "why", "where", "page", "not_in_text",
                 "open_questions_title", "contents", "rulebook", "wall", "dead_wall", "glossary_title")


def _short(text: str) -> str:
    one = " ".join(text.split())
    return repr(one if len(one) <= 40 else one[:39] + "…")


def all_coverage(game) -> list[Problem]:
    """:func:`coverage` of every edition of ``game`` but the default."""
    ids = edition_ids(game)
    if len(ids) < 2:
        return []
    sources = source_texts(game)
    return [p for eid in ids[1:] for p in coverage(game, eid, sources)]


def final_coverage(problems: list[Problem], eid: str) -> list[Problem]:
    """The missing and stale findings of edition ``eid`` among ``problems`` as errors (``--final``
    refuses them; another edition's never stop this one)."""
    return [replace(p, severity="error") for p in problems
            if p.code in (CODES["missing"], CODES["stale"]) and p.message.startswith(f"edition {eid!r}:")]


def coverage_counts(problems: list[Problem]) -> dict[str, int]:
    """How many findings of each kind (missing, stale, extra) ``problems`` hold."""
    return {kind: sum(p.code == code for p in problems) for kind, code in CODES.items()}

