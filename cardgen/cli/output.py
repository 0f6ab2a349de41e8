"""What the CLI prints: validation reports, preflight summaries, written files, failures."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from cardgen.cli.report_text import clean, report_lines  # noqa: F401 - re-exported: what the CLI prints, click-free


def echo(message: object = "", err: bool = False) -> None:
    """``click.echo`` of :func:`clean` text: everything the CLI prints goes through here."""
    click.echo(clean(str(message)), err=err)


def markup(text: object) -> str:
    """User text for a rich markup string: :func:`clean`, then rich's markup escaping (a title or
    card id holding ``[/]`` prints as written and cannot end the summary early)."""
    from rich.markup import escape  # lazy: +24 ms of imports here (measured)
    return escape(clean(str(text)))


def fail(exc) -> None:
    """Print ``exc``'s message blocks to stderr and exit with its code (1, or 2 for usage)."""
    echo(exc.format(), err=True)
    sys.exit(exc.exit_code)


def print_preflight(pf) -> None:
    """A readable preflight summary (rich): counts per category, the first findings of each."""
    from rich.console import Console  # lazy: +32 ms of imports here (measured)
    from rich.table import Table  # lazy: +29 ms of imports here (measured)

    from cardgen.check.preflight import category  # lazy: +17 ms of imports here (measured)
    console = Console(highlight=False, soft_wrap=True)
    cards = ", ".join(f"{k} {v}" for k, v in pf.cards.items())
    t = Table(title=markup(f"preflight · {pf.title} {pf.version} · {cards}"), title_justify="left", show_edge=False)
    t.add_column("check")
    t.add_column("errors", justify="right")
    t.add_column("warnings", justify="right")
    t.add_column("for example")
    counts = pf.counts()
    for cat, c in sorted(counts.items()):
        first = next(f for f in pf.findings if category(f) == cat)
        where = f"{first.card.label} → {first.field}: " if first.card else (f"{first.field}: " if first.field else "")
        t.add_row(markup(cat), str(c["error"] or ""), str(c["warning"] or ""), markup(f"{where}{first.message}"[:110]))
    if not counts:
        t.add_row("all checks", "", "", "nothing to report")
    console.print(t)
    for pc in pf.deck_math:
        mark = "ok" if pc["ok"] else "[red]MISMATCH[/red]"
        derived = "; ".join(f"{k} = {v}" for k, v in (pc.get("derived") or {}).items())
        console.print(markup(f"  {pc['players']} players: " + "; ".join(x for x in (pc["arithmetic"], derived) if x))
                      + f"  \\[{mark}]")
    console.print(f"  {len(pf.errors)} error(s), {len(pf.warnings)} warning(s); details in report.json")


def print_files(files, removed=(), out_dir=None) -> None:
    """``wrote PATH`` per file; card PNGs as one line with their count; then ``removed PATH`` per
    file an earlier build wrote and this one no longer does (``removed`` relative to ``out_dir``),
    more than three in one folder as one line with their count."""
    shown = [f for f in files if f.suffix != ".png" or f.parent.name != "cards"]
    for f in shown:
        echo(f"wrote {f}")
    cards = [f for f in files if f not in shown]
    if cards:
        echo(f"wrote {len(cards)} card PNGs in {cards[0].parent}/")
    paths = [out_dir / r if out_dir is not None else Path(r) for r in removed]
    by_folder: dict[Path, list[Path]] = {}
    for p in paths:
        by_folder.setdefault(p.parent, []).append(p)
    for folder, gone in by_folder.items():  # a folder's worth of old files (renamed cards' PNGs) is one line
        for line in ([f"{len(gone)} files in {folder}/"] if len(gone) > 3 else gone):
            echo(f"removed {line} (written by an earlier build, not by this one)")


def print_report(report) -> None:
    """The validator's findings (stderr), the deck math per player count and a count line."""
    for err, text in report_lines(report):
        click.echo(text, err=err)
