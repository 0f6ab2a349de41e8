"""What ``cardgen odds`` and ``cardgen simulate`` print on the terminal (rich tables). Every
title and cell goes through :func:`cardgen.cli.output.markup`: labels come from the game folder."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from cardgen.cli.output import markup
from cardgen.insight.odds import pct

#: a ratio over fewer events is shown as too few (see cardgen.insight.estimates.MIN_EVENTS; kept
#: here so that `cardgen odds` does not import numpy)
MIN_EVENTS = 30


def print_odds(results, title: str, console: Console | None = None) -> None:
    """One table per odds declaration: rows = lines, columns = player counts."""
    console = console or Console()
    for r in results:
        counts = sorted(r.counts, key=lambda c: c.players)
        t = Table(title=markup(f"{title} — {r.label}"), title_justify="left")
        t.add_column("", overflow="fold")  # a label wraps on a narrow terminal rather than being cut
        for c in counts:
            t.add_column(f"{c.players} players ({c.cards} of {c.deck})", justify="right")
        for i, line in enumerate(counts[0].lines):
            t.add_row(markup(line.label), *[f"{pct(c.lines[i].p)}  ({c.lines[i].hands:,}/{c.total:,})" for c in counts])
        for key in counts[0].expected:
            t.add_row(markup(f"expected {key.replace('_', ' ')}"), *[f"{c.expected[key]:,.1f}" for c in counts])
        if r.kind == "pairs":
            by_value = [{v["value"]: v for v in c.per_value} for c in counts]
            for value in dict.fromkeys(v for c in counts for v in (x["value"] for x in c.per_value)):
                t.add_row(markup(f"{r.by} {value}: ≥1 / ≥2"),
                          *[(f"{pct(b[value]['p_one'])} / {pct(b[value]['p_two'])}" if value in b else "—")
                            for b in by_value])
        console.print(t)


def _fmt(value: float, se: float, percent: bool, n: int | None = None) -> str:
    if value != value:  # nan: nothing to divide by
        return "—"
    if n is not None and n < MIN_EVENTS:
        return f"(n = {n})"
    if percent:
        return f"{value * 100:.2f}% ± {se * 100:.2f}"
    return f"{value:.3f} ± {se:.3f}"


def print_model_simulation(result, console: Console | None = None) -> None:
    """A game's own model (``insight.model``): per player count, its estimates (± 1 SE), with the
    model's name and what it leaves out."""
    console = console or Console()
    console.print(markup(f"model: {result.model} ({result.label}, options: "
                         + (", ".join(f"{k}={v}" for k, v in result.options.items()) or "none") + ")"
                         + (f" — leaves out: {result.description}" if result.description else "")))
    for c in result.counts:
        t = Table(title=markup(f"{result.title}: {c['players']} players, {c['rounds']:,} rounds, policy {result.policy}, "
                               f"seed {result.seed}" + (f", {c['turn_limit']} turns each" if c["turn_limit"] else "")
                               + (f" ({c['rounds_per_second']:,.0f} rounds/s)" if c["rounds_per_second"] else "")),
                  title_justify="left")
        # a label wraps on a narrow terminal (cut, two rows could read alike); a figure never splits
        t.add_column("estimate (± 1 standard error)", overflow="fold")
        t.add_column("value", justify="right", no_wrap=True)
        for e in c["estimates"].values():
            t.add_row(markup(e["label"]), _fmt(e["value"], e["se"], e["percent"]))
        console.print(t)
        if "game" in c:
            _print_games(result, c, console)


def _print_games(result, c, console: Console) -> None:
    """The whole games of one player count (the model's ``game:``), as the rounds' table is printed."""
    g = c["game"]
    t = Table(title=markup(f"{result.title}: {c['players']} players, {g['games']:,} games ({g['name']}), policy "
                           f"{result.policy}, seed {result.seed}"
                           + (f" ({g['games_per_second']:,.0f} games/s)" if g["games_per_second"] else "")),
              title_justify="left")
    t.add_column("estimate (± 1 standard error)", overflow="fold")
    t.add_column("value", justify="right", no_wrap=True)
    for e in g["estimates"].values():
        t.add_row(markup(e["label"]), _fmt(e["value"], e["se"], e["percent"]))
    console.print(t)


def print_comparison(a, b, rows, console: Console | None = None) -> None:
    """The differences b − a with 95 % confidence intervals; a row whose interval excludes 0 is
    bold. Percentages differ in percentage points (pt)."""
    console = console or Console()
    t = Table(title=markup(f"B − A: A = {a.label}, B = {b.label} (same rounds, seed {a.seed}, policy {a.policy}; "
                           "± 1 SE, difference with its 95% CI)"), title_justify="left")
    for head in ("pl.", "estimate", "A", "B", "B − A [95% CI]"):
        if head == "estimate":  # the label wraps on a narrow terminal; a figure never splits
            t.add_column(head, justify="left", overflow="fold")
        else:
            t.add_column(head, justify="right", no_wrap=True)
    for r in rows:
        scale = 100 if r["percent"] else 1
        lo, hi = r["ci95"]
        sure = lo > 0 or hi < 0
        few = r["percent"] and min(r["a_n"], r["b_n"]) < MIN_EVENTS
        if few:
            sure = False
        t.add_row(str(r["players"]), markup(r["label"]),
                  _fmt(r["a"], r["a_se"], r["percent"], r["a_n"] if r["percent"] else None),
                  _fmt(r["b"], r["b_se"], r["percent"], r["b_n"] if r["percent"] else None),
                  "too few events" if few else
                  f"{r['diff'] * scale:+.2f}{' pt' if r['percent'] else ''} [{lo * scale:+.2f}, {hi * scale:+.2f}]",
                  style="bold" if sure else None)
    console.print(t)
