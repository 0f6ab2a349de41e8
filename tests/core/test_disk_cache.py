"""cardgen's on-disk cache entries (cardgen.core.disk_cache): read back only when whole and for
the same key, pruned to the newest, and a cache folder that cannot be written costs nothing."""
from __future__ import annotations

import os

import pytest

from cardgen.core import disk_cache


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
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
