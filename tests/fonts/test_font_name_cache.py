"""The font name index is kept on disk between runs, keyed by each file's path, size and
modification time: a second run reads no font it has seen, a changed font is read again, and an
unwritable cache folder only costs the time."""
from __future__ import annotations

import os
import shutil

import pytest

from cardgen.fonts import index
from tests.conftest import needs_fonts

pytestmark = needs_fonts

IPAEX = "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"


@pytest.fixture
def fonts(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    folder = tmp_path / "fonts"
    folder.mkdir()
    shutil.copy(IPAEX, folder / "a.ttf")
    (folder / "broken.ttf").write_bytes(b"not a font")
    return folder


def _no_reading(monkeypatch):
    def refuse(path, i):
        raise AssertionError(f"read {path}")
    monkeypatch.setattr(index, "_face_names", refuse)


def test_second_index_reads_no_font(fonts, monkeypatch, tmp_path):
    first = index.folder_index(fonts)[0]
    assert index.norm("IPAexゴシック") in first
    assert (tmp_path / "cache" / "cardgen" / index.NAME_CACHE).is_file()
    _no_reading(monkeypatch)
    assert index.folder_index(fonts)[0] == first  # the broken file is remembered as unreadable too


def test_a_changed_font_is_read_again(fonts, monkeypatch):
    index.folder_index(fonts)
    st = os.stat(fonts / "a.ttf")
    os.utime(fonts / "a.ttf", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    read = []
    real = index._face_names
    monkeypatch.setattr(index, "_face_names", lambda p, i: read.append(p.name) or real(p, i))
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]
    assert read == ["a.ttf"]


def test_unwritable_cache_folder_still_indexes(fonts, monkeypatch, tmp_path):
    (tmp_path / "blocked").write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "blocked"))
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]


def test_a_damaged_cache_file_is_ignored(fonts, tmp_path):
    cache = tmp_path / "cache" / "cardgen" / index.NAME_CACHE
    cache.parent.mkdir(parents=True)
    cache.write_text('{"' + str(fonts / "a.ttf") + '": [1, 2, [{"4": 5}]], "x": ', encoding="utf-8")
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]


def test_a_cache_entry_of_the_wrong_shape_is_read_again(fonts, tmp_path):
    index.folder_index(fonts)
    cache = tmp_path / "cache" / "cardgen" / index.NAME_CACHE
    import json
    data = json.loads(cache.read_text(encoding="utf-8"))
    data[str(fonts / "a.ttf")][1] = [{"4": [5]}]
    cache.write_text(json.dumps(data), encoding="utf-8")
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]


def test_a_font_moved_in_with_the_same_size_and_time_is_read_again(fonts, monkeypatch):
    """A font replaced by another file of the same size whose modification time was put back
    (`mv` of a `touch -d` copy): its change time and inode differ, so its names are read again
    (tester's finding, session 5: the stamp was size and modification time only)."""
    index.folder_index(fonts)
    font = fonts / "a.ttf"
    st = font.stat()
    other = fonts.parent / "other.ttf"
    other.write_bytes(font.read_bytes())
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, font)
    read = []
    real = index._face_names
    monkeypatch.setattr(index, "_face_names", lambda path, i: read.append(path) or real(path, i))
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]
    assert read == [font]


@pytest.mark.parametrize("kind", ["link to /dev/zero", "pipe"])
def test_a_cache_file_that_is_no_plain_file_is_not_read(fonts, tmp_path, kind):
    """The name cache is read like every cache entry (core/disk_cache.read_regular): a link to an
    endless device or a pipe in its place once hung the font set-up (found in review)."""
    cache = tmp_path / "cache" / "cardgen" / index.NAME_CACHE
    cache.parent.mkdir(parents=True)
    if kind.startswith("link"):
        os.symlink("/dev/zero", cache)
    else:
        os.mkfifo(cache)
    assert index.norm("IPAexGothic") in index.folder_index(fonts)[0]


def test_a_font_name_that_is_not_utf8_is_cached_losslessly(fonts, monkeypatch, tmp_path):
    """A font file whose name is not valid UTF-8 (Latin-1 é: Python holds it as a lone surrogate)
    is indexed and stored in the cache (ASCII JSON escapes it), and the next run finds it there."""
    odd = os.fsdecode(bytes(fonts) + b"/caf\xe9.ttf")
    shutil.copy(IPAEX, odd)
    first = index.folder_index(fonts)[0]
    assert any(h.path.name == "caf\udce9.ttf" for h in first[index.norm("caf\udce9")])
    cache_folder = tmp_path / "cache" / "cardgen"
    assert [p.name for p in cache_folder.iterdir()] == [index.NAME_CACHE]  # no .tmp left
    assert odd in index._read_cache(cache_folder / index.NAME_CACHE)
    _no_reading(monkeypatch)
    assert index.folder_index(fonts)[0] == first


def test_a_failed_cache_write_leaves_no_temporary_file(fonts, monkeypatch, tmp_path):
    def fail(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(index.os, "replace", fail)
    assert index.norm("IPAexゴシック") in index.folder_index(fonts)[0]
    assert list((tmp_path / "cache" / "cardgen").iterdir()) == []
