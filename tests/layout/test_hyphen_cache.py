"""The on-disk cache of pyphen's dictionary parse (cardgen.layout.hyphen_cache): a dictionary read
back from it hyphenates as a fresh parse does, a changed dictionary file is parsed again, and the
cache is not used when it is off."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyphen
import pytest

from cardgen.layout import hyphen_cache

WORDS = ["hyphenation", "composition", "tournament", "discard", "simultaneously"]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder of this test, the cache on (the suite turns it off: tests/conftest.py),
    and pyphen's in-process cache left as it was."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(pyphen, "hdcache", {})
    return tmp_path / "cache" / "cardgen" / hyphen_cache.KIND


def _dictionary(tmp_path: Path) -> Path:
    path = tmp_path / "hyph_en_US.dic"
    shutil.copyfile(pyphen.LANGUAGES["en_US"], path)
    return path


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bin")) if folder.is_dir() else []


def test_a_parse_read_back_hyphenates_as_a_fresh_one(cache, tmp_path):
    path = _dictionary(tmp_path)
    hyphen_cache.prime(path)
    assert len(_entries(cache)) == 1
    fresh = pyphen.hdcache.pop(path)
    hyphen_cache.prime(path)  # now from the disk
    back = pyphen.hdcache[path]
    assert back is not fresh and back.patterns == fresh.patterns and back.maxlen == fresh.maxlen
    for word in WORDS:
        assert pyphen.Pyphen(filename=path).inserted(word) == pyphen.Pyphen(filename=path, cache=False).inserted(word)


def test_a_changed_dictionary_is_parsed_again(cache, tmp_path):
    path = _dictionary(tmp_path)
    hyphen_cache.prime(path)
    pyphen.hdcache.clear()
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n1x1y1z1\n", encoding="utf-8")  # a new pattern
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))  # the time set back: the change time still differs
    hyphen_cache.prime(path)
    assert "xyz" in pyphen.hdcache[path].patterns and len(_entries(cache)) == 2


def test_nothing_is_stored_when_the_cache_is_off(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    path = _dictionary(tmp_path)
    hyphen_cache.prime(path)
    assert path in pyphen.hdcache and _entries(cache) == []
