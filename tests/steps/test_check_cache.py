"""The key of a stored validate result (cardgen.steps.check_cache.inputs_key): every change to
what validate can read gives another key; nothing else does; odd folders are keyed safely."""
from __future__ import annotations

import hashlib
import os
import shutil
import threading
from pathlib import Path

import pytest

from cardgen.steps import check_cache
from tests.conftest import IPAEX, copy_game, needs_fonts


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A copy of 天雀牌 with its project (templates/, fonts/) under tmp_path, the working folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return copy_game(tmp_path)


def key(game: Path) -> bytes:
    k = check_cache.inputs_key(game)
    assert k is not None
    return k


def _same_size_edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text and len(old) == len(new)
    st = path.stat()
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same mtime: only the bytes differ


def test_same_inputs_same_key_and_a_touch_changes_nothing(game):
    first = key(game)
    os.utime(game / "battle.csv")  # a save without a change
    assert key(game) == first


def test_one_cell_edit_changes_the_key(game):
    first = key(game)
    _same_size_edit(game / "battle.csv", "b2-chi,2,0,1,0,8", "b2-chi,2,0,1,0,9")
    assert key(game) != first


@pytest.mark.parametrize("change", ["add", "remove", "rename", "empty-folder", "rules"])
def test_added_removed_or_renamed_file_changes_the_key(game, change):
    first = key(game)
    if change == "add":
        (game / "notes.txt").write_text("x", encoding="utf-8")
    elif change == "remove":
        (game / "variants" / "twos-no-icons.yaml").unlink()
    elif change == "rename":
        (game / "variants" / "twos-no-icons.yaml").rename(game / "variants" / "twos-no-icon.yaml")
    elif change == "empty-folder":
        (game / "art").mkdir()
    else:
        (game / "rules" / "04_more.md").write_text("# もっと\n", encoding="utf-8")
    assert key(game) != first


def test_shared_template_changes_the_key(game):
    first = key(game)
    _same_size_edit(game.parents[1] / "templates" / "cards" / "battle.yaml", "text", "TEXT")
    assert key(game) != first


@needs_fonts
@pytest.mark.parametrize("where", ["project", "game", "home"])
def test_font_change_changes_the_key(game, where):
    folder = {"project": game.parents[1] / "fonts", "game": game / "fonts",
              "home": game.parents[1] / "home" / ".fonts"}[where]
    folder.mkdir(parents=True, exist_ok=True)
    font = folder / "extra.ttf"
    shutil.copyfile(IPAEX, font)
    with_font = key(game)
    st = font.stat()
    os.utime(font, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a font over BIG is keyed by its stamp
    assert key(game) != with_font
    font.unlink()
    assert key(game) != with_font


@needs_fonts
def test_font_linked_into_the_project_fonts_folder_is_keyed_by_its_target(game, tmp_path):
    elsewhere = tmp_path / "elsewhere.ttf"
    shutil.copyfile(IPAEX, elsewhere)
    (game.parents[1] / "fonts" / "linked.ttf").symlink_to(elsewhere)
    first = key(game)
    st = elsewhere.stat()
    os.utime(elsewhere, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert key(game) != first


@needs_fonts
def test_font_named_by_path_in_fonts_yaml_is_keyed(game, tmp_path):
    """The project's fonts.yaml may name a font file anywhere (it is trusted): that file is keyed too."""
    elsewhere = tmp_path / "far away" / "My Font.ttf"
    elsewhere.parent.mkdir()
    shutil.copyfile(IPAEX, elsewhere)
    cfg = game.parents[1] / "fonts" / "fonts.yaml"
    cfg.write_text(f"body: {elsewhere}\nserif: {{file: '{elsewhere}', index: 0}}\n", encoding="utf-8")
    first = key(game)
    st = elsewhere.stat()
    os.utime(elsewhere, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert key(game) != first


def test_fonts_yaml_change_changes_the_key(game):
    first = key(game)
    cfg = game.parents[1] / "fonts" / "fonts.yaml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + "\n# x\n", encoding="utf-8")
    assert key(game) != first


def test_code_change_changes_the_key(game, tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(check_cache, "_PKG", str(pkg))
    first = key(game)
    (pkg / "__pycache__" / "a.cpython.pyc").write_bytes(b"compiled")  # not code of its own
    assert key(game) == first
    (pkg / "a.py").write_text("x = 2\n", encoding="utf-8")
    assert key(game) != first


@pytest.mark.parametrize("change", ["cwd", "project-env", "as-typed"])
def test_where_it_runs_changes_the_key(game, monkeypatch, change):
    first = key(game)
    if change == "cwd":
        monkeypatch.chdir(game)
    elif change == "project-env":
        monkeypatch.setenv("CARDGEN_PROJECT", str(game.parents[1]))
    else:  # messages name files as the folder was typed
        assert check_cache.inputs_key(os.path.relpath(game)) != first
        return
    assert key(game) != first


def test_fifo_and_link_loop_are_keyed_without_reading_them(game):
    os.mkfifo(game / "pipe")  # opening it would block for ever
    (game / "loop").symlink_to(game, target_is_directory=True)
    (game / "outside.csv").symlink_to("/etc/hostname")
    done: list[bytes | None] = []
    t = threading.Thread(target=lambda: done.append(check_cache.inputs_key(game)), daemon=True)
    t.start()
    t.join(10)
    assert done and done[0] is not None
    (game / "outside.csv").unlink()
    (game / "outside.csv").symlink_to("/etc/passwd")  # another target: another key
    assert key(game) != done[0]


def test_a_project_fonts_yaml_that_is_a_pipe_is_not_read(game):
    """The project's fonts.yaml (a trusted one, read for the font paths it names) as a named pipe:
    keyed without opening it for good (the check then refuses it as not a regular file)."""
    cfg = game.parents[1] / "fonts" / "fonts.yaml"
    cfg.unlink()
    os.mkfifo(cfg)
    done: list[bytes | None] = []
    t = threading.Thread(target=lambda: done.append(check_cache.inputs_key(game)), daemon=True)
    t.start()
    t.join(10)
    assert done and done[0] is not None


def test_too_many_files_is_not_cached(game, monkeypatch):
    monkeypatch.setattr(check_cache, "MAX_FILES", 5)
    assert check_cache.inputs_key(game) is None


def test_too_many_bytes_is_not_cached(game, monkeypatch):
    monkeypatch.setattr(check_cache, "MAX_BYTES", 1000)
    assert check_cache.inputs_key(game) is None


def test_store_and_lookup(game, monkeypatch):
    monkeypatch.delenv("CARDGEN_NO_CACHE")
    check_cache.store(game, check_cache.inputs_state(game), [(True, "a: warning: x"), (False, "g: 0 error(s)")], "{}", 0)
    assert check_cache.lookup(game) == {"text": [[True, "a: warning: x"], [False, "g: 0 error(s)"]], "json": "{}",
                                        "code": 0}
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert check_cache.lookup(game) is None


def test_nothing_is_stored_when_an_input_changed_during_the_check(game, monkeypatch):
    monkeypatch.delenv("CARDGEN_NO_CACHE")
    state = check_cache.inputs_state(game)
    (game / "notes.txt").write_text("written while validate ran", encoding="utf-8")
    check_cache.store(game, state, [(False, "old result")], "{}", 0)
    (game / "notes.txt").unlink()
    assert check_cache.lookup(game) is None


def test_an_edit_put_back_during_the_check_is_not_stored(game, monkeypatch):
    """A file edited and restored (same bytes, same modification time) while the check ran: the
    result may be the edited file's, so it is not kept for the original (tester's race, session 5)."""
    monkeypatch.delenv("CARDGEN_NO_CACHE")
    csv = game / "battle.csv"
    before, st = csv.read_bytes(), csv.stat()
    state = check_cache.inputs_state(game)
    csv.write_bytes(before + b"x")  # the check would read this
    csv.write_bytes(before)
    os.utime(csv, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert check_cache.inputs_key(game) == state[0]  # the same bytes: the same key
    check_cache.store(game, state, [(False, "checked against the edit")], "{}", 0)
    assert check_cache.lookup(game) is None


@pytest.mark.parametrize("value", ["/tmp/Fonts, Inc/Body.ttf", "/tmp/Ann's fonts/Body.ttf", "/tmp/extfonts/bodyfont"])
def test_a_fonts_yaml_path_of_any_spelling_is_keyed(game, tmp_path, value):
    """A font path in fonts.yaml with a comma, an apostrophe or no suffix: swapping that file for
    another changes the key (tester's finding, session 5; the old scan saw only simple names)."""
    font = tmp_path / value.lstrip("/")
    font.parent.mkdir(parents=True)
    font.write_bytes(b"first font")
    cfg = game.parents[1] / "fonts" / "fonts.yaml"
    quoted = str(font).replace("'", "''")  # YAML's single-quoted form
    cfg.write_text(f"body: '{quoted}'\nserif: {{file: '{quoted}', index: 0}}\n", encoding="utf-8")
    first = key(game)
    font.write_bytes(b"other font")  # the same size
    assert key(game) != first


def test_a_file_swapped_for_a_pipe_is_not_waited_on(game):
    """Between the look at an entry and its reading, a regular file replaced by a pipe: keyed by kind."""
    pipe = game / "pipe"
    os.mkfifo(pipe)
    walk = check_cache._Walk(hashlib.sha256())
    regular = (game / "battle.csv").stat()
    done = []
    t = threading.Thread(target=lambda: done.append(walk.content(str(pipe), regular)), daemon=True)
    t.start()
    t.join(10)
    assert done == [None]


def test_the_run_after_a_missed_lookup_starts_from_its_state(game, monkeypatch):
    """The fast path's lookup hashed every file already; the check's before-state is that one (taken
    earlier still), once; an edit made since is seen by store as any other."""
    monkeypatch.delenv("CARDGEN_NO_CACHE")
    monkeypatch.setattr(check_cache, "_MISSED", {})
    assert check_cache.lookup(game) is None
    assert check_cache.state_before(game) == check_cache.inputs_state(game) and not check_cache._MISSED  # not kept
    assert check_cache.lookup(str(game) + "/", keep_state=True) is None
    state = check_cache.inputs_state(game)
    real = check_cache._walk
    monkeypatch.setattr(check_cache, "_walk", lambda d: pytest.fail("hashed again"))
    assert check_cache.state_before(game) == state
    monkeypatch.setattr(check_cache, "_walk", real)
    assert check_cache.state_before(game) == state  # taken now: the lookup's is used once
    check_cache.store(game, state, [(False, "ok")], "{}", 0)
    assert check_cache.lookup(game)["text"] == [[False, "ok"]]


def test_an_edit_between_the_missed_lookup_and_the_run_is_not_stored(game, monkeypatch):
    monkeypatch.delenv("CARDGEN_NO_CACHE")
    monkeypatch.setattr(check_cache, "_MISSED", {})
    csv = game / "battle.csv"
    assert check_cache.lookup(game, keep_state=True) is None
    csv.write_bytes(csv.read_bytes() + b"\n")  # saved by the designer while validate started
    state = check_cache.state_before(game)  # the lookup's: before the edit
    check_cache.store(game, state, [(False, "checked against the edit")], "{}", 0)
    assert check_cache.lookup(game) is None
