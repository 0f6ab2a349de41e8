"""Command line: the ``cardgen`` group, its error handler and :func:`main`, the click command line
(the console entry, :mod:`cardgen.cli.entry`, calls it).

A thin click layer over :mod:`cardgen.api`; the commands live in the ``*_commands`` modules of
this folder (and :mod:`cardgen.cli.insight`), each group added here by its ``register``.

Libraries a command alone needs (reportlab, pydantic's models, rich, pypdfium2, matplotlib…) are
imported inside that command: ``cardgen --help`` loads only click and the command modules.
Expected failures print one message block per problem and exit 1 (usage errors 2).
"""
from __future__ import annotations

import gc
import os
import signal
import sys
from pathlib import Path

import click

from cardgen.cli import (build_commands, insight, output_commands, printer_commands, project_commands,
                         review_commands)
from cardgen.cli.output import echo, fail

#: What an interrupted command prints last (exit 130).
INTERRUPTED = "cardgen: interrupted; each output folder holds all its new files or all its previous ones, never a mix"


def _cardgen_error() -> type:
    """:class:`cardgen.core.errors.CardgenError`, imported when an exception is being handled (an
    ``except`` clause's class is looked up only then), so ``cardgen --help`` does not load it."""
    from cardgen.core.errors import CardgenError  # lazy: +6 ms of imports here (measured)
    return CardgenError


#: Set when a Ctrl-C (SIGINT) has reached this process (:func:`_on_sigint`).
_interrupted = False


def _on_sigint(signum, frame) -> None:
    """Python's own Ctrl-C behaviour (raise KeyboardInterrupt), remembering that it happened: a
    library that catches the KeyboardInterrupt and raises its own error instead (pydantic, while
    it builds a model's schema, raises SchemaError) still ends as an interruption, not as an
    internal error."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def _on_unraisable(unraisable) -> None:
    """A Ctrl-C that landed inside a callback Python cannot raise from (the weakref callback of
    importlib's module locks while a module loads, a ``__del__``): Python would print "Exception
    ignored … Traceback … KeyboardInterrupt" and go on as if no Ctrl-C had come. The SIGINT is
    sent again 10 ms later from a timer thread (sent from here, its handler would run in this
    hook), so that it lands in the command's own code and ends it as an interruption (found by
    the interrupt test under load)."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        import threading  # lazy: +1.4 ms of `cardgen --help` at the top (measured); only after a Ctrl-C
        threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGINT)).start()
        return
    sys.__unraisablehook__(unraisable)


def _stop_interrupted() -> None:
    echo(INTERRUPTED, err=True)
    sys.exit(130)


class _Group(click.Group):
    """Runs a command; expected failures print their message blocks, never a traceback.

    A :class:`CardgenError` escaping a command prints its blocks (exit 1, usage 2). An
    ``OSError`` (disk full, permission denied) is reported as one block (exit 1). Anything else
    is a bug: a short "internal error, please report" line (exit 3); ``CARDGEN_DEBUG=1`` shows
    the traceback instead.
    """

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except _cardgen_error() as exc:
            fail(exc)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except KeyboardInterrupt:
            _stop_interrupted()
        except OSError as exc:
            _os_error(exc)
        except Exception as exc:
            if _interrupted:
                _stop_interrupted()
            if os.environ.get("CARDGEN_DEBUG") == "1":
                raise
            echo(f"cardgen: internal error: {type(exc).__name__}: {exc}\n"
                       "    hint: this is a bug in cardgen, please report it with the command you ran "
                       "(CARDGEN_DEBUG=1 shows the traceback)", err=True)
            sys.exit(3)


def _shown(filename) -> str:
    """A file name from an OSError, relative to the working folder when it lies inside it."""
    name = os.fsdecode(filename)
    shown = os.path.relpath(name) if os.path.isabs(name) else name
    return name if shown.startswith("..") else shown


def _os_error(exc: OSError) -> None:
    """Report ``exc`` (disk full, permission denied, a closed standard output) as one block and
    exit 1 (``CARDGEN_DEBUG=1``: raise it)."""
    if _interrupted:  # an error that came of the Ctrl-C (see _on_sigint)
        _stop_interrupted()
    if os.environ.get("CARDGEN_DEBUG") == "1":
        raise exc
    if isinstance(exc, PermissionError) and exc.filename:  # not a full disk: say what to change
        shown = _shown(exc.filename)
        echo(f"{shown}: error: permission denied: cardgen may not read or write it\n"
             f"    hint: check its permissions and those of the folders above it (ls -ld {shown}), "
             f"e.g. chmod u+rw {shown}", err=True)
    elif exc.filename:
        echo(f"{_shown(exc.filename)}: error: {exc.strerror or exc}\n"
             "    hint: check that the folder exists, is writable and the disk is not full", err=True)
    else:  # not a file cardgen writes: no guess about disks
        echo(f"cardgen: error: {exc.strerror or exc}\n"
             "    hint: CARDGEN_DEBUG=1 shows where it happened", err=True)
    sys.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardgen")
@click.option("--project", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="The project root whose templates/ and fonts/ games may use [default: the folder cardgen "
                   "runs in, or the cardgen checkout].")
def cli(project: Path | None) -> None:
    """cardgen — print sheets, rulebooks and validation for card games kept as data.

    A game is a folder (card_data/<game>/) with game.yaml and its card tables.
    """
    from cardgen.core.boundary import set_project  # lazy: +2 ms of imports for --help (measured: unicodedata)
    set_project(project)


for _commands in (review_commands, output_commands, build_commands, project_commands, insight, printer_commands):
    _commands.register(cli)  # `cardgen --help` lists the commands by name, whatever the order here


def main(startup_problem: str | None = None) -> None:
    """The click command line (``cardgen`` reaches it through :func:`cardgen.cli.entry.main`).
    ``startup_problem``: a message that ends the command before it starts (exit 1: the current
    folder no longer exists, :func:`cardgen.cli.entry.here_problem`). Ctrl-C at any moment (also while click reads the arguments) ends
    with one line and exit 130; the build's child process and workers are stopped first
    (:func:`cardgen.core.budget.run_limited`)."""
    if startup_problem is not None:
        echo(startup_problem, err=True)
        sys.exit(1)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
        sys.unraisablehook = _on_unraisable
    try:
        try:
            code = cli.main(prog_name="cardgen", standalone_mode=False)
            if isinstance(code, int):  # ctx.exit(code): without standalone mode click returns the code
                sys.exit(code)
        except click.exceptions.Abort:
            raise KeyboardInterrupt from None
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except OSError as exc:  # raised while the options were read: `--version` into a full disk
            _os_error(exc)
    except KeyboardInterrupt:
        _stop_interrupted()
    finally:
        # The command is over and its output complete (or left as it was): a Ctrl-C now would land
        # in the interpreter's own shutdown and print "Exception ignored … KeyboardInterrupt".
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # Nor need the interpreter's last garbage collection at exit walk every object of the
        # libraries the command loaded (≈ 30 ms after a build): they are frozen out of it.
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    main()
