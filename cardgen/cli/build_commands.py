"""Click commands ``cardgen build`` (every output of one or more games) and ``cardgen watch`` (rebuild on
every save), added to the main group by :func:`register`; the build loop itself is
:func:`cardgen.api.build_games`, the watch loop :mod:`cardgen.cli.watch`."""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.build_run import build_one, is_quiet, load_build_libraries, print_findings, save_in_child
from cardgen.cli.options import (
    budget_options,
    export_options,
    exports_of,
    limited,
    quiet_option,
    sheet_options,
    sheet_options_of,
)
from cardgen.cli.output import echo, print_files, print_preflight, print_report
from cardgen.cli import watch as watch_loop


@click.command(short_help="Validate and build every output (all games by default).")
@quiet_option
@budget_options
@click.argument("game_dirs", nargs=-1, type=click.Path(exists=True, file_okay=False, path_type=Path))
@sheet_options
@export_options
@click.option("--force", is_flag=True, help="Write even when validation fails (every card face is marked DRAFT).")
@click.option("--card-data", type=click.Path(path_type=Path), default=Path("card_data"), show_default=True,
              help="Where games are looked for when no GAME_DIR is given.")
@click.option("--strict", is_flag=True, help="Preflight warnings (shrunk text, missing glyphs, low-resolution art…) fail the build.")
@click.option("--final", is_flag=True, help="Release build: refuse while the manifest has open questions (game.choices "
              "not decided) or the edition has missing or stale translations.")
@click.option("--edition", default=None, metavar="ID|all",
              help="Build this edition of the game (editions: in game.yaml), or every edition (all); "
                   "default: the default edition. Other editions write OUT/<game>/<edition>/.")
def build(game_dirs: tuple[Path, ...], out: Path, force: bool, card_data: Path, dpi: float, no_bleed: bool,
          jobs: int | None, strict: bool, final: bool, edition: str | None, **kw) -> None:
    """Validate and build every output of each game (all games in card_data/ by default):
    print sheets, exports, and the rulebook where the game has a rules/ folder."""
    load_build_libraries()
    from cardgen.api import build_games, edition_list, games_to_build  # lazy: +326 ms of imports here (measured)
    from cardgen.core.errors import CardgenError, UsageError  # lazy: +7 ms of imports here (measured)
    from cardgen.steps.registry import STEPS  # lazy: +301 ms of imports here (measured)

    failed = 0

    def runs():
        for d in games_to_build(game_dirs, card_data):
            try:
                editions = edition_list(d, edition)
            except CardgenError as exc:
                yield d, exc
                continue
            for e in editions:
                yield from build_games([d], out, run=build_one, options=sheet_options_of(**kw), force=force,
                                       steps=tuple(STEPS), strict=strict, final=final, edition=e,
                                       exports=exports_of(dpi, no_bleed, jobs, sides=kw.get("sides", "both")))

    for _game, res in runs():
        if isinstance(res, UsageError):  # e.g. --out inside the game folder: the same for every game
            raise res
        if isinstance(res, CardgenError):
            echo(res.format(), err=True)
            failed += 1
            continue
        print_findings(res)
        print_files(res.files, res.removed, res.out_dir)
        for note in res.notes:
            echo(f"note: {note}")
        if res.preflight is not None:
            print_preflight(res.preflight)
    click.get_current_context().exit(1 if failed else 0)


@click.command(short_help="Rebuild on every save and show the validator's findings.")
@quiet_option
@budget_options
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@sheet_options
@export_options
@click.option("--rulebook-paper", type=click.Choice(["a5", "a4", "b5", "letter"], case_sensitive=False), default=None,
              help="Rulebook paper (default: the manifest's rulebook.paper, A5).")
@click.option("--force", is_flag=True, help="Rebuild even when validation fails (outputs marked DRAFT).")
def watch(game_dir: Path, out: Path, force: bool, dpi: float, no_bleed: bool, jobs: int | None,
          rulebook_paper: str | None, **kw) -> None:
    """Rebuild on every save of the manifest, a card table, a template, the rules or a font
    (only the outputs the change affects), printing the validator's findings and one summary
    line per rebuild. Each save checks the game once; print-sheets.pdf is written before the
    rulebook, and a line says which outputs are current meanwhile. Every rebuild uses the
    options the watch was started with. Ctrl-C stops."""
    def show(kind, payload):
        if kind == "changed":
            echo("changed: " + ", ".join(p.name for p in payload))
        elif kind == "report":
            print_report(payload)
        elif kind == "built":
            for name in payload.notes:
                echo(f"note: {name}", err=True)
        elif kind in ("summary", "current"):
            echo(payload)
        elif kind == "error":
            echo(payload.format(), err=True)

    load_build_libraries()
    from cardgen.api import check_output_folder  # lazy: +338 ms of imports here (measured)
    from cardgen.steps.warm_state import take_in  # lazy: +160 ms of imports here (measured: rulebook, hyphenation)

    quiet = is_quiet()

    def save(d, out_root, plan_steps, on_report, on_written, progress=None, **build):
        """One save in one budgeted child: checked once, then built from that check; its reports
        come back as they happen, and what it kept warm stays here for the next save's child."""
        def relay(event):
            kind, *args = event
            (on_report if kind == "report" else on_written)(*args)

        value, warm = limited(save_in_child, d, out_root, quiet, plan_steps, game=game_dir, on_event=relay, **build)
        take_in(warm)
        return value

    options = {"options": sheet_options_of(**kw), "rulebook_paper": rulebook_paper,
               "exports": exports_of(dpi, no_bleed, jobs, sides=kw.get("sides", "both"))}
    check_output_folder(game_dir, out)  # a bad --out is refused once, before the watch starts
    echo(f"watching {game_dir} (Ctrl-C to stop)")
    watch_loop.watch(game_dir, out, show, save=save, force=force, build_options=options)


def register(group: click.Group) -> None:
    """Add ``build`` and ``watch`` to the ``cardgen`` group."""
    group.add_command(build)
    group.add_command(watch)
