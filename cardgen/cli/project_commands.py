"""Click commands ``cardgen new`` (a new game folder that builds as it stands), ``cardgen fetch``
(a dated snapshot of a card table on the web, the one command that uses the network) and
``cardgen docs`` (the generated reference docs, ``--check`` for CI); added to the main group by
:func:`register`."""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.output import echo


@click.command("new", short_help="Start a new game folder that builds as it stands.")
@click.argument("game_dir", type=click.Path(path_type=Path))
@click.option("--title", help="Title as printed (default: the folder name).")
def new(game_dir: Path, title: str | None) -> None:
    """Start a game: GAME_DIR/game.yaml, a card table, templates and a rules page that build as they stand."""
    from cardgen.core.boundary import default_output  # lazy: +6 ms of imports here (measured)
    from cardgen.data.new_game import game_id, new_game  # lazy: +11 ms of imports here (measured)

    files = new_game(game_dir, title)  # a CardgenError goes to the group's handler
    for f in files:
        echo(f"wrote {f}")
    gid = game_id(game_dir.resolve().name)
    echo(f"game id: {gid} (from the folder name; it names the output folder — "
         "change game.id in game.yaml to rename it)")
    # where the build will write, run from here (inside the game folder it writes beside it instead)
    echo(f"next: cardgen build {game_dir}   (writes {default_output([game_dir]) / gid}/ from this folder)")


@click.command("fetch", short_help="Download a card table from the web (Google Sheets…) into the game folder.")
@click.argument("url")
@click.argument("game_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."))
@click.option("--name", help="File name stem of the snapshot (default: the server's file name, else the address's).")
@click.option("--force", is_flag=True, help="Replace a snapshot of the same name and date.")
@click.option("--timeout", type=click.FloatRange(0, 600, min_open=True), default=30.0, show_default=True,
              help="Seconds the whole download may take.")
def fetch(url: str, game_dir: Path, name: str | None, force: bool, timeout: float) -> None:
    """Write a dated snapshot of the card table at URL (a Google Sheets address, or any http(s)
    address of a CSV, .xlsx or .ods file) as GAME_DIR/cards/NAME-YYYY-MM-DD.csv (or .xlsx, .ods).
    The only command that uses the network; builds never do: name the snapshot in `cards:`."""
    from cardgen.core.errors import CardgenError, rel  # lazy: +6 ms of imports for --help (measured; 0 here)
    from cardgen.data.card_tables import load_table  # lazy: +31 ms of imports here (measured)
    from cardgen.data.fetch import fetch_table  # lazy: +130 ms of imports here (measured: urllib3, ssl)

    got = fetch_table(url, game_dir, name, force, timeout)  # a CardgenError goes to the group's handler
    shown = got.path.relative_to(game_dir)
    echo(f"wrote {rel(got.path)} ({got.size:,} bytes) from {got.final_url}")
    try:
        table = load_table(got.path, rel(got.path))
    except CardgenError as exc:  # written as the server gave it: say what a build will say
        for p in exc.problems:
            echo(f"warning: {p.message}", err=True)
    else:
        columns = list(table.data[0]) if table.data else []
        echo(f"{len(table.data):,} row(s); columns: " + (", ".join(columns[:12]) + (" …" if len(columns) > 12 else "")
                                                        if columns else "none"))
    echo(f"to use it, write `cards: {shown.as_posix()}` for the component in game.yaml")


@click.command("docs", short_help="Regenerate the manifest and template references in docs/.")
@click.option("--check", is_flag=True, help="Exit 1 when a generated file in docs/ is not up to date (CI).")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("docs"),
              show_default=True, help="Folder the references are written to.")
def docs(check: bool, out: Path) -> None:
    """Write docs/manifest.md (manifest keys, design-rule helpers) and docs/templates.md (card
    templates), generated from the models' field descriptions and the helpers' docstrings."""
    from cardgen.refdocs.manifest_docs import stale_docs, write_docs  # lazy: +218 ms of imports here (measured)

    if check:
        stale = stale_docs(out)
        for path, up_to_date in stale.items():
            echo(f"{path} is {'up to date' if up_to_date else 'out of date: run `cardgen docs`'}")
        click.get_current_context().exit(0 if all(stale.values()) else 1)
    for path in write_docs(out):
        echo(f"wrote {path}")


def register(group: click.Group) -> None:
    """Add ``new``, ``fetch`` and ``docs`` to the ``cardgen`` group."""
    group.add_command(new)
    group.add_command(fetch)
    group.add_command(docs)
