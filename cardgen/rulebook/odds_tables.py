"""Odds as Markdown tables for the rulebook: ``{{ odds_table('pair') }}`` in ``rules/*.md``.

The numbers are computed from the card data when the rules text uses the helper
(:func:`cardgen.insight.odds.compute_odds`), never typed in.
"""
from __future__ import annotations

from typing import Callable

from cardgen.rulebook.table_registry import md_table

from cardgen.core.errors import CardgenError, Problem
from cardgen.core.numfmt import num
from cardgen.insight.odds import pct


def odds_markdown(result, per_value: bool = False) -> str:
    """One :class:`cardgen.insight.odds.OddsResult` as a pipe table (columns per player count).

    ``pairs``: one row per player count (cards in hand, P(pair), P(three of a kind)); with
    ``per_value`` one row per value with P(one or more) and P(two or more) per player count.
    ``yaku``: one row per yaku with its points, then "any yaku" and the expected points.
    """
    counts = sorted(result.counts, key=lambda c: c.players)
    if result.kind == "pairs" and not per_value:
        rows = [[f"{c.players}人", c.cards, *[pct(x.p) for x in c.lines]] for c in counts]
        return md_table(["人数", "手札", *[x.label for x in counts[0].lines]], rows)
    if result.kind == "pairs":
        values = list(dict.fromkeys(v["value"] for c in counts for v in c.per_value))
        head = [result.word or ("数字" if result.by == "number" else result.by)]
        for c in counts:
            head += [f"{c.players}人・1枚以上", f"{c.players}人・2枚以上"]
        rows = []
        names = {x["value"]: x.get("name") for c in counts for x in c.per_value}
        for v in values:
            row = [f"{v}（{names[v]}）" if names.get(v) else v]
            for c in counts:
                pv = next((x for x in c.per_value if x["value"] == v), None)
                row += [pct(pv["p_one"]), pct(pv["p_two"])] if pv else ["—", "—"]
            rows.append(row)
        return md_table(head, rows)
    head = ["役", "点数", *[f"{c.players}人" for c in counts]]
    rows = []
    for i, line in enumerate(counts[0].lines):
        rows.append([line.label, num(line.points) if line.points is not None else "—",
                     *[pct(c.lines[i].p) for c in counts]])
    rows.append(["役の点の期待値（ボーナス役を除く）", "—", *[num(round(c.expected["base_points"])) + "点" for c in counts]])
    if "dealer_tsumo_total" in counts[0].expected:
        rows.append(["親のツモで受け取る点の期待値", "—",
                     *[num(round(c.expected["dealer_tsumo_total"])) + "点" for c in counts]])
    return md_table(head, rows)


def odds_table_helper(game, manifest_file: str) -> Callable[..., str]:
    """The ``odds_table(id, per_value=False)`` function of the rulebook context. Odds are
    computed on the first call and kept for the others."""
    cache: dict = {}

    def odds_table(odds_id: str, per_value: bool = False) -> str:
        if "all" not in cache:
            from cardgen.insight.odds import compute_odds  # computed only when the text asks
            cache["all"] = {r.id: r for r in compute_odds(game)}
        found = cache["all"].get(str(odds_id))
        if found is None:
            known = ", ".join(cache["all"]) or "none declared"
            raise CardgenError(Problem(manifest_file, None, "rulebook", f"odds_table: no odds {odds_id!r} in insight.odds",
                                       f"declared: {known}; add one under `insight: odds:` in game.yaml",
                                       code="rulebook-data"))
        return "\n" + odds_markdown(found, per_value) + "\n"
    return odds_table
