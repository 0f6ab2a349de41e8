"""The ``cardgen`` command's entry point: the process's streams made safe to print to, then the
click command line (:func:`cardgen.cli.commands.main`). Every command runs in this one process
(untrusted work in its budgeted child, :mod:`cardgen.core.budget`)."""
from __future__ import annotations

import codecs
import os
import sys

from cardgen.cli.commands import main as command_line


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
    try:
        if (stream.errors or "strict") == "strict":
            codecs.register_error("cardgen-json-escape", _json_escape)
            stream.reconfigure(errors="cardgen-json-escape")
    except (AttributeError, ValueError, OSError, LookupError):
        pass


def here_problem() -> str | None:
    """The message to print when the current folder no longer exists (deleted or moved away while
    a shell stood in it), before anything that asks for it (reportlab's start-up, relative paths)
    fails with a traceback or a bare 'No such file or directory'; None when it exists."""
    try:
        os.getcwd()
        return None
    except OSError as exc:
        where = os.environ.get("PWD")
        return (f"cardgen: error: the current folder no longer exists ({exc.strerror or exc}"
                + (f": {where!r}" if where else "") + ")\n"
                "    hint: cd to a folder that exists (it was deleted or moved) and run the command again")


def main() -> None:
    """Console entry point (``cardgen``).

    pydantic's plugins are off for the command (``PYDANTIC_DISABLE_PLUGINS=__all__`` unless the
    variable is set): cardgen uses none, and looking for them made pydantic read the entry points
    of every installed distribution on its first model (``importlib.metadata``, ≈ 3 ms of each
    command that validates a manifest; pydantic reads the variable then, not at import). Set
    ``PYDANTIC_DISABLE_PLUGINS=`` (empty) to load them."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # `cardgen … >&-`: what would be printed there goes nowhere
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (for the whole run)
    escape_unencodable(sys.stdout)
    command_line(here_problem())
