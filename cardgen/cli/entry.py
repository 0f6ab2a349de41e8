"""The ``cardgen`` command's entry point: the help and validate fast paths, then the click command line.

``cardgen --help`` (or ``-h``) prints click's own page, stored in :mod:`cardgen.cli.help_page`, when
click would print exactly that page here (:mod:`cardgen.cli.help_fast`).

``cardgen validate GAME_DIR [--format text|json]`` whose inputs are exactly those of an earlier
run (:mod:`cardgen.steps.check_cache`: every file of the game folder and of the shared folders,
the fonts, cardgen's code, the options) prints that run's stored result and exits with its
code, before click, pydantic, reportlab or any other part of cardgen is imported. Anything else
— other commands or options, ``--no-cache``, ``CARDGEN_NO_CACHE=1``, a miss — goes to
:func:`cardgen.cli.commands.main` as before (a ``validate`` then ends without the interpreter's
teardown, :func:`_leave_after`). A hit runs no code of the game folder's: it only
hashes files (bounded by :data:`cardgen.steps.check_cache.MAX_FILES` and ``MAX_BYTES``).
"""
from __future__ import annotations

import os
import sys


def validate_args(argv: list[str]) -> tuple[str, str] | None:
    """``(format, game_dir)`` when ``argv`` (without the program name) is exactly
    ``validate [--format text|json] GAME_DIR`` in any order with an existing folder; else None."""
    parsed = _parse_validate(argv)
    if parsed is None or parsed[1] or parsed[5]:  # --no-cache, or a budget given: not the fast path's
        return None
    return parsed[4], parsed[0]


def check_args(argv: list[str]) -> tuple[str, bool, int, int, str] | None:
    """``(game_dir, no_cache, memory MB, CPU s, format)`` when ``argv`` (without the program name) is
    ``validate GAME_DIR`` with only options of validate's that take no other value (``--format
    text|json``, ``--no-cache``, ``--memory-limit MB``, ``--cpu-limit SECONDS``; in any order,
    ``--opt=value`` too) and an existing folder; else None (click answers as always)."""
    parsed = _parse_validate(argv)
    return None if parsed is None else parsed[:5]


def _parse_validate(argv: list[str]) -> tuple[str, bool, int, int, str, bool] | None:
    """:func:`check_args`' tuple and whether a budget option was given."""
    from cardgen.core.budget_limits import (DEFAULT_CPU_S, DEFAULT_MEMORY_MB, MAX_CPU_S, MAX_MEMORY_MB,
                                            MIN_CPU_S, MIN_MEMORY_MB)

    if not argv or argv[0] != "validate":
        return None
    game, no_cache, fmt, limits = None, False, "text", {}
    rest, i = argv[1:], 0
    while i < len(rest):
        arg, value = rest[i], None
        name, eq, inline = arg.partition("=")
        if name in ("--format", "--memory-limit", "--cpu-limit"):
            if eq:
                value, i = inline, i + 1
            elif i + 1 < len(rest):
                value, i = rest[i + 1], i + 2
            else:
                return None
            if name == "--format":
                if value not in ("text", "json"):
                    return None
                fmt = value  # the last one given, as click takes it
                continue
            if not (value.isascii() and value.isdigit()):  # '²', '①' pass isdigit() but not int(): click says
                return None
            limits[name] = int(value)
            continue
        if arg == "--no-cache":
            no_cache, i = True, i + 1
            continue
        if arg.startswith("-") or game is not None:
            return None
        game, i = arg, i + 1
    if game is None or not os.path.isdir(game) or not os.access(game, os.R_OK):  # click: "is not readable"
        return None
    memory, cpu = limits.get("--memory-limit", DEFAULT_MEMORY_MB), limits.get("--cpu-limit", DEFAULT_CPU_S)
    if not (MIN_MEMORY_MB <= memory <= MAX_MEMORY_MB and MIN_CPU_S <= cpu <= MAX_CPU_S):  # out of click's range: click answers
        return None
    return game, no_cache, memory, cpu, fmt, bool(limits)


def start_check(argv: list[str]) -> None:
    """For a ``validate`` that will check (:func:`check_args`), start the work now, before click
    is imported: the inputs' state the stored result will be keyed by is taken first
    (:func:`cardgen.steps.check_cache.keep_state`, unless the fast path's lookup took it), then the
    font helper is forked when the font caches are off or empty (:mod:`cardgen.fonts.helper`,
    not with ``CARDGEN_NO_FONT_HELPER=1``), then the budgeted check itself
    (:mod:`cardgen.cli.early_check`), which the ``validate`` command collects."""
    args = check_args(argv)
    if args is None:
        return
    from cardgen.cli import early_check
    from cardgen.core.budget import Budget
    from cardgen.fonts import helper
    from cardgen.steps.check_cache import keep_state

    game, no_cache, memory_mb, cpu_s, _fmt = args
    budget = Budget(memory_mb, cpu_s)
    if not no_cache:
        keep_state(game)
    try:
        if not os.environ.get("CARDGEN_NO_FONT_HELPER") and helper.worth_it(no_cache):
            helper.start(game, budget, no_cache=no_cache)
        early_check.start(game, no_cache, budget)
    except OSError:  # no pipe or process left (ulimit -n, -u): only the head start is lost, the
        _stop_started()  # command line checks as it always did


def _stop_started() -> None:
    """Stop the font helper and the early check if :func:`start_check` started them (imports nothing new)."""
    for name in ("cardgen.cli.early_check", "cardgen.fonts.prefetch"):
        module = sys.modules.get(name)
        if module is not None:
            module.stop()


def finish_check(argv: list[str]) -> int | None:
    """When :func:`start_check` started the check: wait for it, and when it answered, store its
    result (:func:`cardgen.steps.check_cache.store`, unless ``--no-cache``) and print it as the
    ``validate`` command prints it (the fast path's way, :func:`_write_or_report`) without loading
    click; → its exit code. None, with nothing printed, when no check was started, when it raised
    (a budget stop, a folder it cannot read: the click command line then takes the same answer and
    reports it as always) or when standard output or error does not write UTF-8 (click answers).
    Ctrl-C while waiting stops the check's process group and goes on as KeyboardInterrupt."""
    from cardgen.cli import early_check
    from cardgen.cli.help_fast import utf8_stream

    args = check_args(argv)
    if args is None or not (utf8_stream(sys.stdout) and utf8_stream(sys.stderr)):
        return None
    from cardgen.core.budget import Budget

    game, no_cache, memory_mb, cpu_s, fmt = args
    started = early_check.peek(game, no_cache, Budget(memory_mb, cpu_s))
    if started is None:
        return None
    try:
        lines, json_text, code = started.result()
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - left to the command line, which gets the same answer
        return None
    early_check.stop()  # taken: nothing left to stop but the record of it
    from cardgen.fonts import prefetch

    prefetch.stop()
    if not no_cache:
        from cardgen.core import disk_cache
        from cardgen.steps import check_cache

        if disk_cache.enabled():
            check_cache.store(game, check_cache.state_before(game), lines, json_text, code)
    failed = _write_or_report([(False, json_text)] if fmt == "json" else lines)
    return code if failed is None else failed


def _lines(entry: dict, fmt: str) -> list[tuple[bool, str]]:
    return [(False, entry["json"])] if fmt == "json" else [(e, s) for e, s in entry["text"]]


def _write_or_report(lines: list[tuple[bool, str]]) -> int | None:
    """Write ``lines`` (``True``: standard error); None when done, else the exit code after an
    output error (1: a closed pipe, a full disk), reported as the click command line reports it
    (:class:`cardgen.cli.commands._Group`) and with standard output sent nowhere afterwards, so the
    interpreter's last flush raises nothing."""
    try:
        for err, text in lines:
            stream = sys.stderr if err else sys.stdout
            stream.write(text + "\n")
            stream.flush()
    except OSError as exc:
        from cardgen.cli.help_fast import report_output_error

        return report_output_error(exc)
    return None


def fast_validate(argv: list[str], keep_state: bool = False) -> int | None:
    """Print a stored validate result for ``argv`` and return its exit code; None when there is
    none to print (then nothing was printed). ``keep_state``: on a miss, the inputs' state hashed
    here is kept for the check that runs next in this process
    (:func:`cardgen.steps.check_cache.state_before`)."""
    args = validate_args(argv)
    if args is None:
        return None
    from cardgen.steps.check_cache import lookup

    entry = lookup(args[1], keep_state=keep_state)
    if entry is None:
        return None
    from cardgen.core.unicode_text import shown  # stored clean; shown again in case the file was altered

    lines = [(err, shown(text)) for err, text in _lines(entry, args[0])]
    from cardgen.cli.help_fast import utf8_stream

    if not (utf8_stream(sys.stdout) and utf8_stream(sys.stderr)):
        return None
    failed = _write_or_report(lines)
    return entry["code"] if failed is None else failed


def _json_escape(err: UnicodeEncodeError) -> tuple[str, int]:
    """Codec error handler: the characters an encoding lacks as JSON string escapes (``\\u2014``;
    above U+FFFF as a surrogate pair), which read the same in text and keep ``--format json``
    output valid JSON (Python's ``backslashreplace`` writes ``\\xd7``, which JSON does not allow)."""
    out = []
    for ch in err.object[err.start:err.end]:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), err.end


def escape_unencodable(stream) -> None:
    """Let ``stream`` (standard output) write a character its encoding lacks as a ``\\uXXXX``
    escape (:func:`_json_escape`), as Python's standard error writes it, instead of raising
    ``UnicodeEncodeError`` in the middle of a report. Standard output is UTF-8 on most systems; it
    is not when a Windows user redirects it to a file (the ANSI code page: cp932 on Japanese Windows
    has no ``—``) or ``PYTHONIOENCODING`` names a narrower codec. A stream that cannot be
    reconfigured (not a ``TextIOWrapper``) is left as it is."""
    import codecs

    try:
        if (stream.errors or "strict") == "strict":
            codecs.register_error("cardgen-json-escape", _json_escape)
            stream.reconfigure(errors="cardgen-json-escape")
    except (AttributeError, ValueError, OSError, LookupError):
        pass


def _here_exists() -> bool:
    """Whether the current folder still exists; when it does not (deleted or moved away while a
    shell stood in it), say so on standard error — one message, before anything that asks for it
    (the validate fast path's key, reportlab's start-up, relative paths) fails with a traceback or
    a bare 'No such file or directory'."""
    try:
        os.getcwd()
        return True
    except OSError as exc:
        where = os.environ.get("PWD")
        sys.stderr.write(f"cardgen: error: the current folder no longer exists ({exc.strerror or exc}"
                         + (f": {where!r}" if where else "") + ")\n"
                         "    hint: cd to a folder that exists (it was deleted or moved) and run the command again\n")
        return False


def main() -> None:
    """Console entry point (``cardgen``): the help and validate fast paths, else the click command line.

    pydantic's plugins are off for the command (``PYDANTIC_DISABLE_PLUGINS=__all__`` unless the
    variable is set): cardgen uses none, and looking for them made pydantic read the entry points
    of every installed distribution on its first model (``importlib.metadata``, ≈ 3 ms of each
    command that validates a manifest). Set ``PYDANTIC_DISABLE_PLUGINS=`` (empty) to load them.

    First of all, when ``cardgen daemon start`` left a daemon for this environment, the command
    runs in a child it forks and this process ends with its status
    (:func:`cardgen.cli.daemon_client.run_elsewhere`; stdlib only, returns otherwise)."""
    from cardgen.cli.daemon_client import run_elsewhere
    run_elsewhere(sys.argv, main)
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # `cardgen … >&-`: what would be printed there goes nowhere
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (for the whole run)
    escape_unencodable(sys.stdout)
    if not _here_exists():
        sys.exit(1)
    try:
        from cardgen.cli.help_fast import serve as help_page  # `cardgen --help`: click's page, stored
        code = help_page(sys.argv[1:])
        if code is None:
            code = fast_validate(sys.argv[1:], keep_state=True)
        if code is None:
            start_check(sys.argv[1:])
            code = finish_check(sys.argv[1:])
        if code is None:
            from cardgen.cli.commands import main as command_line  # Ctrl-C while it loads: exit 130 too
    except KeyboardInterrupt:
        _stop_started()  # killed and reaped now, not left to die with this process
        from cardgen.cli.daemon_client import INTERRUPTED
        sys.stderr.write(INTERRUPTED + "\n")
        sys.exit(130)
    if code is not None:
        import signal
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # done: a Ctrl-C during shutdown prints nothing
        if sys.argv[1:2] == ["validate"]:
            sys.exit(_leave_after(lambda: sys.exit(code)))
        sys.exit(code)
    if sys.argv[1:2] == ["validate"]:
        sys.exit(_leave_after(command_line))
    command_line()


def _leave_after(command_line) -> int:
    """Run ``command_line`` (a ``validate`` that had to check), then end the process at once with
    its exit code: ``os._exit`` once standard output and error are flushed, skipping the
    interpreter's teardown — about 30 ms of freeing every module and object the check loaded, in
    a run of under half a second. Nothing of validate waits for that teardown: the check ran in a
    child that has ended, no thread is left, and no ``atexit`` handler is registered. When one is,
    or the exit carries a message instead of a code, its ``SystemExit`` goes on; when a stream
    cannot be flushed (a closed pipe), the code is returned for the ordinary way out."""
    import atexit

    try:
        command_line()
        code = 0
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
        if not isinstance(code, int) or getattr(atexit, "_ncallbacks", lambda: 1)():
            raise
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # Python's own way out reports it (None: a closed stream)
        return code
    os._exit(code)
