"""``cardgen validate``'s stored result (cardgen.steps.check_cache, the fast path of cardgen.cli.entry):
a hit prints exactly what the check printed, for every case of the bad-input corpus; an edit is
never answered from the cache; ``--no-cache`` and ``CARDGEN_NO_CACHE=1`` bypass it."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.cli.entry import fast_validate, validate_args
from tests.cli.test_bad_input import CASES, _prepare
from tests.conftest import copy_game, replace_in


@pytest.fixture(autouse=True)
def cache_on(tmp_path, monkeypatch):
    """The validate cache on, in a folder of this test."""
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    monkeypatch.delenv("CARDGEN_DEBUG", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _hit(capsys, *args: str) -> tuple[int | None, str, str]:
    capsys.readouterr()
    code = fast_validate(["validate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", CASES)
def test_a_stored_result_prints_what_the_check_printed(name, tmp_path, monkeypatch, capsys):
    game, spec = _prepare(name, tmp_path)
    monkeypatch.chdir(game)
    if "budget" in spec:
        monkeypatch.setattr("cardgen.core.sandbox.MAX_SECONDS", float(spec["budget"]))
    checked = CliRunner().invoke(cli, ["validate", "."], catch_exceptions=False)  # a miss: checks, then stores
    assert checked.exit_code in (0, 1)
    if not checked.stdout:  # the check stopped with an error (no report): nothing is stored
        assert _hit(capsys, ".") == (None, "", "")
        return
    assert _hit(capsys, ".") == (checked.exit_code, checked.stdout, checked.stderr)
    if CASES.index(name) % 8 == 0:  # the JSON report too, for every eighth case (a second full check each)
        as_json = CliRunner().invoke(cli, ["validate", ".", "--format", "json", "--no-cache"], catch_exceptions=False)
        assert _hit(capsys, "--format", "json", ".") == (as_json.exit_code, as_json.stdout, "")


def test_one_cell_edit_is_checked_again(tmp_path, monkeypatch, capsys):
    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    first = CliRunner().invoke(cli, ["validate", str(game)])
    assert first.exit_code == 0 and _hit(capsys, str(game))[0] == 0
    replace_in(game / "battle.csv", "b2-chi,2,0,1,0,8", "b2-chi,2,0,1,0,9")  # one more card: the deck math fails
    assert _hit(capsys, str(game)) == (None, "", "")
    again = CliRunner().invoke(cli, ["validate", str(game)])
    assert again.exit_code == 1 and "MISMATCH" in again.stdout
    assert _hit(capsys, str(game)) == (1, again.stdout, again.stderr)


def test_template_edit_is_checked_again(tmp_path, monkeypatch, capsys):
    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["validate", str(game)]).exit_code == 0
    replace_in(tmp_path / "templates" / "cards" / "battle.yaml", "card.number", "card.numbr")
    assert _hit(capsys, str(game)) == (None, "", "")
    again = CliRunner().invoke(cli, ["validate", str(game)])
    assert again.exit_code == 1 and "numbr" in again.stderr


def test_no_cache_flag_and_variable_bypass_it(tmp_path, monkeypatch, capsys):
    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    CliRunner().invoke(cli, ["validate", str(game), "--no-cache"])
    assert _hit(capsys, str(game))[0] is None  # --no-cache stores nothing
    CliRunner().invoke(cli, ["validate", str(game)])
    assert _hit(capsys, str(game))[0] == 0
    assert validate_args(["validate", "--no-cache", str(game)]) is None  # the flag goes to the full check
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert _hit(capsys, str(game))[0] is None


@pytest.mark.parametrize("argv", [["validate"], ["validate", "a", "b"], ["validate", "--format", "xml", "."],
                                  ["validate", "--cpu-limit", "5", "."], ["--project", ".", "validate", "."],
                                  ["build", "."], ["validate", "no-such-folder"], ["validate", "--", "."]])
def test_anything_else_goes_to_the_command_line(argv):
    assert validate_args(argv) is None


def test_console_hit_imports_nothing_heavy(tmp_path):
    """Through ``python -m cardgen``: the second run prints the first run's bytes and loads neither
    click, pydantic nor reportlab."""
    game = copy_game(tmp_path)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("CARDGEN_NO_CACHE", None)
    run = [sys.executable, "-m", "cardgen", "validate", str(game)]
    first = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, env=env)
    second = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert first.returncode == second.returncode == 0
    assert (second.stdout, second.stderr) == (first.stdout, first.stderr) and "deck math" in first.stdout
    probe = ("import sys; from cardgen.cli.entry import fast_validate; "
             f"code = fast_validate(['validate', {str(game)!r}]); "
             "print(code, [m for m in ('click', 'pydantic', 'reportlab', 'jinja2') if m in sys.modules])")
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert got.stdout.splitlines()[-1] == "0 []", got.stderr


def test_a_folder_named_in_bytes_that_are_not_utf8_is_stored_and_replayed(tmp_path):
    """A game folder whose name is not UTF-8 (``bad\\xffname``: Python holds it as a lone surrogate)
    is named in the report's lines; the stored result keeps them as they were, and the second run
    (from it) prints what the first printed — no UnicodeEncodeError traceback."""
    game = copy_game(tmp_path)
    odd = game.parent / os.fsdecode(b"bad\xffname")
    game.rename(odd)
    first = _console(tmp_path, odd)
    second = _console(tmp_path, odd)
    assert first.returncode == second.returncode == 0, first.stderr.decode(errors="replace")
    assert b"Traceback" not in first.stderr + second.stderr
    assert (second.stdout, second.stderr) == (first.stdout, first.stderr) and b"bad\\udcffname" in first.stderr  # as stderr escapes it


def test_stored_text_reaches_the_terminal_as_text(tmp_path, monkeypatch, capsys):
    """An entry altered on disk to hold an escape code prints it as U+001B, never as a command."""
    from cardgen.steps import check_cache

    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    state = check_cache.inputs_state(game)
    check_cache.store(game, state, [(True, "x: error: \x1b[2J gone"), (False, "g: 1 error(s), 0 warning(s)")], "{}", 1)
    assert _hit(capsys, str(game)) == (1, "g: 1 error(s), 0 warning(s)\n", "x: error: U+001B[2J gone\n")


@pytest.mark.parametrize("typed", ["tenjanpai/", "./tenjanpai", "tenjanpai//"])
def test_a_folder_typed_with_a_trailing_slash_finds_its_stored_result(typed, tmp_path, monkeypatch, capsys):
    """Shells complete a folder name with a slash; the command receives it as a path (no slash),
    so the fast path keys it the same way and answers the second run."""
    game = copy_game(tmp_path)
    monkeypatch.chdir(game.parent)
    first = CliRunner().invoke(cli, ["validate", typed])
    assert first.exit_code == 0
    assert _hit(capsys, typed) == (0, first.stdout, first.stderr)
    assert _hit(capsys, "tenjanpai")[0] == 0


def _console(tmp_path, game, *, stdout=subprocess.PIPE, env_extra=None, args=()):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), **(env_extra or {})}
    env.pop("CARDGEN_NO_CACHE", None)
    return subprocess.run([sys.executable, "-m", "cardgen", "validate", *args, str(game)], stdout=stdout,
                          stderr=subprocess.PIPE, cwd=tmp_path, env=env)


def test_a_stored_result_into_a_full_disk_or_a_closed_stream_is_one_message(tmp_path):
    """Printing a stored result where it cannot go ends as the full check ends: one message, exit 1,
    no traceback (tester's finding, session 5); a closed standard output is simply not printed to."""
    game = copy_game(tmp_path)
    assert _console(tmp_path, game).returncode == 0  # stores the result
    with open("/dev/full", "wb") as full:
        disk = _console(tmp_path, game, stdout=full)
    assert disk.returncode == 1 and b"Traceback" not in disk.stderr
    assert disk.stderr.decode().endswith("cardgen: error: No space left on device\n"
                                         "    hint: CARDGEN_DEBUG=1 shows where it happened\n")
    for args in ((), ("--no-cache",)):
        closed = subprocess.run(f'"{sys.executable}" -m cardgen validate {" ".join(args)} "{game}" >&-', shell=True,
                                stderr=subprocess.PIPE, cwd=tmp_path,
                                env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
        assert closed.returncode == 0 and b"Traceback" not in closed.stderr and b"internal error" not in closed.stderr


def test_a_stored_result_is_not_printed_through_a_lossy_encoding(tmp_path):
    """With PYTHONIOENCODING=ascii:replace the stored text would print as '?': click answers instead,
    and both runs print the same (tester's finding, session 5)."""
    game = copy_game(tmp_path)
    env = {"PYTHONIOENCODING": "ascii:replace"}
    first, second = (_console(tmp_path, game, env_extra=env) for _ in range(2))
    assert first.stdout == second.stdout and "天雀牌".encode() in second.stdout


def test_an_icon_renamed_in_game_yaml_is_checked_again_in_the_rules_text(tmp_path, monkeypatch, capsys):
    """The rules text names the game's own icon `:coin:`; renaming the icon `coins` in game.yaml is
    an error at the rules line (validate's stored result is not replayed), stored and replayed
    in turn; named back, validate passes again."""
    game = copy_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    (game / "icons").mkdir()
    (game / "icons" / "coin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                             '<circle cx="5" cy="5" r="4" fill="#d4a017"/></svg>', encoding="utf-8")
    with (game / "game.yaml").open("a", encoding="utf-8") as fh:
        fh.write("icons:\n  coin: {file: icons/coin.svg}\n")
    replace_in(game / "rules" / "01_intro.md", "：:power: を表します。", "：:power: を表します。:coin: は使いません。")
    line = next(n for n, t in enumerate((game / "rules" / "01_intro.md").read_text(encoding="utf-8").splitlines(), 1)
                if ":coin:" in t)
    first = CliRunner().invoke(cli, ["validate", str(game)])
    assert first.exit_code == 0, first.output
    assert _hit(capsys, str(game))[0] == 0
    replace_in(game / "game.yaml", "  coin: {file", "  coins: {file")
    assert _hit(capsys, str(game)) == (None, "", "")
    renamed = CliRunner().invoke(cli, ["validate", str(game)])
    assert renamed.exit_code == 1
    assert (f"rules/01_intro.md:{line}: error: rulebook → text → unknown icon 'coin' (did you mean 'coins'?); "
            "known icons: power, ") in renamed.stderr
    assert _hit(capsys, str(game)) == (1, renamed.stdout, renamed.stderr)
    replace_in(game / "game.yaml", "  coins: {file", "  coin: {file")
    assert _hit(capsys, str(game)) == (0, first.stdout, first.stderr)
