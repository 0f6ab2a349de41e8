"""Generated tables of the rulebook, as Markdown (they pass through the same parser as the text).

Every number comes from the manifest, the card tables or the validator's report
(:func:`cardgen.check.deck_math.validate`) — never typed into the rules text. Add a builder for a new game
with ``@table("name")`` (see :mod:`cardgen.rulebook.table_registry`).
"""
from __future__ import annotations

from cardgen.check.deck_math import removal_rows
from cardgen.core.errors import CardgenError, did_you_mean
from cardgen.core.numfmt import num
from cardgen.render.icons import ICONS
from cardgen.rulebook.table_registry import UNITS, RulebookData, md_table, missing, table
from cardgen.rulebook.words import table_defaults

_ICONS = set(ICONS) | {"power"}

#: The generated tables whose words the manifest may change (``rulebook.tables.<name>``):
#: default column keys in order, and default text per column or word key. The defaults are the
#: words the bundled games print (Japanese mahjong terms); ``{column}`` in a breakdown heading is
#: the column's name or icon.
TABLE_WORDS: dict[str, dict] = {
    "setup_table": {
        "columns": ["players", "removed", "deck", "hand", "dead_wall", "draw_pile", "turns"],
        "headings": {"players": "人数", "removed": "抜く枚数", "deck": "使う枚数", "hand": "手札（1人）",
                     "dead_wall": "王牌", "draw_pile": "山札", "turns": "手番（1人）",
                     "players_unit": "人", "removed_note": "抜くカード", "none": "—"},
    },
    "component_table": {
        "columns": ["name", "count", "note"],
        "headings": {"name": "内容物", "count": "数量", "note": "備考", "not_included": "付属しません"},
    },
    "breakdown_table": {
        "columns": ["by", "count", "has"],
        "headings": {"by": "数字", "count": "枚数", "has": "{column}あり", "total": "計"},
    },
    "scoring_table": {
        "columns": ["power", "bonus"],
        "headings": {"power": "持っている :power:", "bonus": "パワーボーナス", "power_unit": "個",
                     "bonus_unit": "点", "or_more": "以上"},
    },
}


def table_words(data: RulebookData, name: str, extra_columns: tuple[str, ...] = ()) -> tuple[list[str], dict[str, str]]:
    """``(columns, words)`` of the generated table ``name``: the manifest's
    ``rulebook.tables.<name>`` over :data:`TABLE_WORDS`. ``extra_columns``: keys allowed in
    ``columns`` besides the defaults (``setup.derive`` names). Raises CardgenError (via
    :func:`missing`) naming an unknown column or word key and the known ones."""
    default = TABLE_WORDS[name]
    ed = data.game.edition
    # the manifest's own headings are the default edition's words; another edition's come from its terms
    settings = data.manifest.rulebook.tables.get(name) if ed is None or ed.default else None
    columns = list(default["columns"])
    words = table_defaults(data.game, name, default["headings"])
    if settings is None:
        return columns, words
    known_columns = [*default["columns"], *extra_columns]
    if settings.columns is not None:
        unknown = [(i, c) for i, c in enumerate(settings.columns) if c not in known_columns]
        if unknown:  # each at its line of game.yaml, where it is fixed (not where the table is placed)
            raise CardgenError([data.game.problem(
                ("rulebook", "tables", name, "columns", i),
                f"{name} has no column {c!r}{did_you_mean(c, known_columns)}",
                "use some of: " + ", ".join(known_columns), code="rulebook-data") for i, c in unknown])
        columns = list(settings.columns)
    unknown = [k for k in settings.headings if k not in words and k not in known_columns]
    if unknown:
        raise missing(data, f"rulebook.tables.{name}.headings: no column or word {unknown[0]!r}",
                      "use some of: " + ", ".join(dict.fromkeys([*known_columns, *words])))
    words.update(settings.headings)
    return columns, words


def _label(column: str) -> str:
    return f":{column}:" if column in _ICONS else column


@table("component_table")
def component_table(data: RulebookData) -> str:
    """内容物 | 数量 | 備考: every component in manifest order; counts from the tables
    (words and columns: ``rulebook.tables.component_table``)."""
    columns, words = table_words(data, "component_table")
    rows = []
    for c in data.manifest.components:
        if c.kind == "data":  # a table the rules read (e.g. yaku), not a physical component
            continue
        n = data.count(c.id)
        qty = words["not_included"] if c.kind == "not_included" else (
            f"{n}{words.get('unit_' + c.kind, UNITS.get(c.kind, ''))}" if n is not None else "—")
        cells = {"name": c.name, "count": qty, "note": c.note}
        rows.append([cells[k] for k in columns])
    align = {"name": "l", "count": "c", "note": "l"}
    return md_table([words[k] for k in columns], rows, [align[k] for k in columns])


def _removal_text(data: RulebookData, players: int, words: dict[str, str]) -> str:
    setup = data.manifest.setup
    pc = next((p for p in setup.player_counts if p.players == players), None)
    if pc is None or not pc.remove:
        return words["removed_none"]
    parts = []
    for r in pc.remove:
        what = _removal_what(data, r.where, words)
        parts.append(words["removed_all"].format(what=what) if r.count == "all"
                     else words["removed_count"].format(what=what, count=r.count))
    # "2を1枚, 3を1枚…" reads better grouped when every removal takes one card of one value
    if all(r.count == 1 and len(r.where) == 1 for r in pc.remove):
        return words["removed_each"].format(values=words["values_sep"].join(str(next(iter(r.where.values())))
                                                                            for r in pc.remove))
    return "、".join(parts)


def _removal_what(data: RulebookData, where: dict, words: dict[str, str]) -> str:
    """What a removal takes, as a player reads it: the cards' own name when every card it selects
    has the same one (``緑の6``), a ``number`` alone as the value (``1``: "all the 1s"), else each
    column with its value (``suit3・number6のカード``) — never values run together, which read as
    several removals."""
    deck = data.manifest.setup.deck
    component = data.game.component(deck) if deck else None
    name_field = component.tts.name if component is not None else "name"
    names = {r.values.get(name_field) for r in removal_rows(data.game.tables.get(deck, []), where)}
    if len(names) == 1 and None not in names and str(next(iter(names))).strip():
        return str(next(iter(names)))
    if list(where) == ["number"]:
        return str(where["number"])
    pairs = words["where_sep"].join(words["where_pair"].format(field=k, value=v) for k, v in where.items())
    return words["where_cards"].format(pairs=pairs)


@table("setup_table")
def setup_table(data: RulebookData) -> str:
    """Deal and draw per player count, straight from the validator's deck math (columns and
    headings: ``rulebook.tables.setup_table``; a ``setup.derive`` name is a column too)."""
    if not data.report.player_counts:
        raise missing(data, "setup_table needs `setup:` in the manifest", "add setup.deck and setup.player_counts")
    counts = sorted(data.report.player_counts, key=lambda p: p.players)
    derived = tuple(dict.fromkeys(k for pc in counts for k in pc.derived))
    columns, words = table_words(data, "setup_table", derived)
    rows = []
    for pc in counts:
        cells = {"players": f"{pc.players}{words['players_unit']}", "removed": pc.removed, "deck": pc.deck,
                 "hand": pc.hand, "dead_wall": pc.dead_wall, "draw_pile": pc.draw_pile,
                 "turns": pc.turns if pc.turns is not None else words["none"], **pc.derived}
        rows.append([cells.get(k, words["none"]) for k in columns])
    out = md_table([words.get(k, k) for k in columns], rows)
    notes = [words["removed_for"].format(players=pc.players, players_unit=words["players_unit"],
                                         what=_removal_text(data, pc.players, words)) for pc in counts if pc.removed]
    if notes:
        out += f"\n\n{words['removed_note']}{words['note_colon']}" + words["removed_sep"].join(notes)
    return out


@table("breakdown_table")
def breakdown_table(data: RulebookData) -> str:
    """Cards of the setup deck per value of ``rulebook.breakdown_by`` (default ``number``),
    with the number of cards that have each of ``rulebook.breakdown_columns``."""
    m = data.manifest
    if m.setup is None:
        raise missing(data, "breakdown_table needs `setup.deck`", "add setup.deck to the manifest")
    by, cols = m.rulebook.breakdown_by, m.rulebook.breakdown_columns
    rows = data.rows(m.setup.deck)
    if rows and by not in rows[0]:
        raise missing(data, f"breakdown_table: the deck {m.setup.deck!r} has no column {by!r}",
                      "set rulebook.breakdown_by to one of: " + ", ".join(rows[0]))
    groups: dict = {}
    for r in rows:
        g = groups.setdefault(r[by], {"count": 0, **{c: 0 for c in cols}})
        g["count"] += r["count"]
        for c in cols:
            if (r.get(c) or 0) > 0:
                g[c] += r["count"]
    columns, words = table_words(data, "breakdown_table", tuple(cols))
    given = data.manifest.rulebook.tables.get("breakdown_table")
    own = given.headings if given else {}
    ed = data.game.edition
    # the game's word for a column (`terms: {suit_name: 季節}`), the default edition's as the headings are
    terms = data.manifest.terms if ed is None or ed.default else {}
    by_heading = words["by"] if "by" in own else terms.get(by) or (words["by"] if by == "number" else by)

    def row(label, count, has: dict) -> list:
        cells = {"by": [label], "count": [count], "has": [has[c] for c in cols], **{c: [has[c]] for c in cols}}
        return [v for k in columns for v in cells[k]]

    # numbers in order (1, 2 … 10); words as the card table lists them (春, 夏, 秋, 冬), not by code point
    numeric = all(isinstance(k, (int, float)) and not isinstance(k, bool) for k in groups)
    body = [row(k, g["count"], g) for k, g in (sorted(groups.items()) if numeric else groups.items())]
    body.append(row(words["total"], sum(g["count"] for g in groups.values()),
                    {c: sum(g[c] for g in groups.values()) for c in cols}))
    has_heads = {c: own.get(c) or words["has"].replace("{column}", _label(c) if c in _ICONS else terms.get(c) or c)
                 for c in cols}
    heads = {"by": [by_heading], "count": [words["count"]], "has": list(has_heads.values()),
             **{c: [h] for c, h in has_heads.items()}}
    return md_table([h for k in columns for h in heads[k]], body)


@table("scoring_table")
def scoring_table(data: RulebookData) -> str:
    """Power bonus: 1 point per power up to ``design.power_bonus_cap``, then ``power_bonus_flat``."""
    d = data.design
    if "power_bonus_cap" not in d or "power_bonus_flat" not in d:
        raise missing(data, "scoring_table needs design.power_bonus_cap and design.power_bonus_flat",
                      "add both under design:, or do not use scoring_table in this game's rules")
    cap, flat = int(d["power_bonus_cap"]), int(d["power_bonus_flat"])
    columns, w = table_words(data, "scoring_table")
    pu, bu = w["power_unit"], w["bonus_unit"]
    rows = [{"power": f"{n}{pu}", "bonus": f"{n}{bu}"} for n in range(cap + 1)]
    rows.append({"power": f"{cap + 1}{pu}{w['or_more']}", "bonus": f"{flat}{bu}"})
    return md_table([w[k] for k in columns], [[r[k] for k in columns] for r in rows], ["c"] * len(columns))


def _payments(data: RulebookData):
    """(rows from :func:`cardgen.check.scoring.payment_table`, player counts, rules) for the game's base yaku."""
    from cardgen.check.scoring import PaymentRules, payment_table as compute  # lazy: +6 ms of imports here (measured)

    scoring = dict(data.design.get("scoring") or {})
    table_id = scoring.get("yaku")
    if not table_id or table_id not in data.game.tables:
        raise missing(data, "payment tables need design.scoring.yaku naming the yaku table",
                      "add `scoring: {yaku: COMPONENT, unit: 1000, …}` under design:")
    try:
        rules = PaymentRules.from_design(scoring)
    except (ValueError, TypeError) as exc:
        raise missing(data, f"design.scoring: {exc}", "see cardgen/check/scoring.py for the keys")
    yaku = [(r["name"], int(r["points"])) for r in data.rows(table_id) if not r.get("bonus")]
    players = sorted(data.manifest.game.players)
    return compute(yaku, players, rules), players, rules


def _incl(amount: int, what: str) -> str:
    """A heading's note of what a column includes: ``（親の加点＋1,000点を含む）``; empty for 0."""
    return f"（{what}＋{num(amount)}点を含む）" if amount else ""


def ron_heads(rules) -> list[str]:
    """Headings of :func:`ron_table`: each says what its amounts include (the dealer's extra
    payment, the dealer win bonus), with the amounts from ``design.scoring``."""
    return ["役", "点数", "子の和了・子が払う", "子の和了・親が払う" + _incl(rules.dealer_deal_in_extra, "親の払い増し"),
            "親の和了" + _incl(rules.dealer_win_bonus, "親の加点")]


def tsumo_heads(rules, players: list[int]) -> list[str]:
    """Headings of :func:`tsumo_table` (the dealer columns include the dealer win bonus)."""
    return ["役"] + [f"{n}人・" + (who if who == "子の和了" else who + _incl(rules.dealer_win_bonus, "親の加点"))
                    for n in players for who in ("子の和了", "親の和了")]


@table("ron_table")
def ron_table(data: RulebookData) -> str:
    """What the discarder pays on a ron, per base yaku (the same at every player count)."""
    rows, players, rules = _payments(data)
    first = [r for r in rows if r.players == players[0]]
    return md_table(ron_heads(rules), [[r.yaku, num(r.points), num(r.ron), num(r.ron_dealer_pays),
                                        num(r.ron_dealer_wins)] for r in first])


@table("tsumo_table")
def tsumo_table(data: RulebookData) -> str:
    """What each other player pays on a tsumo, per base yaku and player count (total in brackets)."""
    rows, players, rules = _payments(data)
    by = {(r.players, r.yaku): r for r in rows}
    names = list(dict.fromkeys(r.yaku for r in rows))
    body = []
    for name in names:
        cells = [name]
        for n in players:
            r = by[(n, name)]
            cells += [f"{num(r.tsumo_share)}（{num(r.tsumo_total)}）",
                      f"{num(r.tsumo_dealer_share)}（{num(r.tsumo_dealer_total)}）"]
        body.append(cells)
    return md_table(tsumo_heads(rules, players), body)


@table("payment_table")
def payment_table(data: RulebookData) -> str:
    """Ron and tsumo payments computed by :mod:`cardgen.check.scoring` from ``design.scoring`` (rules)
    and the yaku table it names (``design.scoring.yaku``: ``name``, ``points``, ``bonus`` columns).
    Base yaku only; the headings say which bonuses a column already includes."""
    return ("**ロン**（放銃者が払う点数）\n\n" + ron_table(data)
            + "\n\n**ツモ**（ほかの1人あたりが払う点数。かっこ内はアガった人が受け取る合計）\n\n" + tsumo_table(data))
