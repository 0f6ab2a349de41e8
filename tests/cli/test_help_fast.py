"""``cardgen --help`` is served before click is imported (cardgen/cli/help_fast.py), and what it
prints is byte for byte what click prints; anywhere the stored page would differ, click answers."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from cardgen.cli import help_fast, help_page

CLICK_ONLY = "import sys\nsys.argv = ['cardgen', *sys.argv[1:]]\nfrom cardgen.cli.commands import main\nmain()\n"
ENTRY = ("import sys\nsys.argv = ['cardgen', *sys.argv[1:]]\nfrom cardgen.cli.entry import main\n"
         "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
         "sys.stderr.write(f'CLICK-LOADED={\"click\" in sys.modules} CODE={code}')\n")


def run(script: str, *args: str, columns: str | None = "80") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, env=env, check=False)


def test_stored_page_is_clicks_page():
    # a command added or reworded without rewriting the page fails here
    assert help_fast.render() == help_page.PAGE, "rewrite the page: python -m cardgen.cli.help_fast"


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_is_served_without_click_and_byte_identical(flag):
    click = run(CLICK_ONLY, flag)
    fast = run(ENTRY, flag)
    assert click.returncode == 0
    assert fast.stdout == click.stdout  # bytes, as the terminal gets them
    assert fast.stderr.decode().endswith("CLICK-LOADED=False CODE=0")


@pytest.mark.parametrize("columns", ["60", "79", "200", None])
def test_every_width_prints_what_click_prints(columns):
    # 60 and 79 columns give click other widths: click answers; 200 and no terminal: the page
    click = run(CLICK_ONLY, "--help", columns=columns)
    fast = run(ENTRY, "--help", columns=columns)
    assert fast.stdout == click.stdout
    served = columns in ("200", None)
    assert fast.stderr.decode().endswith(f"CLICK-LOADED={not served} CODE=0")


def test_other_arguments_are_left_to_click(capsys):
    for argv in ([], ["--help", "--version"], ["sheets", "--help"], ["--project", ".", "--help"], ["-hx"]):
        assert help_fast.serve(argv) is None, argv
    assert capsys.readouterr().out == ""


def test_another_click_release_is_left_to_click(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(help_page, "CLICK", "0.0.1")
    assert help_fast.serve(["--help"]) is None
    assert capsys.readouterr().out == ""


def test_stream_that_cannot_encode_the_page_is_left_to_click(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    assert "—" in help_page.PAGE
    assert help_fast.serve(["--help"]) is None
    ascii_out.flush()
    assert ascii_out.buffer.getvalue() == b""


def test_a_reader_gone_ends_as_with_click():
    """``cardgen --help | head -1``: the pipe closes before the page is written. click exits 1 and
    prints nothing more (no BrokenPipeError traceback); so does the stored page."""
    def closed_pipe_run(script):
        r, w = os.pipe()
        os.close(r)  # no reader: the first write fails with EPIPE
        env = {**os.environ, "COLUMNS": "80"}
        try:
            p = subprocess.run([sys.executable, "-c", script, "--help"], stdout=w, stderr=subprocess.PIPE,
                               env=env, check=False)
        finally:
            os.close(w)
        return p.returncode, p.stderr.decode()

    click_code, click_err = closed_pipe_run(CLICK_ONLY)
    _, err = closed_pipe_run(ENTRY)  # the probe script reports main()'s exit code on stderr
    assert click_code == 1 and click_err == ""
    assert err == "CLICK-LOADED=False CODE=1"  # nothing else on stderr: no traceback


def test_help_to_a_full_disk_is_one_line_and_exit_1():
    # `cardgen --help > /dev/full`: the fast path's write fails; it was a traceback
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-c", ENTRY, "--help"], stdout=full, stderr=subprocess.PIPE,
                             env={**os.environ, "COLUMNS": "80"}, check=False)
    err = res.stderr.decode()
    assert "Traceback" not in err
    assert err.startswith("cardgen: error: No space left on device\n    hint: CARDGEN_DEBUG=1")
    assert err.endswith("CLICK-LOADED=False CODE=1")


@pytest.mark.parametrize("argv", [["--version"], ["sheets", "--help"]])
def test_version_or_a_command_help_to_a_full_disk_is_one_message_and_exit_1(argv):
    # `cardgen --version > /dev/full`: click writes it while it reads the options, before any
    # command runs (outside the command group's own error report); it was a traceback
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-m", "cardgen", *argv], stdout=full, stderr=subprocess.PIPE,
                             env={**os.environ, "CARDGEN_NO_DAEMON": "1"}, check=False)
    assert res.returncode == 1
    assert res.stderr.decode() == "cardgen: error: No space left on device\n    hint: CARDGEN_DEBUG=1 shows where it happened\n"


@pytest.mark.parametrize("encoding", ["latin-1", "cp932"])
def test_help_on_a_narrow_encoding_escapes_what_it_lacks(encoding):
    # standard output redirected to a file on Windows is in the ANSI code page; click's page has
    # "—" and "–", which neither latin-1 nor cp932 (Japanese Windows) can encode
    res = subprocess.run([sys.executable, "-c", ENTRY, "sheets", "--help"], capture_output=True,
                         env={**os.environ, "COLUMNS": "80", "PYTHONIOENCODING": encoding}, check=False)
    assert res.returncode == 0, res.stderr.decode(encoding, "replace")
    out = res.stdout.decode(encoding)
    assert "Usage: cardgen sheets" in out
    assert "\\u2013" in out  # "0–50", escaped: `--thickness`' range
