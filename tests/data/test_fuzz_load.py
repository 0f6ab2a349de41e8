"""Fuzzing the loader and the validator: whatever the manifest text and the card table bytes,
``load_game`` + ``validate`` either work or raise :class:`CardgenError` — nothing else.

``CARDGEN_FUZZ=N`` runs N examples per test instead of the default (kept small for the suite).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from cardgen.core.errors import CardgenError
from cardgen.check.deck_math import validate
from cardgen.data.game import load_game
from tests.treepaths import value_paths

EXAMPLES = int(os.environ.get("CARDGEN_FUZZ", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

TRAPS = ["No", "yes", "007", "1.10", "1e400", "-0", "nan", ".inf", "~", "null", "all", "cards", "battle",
         "cards.csv", "../x.csv", "/etc/passwd", "card.number > 0", "{{ card.x }}", "card.__class__",
         "'x' * 99999999", "9 ** 9 ** 9", "cards | sum(attribute='number')", "", " ", "天雀牌", "①髙﨑～", "\t",
         "NA", "None"]
scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.integers(), st.floats(),
                   st.text(max_size=8), st.sampled_from(TRAPS))
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                     max_leaves=6)


def maybe(strategy):
    """Mostly a well-formed value, sometimes anything (so most examples get past the schema)."""
    return st.one_of(*[strategy] * 7, value)


component = st.fixed_dictionaries(
    {"id": maybe(st.sampled_from(["cards", "battle", "x"])), "name": maybe(st.just("カード"))},
    optional={
        "kind": maybe(st.sampled_from(["deck", "tokens", "not_included", "tiles"])),
        "count": maybe(st.integers(-2, 50)),
        "cards": maybe(st.one_of(st.just("cards.csv"), st.lists(
            st.dictionaries(st.sampled_from(["id", "number", "count", "text"]), value, max_size=4), max_size=4))),
        "fields": maybe(st.dictionaries(st.sampled_from(["number", "count", "text", "id"]),
                                        maybe(st.sampled_from(["int", "float", "bool", "text"])), max_size=3)),
        "quantity": maybe(st.sampled_from(["count", "number", "text", "id"])),
        "template": maybe(st.just("card")),
        "draft": value,
    })
player_count = st.fixed_dictionaries(
    {"players": maybe(st.integers(0, 13)), "hand": maybe(st.integers(-1, 10))},
    optional={"dead_wall": maybe(st.integers(-1, 10)), "turns": maybe(st.integers(-1, 10)),
              "wins_per_round": value,
              "remove": maybe(st.lists(st.fixed_dictionaries(
                  {"where": maybe(st.dictionaries(st.sampled_from(["number", "id", "colour"]), value, max_size=2))},
                  optional={"count": maybe(st.one_of(st.integers(-1, 9), st.just("all")))}), max_size=3))})
rule = st.fixed_dictionaries(
    {"id": maybe(st.just("r")), "description": maybe(st.just("d")), "deck": maybe(st.just("cards")),
     "check": maybe(st.sampled_from(["card.number > 0", "non_decreasing(mean_by(cards, 'number', 'count'))",
                                     "total(cards, 'number') > 1", "card.nope", "count(cards) == 6", "card[",
                                     "card.__class__", "'x' * 10 ** 9", "9 ** 9 ** 9", "cards | first",
                                     "mean_by(cards, 'id', 'text')", "1 / 0"]))},
    optional={"scope": maybe(st.sampled_from(["card", "deck"])), "when": maybe(st.just("card.number != 2"))})
manifest = st.fixed_dictionaries(
    {"game": maybe(st.fixed_dictionaries(
        {"id": maybe(st.just("g")), "title": maybe(st.text(max_size=5)), "version": maybe(st.sampled_from(TRAPS)),
         "players": maybe(st.lists(maybe(st.integers(0, 6)), max_size=3))})),
     "components": maybe(st.lists(component, max_size=3))},
    optional={"setup": maybe(st.fixed_dictionaries({"deck": maybe(st.just("cards")),
                                                    "player_counts": maybe(st.lists(player_count, max_size=3))})),
              "design": value, "design_rules": maybe(st.lists(rule, max_size=2)),
              "print": maybe(st.fixed_dictionaries({}, optional={"card_size": value, "bleed": value}))})


def _yaml_text(data, edits) -> str:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    for pos, snippet in edits:  # a few random edits: an unbalanced quote, a tab, a stray colon…
        i = pos % (len(text) + 1)
        text = text[:i] + snippet + text[i:]
    return text


EDITS = st.lists(st.tuples(st.integers(0, 10_000),
                           st.sampled_from(['"', "'", "\t", ": ", "- ", "&a ", "*a", "!!python/none ", "{", "]",
                                            "\n  ", "\n", "<<: ", "? ", "|\n", "%YAML 1.1\n", "\x00", "\ufeff"])),
                 max_size=3)


GOOD_MANIFEST = """game: {id: g, title: t, version: v, players: [2]}
components:
  - {id: cards, name: c, count: 6, cards: cards.csv, fields: {number: int}, template: card}
setup: {deck: cards, player_counts: [{players: 2, hand: 2, turns: 1, remove: [{where: {number: 1}, count: 1}]}]}
design_rules:
  - {id: r, description: d, deck: cards, check: "card.number > 0"}
  - {id: s, description: d, deck: cards, scope: deck, check: "non_decreasing(mean_by(cards, 'number', 'count'))"}
"""


def _check(manifest_text: str | bytes, table: bytes | None) -> None:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "game.yaml").write_bytes(manifest_text if isinstance(manifest_text, bytes)
                                         else manifest_text.encode("utf-8", "surrogatepass"))
        if table is not None:
            (root / "cards.csv").write_bytes(table)
        try:
            game = load_game(root)
        except CardgenError as exc:
            assert exc.problems and all(p.message for p in exc.problems)
            return
        report = validate(game)
        report.to_json()


@FUZZ
@given(manifest, EDITS)
def test_manifests_only_raise_cardgen_error(data, edits) -> None:
    table = b"id,number,text,count\nc1,1,NA,2\nc2,2,None,4\n"
    _check(_yaml_text(data, edits), table)


def _like(old):
    """Mostly a value of the same type as ``old`` (so the schema passes), sometimes anything."""
    if isinstance(old, bool):
        same = st.booleans()
    elif isinstance(old, int):
        same = st.integers(-3, 60)
    elif isinstance(old, str):
        same = st.one_of(st.sampled_from(TRAPS), st.text(max_size=6))
    else:
        return value
    return st.one_of(same, same, same, value)


@FUZZ
@given(st.data())
def test_mutated_good_manifest_only_raises_cardgen_error(data) -> None:
    """A valid manifest with one to three values replaced or deleted: deep in the validator."""
    doc = yaml.safe_load(GOOD_MANIFEST)
    doc["components"].append({"id": "tokens", "name": "t", "kind": "tokens", "count": 3,
                              "cards": [{"id": "p", "count": 3}], "template": "card"})
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in value_paths(doc) if p]
        path = data.draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if data.draw(st.integers(0, 3)) == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(_like(parent[path[-1]]))
    table = data.draw(st.sampled_from([b"id,number,text,count\nc1,1,NA,2\nc2,2,None,4\n",
                                       b"id,number,count\nc1,1,1\nc2,2,5\n"]))
    _check(yaml.safe_dump(doc, allow_unicode=True), table)


@FUZZ
@given(st.binary(max_size=300))
def test_any_manifest_bytes(raw) -> None:
    _check(raw, None)


cell = st.one_of(st.text(max_size=6), st.sampled_from(TRAPS + ["1", "2", "-1", "0", "１", "1.5", "99999999999"]))
rows = st.lists(st.one_of(*[st.lists(cell, min_size=4, max_size=4)] * 5, st.lists(cell, max_size=6)), max_size=6)
header = st.one_of(*[st.just(["id", "number", "text", "count"])] * 3, st.permutations(["id", "number", "text", "count"]),
                   st.lists(st.sampled_from(["id", "number", "text", "count", "", "id", " number "]), max_size=6))


def _csv_bytes(head, body, encoding, newline, quote_all) -> bytes:
    import csv
    import io
    out = io.StringIO()
    csv.writer(out, lineterminator=newline, quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL).writerows(
        [head] + body)
    text = out.getvalue()
    if encoding == "utf-8-sig":
        return text.encode("utf-8-sig")
    return text.encode(encoding, "replace")


@FUZZ
@given(header, rows, st.sampled_from(["utf-8", "utf-8-sig", "cp932", "utf-16", "latin-1"]),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_card_tables_only_raise_cardgen_error(head, body, encoding, newline, quote_all) -> None:
    _check(GOOD_MANIFEST, _csv_bytes(head, body, encoding, newline, quote_all))


@FUZZ
@given(st.binary(max_size=300))
def test_any_card_table_bytes(raw) -> None:
    _check(GOOD_MANIFEST, raw)
