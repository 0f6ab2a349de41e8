"""Terminal output and messages for hostile or broken input (issue 18): user text is shown, never
obeyed (control characters as U+XXXX, rich markup escaped); a cut-short PNG, an unreadable rules
file, over-long and NFC/NFD-duplicate card ids each get a message naming the file; a watch
survives any error."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading

import pytest
import yaml
from click.testing import CliRunner

from attack_game import ROOT, attack_game
from cardgen.cli.output import print_files
from cardgen.cli.commands import cli
from cardgen.core.errors import CardgenError


def _invoke(*args):
    return CliRunner().invoke(cli, list(args))


def test_markup_and_escape_codes_in_user_text_are_shown_not_obeyed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = attack_game(tmp_path, manifest={"game": {"id": "g", "title": "試作\x1b[31m[/][bold]", "version": "1",
                                                    "players": [2]}})
    rows = (game / "cards.csv").read_text(encoding="utf-8").replace("c1,", "c[/]1,")
    (game / "cards.csv").write_text(rows, encoding="utf-8")
    other = attack_game(tmp_path, name="other", manifest={"game": {"id": "h", "title": "次", "version": "1",
                                                                   "players": [2]}})
    result = _invoke("build", str(game), str(other), "--out", "out")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "試作U+001B[31m[/][bold]" in result.output  # the title as written, in the preflight summary
    assert "wrote out/h/print-sheets.pdf" in result.output  # the next game was built too
    result = _invoke("validate", str(game))
    assert "\x1b" not in result.output and "U+001B" in result.output


def test_cut_short_png_names_the_file(tmp_path, monkeypatch):
    from PIL import Image

    monkeypatch.chdir(tmp_path)
    game = attack_game(tmp_path, template={"elements": [{"kind": "image", "name": "art", "box": [6, 6, 20, 20],
                                                         "file": "art.png"}]})
    Image.new("RGB", (300, 300), "red").save(game / "art.png")
    data = (game / "art.png").read_bytes()
    (game / "art.png").write_bytes(data[: len(data) // 2])
    result = _invoke("build", "game", "--out", "out")
    assert result.exit_code == 1
    assert "the image game/art.png cannot be read: the file is cut short (truncated)" in result.output
    assert "disk" not in result.output


def test_unreadable_rules_file_names_it_with_the_right_hint(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = attack_game(tmp_path, rules_md="# 遊び方\n")
    (game / "rules" / "02.md").symlink_to("gone.md")  # inside the game folder, but nothing there
    result = _invoke("rulebook", "game", "--out", "out")
    assert result.exit_code == 1
    assert "game/rules/02.md: error: rulebook → cannot read the rules file: No such file or directory" in result.output
    assert "check that the file exists and that you may read it" in result.output
    assert "disk" not in result.output


def _without_permission_bypass() -> list[str]:
    """The command prefix that makes file permissions apply to this process's children: as root
    (this machine's test runs), chmod is no obstacle, so the child runs without the capabilities
    that bypass it (util-linux setpriv); as anyone else, nothing."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a folder's permissions cannot be made to apply")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


@pytest.mark.parametrize("blocked, bad_count", [("templates/cards", False), ("templates/cards", True),
                                               ("rules", True)])
def test_an_unreadable_folder_is_one_finding_and_validate_still_reports_the_rest(tmp_path, blocked, bad_count):
    """`chmod 000 templates/cards` gave the absolute path of the first file and the disk-full hint,
    and validate printed no report. Now: the folder relative to where cardgen runs, what to do, and
    every other finding (a bad count here), exit 1; a build writes nothing. Two child processes (as
    a user runs cardgen, with the OS's permission checks): ~4 s."""
    game = attack_game(tmp_path, rows="c3,3,t,x\n" if bad_count else None, rules_md="# 遊び方\n")
    folder = game / blocked
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("CARDGEN_DEBUG", None)
    os.chmod(folder, 0)
    try:
        r = subprocess.run([*_without_permission_bypass(), sys.executable, "-m", "cardgen", "validate", "game"],
                           cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
        b = subprocess.run([*_without_permission_bypass(), sys.executable, "-m", "cardgen", "build", "game",
                            "--out", "out"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    finally:
        os.chmod(folder, 0o755)
    assert r.returncode == 1, r.stderr
    assert r.stderr == (f"game/{blocked}: error: the folder cannot be read (permission denied): nothing in it can "
                        f"be used\n    hint: give yourself read access: chmod -R u+rX game/{blocked} (or ask whoever "
                        "sent the game to fix its permissions)\n"
                        + ("game/cards.csv:4: error: cards → row 4 → count → 'x' is not a whole number\n"
                           "    hint: write a whole number in the 'count' column\n" if bad_count else "")), r.stderr
    assert f": {1 + bad_count} error(s), 0 warning(s)" in r.stdout
    assert bad_count or "2 players: 6 cards" in r.stdout  # the deck math is reported as ever
    assert str(tmp_path) not in r.stderr + r.stdout and "disk" not in r.stderr
    assert b.returncode == 1 and f"game/{blocked}: error: the folder cannot be read" in b.stderr, b.stderr
    assert "Traceback" not in b.stderr and not (tmp_path / "out" / "g").exists()


def test_over_long_card_id_is_a_validation_error(tmp_path):
    game = attack_game(tmp_path, rows="x" * 200 + ",3,t,1\n")
    result = _invoke("validate", str(game))
    assert result.exit_code == 1
    assert "the id is 200 characters long, more than 60 (it names the card's PNG file)" in result.output


def test_nfc_and_nfd_forms_of_one_id_are_duplicates(tmp_path):
    game = attack_game(tmp_path, rows="ば,3,t,1\nは\u3099,4,t,1\n")
    result = _invoke("validate", str(game))
    assert result.exit_code == 1
    assert "is used twice (first on line 4); the two are written with different Unicode forms (NFC / NFD)" \
        in result.output


def test_watch_survives_an_internal_error_and_shows_it(tmp_path):
    from cardgen.cli.watch import watch

    game = attack_game(tmp_path)
    events = []
    stop = threading.Event()

    def boom(_game_dir, *_args, **_kw):
        stop.set()
        raise RuntimeError("boom")

    watch(game, tmp_path / "out", lambda kind, payload: events.append((kind, payload)), stop=stop, save=boom)
    kinds = [k for k, _p in events]
    assert kinds == ["error"]
    err = events[0][1]
    assert isinstance(err, CardgenError)
    assert "internal error: RuntimeError: boom" in err.format() and "the watch goes on" in err.format()


def test_budget_flags_and_project_option_are_documented():
    result = _invoke("build", "--help")
    assert "--memory-limit" in result.output and "--cpu-limit" in result.output
    assert "--project" in _invoke("--help").output
    assert yaml  # the module is used by attack_game's manifests


def test_removed_files_are_one_line_per_folder_past_three(capsys, tmp_path):
    """After a rebuild that no longer writes 27 card PNGs (renamed cards), the terminal shows one
    line for their folder, not 27 (a new designer's finding); three or fewer are named each."""
    gone = [f"cards/old-{n}.png" for n in range(27)] + ["tts/a.json", "tts/b.json"]
    print_files([], gone, tmp_path)
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"removed 27 files in {tmp_path / 'cards'}/ (written by an earlier build, not by this one)",
                     f"removed {tmp_path / 'tts' / 'a.json'} (written by an earlier build, not by this one)",
                     f"removed {tmp_path / 'tts' / 'b.json'} (written by an earlier build, not by this one)"]
