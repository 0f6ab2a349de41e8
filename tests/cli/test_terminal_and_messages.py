"""Terminal output and messages for hostile or broken input (issue 18): user text is shown, never
obeyed (control characters as U+XXXX, rich markup escaped); a cut-short PNG, an unreadable rules
file, over-long and NFC/NFD-duplicate card ids each get a message naming the file; a watch
survives any error."""
from __future__ import annotations

import threading

import yaml
from click.testing import CliRunner

from attack_game import attack_game
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
