"""Click group ``cardgen daemon`` (``start``, ``stop``, ``status``): the opt-in preloaded fork
server of :mod:`cardgen.cli.fork_server`; added to the main group by :func:`register`."""
from __future__ import annotations

import time

import click

from cardgen.cli.output import echo


@click.group("daemon", short_help="Keep a preloaded cardgen process for faster commands (opt-in).")
def daemon() -> None:
    """A resident process that has loaded cardgen and its libraries and runs each command in a
    forked child, so a command skips the ~0.2 s start-up. Off unless started; it serves only this
    user and only commands run with the same code, Python and environment it was started with."""


def _fail(exc) -> None:
    echo(str(exc), err=True)
    raise SystemExit(1)


def _describe(info: dict, path: str) -> list[str]:
    started = float(info.get("started", 0))
    minutes = max(0, int((time.time() - started) // 60))
    idle = float(info.get("idle", 0)) / 60
    return [f"  pid: {info.get('pid')}", f"  socket: {path}",
            f"  started: {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(started))} ({minutes} min ago)",
            f"  requests served: {info.get('served')} (running now: {info.get('running')})",
            f"  idle exit: after {idle:g} min without a request"]


@daemon.command("start")
@click.option("--idle", "idle_min", type=click.FloatRange(min=0.01, max=7 * 24 * 60), default=30, show_default=True,
              metavar="MINUTES",
              help="End after this many minutes without a request.")
def start(idle_min: float) -> None:
    """Start the daemon for this environment (returns once it listens)."""
    from cardgen.cli.fork_server import DaemonError, start as start_daemon

    try:
        started, info, path = start_daemon(idle_min * 60)
    except DaemonError as exc:
        _fail(exc)
    echo("cardgen daemon: started" if started else "cardgen daemon: already running")
    for line in _describe(info, path):
        echo(line)


@daemon.command("stop", short_help="Stop every cardgen daemon of yours.")
def stop() -> None:
    """Stop every cardgen daemon of yours (each ends once its running commands have ended)."""
    from cardgen.cli.fork_server import DaemonError, stop_all

    try:
        stopped = stop_all()
    except DaemonError as exc:
        _fail(exc)
    if not stopped:
        echo("cardgen daemon: none running")
    for info in stopped:
        running = int(info.get("running", 0))
        echo(f"cardgen daemon: stopped (pid {info.get('pid')})" if not running else
             f"cardgen daemon: stopping (pid {info.get('pid')}; it ends when its {running} running command(s) end)")


@daemon.command("status", short_help="Say whether the daemon for this environment runs.")
def status() -> None:
    """Say whether the daemon for this environment runs (exit 0) or not (exit 1)."""
    from cardgen.cli.fork_server import DaemonError, status as daemon_status

    try:
        info, path, others = daemon_status()
    except DaemonError as exc:
        _fail(exc)
    if info is None:
        echo("cardgen daemon: not running for this environment (commands run as usual)")
        echo(f"  socket: {path}")
    elif info.get("answering") == "no":
        echo(f"cardgen daemon: not answering (pid {info['pid']}: busy or stopped; commands run as usual "
             "after waiting 2 s for it)")
        echo(f"  socket: {path}")
        echo(f"  hint: kill -CONT {info['pid']} if you stopped it, or kill {info['pid']} to end it")
        raise SystemExit(1)
    else:
        from cardgen.cli.daemon_client import disabled

        echo("cardgen daemon: running" + (" (but CARDGEN_NO_DAEMON=1 is set: commands here run without it)"
                                         if disabled() else ""))
        for line in _describe(info, path):
            echo(line)
    if others:
        echo(f"  {len(others)} other daemon(s) of yours, started with other code or another environment "
             f"(pid {', '.join(str(o.get('pid')) for o in others)}): `cardgen daemon stop` stops them all")
    raise SystemExit(0 if info is not None else 1)


def register(group: click.Group) -> None:
    """Add ``daemon`` to the ``cardgen`` group."""
    group.add_command(daemon)
