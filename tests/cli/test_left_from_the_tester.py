"""What the fresh-clone tester of session 8 found and was left (issue 31): simulate's option
values are usage errors (exit 2) like every other command's, a game without rules/ says it has
no rulebook, TTS names and descriptions are plain text. (The messages with a file and line —
a misspelt field in rules text, `player:` for `players:`, a renamed column, `print: {shop: popl}`
— are bad-input corpus cases: rules-unknown-field-misspelt, model-required-key-misspelt,
csv-renamed-declared-column, model-print-shop-unknown-preset.)"""
from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from cardgen.api import build_game
from cardgen.cli.commands import cli
from cardgen.steps.export_options import ExportOptions
from tests.conftest import ROOT, needs_fonts, replace_in
from tests.render.test_game_icons import make_game

BASE = ROOT / "tests" / "fixtures" / "bad" / "_base"


@pytest.mark.parametrize("game, args, words", [
    ("tenjanpai", ["--option", "facedown_call=1"], "the model has no option 'facedown_call'; "
                                                   "did you mean 'facedown_calls'?"),
    ("tenjanpai", ["--policy", "gredy"], "cannot read the policy 'gredy'; did you mean 'greedy'?"),
    ("tenjanpai", ["--players", "9"], "has no setup for 9 players"),
    ("nko_mahjong", ["--option", "nosuch=1"], "the model has no option 'nosuch'"),
    ("nko_mahjong", ["--policy", "greedy,random"], "cannot read the policy 'greedy,random'"),
])
def test_simulate_option_values_are_usage_errors(tmp_path, game, args, words):
    res = CliRunner().invoke(cli, ["simulate", str(ROOT / "card_data" / game), "-n", "10", "--no-pdf",
                                   "--out", str(tmp_path / "out"), *args])
    assert res.exit_code == 2, res.output
    assert words in res.output and f"{args[0]}: error:" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "out").exists()


@needs_fonts
def test_a_game_without_rules_says_it_has_no_rulebook(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    res = build_game(game, tmp_path / "out", steps=("sheets", "rulebook"), exports=ExportOptions(jobs=1))
    [note] = [n for n in res.notes if "rulebook" in n]
    assert note.startswith("no rulebook: the game has no rules/ folder") and "rules/rules.md" in note
    assert "cardgen new" in note and not res.report.warnings  # a legitimate choice: a note, not a warning
    (game / "rules").mkdir()
    (game / "rules" / "rules.md").write_text("# 遊び方\n\n山札を切る。\n", encoding="utf-8")
    again = build_game(game, tmp_path / "out", steps=("sheets", "rulebook"), exports=ExportOptions(jobs=1))
    assert not [n for n in again.notes if "no rulebook" in n] and (again.out_dir / "rulebook.pdf").is_file()


@needs_fonts
def test_build_prints_the_note(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    res = CliRunner().invoke(cli, ["build", str(game), "--out", str(tmp_path / "out"), "-q", "-j", "1"])
    assert res.exit_code == 0, res.output
    assert "note: no rulebook: the game has no rules/ folder" in res.output


@needs_fonts
def test_tts_names_and_descriptions_are_plain_text(tmp_path):
    game = make_game(tmp_path, text=":coin:を1個得る。")
    replace_in(game / "cards.csv", "c2,2,チーを1個得る。", "c2,2,:moon::pon:か:chi_off:。:nosuch:")
    replace_in(game / "game.yaml", "    template: card\n", "    template: card\n    tts: {name: text, description: [text]}\n")
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("terms:\n  coin: 金貨\n")
    res = build_game(game, tmp_path / "out", steps=("tts",), exports=ExportOptions(jobs=1), force=True)
    save = json.loads((res.out_dir / "tts" / "g.json").read_text(encoding="utf-8"))
    cards = [c for o in save["ObjectStates"] for c in o["ContainedObjects"]]
    texts = {(c["Nickname"], c["Description"]) for c in cards}
    # the game's term, a game icon's label, a call's kana, a call not available; an unknown name as typed
    assert texts == {("金貨を1個得る。", "金貨を1個得る。"), ("月ポンかチー不可。:nosuch:", "月ポンかチー不可。:nosuch:")}


@pytest.mark.parametrize("args, where", [
    (["--compare-option", "nosuch=1"], "--compare-option"),
    (["--compare-option", "twos_dwn=1"], "--compare-option"),
])
def test_an_unknown_compare_option_is_a_usage_error_of_that_option(tmp_path, args, where):
    res = CliRunner().invoke(cli, ["simulate", str(ROOT / "card_data" / "tenjanpai"), "-n", "10", "--no-pdf",
                                   "--out", str(tmp_path / "out"), *args])
    assert res.exit_code == 2, res.output
    assert f"{where}: error:" in res.output and "the model has no option" in res.output
    assert "--option: error" not in res.output and not (tmp_path / "out").exists()
