"""A ``validate`` that had to check ends without the interpreter's teardown
(cardgen.cli.entry._leave_after): its output is complete and its exit code kept; an ``atexit``
handler or an exit message takes the ordinary way out (so they still happen)."""
from __future__ import annotations

import subprocess
import sys

import pytest

RUN = """
import atexit, sys
from cardgen.cli.entry import _leave_after
def command_line():
    print("x" * 100000)              # more than one buffer: all of it must arrive
    print("to stderr", file=sys.stderr)
    {body}
code = _leave_after(command_line)
print("returned", file=sys.stderr)  # only when a stream could not be flushed
sys.exit(code)
"""


@pytest.mark.parametrize("body, code, err", [
    ("raise SystemExit(1)", 1, "to stderr\n"),
    ("raise SystemExit(0)", 0, "to stderr\n"),
    ("pass", 0, "to stderr\n"),
    ("raise SystemExit('a message')", 1, "to stderr\na message\n"),
    ("atexit.register(print, 'atexit ran', file=sys.stderr); raise SystemExit(1)", 1, "to stderr\natexit ran\n"),
])
def test_output_and_exit_code_as_the_ordinary_way_out(body, code, err):
    p = subprocess.run([sys.executable, "-c", RUN.format(body=body)], capture_output=True, text=True, timeout=60)
    assert p.returncode == code
    assert p.stdout == "x" * 100000 + "\n"  # nothing printed after the command
    assert p.stderr == err
