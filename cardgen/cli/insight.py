"""Click commands ``cardgen odds`` and ``cardgen simulate`` (added to the main group by
:func:`register`); thin over :mod:`cardgen.insight.api`."""
from __future__ import annotations

from pathlib import Path

import click


@click.command("odds", short_help="Exact odds of a dealt hand, from the card data.")
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True,
              help="Output root; the odds are merged into OUT/<game>/report.json.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Terminal output: rich tables or the JSON written to report.json.")
def odds(game_dir: Path, out: Path, fmt: str) -> None:
    """Exact odds from the card data (what game.yaml declares under insight.odds), per player count."""
    import json

    from cardgen.insight.api import odds_game
    from cardgen.cli.insight_output import print_odds

    run = odds_game(game_dir, out)
    if not run.results:
        click.echo(f"note: {run.game} declares no odds (add `insight: odds:` to game.yaml; see docs/insight.md)")
        return
    if fmt == "json":
        click.echo(json.dumps([r.to_json() for r in run.results], ensure_ascii=False, indent=2))
    else:
        print_odds(run.results, run.title)
        click.echo(f"wrote {run.report}")


def register(group: click.Group) -> None:
    """Add the insight commands to the ``cardgen`` group."""
    group.add_command(odds)
