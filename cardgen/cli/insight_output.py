"""What ``cardgen odds`` and ``cardgen simulate`` print on the terminal (rich tables). Every
title and cell goes through :func:`cardgen.cli.output.markup`: labels come from the game folder."""
from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from cardgen.cli.output import markup
from cardgen.insight.odds import pct
from cardgen.layout.phrases import phrases

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
            labels = {x["value"]: x.get("label", f"{r.by} {x['value']}") for c in counts for x in c.per_value}
            for value in labels:
                t.add_row(markup(f"{labels[value]}: ≥1 / ≥2"),
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
    options = [f"{k}={v}" for k, v in result.options.items()]
    # a --compare-option side is labelled by the options it changed: they are said once, in the list
    named = set(result.label.split(", ")) <= set(options or ["none"])
    console.print(markup(f"model: {result.model}"))
    _print_wrapped(_listed(["options:" if named else f"{result.label}, options:"],
                           options or ["none"]), " ", console)
    if result.description:
        _print_wrapped(["leaves out: ", *phrases(result.description)], "", console)
    for c in result.counts:
        _print_estimates(_listed([f"{result.title}: {c['players']} players"], [
            f"{c['rounds']:,} rounds", f"policy {result.policy}", f"seed {result.seed}",
            *([f"{c['turn_limit']} turns each"] if c["turn_limit"] else [])],
            [f"({c['rounds_per_second']:,.0f} rounds/s)"] if c["rounds_per_second"] else []),
            c["estimates"], console)
        if "game" in c:  # whole games (the model's `game:`)
            g = c["game"]
            _print_estimates(_listed([f"{result.title}: {c['players']} players"], [
                f"{g['games']:,} games ({g['name']})", f"policy {result.policy}", f"seed {result.seed}"],
                [f"({g['games_per_second']:,.0f} games/s)"] if g["games_per_second"] else []),
                g["estimates"], console)


def _listed(head: list[str], items: list[str], tail: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The pieces of a heading: ``head``, then ``items`` as a comma-separated list (the comma kept
    with the item before it), then ``tail``. For ``head`` ending in a colon the list follows it."""
    if head and not head[-1].endswith(":"):
        head = [*head[:-1], head[-1] + ","]
    return [*head, *[f"{x}," for x in items[:-1]], *items[-1:], *tail]


def _print_wrapped(pieces: list[str], sep: str, console: Console) -> None:
    """``pieces`` on as few lines of the terminal's width as they fill, broken only between two
    pieces (a phrase, or a setting such as ``seed 1``), never inside one; a piece wider than the
    terminal is folded by rich."""
    lines: list[str] = []
    for piece in pieces:
        if lines and cell_len(lines[-1] + sep + piece) <= console.width:
            lines[-1] += sep + piece
        else:
            lines.append(piece)
    for line in lines:
        console.print(markup(line))


def _print_estimates(heading: list[str], estimates: dict, console: Console) -> None:
    """One table of estimates (± 1 SE) under ``heading`` (its pieces, wrapped between them)."""
    _print_wrapped(heading, " ", console)
    t = Table()
    # a label wraps on a narrow terminal (cut, two rows could read alike); a figure never splits
    t.add_column("estimate (± 1 standard error)", overflow="fold")
    t.add_column("value", justify="right", no_wrap=True)
    for e in estimates.values():
        t.add_row(markup(e["label"]), _fmt(e["value"], e["se"], e["percent"]))
    console.print(t)


def _share(value: float, percent: bool, n: int | None = None) -> str:
    """One side's figure in the comparison (its standard error is in that side's own table)."""
    if value != value:
        return "—"
    if n is not None and n < MIN_EVENTS:
        return f"(n = {n})"
    return f"{value * 100:.2f}%" if percent else f"{value:.3f}"


def print_comparison(a, b, rows, console: Console | None = None) -> None:
    """The differences b − a with 95 % confidence intervals, one table per player count (so the
    label has the width: Japanese labels stay on one or two lines at 80 columns); a row whose
    interval excludes 0 is bold. Percentages differ in percentage points."""
    console = console or Console()
    console.print(markup(f"B − A: A = {a.label}, B = {b.label} (same rounds, seed {a.seed}, policy {a.policy}; "
                         "the difference with its 95% confidence interval, shares in percentage points)"))
    for players in dict.fromkeys(r["players"] for r in rows):
        t = Table(title=markup(f"{players} players"), title_justify="left")
        t.add_column("estimate", justify="left", overflow="fold")  # the label wraps; a figure never splits
        for head in ("A", "B", "B − A [95% CI]"):
            t.add_column(head, justify="right", no_wrap=True)
        for r in (r for r in rows if r["players"] == players):
            scale = 100 if r["percent"] else 1
            lo, hi = r["ci95"]
            few = r["percent"] and min(r["a_n"], r["b_n"]) < MIN_EVENTS
            sure = (lo > 0 or hi < 0) and not few
            t.add_row(markup(r["label"]), _share(r["a"], r["percent"], r["a_n"] if r["percent"] else None),
                      _share(r["b"], r["percent"], r["b_n"] if r["percent"] else None),
                      "too few events" if few else f"{r['diff'] * scale:+.2f} [{lo * scale:+.2f}, {hi * scale:+.2f}]",
                      style="bold" if sure else None)
        console.print(t)
