"""What ``cardgen odds`` and ``cardgen simulate`` print on the terminal (rich tables)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from cardgen.insight.odds import pct


def print_odds(results, title: str, console: Console | None = None) -> None:
    """One table per odds declaration: rows = lines, columns = player counts."""
    console = console or Console()
    for r in results:
        counts = sorted(r.counts, key=lambda c: c.players)
        t = Table(title=f"{title} — {r.label}", title_justify="left")
        t.add_column("")
        for c in counts:
            t.add_column(f"{c.players} players ({c.cards} of {c.deck})", justify="right")
        for i, line in enumerate(counts[0].lines):
            t.add_row(line.label, *[f"{pct(c.lines[i].p)}  ({c.lines[i].hands:,}/{c.total:,})" for c in counts])
        for key in counts[0].expected:
            t.add_row(f"expected {key.replace('_', ' ')}", *[f"{c.expected[key]:,.1f}" for c in counts])
        if r.kind == "pairs":
            by_value = [{v["value"]: v for v in c.per_value} for c in counts]
            for value in dict.fromkeys(v for c in counts for v in (x["value"] for x in c.per_value)):
                t.add_row(f"{r.by} {value}: ≥1 / ≥2",
                          *[(f"{pct(b[value]['p_one'])} / {pct(b[value]['p_two'])}" if value in b else "—")
                            for b in by_value])
        console.print(t)
