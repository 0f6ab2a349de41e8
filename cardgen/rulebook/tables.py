"""Generated tables of the rulebook, as Markdown (they pass through the same parser as the text).

Every number comes from the manifest, the card tables or the validator's report
(:func:`cardgen.check.deck_math.validate`) — never typed into the rules text. Add a builder for a new game
with ``@table("name")`` (see :mod:`cardgen.rulebook.table_registry`).
"""
from __future__ import annotations

from cardgen.rulebook.table_registry import UNITS, RulebookData, md_table, missing, table
from cardgen.core.numfmt import num
from cardgen.render.icons import ICONS

_ICONS = set(ICONS) | {"power"}


def _label(column: str) -> str:
    return f":{column}:" if column in _ICONS else column


@table("component_table")
def component_table(data: RulebookData) -> str:
    """内容物 | 数量 | 備考: every component in manifest order; counts from the tables."""
    rows = []
    for c in data.manifest.components:
        if c.kind == "data":  # a table the rules read (e.g. yaku), not a physical component
            continue
        n = data.count(c.id)
        qty = "付属しません" if c.kind == "not_included" else (f"{n}{UNITS.get(c.kind, '')}" if n is not None else "—")
        rows.append([c.name, qty, c.note])
    return md_table(["内容物", "数量", "備考"], rows, ["l", "c", "l"])


def _removal_text(data: RulebookData, players: int) -> str:
    setup = data.manifest.setup
    pc = next((p for p in setup.player_counts if p.players == players), None)
    if pc is None or not pc.remove:
        return "なし"
    parts = []
    for r in pc.remove:
        where = "・".join(str(v) for v in r.where.values())
        parts.append(f"{where}を{'すべて' if r.count == 'all' else f'{r.count}枚'}")
    # "2を1枚, 3を1枚…" reads better grouped when every removal takes one card of one value
    if all(r.count == 1 and len(r.where) == 1 for r in pc.remove):
        return "・".join(str(next(iter(r.where.values()))) for r in pc.remove) + "を各1枚"
    return "、".join(parts)


@table("setup_table")
def setup_table(data: RulebookData) -> str:
    """Deal and draw per player count, straight from the validator's deck math."""
    if not data.report.player_counts:
        raise missing(data, "setup_table needs `setup:` in the manifest", "add setup.deck and setup.player_counts")
    rows = []
    for pc in sorted(data.report.player_counts, key=lambda p: p.players):
        rows.append([f"{pc.players}人", pc.removed, pc.deck, pc.hand, pc.dead_wall, pc.draw_pile,
                     pc.turns if pc.turns is not None else "—"])
    head = ["人数", "抜く枚数", "使う枚数", "手札（1人）", "王牌", "山札", "手番（1人）"]
    out = md_table(head, rows)
    notes = [f"{pc.players}人：{_removal_text(data, pc.players)}" for pc in sorted(data.report.player_counts,
                                                                                  key=lambda p: p.players)
             if pc.removed]
    if notes:
        out += "\n\n抜くカード — " + "／".join(notes)
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
    body = [[k, g["count"], *[g[c] for c in cols]] for k, g in sorted(groups.items())]
    body.append(["計", sum(g["count"] for g in groups.values()), *[sum(g[c] for g in groups.values()) for c in cols]])
    return md_table(["数字" if by == "number" else by, "枚数", *[f"{_label(c)}あり" for c in cols]], body)


@table("scoring_table")
def scoring_table(data: RulebookData) -> str:
    """Power bonus: 1 point per power up to ``design.power_bonus_cap``, then ``power_bonus_flat``."""
    d = data.design
    if "power_bonus_cap" not in d or "power_bonus_flat" not in d:
        raise missing(data, "scoring_table needs design.power_bonus_cap and design.power_bonus_flat",
                      "add both under design:, or do not use scoring_table in this game's rules")
    cap, flat = int(d["power_bonus_cap"]), int(d["power_bonus_flat"])
    rows = [[f"{n}個", f"{n}点"] for n in range(cap + 1)] + [[f"{cap + 1}個以上", f"{flat}点"]]
    return md_table(["持っている :power:", "パワーボーナス"], rows, ["c", "c"])


def _payments(data: RulebookData):
    """(rows from :func:`cardgen.check.scoring.payment_table`, player counts, rules) for the game's base yaku."""
    from cardgen.check.scoring import PaymentRules, payment_table as compute

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
