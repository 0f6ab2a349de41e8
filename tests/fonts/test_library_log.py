"""A hostile font collection (tests/fixtures/bad/file-font-collection-million-faces for the header):
fontTools' per-record warnings while its faces are read are counted under the file, not printed,
and become one warning finding."""
from __future__ import annotations

import struct
from pathlib import Path

import pytest

from cardgen.fonts import library_log
from cardgen.fonts.index import MAX_FACES, collection_size, index_files

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")


def _junk_collection(path: Path, faces: int) -> Path:
    """A collection whose first face is a real font and the others point into its middle (garbage tables)."""
    font = DEJAVU.read_bytes()
    start = 12 + 4 * faces
    offsets = [start] + [start + 1000 + 16 * i for i in range(faces - 1)]
    path.write_bytes(b"ttcf" + struct.pack(">HHI", 1, 0, faces) + b"".join(struct.pack(">I", o) for o in offsets) + font)
    return path


def test_a_header_claiming_more_faces_than_allowed_or_stored_is_refused(tmp_path):
    many = tmp_path / "many.ttc"
    many.write_bytes(b"ttcf" + struct.pack(">HHI", 1, 0, 1_000_000) + b"\0" * 64)
    with pytest.raises(ValueError, match="claims 1,000,000 faces, more than the 256 a font collection may hold"):
        collection_size(many)
    short = tmp_path / "short.ttc"
    short.write_bytes(b"ttcf" + struct.pack(">HHI", 1, 0, MAX_FACES) + b"\0" * 64)
    with pytest.raises(ValueError, match="claims 256 faces, more than the file has room for"):
        collection_size(short)


@pytest.mark.skipif(not DEJAVU.is_file(), reason="DejaVu Sans Mono not installed")
def test_fonttools_warnings_are_counted_not_printed(tmp_path, capfd):
    junk = _junk_collection(tmp_path / "junk.ttc", 200)
    index_files([junk])
    out, err = capfd.readouterr()
    assert "malformed" not in out + err and len(out + err) < 200, (out + err)[:300]
    logged = {p: (n, first) for p, n, first in library_log.library_warnings()}
    assert str(junk) in logged and logged[str(junk)][0] > 1000, logged


@pytest.mark.skipif(not DEJAVU.is_file(), reason="DejaVu Sans Mono not installed")
@pytest.mark.parametrize("fs_type, why", [(0x0002, "forbids embedding (OS/2 fsType: restricted licence)"),
                                          (0x0200, "allows only bitmap embedding (OS/2 fsType bit 9)")])
def test_a_font_whose_licence_bits_forbid_embedding_gives_a_warning(tmp_path, fs_type, why):
    """fsType restricted or bitmap-only: one font-licence warning naming the role (it was embedded
    silently); the shop step makes the same check an error for shop outputs."""
    import shutil

    from fontTools.ttLib import TTFont

    from cardgen.data.game import load_game
    from cardgen.fonts.fontset import fonts_for

    game = tmp_path / "g"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "bad" / "_base", game)
    font = TTFont(str(DEJAVU))
    font["OS/2"].fsType = fs_type
    font.save(str(game / "fonts" / "locked.ttf"))
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("fonts:\n  number: {file: fonts/locked.ttf}\n")
    problems = [p for p in fonts_for(load_game(game)).problems if p.code == "font-licence"]
    assert [p.message for p in problems] == [f"font for role 'number' (locked.ttf) {why}; cardgen embeds a subset "
                                             "of it in every PDF"]
    assert problems[0].severity == "warning" and problems[0].line == 21  # fonts: → number: in game.yaml
