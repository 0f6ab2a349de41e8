"""The file boundary (issue 18): every path a game folder names — fonts, a fonts.yaml inside or
above it, card templates, the rules folder and its files, images, the rulebook page design, card
tables — must resolve (symlinks included) inside the game folder or the project's shared
templates/ and fonts/. Each case asserts the message, the exit code, and that the content of
the file outside never appears in any output or message."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from attack_game import BASE, attack_game
from cardgen.cli.commands import cli

SECRET = "TOP-SECRET-4711"


def _outside(tmp: Path) -> Path:
    """A folder outside the game with files holding SECRET (text, YAML, Markdown, 'font', EPS)."""
    d = tmp / "elsewhere"
    d.mkdir()
    (d / "secret.txt").write_text(f"{SECRET}\n", encoding="utf-8")
    (d / "x.ttf").write_bytes(f"{SECRET} not a font".encode())
    (d / "card.yaml").write_text(yaml.safe_dump({"elements": [{"kind": "text", "name": "t", "box": [6, 6, 50, 20],
                                                               "text": SECRET, "font": "body", "size": 10}]}),
                                 encoding="utf-8")
    (d / "rules.md").write_text(f"# {SECRET}\n", encoding="utf-8")
    (d / "design.yaml").write_text(f"{SECRET}: 1\n", encoding="utf-8")
    return d


def _run(tmp: Path, *args: str):
    out = tmp / "out"
    result = CliRunner().invoke(cli, [*args, "--out", str(out)] if args[0] != "validate" else list(args))
    every = result.output
    if out.is_dir():
        for p in out.rglob("*"):
            if p.is_file():
                every += p.read_bytes().decode("latin-1")
    return result, every


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDGEN_DEBUG", raising=False)
    return tmp_path


def test_game_fonts_yaml_path_outside_is_refused(here):
    """A fonts/fonts.yaml in the game folder is the game's: its paths stay inside it."""
    out = _outside(here)
    attack_game(here, fonts_yaml=f"body: ../../elsewhere/x.ttf\nheading: {out / 'secret.txt'}\n")
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1
    assert ("game/fonts/fonts.yaml:1: error: body → font file for role 'body' is outside the game folder: "
            "../../elsewhere/x.ttf") in result.output
    assert "game/fonts/fonts.yaml:2: error: heading → font file for role 'heading' is outside the game folder" \
        in result.output
    assert SECRET not in every


def test_fonts_yaml_above_the_game_is_not_the_project(here):
    """A folder sent along with a game, holding templates/ and fonts/ above it, is not trusted:
    its fonts.yaml is never read (the checkout's fonts are used), unless cardgen runs there."""
    out = _outside(here)
    evil = here / "parcel"
    (evil / "fonts").mkdir(parents=True)
    (evil / "templates" / "cards").mkdir(parents=True)
    (evil / "fonts" / "fonts.yaml").write_text(f"body: {out / 'x.ttf'}\n", encoding="utf-8")
    game = evil / "game"
    game.mkdir()
    for name in ("game.yaml", "cards.csv"):
        (game / name).write_bytes((BASE / name).read_bytes())
    (game / "templates" / "cards").mkdir(parents=True)
    (game / "templates" / "cards" / "card.yaml").write_bytes((BASE / "templates" / "cards" / "card.yaml").read_bytes())
    result, every = _run(here, "build", str(game))
    assert result.exit_code == 0, result.output
    assert SECRET not in every
    # named as the project, it is the user's own configuration: used (and here it fails, naming it)
    result = CliRunner().invoke(cli, ["--project", str(evil), "sheets", str(game), "--out", str(here / "o2")])
    assert result.exit_code == 1 and "fonts/fonts.yaml:1: error: body → font file for role 'body' is " \
        "unreadable or not supported: elsewhere/x.ttf: not a TrueType/OpenType font" in result.output
    assert SECRET not in result.output


def test_manifest_font_outside_is_refused(here):
    out = _outside(here)
    attack_game(here, manifest={"fonts": {"body": str(out / "x.ttf")}})
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1
    assert "game/game.yaml:22: error: fonts → body → font file for role 'body' is outside the game folder" \
        in result.output
    assert SECRET not in every


def test_non_font_inside_does_not_echo_its_bytes(here):
    game = attack_game(here, manifest={"fonts": {"body": "fonts/x.ttf"}})
    (game / "fonts" / "x.ttf").write_bytes(f"{SECRET} not a font".encode())
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1
    assert "font file for role 'body' is unreadable or not supported: game/fonts/x.ttf: not a TrueType/OpenType " \
        "font" in result.output
    assert SECRET[:4] not in every


def test_symlinked_card_template_is_refused(here):
    out = _outside(here)
    game = attack_game(here)
    t = game / "templates" / "cards" / "card.yaml"
    t.unlink()
    t.symlink_to(out / "card.yaml")
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1
    assert ("game/game.yaml:14: error: template → the card template 'game/templates/cards/card.yaml' leads "
            "outside the game folder") in result.output
    assert SECRET not in every
    result, every = _run(here, "validate", "game")
    assert result.exit_code == 1 and "leads outside the game folder" in result.output and SECRET not in every


def test_symlinked_rules_file_and_folder_are_refused(here):
    out = _outside(here)
    game = attack_game(here, rules_md="# 遊び方\n")
    (game / "rules" / "02.md").symlink_to(out / "rules.md")
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1
    assert "game/rules/02.md: error: rulebook → the rules file 'game/rules/02.md' leads outside the game folder" \
        in result.output
    assert SECRET not in every
    result, every = _run(here, "validate", "game")
    assert result.exit_code == 1 and "game/rules/02.md: error: rulebook → the rules file" in result.output
    os.unlink(game / "rules" / "02.md")
    (game / "rules" / "01.md").unlink()
    (game / "rules").rmdir()
    (game / "rules").symlink_to(out)
    result, every = _run(here, "rulebook", "game")
    assert result.exit_code == 1
    assert "game/rules: error: rulebook → the rules folder 'game/rules' leads outside the game folder" in result.output
    assert SECRET not in every


def test_rulebook_page_design_must_be_a_plain_name_inside(here):
    out = _outside(here)
    attack_game(here, rules_md="# 遊び方\n", manifest={"rulebook": {"template": str(out / "design")}})
    result, every = _run(here, "rulebook", "game")
    assert result.exit_code == 1
    assert "game/game.yaml:22: error: rulebook → template → the page design name" in result.output
    assert "is not a plain name" in result.output and SECRET not in every
    game = attack_game(here, rules_md="# 遊び方\n", manifest={"rulebook": {"template": "mine"}}, name="g2")
    (game / "templates" / "rulebook").mkdir()
    (game / "templates" / "rulebook" / "mine.yaml").symlink_to(out / "design.yaml")
    result, every = _run(here, "rulebook", "g2")
    assert result.exit_code == 1
    assert "rulebook → template → the page design" in result.output and "leads outside the game folder" \
        in result.output
    assert SECRET not in every


def test_eps_named_png_is_not_opened(here):
    """An EPS file named .png would go to Pillow's EPS plugin (Ghostscript): the format allow-list refuses it."""
    game = attack_game(here, template={"elements": [{"kind": "image", "name": "art", "box": [0, 0, 63, 88],
                                                     "file": "art.png"}]})
    (game / "art.png").write_bytes(b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n" + SECRET.encode())
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1
    assert "the image game/art.png cannot be read: it is not a PNG, JPEG, WebP or GIF file" in result.output
    assert SECRET not in every


def test_symlinked_art_and_table_are_refused(here):
    out = _outside(here)
    game = attack_game(here, template={"elements": [{"kind": "image", "name": "art", "box": [0, 0, 63, 88],
                                                     "file": "art.png"}]})
    (game / "art.png").symlink_to(out / "secret.txt")
    result, every = _run(here, "build", "game")
    assert result.exit_code == 1 and "leads outside the game folder" in result.output and SECRET not in every
    (game / "cards.csv").unlink()
    (game / "cards.csv").symlink_to(out / "secret.txt")
    result, every = _run(here, "validate", "game")
    assert result.exit_code == 1
    assert "the path 'cards.csv' leads outside the game folder (a link?)" in result.output and SECRET not in every


def test_a_pipe_is_not_read(here):
    """A named pipe as the card table would block the build for ever: refused as not a regular file."""
    game = attack_game(here)
    (game / "cards.csv").unlink()
    os.mkfifo(game / "cards.csv")
    result, _every = _run(here, "validate", "game")
    assert result.exit_code == 1
    assert "game/game.yaml:11: error: components → cards → cards → the path 'cards.csv' is not a regular file" \
        in result.output


@pytest.mark.parametrize("where", ["inside", "parent"])
def test_out_inside_the_game_folder_is_refused(here, where):
    game = attack_game(here)
    before = sorted(p.name for p in game.rglob("*"))
    out = game / "output" if where == "inside" else here  # the parent: OUT/<id> is the game folder itself
    if where == "parent":
        game = game.rename(here / "g")  # the game's id is g
    result = CliRunner().invoke(cli, ["build", str(game), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "--out: error: the output folder" in result.output and "the game folder" in result.output
    assert sorted(p.name for p in game.rglob("*")) == before


def test_a_name_spelt_otherwise_on_disk_is_found(tmp_path):
    """art/natsu3.png for art/Natsu3.png (letter case), ｎａｔｓｕ for natsu (width), Art/ for art/:
    the file as it is spelt on disk; None when the name exists or nothing is that close."""
    from cardgen.core.boundary import spelt_otherwise

    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "Natsu3.png").write_bytes(b"x")
    assert spelt_otherwise(tmp_path / "art" / "natsu3.png") == tmp_path / "art" / "Natsu3.png"
    assert spelt_otherwise(tmp_path / "Art" / "ｎａｔｓｕ3.PNG") == tmp_path / "art" / "Natsu3.png"
    assert spelt_otherwise(tmp_path / "art" / "Natsu3.png") is None
    assert spelt_otherwise(tmp_path / "art" / "natsu4.png") is None
    assert spelt_otherwise(tmp_path / "art") is None
