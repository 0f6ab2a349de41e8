"""Click commands ``cardgen odds`` and ``cardgen simulate`` (added to the main group by
:func:`register`); thin over :mod:`cardgen.insight.api`.

Like a build, each runs the game in a forked child under the operating-system budget
(``--memory-limit``, ``--cpu-limit``; :mod:`cardgen.core.budget`), and prints through the escaping
echo and rich markup of :mod:`cardgen.cli.output` (control characters as U+XXXX, ``[/]`` as written)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cardgen.cli.options import budget_options, limited, quiet_option
from cardgen.cli.output import echo
from cardgen.insight.sim_layout import MAX_ROUNDS, MAX_SEED


@click.command("odds", short_help="Exact odds of a dealt hand, from the card data.")
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True,
              help="Output root; the odds are merged into OUT/<game>/report.json.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Terminal output: rich tables or the JSON written to report.json.")
def odds(game_dir: Path, out: Path, fmt: str) -> None:
    """Exact odds from the card data (what game.yaml declares under insight.odds), per player count."""
    from cardgen.cli.insight_output import print_odds  # lazy: +207 ms of imports here (measured)
    from cardgen.insight.api import odds_game  # lazy: +15 ms of imports here (measured)

    run = limited(odds_game, game_dir, out, game=game_dir)
    if not run.results:
        echo(f"note: {run.game} declares no odds (add `insight: odds:` to game.yaml; see docs/insight.md)")
        return
    if fmt == "json":
        echo(json.dumps([r.to_json() for r in run.results], ensure_ascii=False, indent=2))
    else:
        print_odds(run.results, run.title)
        echo(f"wrote {run.report}")


@click.command("simulate", short_help="Monte Carlo playtest of whole rounds, per player count.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--rounds", "-n", type=click.IntRange(min=2, max=MAX_ROUNDS), default=100_000, show_default=True,
              help="Rounds per player count.")
@click.option("--games", type=click.IntRange(min=0, max=MAX_ROUNDS), default=None,
              help="Whole games per player count, when the model describes the game (insight.model.game); 0: none "
                   "[default: a tenth of --rounds].")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=1, show_default=True,
              help="Random seed; the same seed and rounds give the same results on any number of cores.")
@click.option("--policy", default="greedy", show_default=True,
              help="Player policy: greedy, random, priority, or one per seat (greedy,random,random,random).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Answer one of the model's open questions (options) differently (see docs/insight-model.md).")
@click.option("--players", "players", type=int, multiple=True, help="Only this player count (repeatable).")
@click.option("--compare", "compare_with", type=click.Path(exists=True, path_type=Path), default=None,
              help="Another game folder, or a variant file (YAML) of this game: both play the same rounds.")
@click.option("--compare-option", "compare_options", multiple=True, metavar="NAME=VALUE",
              help="Compare with this game under another answer of a model option (repeatable); same rounds.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Threads [default: all cores]; never changes the results.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True,
              help="Output root: OUT/<game>/simulation.json and insight.pdf.")
@click.option("--no-pdf", is_flag=True, help="Skip insight.pdf.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Terminal output: rich tables or the JSON written to simulation.json.")
def simulate(game_dir: Path, rounds: int, games: int | None, seed: int, policy: str, options: tuple[str, ...],
             players: tuple[int, ...], compare_with: Path | None, compare_options: tuple[str, ...], jobs: int | None, out: Path, no_pdf: bool,
             fmt: str) -> None:
    """Monte Carlo playtest: whole rounds of the round the game's manifest describes (insight: model:),
    per player count, with standard errors, and whole games where the model describes them (game:
    what carries over, the dealer, the end, the winner); --compare / --compare-option play a second
    game, variant or option value on the same rounds and games."""
    from cardgen.cli.insight_output import (  # lazy: +230 ms of imports here (measured)
        print_comparison,
        print_model_simulation,
    )
    from cardgen.insight.api import simulate_game  # lazy: +21 ms of imports here (measured)

    quiet = click.get_current_context().meta.get("cardgen.quiet", False)
    run = limited(simulate_game, game_dir, out, rounds=rounds, games=games, seed=seed, policy=policy, options=list(options),
                  players=list(players) or None, compare_with=compare_with, compare_options=list(compare_options),
                  jobs=jobs, pdf=not no_pdf,
                  progress=None if quiet else _progress, game=game_dir)
    if fmt == "json":
        echo(json.dumps(json.loads(run.files[0].read_text(encoding="utf-8")), ensure_ascii=False, indent=2))
    else:
        print_model_simulation(run.result)
        if run.other is not None:
            print_model_simulation(run.other)
            print_comparison(run.result, run.other, run.comparison)
    for f in run.files:
        echo(f"wrote {f}", err=fmt == "json")  # --format json: stdout holds the JSON alone


def _progress(total: int):
    """A tick function that advances a rich progress bar on stderr (none when stderr is not a terminal)."""
    if not sys.stderr.isatty():
        return None
    from rich.progress import Progress  # lazy: +60 ms of imports here (measured)

    bar = Progress(transient=True)
    task = bar.add_task("simulating", total=total)
    bar.start()
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        bar.update(task, completed=done[0])
        if done[0] >= total:
            bar.stop()
    return tick


def register(group: click.Group) -> None:
    """Add the insight commands to the ``cardgen`` group."""
    group.add_command(odds)
    group.add_command(simulate)
