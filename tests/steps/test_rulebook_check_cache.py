"""The rulebook check's findings kept on disk (cardgen.steps.rulebook_check_cache): a second check of
the same rules reads them; an edit to anything the check reads lays the rules out again and gives
what a fresh check gives; a card's caption (its name, by default) is keyed by whether there is one."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

import cardgen.rulebook.pdf as rulebook_pdf
from cardgen.check.print_setup import load_and_validate
from cardgen.core import disk_cache
from cardgen.fonts.fontset import fonts_for
from cardgen.steps import check_cache, rulebook_check_cache
from cardgen.steps.rulebook import _rulebook_parts, check_rulebook
from tests.conftest import needs_fonts, replace_in
from tests.rulebook.rules_game import rules_game
from tests.rulebook.test_rulebook_check import MIXED

pytestmark = needs_fonts
CARD = '![雀士](card:characters/c1-1 "26")'


def _png(px: int):
    def write(path: Path) -> None:
        Image.new("RGB", (px, px // 2), (200, 30, 30)).save(path, dpi=(72, 72))
    return write


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The mixed rules game (short last lines, a table, an image far wider than the page) with a
    card figure; the on-disk caches on, in a cache folder of this test."""
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return rules_game(tmp_path, MIXED + f"\n{CARD}\n", {"big.png": _png(3000)})


class Runs:
    """check_rulebook of a game folder, counting the times the rules were laid out."""

    def __init__(self, monkeypatch):
        self.laid_out = 0
        real = rulebook_pdf.check_story

        def counting(*a, **k):
            self.laid_out += 1
            return real(*a, **k)
        monkeypatch.setattr(rulebook_pdf, "check_story", counting)

    def __call__(self, game_dir: Path) -> list[str]:
        game, report = load_and_validate(game_dir)
        return [p.format() for p in check_rulebook(game, report, fonts_for(game))]


def _fresh(game_dir: Path, monkeypatch) -> list[str]:
    """The check with every cache off."""
    with monkeypatch.context() as m:
        m.setenv("CARDGEN_NO_CACHE", "1")
        game, report = load_and_validate(game_dir)
        return [p.format() for p in check_rulebook(game, report, fonts_for(game))]


def test_second_check_reads_the_stored_findings(game, monkeypatch):
    run = Runs(monkeypatch)
    first = run(game)
    assert run.laid_out == 1
    assert len(first) == 2  # the scaled-down image and a short last line (the others are broken again)
    assert run(game) == first
    assert run.laid_out == 1  # read, not laid out again
    assert first == _fresh(game, monkeypatch)


def test_nothing_is_read_or_written_with_the_cache_off(game, monkeypatch):
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    run = Runs(monkeypatch)
    run(game)
    run(game)
    assert run.laid_out == 2
    assert not Path(disk_cache.cache_dir(), rulebook_check_cache.KIND).exists()


def _edit(game: Path, what: str, monkeypatch, tmp_path: Path) -> None:
    if what == "rules-text":  # the body paragraph one character longer: no short last line
        replace_in(game / "rules" / "01.md", "ああああああああああああああPneumono", "あああああああああああああああPneumono")
    elif what == "design":  # wider margins: every line breaks elsewhere
        own = game / "templates" / "rulebook"
        own.mkdir(parents=True)
        text = (game.parent / "templates" / "rulebook" / "default.yaml").read_text(encoding="utf-8")
        (own / "default.yaml").write_text(text.replace("left: 14, right: 14", "left: 24, right: 24"),
                                          encoding="utf-8")
    elif what == "paper":
        replace_in(game / "game.yaml", "  paper: a5\n", "  paper: a4\n")
    elif what == "font":  # the body text in another face: other widths
        replace_in(game / "game.yaml", "\nprint:\n", "\nfonts:\n  serif: IPAexGothic\n\nprint:\n")
    elif what == "image":  # the same name, a picture small enough for the page
        _png(300)(game / "rules" / "big.png")
    elif what == "card-size":  # the figure's card is another size
        replace_in(game / "game.yaml", "card_size: poker", "card_size: bridge")
    elif what == "icons":  # one of the game's own icons declared (the check's canvas is given them)
        with (game / "game.yaml").open("a", encoding="utf-8") as fh:
            fh.write("icons:\n  coin: {file: rules/big.png}\n")
    elif what == "code":
        pkg = tmp_path / "pkg"
        pkg.mkdir()
        (pkg / "a.py").write_text("x = 1\n", encoding="utf-8")
        monkeypatch.setattr(check_cache, "_PKG", str(pkg))


@pytest.mark.parametrize("what", ["rules-text", "design", "paper", "font", "image", "card-size", "icons", "code"])
def test_an_edit_to_what_the_check_reads_lays_the_rules_out_again(game, monkeypatch, tmp_path, what):
    run = Runs(monkeypatch)
    before = run(game)
    _edit(game, what, monkeypatch, tmp_path)
    after = run(game)
    assert run.laid_out == 2
    assert after == _fresh(game, monkeypatch)
    if what in ("rules-text", "image", "design"):
        assert after != before  # the edit shows in the findings (the case can fail)


def test_a_card_caption_is_keyed_by_whether_there_is_one(game, monkeypatch):
    """Renaming a card (its name is the default caption) keeps the key, and a caption of any
    length gives the same findings from a fresh check; adding or dropping one changes the key."""
    def key():
        g, report = load_and_validate(game)
        fonts = fonts_for(g)
        blocks, design, info, page, _plan, _image = _rulebook_parts(g, report, fonts, None, [])
        return rulebook_check_cache.check_key(blocks, design, page, info, fonts)

    rules = game / "rules" / "01.md"
    first, findings = key(), _fresh(game, monkeypatch)
    replace_in(rules, "![雀士]", "![" + "とても長い説明文" * 30 + "]")
    assert key() == first
    assert _fresh(game, monkeypatch) == findings
    replace_in(rules, "![" + "とても長い説明文" * 30 + "]", "![]")
    assert key() != first


def test_a_damaged_entry_is_checked_again(game, monkeypatch):
    run = Runs(monkeypatch)
    first = run(game)
    for entry in Path(disk_cache.cache_dir(), rulebook_check_cache.KIND).iterdir():
        data = entry.read_bytes()
        entry.write_bytes(data[:-5] + b"xxxxx")
    assert run(game) == first
    assert run.laid_out == 2


def test_a_result_met_while_a_face_could_not_be_laid_out_is_not_kept(game, monkeypatch):
    """A figure's face that raised is not recorded, so the result (its problem) is not kept: once
    the face can be laid out, the check runs again (with the same key)."""
    from cardgen.core.errors import CardgenError, Problem

    broken = [True]
    runs: list = []

    def card_plan(component, card_id=None, side="front"):
        if broken[0]:
            raise CardgenError(Problem("t.yaml", 1, "x", "the face cannot be laid out"))
        return None

    def check(plan, _image):
        runs.append(1)
        try:
            plan("characters", "c1-1")
        except CardgenError as exc:
            return exc.problems
        return []

    def key():
        return b"one key"

    first = rulebook_check_cache.cached_check(key, card_plan, str, check)
    assert [p.message for p in first] == ["the face cannot be laid out"]
    broken[0] = False
    assert rulebook_check_cache.cached_check(key, card_plan, str, check) == []
    assert rulebook_check_cache.cached_check(key, card_plan, str, check) == []
    assert len(runs) == 2  # checked again once fixed, then read


@needs_fonts
def test_a_font_replaced_after_registration_is_keyed_as_it_was_measured(tmp_path):
    """A running `cardgen serve` keeps measuring with the font it registered after the file is
    replaced: the findings it stores are keyed by that font, so a fresh validate (which registers
    the new file) never reads them as its own (reviewer's finding, session 5)."""
    import os
    import shutil
    from types import SimpleNamespace

    from cardgen.fonts import registration
    from tests.conftest import IPAEX

    font = tmp_path / "body.ttf"
    shutil.copyfile(IPAEX, font)
    name, embedded = registration.register(font, 0)
    fonts = SimpleNamespace(faces={"body": SimpleNamespace(name=name, source=font, index=0, embedded=embedded)})
    first = rulebook_check_cache._font_stamps(fonts)
    replaced = tmp_path / "new.ttf"
    shutil.copyfile(IPAEX, replaced)
    os.replace(replaced, font)  # another file at the same path
    assert rulebook_check_cache._font_stamps(fonts) == first
    st = font.stat()
    assert first[0][-1] != [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


class Breaks:
    """The texts the check breaks into lines (kinsoku_split), from now on."""

    def __init__(self, monkeypatch):
        from cardgen.rulebook import kinsoku

        self.texts: list[str] = []
        real = kinsoku.kinsoku_split
        monkeypatch.setattr(kinsoku, "kinsoku_split",
                            lambda frags, *a, **k: self.texts.append("".join(f.text for f in frags)) or real(frags, *a, **k))


def _drop_book_entries() -> None:
    """Forget the whole-book findings (the per-block ones stay): the next check builds the story."""
    import shutil
    shutil.rmtree(Path(disk_cache.cache_dir(), rulebook_check_cache.KIND), ignore_errors=True)


def test_an_edit_to_one_paragraph_lays_out_that_paragraph_only(game, monkeypatch):
    run = Runs(monkeypatch)
    first = run(game)
    replace_in(game / "rules" / "01.md", "ああああああああああああああPneumono", "あああああああああああああああPneumono")
    breaks = Breaks(monkeypatch)
    after = run(game)
    assert run.laid_out == 2
    assert breaks.texts and all(t.startswith("あ" * 15) for t in breaks.texts)  # that paragraph, nothing else
    assert after == _fresh(game, monkeypatch) and after != first
    _drop_book_entries()
    breaks.texts.clear()
    assert run(game) == after and breaks.texts == []  # every block kept: nothing laid out


def test_a_moved_paragraph_is_laid_out_and_reported_at_its_new_line(game, monkeypatch):
    run = Runs(monkeypatch)
    first = run(game)
    replace_in(game / "rules" / "01.md", "本文です。\n", "本文です。\n\n足した段落です。\n")
    after = run(game)
    assert after == _fresh(game, monkeypatch)
    assert [p.split(":")[1] for p in after] == [str(int(p.split(":")[1]) + 2) for p in first]


@pytest.mark.parametrize("what", ["design", "paper", "font", "code"])
def test_what_every_block_depends_on_lays_out_every_block(game, monkeypatch, tmp_path, what):
    run = Runs(monkeypatch)
    run(game)
    _edit(game, what, monkeypatch, tmp_path)
    breaks = Breaks(monkeypatch)
    after = run(game)
    laid_out = len(breaks.texts)
    assert after == _fresh(game, monkeypatch)
    assert laid_out == len(breaks.texts) - laid_out  # as many as a check with no cache at all


@pytest.mark.parametrize("name", ["tenjanpai", "yajanki", "majan", "nko_mahjong"])
def test_bundled_games_by_block_find_what_the_whole_check_finds(name, tmp_path, monkeypatch):
    from tests.conftest import copy_game

    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    game = copy_game(tmp_path, name)
    run = Runs(monkeypatch)
    fresh = _fresh(game, monkeypatch)
    assert run(game) == fresh
    _drop_book_entries()
    breaks = Breaks(monkeypatch)
    assert run(game) == fresh
    assert breaks.texts == []


def test_an_icon_the_rules_name_renamed_in_game_yaml_is_an_error_not_a_stored_finding(game, monkeypatch):
    """The rules text uses the game's own icon `:coin:`: checked and stored. The icon renamed
    `coins` in game.yaml: the check raises the unknown-icon error at the rules line (nothing stored
    is replayed in its place); named back, the stored findings come back, as a fresh check gives."""
    from cardgen.core.errors import CardgenError

    with (game / "game.yaml").open("a", encoding="utf-8") as fh:
        fh.write("icons:\n  coin: {file: rules/big.png}\n")
    replace_in(game / "rules" / "01.md", "ああああああああああああああPneumono", ":coin:ああああああああああああPneumono")
    run = Runs(monkeypatch)
    first = run(game)
    assert run.laid_out == 1 and first == _fresh(game, monkeypatch)
    replace_in(game / "game.yaml", "  coin: {file", "  coins: {file")
    with pytest.raises(CardgenError) as exc:
        run(game)
    line = next(n for n, t in enumerate((game / "rules" / "01.md").read_text(encoding="utf-8").splitlines(), 1)
                if ":coin:" in t)
    assert [(p.file.endswith("rules/01.md"), p.line, p.code) for p in exc.value.problems] == [(True, line, "unknown-icon")]
    assert exc.value.problems[0].message.startswith("unknown icon 'coin' (did you mean 'coins'?); known icons: power, ")
    replace_in(game / "game.yaml", "  coins: {file", "  coin: {file")
    assert run(game) == first
