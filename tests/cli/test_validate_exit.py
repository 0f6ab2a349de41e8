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


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_to_a_narrow_encoding_escapes_and_json_stays_json(fmt, tmp_path):
    # `cardgen validate GAME > report.txt` on Japanese Windows writes cp932, which lacks "−" (the
    # deck math) and "—"; cp437 lacks Japanese too. It was an internal error (exit 3) half-way through
    import json
    import os
    from pathlib import Path

    game = Path(__file__).resolve().parents[2] / "card_data" / "tenjanpai"
    env = {**os.environ, "PYTHONIOENCODING": "cp437", "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("CARDGEN_NO_CACHE", None)
    for _ in range(2):  # a check, then the stored result (its fast path hands a narrow stream to click)
        res = subprocess.run([sys.executable, "-m", "cardgen", "validate", "--format", fmt, str(game)],
                             capture_output=True, env=env, check=False)
        assert res.returncode == 0, res.stderr.decode("cp437", "replace")
        out = res.stdout.decode("cp437")
        if fmt == "json":
            assert json.loads(out)["title"] == "天雀牌"
        else:
            assert "36 \\u2212 3 \\u00d7 3 (hands)" in out
            assert out.rstrip().endswith("tenjanpai: 0 error(s), 1 warning(s)")
