"""The on-disk cache of reportlab's font parse (cardgen.fonts.parsed_cache): a font read back from
it is the font a fresh parse gives, a PDF drawn with it embeds the right glyphs, and a changed,
corrupt or foreign entry is never used."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from cardgen.core import disk_cache
from cardgen.fonts import parsed_cache
from cardgen.fonts.parsed_cache import CachedFace, load_ttfont
from tests.conftest import IPAEX, needs_fonts
from tests.pdfread import page_texts

pytestmark = needs_fonts
TEXT = "聴牌速度を競う。ロン！ ABC 123"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder of this test, the cache on (the suite turns it off: tests/conftest.py)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    return tmp_path / "cache" / "cardgen" / parsed_cache.KIND


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bin")) if folder.is_dir() else []


def test_second_load_is_the_same_font_as_a_fresh_parse(cache):
    first = load_ttfont("t1", str(IPAEX))
    assert type(first.face) is not CachedFace and len(_entries(cache)) == 1
    second = load_ttfont("t2", str(IPAEX))
    assert type(second.face) is CachedFace
    fresh = TTFont("t3", str(IPAEX))
    assert second.face.glyphToChar == fresh.face.glyphToChar  # read on first use
    skip = {"_ttf_data", "_pdfScale"}
    assert {k: v for k, v in vars(second.face).items() if k not in skip} == \
        {k: v for k, v in vars(fresh.face).items() if k not in skip}
    assert second.face.name.ustr == fresh.face.name.ustr == "IPAexGothic"
    assert set(vars(second)) == set(vars(fresh))
    assert second.pdfScale(1234) == fresh.pdfScale(1234)
    assert second.stringWidth(TEXT, 9.5) == pytest.approx(fresh.stringWidth(TEXT, 9.5), abs=1e-9)
    assert "_ttf_data" not in vars(second.face)  # not read until a PDF embeds it
    assert second.face._ttf_data == IPAEX.read_bytes()


def test_read_all_reads_what_embedding_would_read_on_first_use(cache):
    # cardgen serve reads them once in the server (fonts.registration.preload), so the children it
    # forks for each save do not read the file and the glyph tables again
    load_ttfont("r1", str(IPAEX))
    font = load_ttfont("r2", str(IPAEX))
    assert type(font.face) is CachedFace and "_lazy" in vars(font.face) and "_ttf_data" not in vars(font.face)
    parsed_cache.read_all(font.face)
    assert "_lazy" not in vars(font.face) and vars(font.face)["_ttf_data"] == IPAEX.read_bytes()
    assert font.face.glyphToChar == TTFont("r3", str(IPAEX)).face.glyphToChar


def test_a_pdf_drawn_with_a_cached_font_embeds_its_glyphs(cache, tmp_path):
    load_ttfont("warm", str(IPAEX))
    font = load_ttfont("CachedIPAexG", str(IPAEX))
    assert type(font.face) is CachedFace
    pdfmetrics.registerFont(font)
    out = tmp_path / "t.pdf"
    c = canvas.Canvas(str(out))
    c.setFont("CachedIPAexG", 12)
    c.drawString(72, 720, TEXT)
    c.save()
    assert page_texts(out)[0].strip() == TEXT


def test_changed_font_file_is_parsed_again(cache, tmp_path):
    font = tmp_path / "f.ttf"
    shutil.copyfile(IPAEX, font)
    load_ttfont("a", str(font))
    assert type(load_ttfont("b", str(font)).face) is CachedFace
    st = font.stat()
    os.utime(font, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # the same bytes, touched
    assert type(load_ttfont("c", str(font)).face) is not CachedFace
    assert len(_entries(cache)) == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign"])
def test_corrupt_or_foreign_entry_is_ignored(cache, damage):
    load_ttfont("a", str(IPAEX))
    (entry,) = _entries(cache)
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        entry.write_bytes(data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])
    else:  # another format version's entry
        entry.write_bytes(b"cardgen-c00\n" + data[len(disk_cache.MAGIC):])
    again = load_ttfont("b", str(IPAEX))
    assert type(again.face) is not CachedFace
    assert again.stringWidth(TEXT, 10) == TTFont("c", str(IPAEX)).stringWidth(TEXT, 10)
    assert type(load_ttfont("d", str(IPAEX)).face) is CachedFace  # rewritten whole


def test_an_entry_of_another_shape_is_ignored(cache):
    key = parsed_cache._key(str(IPAEX), 0)
    disk_cache.write(parsed_cache.KIND, key, b"\x00not marshal")
    assert type(load_ttfont("a", str(IPAEX)).face) is not CachedFace


def test_a_font_named_relative_to_another_working_folder_is_read_from_this_one(cache, tmp_path, monkeypatch):
    """The same font file named from two working folders (``cardgen validate mygame`` from the
    parent, then ``cardgen validate .`` inside it): the second run reads the font's bytes by its
    own name of the file, not by the first run's relative one (found by a new user)."""
    (tmp_path / "game" / "fonts").mkdir(parents=True)
    shutil.copy(IPAEX, tmp_path / "game" / "fonts" / "my.ttf")
    monkeypatch.chdir(tmp_path)
    load_ttfont("first", os.path.join("game", "fonts", "my.ttf"))
    monkeypatch.chdir(tmp_path / "game")
    font = load_ttfont("second", os.path.join("fonts", "my.ttf"))
    assert type(font.face) is CachedFace
    assert font.face._ttf_data == IPAEX.read_bytes()


def test_no_cache_reads_and_writes_no_entry(cache, monkeypatch):
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert type(load_ttfont("t1", str(IPAEX)).face) is not CachedFace
    assert _entries(cache) == []
    monkeypatch.delenv("CARDGEN_NO_CACHE")
    load_ttfont("t2", str(IPAEX))
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    assert len(_entries(cache)) == 1 and type(load_ttfont("t3", str(IPAEX)).face) is not CachedFace
