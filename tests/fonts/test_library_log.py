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
