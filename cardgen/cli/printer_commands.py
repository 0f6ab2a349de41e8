"""``cardgen printer add NAME --offset X,Y`` and ``cardgen printer list``: the designer's printers
and their measured duplex offsets, in the user's config (:mod:`cardgen.data.printers`)."""
from __future__ import annotations

import click

from cardgen.cli.options import parse_offset


@click.group(short_help="Your printers' measured duplex offsets (for --printer).")
def printer() -> None:
    """Printers and the duplex offset measured on each with `cardgen calibration`, kept in your
    user config ($XDG_CONFIG_HOME/cardgen/printers.yaml), never in a game."""


@printer.command("add")
@click.argument("name")
@click.option("--offset", required=True, metavar="X,Y",
              help="The back's shift read off the calibration rulers, mm (x right, y down, as seen on the back).")
def add(name: str, offset: str) -> None:
    """Store printer NAME with its duplex offset; `--printer NAME` then shifts every back page by it."""
    from cardgen.data.printers import add_printer

    x, y = parse_offset(offset, "--offset")
    path = add_printer(name, (x, y))
    click.echo(f"printer {name}: offset {x:g},{y:g} mm, in {path}")


@printer.command("list")
def list_() -> None:
    """The stored printers and their offsets."""
    from cardgen.data.printers import config_file, load_printers

    printers = load_printers()
    if not printers:
        click.echo(f"no printers in {config_file()}: add one with `cardgen printer add NAME --offset X,Y`")
    for name, (x, y) in sorted(printers.items()):
        click.echo(f"{name}\t{x:g},{y:g} mm")


def register(group: click.Group) -> None:
    """Add ``printer`` to the ``cardgen`` group."""
    group.add_command(printer)
