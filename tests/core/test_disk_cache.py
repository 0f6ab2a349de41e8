"""cardgen's on-disk cache entries (cardgen.core.disk_cache): read back only when whole and for
the same key, pruned to the newest, and a cache folder that cannot be written costs nothing."""
from __future__ import annotations

import os

import pytest

from cardgen.core import disk_cache


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)  # the suite turns it off (tests/conftest.py)
    return tmp_path / "c" / "cardgen"


def test_entry_reads_back_for_its_key_only(cache):
    disk_cache.write("k", b"key-1", b"payload")
    assert disk_cache.read("k", b"key-1") == b"payload"
    assert disk_cache.read("k", b"key-2") is None
    assert disk_cache.read("other", b"key-1") is None
    assert os.path.dirname(disk_cache.entry_path("k", b"key-1")) == str(cache / "k")


def test_an_entry_filed_under_another_key_is_refused(cache):
    disk_cache.write("k", b"key-1", b"payload")
    os.replace(disk_cache.entry_path("k", b"key-1"), disk_cache.entry_path("k", b"key-2"))
    assert disk_cache.read("k", b"key-2") is None


def test_oldest_entries_are_pruned(cache):
    for i in range(5):
        disk_cache.write("k", b"%d" % i, b"x", keep=3)
        path = disk_cache.entry_path("k", b"%d" % i)
        os.utime(path, ns=(i * 10**9, i * 10**9))
    assert [disk_cache.read("k", b"%d" % i) for i in range(5)] == [None, None, b"x", b"x", b"x"]


def test_unwritable_cache_folder_is_ignored(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    disk_cache.write("k", b"key", b"payload")  # no error
    assert disk_cache.read("k", b"key") is None


@pytest.mark.parametrize("kind", ["link to /dev/zero", "pipe", "sparse 40 MB file"])
def test_an_entry_that_is_no_plain_small_file_is_not_read(cache, kind):
    """Garbage in the cache folder costs nothing: a link to an endless device or a pipe in an
    entry's place once hung validate, a sparse 3 GB file was read whole (found by a tester)."""
    path = disk_cache.entry_path("k", b"key")
    os.makedirs(os.path.dirname(path))
    if kind.startswith("link"):
        os.symlink("/dev/zero", path)
    elif kind == "pipe":
        os.mkfifo(path)
    else:
        with open(path, "wb") as fh:
            fh.truncate(40 << 20)
    assert disk_cache.read("k", b"key") is None


def test_cache_off_reads_and_writes_nothing(cache, monkeypatch):
    disk_cache.write("k", b"key", b"payload")
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert disk_cache.read("k", b"key") is None
    disk_cache.write("k", b"other", b"payload")
    assert not os.path.exists(disk_cache.entry_path("k", b"other"))
