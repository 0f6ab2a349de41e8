"""Click commands ``cardgen new`` (a new game folder that builds as it stands) and ``cardgen docs``
(the generated reference docs, ``--check`` for CI); added to the main group by :func:`register`."""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.output import echo


@click.command("new", short_help="Start a new game folder that builds as it stands.")
@click.argument("game_dir", type=click.Path(path_type=Path))
@click.option("--title", help="Title as printed (default: the folder name).")
def new(game_dir: Path, title: str | None) -> None:
    """Start a game: GAME_DIR/game.yaml, a card table, templates and a rules page that build as they stand."""
    from cardgen.data.new_game import game_id, new_game  # lazy: +11 ms of imports here (measured)

    files = new_game(game_dir, title)  # a CardgenError goes to the group's handler
    for f in files:
        echo(f"wrote {f}")
    echo(f"game id: {game_id(game_dir.resolve().name)} (from the folder name; it names the output folder — "
         "change game.id in game.yaml to rename it)")
    echo(f"next: cardgen build {game_dir}")


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
    """Add ``new`` and ``docs`` to the ``cardgen`` group."""
    group.add_command(new)
    group.add_command(docs)
