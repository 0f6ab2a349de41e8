"""``cardgen --help`` printed before click is imported: click's own page, kept in
:mod:`cardgen.cli.help_page`.

The page is exactly what click prints for ``cardgen --help`` (or ``-h``) when its help formatter is
:data:`cardgen.cli.help_page.WIDTH` columns wide — every terminal of 80 columns or more, and any
output that is not a terminal (click's width is ``max(min(columns, 80) - 2, 50)``, columns from
:func:`shutil.get_terminal_size`) — with the click release it was taken from
(:data:`cardgen.cli.help_page.CLICK`). Any other case (a narrower terminal, another click release,
a stream that cannot encode the page) goes to click as before. ``tests/cli/test_help_fast.py``
compares the page with click's, so a command added or reworded without rewriting the page fails
there; rewrite it with ``python -m cardgen.cli.help_fast``.

Only the standard library is imported here (``cardgen --help`` is a target of issue 19: ≤ 0.06 s).
"""
from __future__ import annotations

import os
import sys

#: The argument lists whose answer is the page.
HELP_ARGS = (["--help"], ["-h"])
_PAGE_MODULE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "help_page.py")


def _click_release_is(version: str) -> bool:
    """Whether the click that ``import click`` would load is release ``version``: the first
    ``sys.path`` folder holding a ``click`` package also holds ``click-<version>.dist-info``."""
    for entry in sys.path:
        folder = entry or "."
        if os.path.isfile(os.path.join(folder, "click", "__init__.py")):
            return os.path.isdir(os.path.join(folder, f"click-{version}.dist-info"))
    return False


def utf8_stream(stream) -> bool:
    """Whether ``stream`` is open and writes UTF-8. A fast path prints only then: on any other
    encoding click re-wraps the stream or reports the error itself, and an error handler such as
    ``ascii:replace`` would let a stored text through as question marks."""
    import codecs

    try:
        return stream is not None and codecs.lookup(stream.encoding or "").name == "utf-8"
    except (LookupError, AttributeError, TypeError):
        return False


def discard_stdout() -> None:
    """Point standard output's file descriptor at /dev/null after a write failed (a closed pipe,
    a full disk), so the interpreter's last flush at exit raises nothing.

    Raises:
        OSError, ValueError: when even that is not possible (the caller decides)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def serve(argv: list[str]) -> int | None:
    """Print the stored help page when ``argv`` (without the program name) asks for the top-level
    help and click would print exactly that page here; → the exit code (0; 1 when standard output
    is a pipe whose reader has gone, as click exits then), or None when click must answer (nothing
    was printed)."""
    if argv not in HELP_ARGS:
        return None
    from cardgen.cli import help_page

    import shutil  # the columns as click reads them (COLUMNS, else the terminal, else 80)

    if max(min(shutil.get_terminal_size().columns, 80) - 2, 50) != help_page.WIDTH:
        return None
    if not _click_release_is(help_page.CLICK):
        return None
    out = sys.stdout
    if not utf8_stream(out):
        return None
    try:
        out.write(help_page.PAGE)
        out.flush()
    except BrokenPipeError:  # `cardgen --help | head -1`: exit 1 quietly, as click does
        discard_stdout()
        return 1
    except OSError as exc:  # a full disk
        return report_output_error(exc)
    return 0


def report_output_error(exc: OSError) -> int:
    """Report a failed write to standard output (a closed pipe, a full disk) as the click command
    line reports it (:class:`cardgen.cli.commands._Group`), with standard output sent nowhere
    afterwards so the interpreter's last flush raises nothing; → the exit code, 1."""
    try:
        discard_stdout()
        sys.stderr.write(f"cardgen: error: {exc.strerror or exc}\n    hint: CARDGEN_DEBUG=1 shows where it happened\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 1


def render() -> str:
    """What click prints for ``cardgen --help`` at a formatter width of 78 columns (``COLUMNS=80``)."""
    import contextlib
    import io

    from cardgen.cli.commands import cli

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            try:
                cli.main(["--help"], prog_name="cardgen", standalone_mode=False)
            except SystemExit:
                pass
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return buf.getvalue()


def write() -> None:
    """Rewrite :mod:`cardgen.cli.help_page` from click's page and the installed click release."""
    from importlib.metadata import version

    text = ('"""``cardgen --help`` as click prints it (written by ``python -m cardgen.cli.help_fast``;\n'
            'do not edit: :mod:`cardgen.cli.help_fast` serves it before click is imported)."""\n\n'
            f"#: The click release the page was taken from.\nCLICK = {version('click')!r}\n"
            "#: Width of click's help formatter the page was laid out at (columns).\nWIDTH = 78\n"
            "#: The page, with its last newline.\nPAGE = (\n"
            + "".join(f"    {line!r}\n" for line in render().splitlines(keepends=True)) + ")\n")
    with open(_PAGE_MODULE, "w", encoding="utf-8") as fh:
        fh.write(text)


if __name__ == "__main__":
    write()
    print(f"wrote {_PAGE_MODULE}")
