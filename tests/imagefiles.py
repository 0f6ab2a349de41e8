"""Image files as designers have them, written byte by byte for the colour tests: 16-bit PNGs,
an ICC v2 matrix/TRC profile (Adobe RGB (1998) colorants), CMYK JPEGs with and without Adobe's
APP14 marker. Nothing here uses cardgen."""
from __future__ import annotations

import struct
import zlib

from PIL import Image

#: Adobe RGB (1998): D50-adapted colorants (XYZ) and the encoding gamma 563/256, as in Adobe's
#: published profile (Adobe RGB (1998) Color Image Encoding, 2005, §4.3.4 / Annex C).
ADOBE_RGB_COLORANTS = ((0.60974, 0.31111, 0.01947), (0.20528, 0.62567, 0.06087), (0.14919, 0.06322, 0.74457))
ADOBE_RGB_GAMMA = 563 / 256
D50 = (0.9642, 1.0, 0.8249)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png16(path, colour_type: int, pixel: tuple[int, ...], size: tuple[int, int] = (64, 64),
          icc: bytes | None = None) -> None:
    """A 16-bit PNG of one colour (``pixel``: 0–65535 per channel; colour type 0 grey, 2 RGB,
    4 grey + alpha, 6 RGBA), with an ``iCCP`` chunk when ``icc`` is given."""
    w, h = size
    row = b"\x00" + struct.pack(">" + "H" * len(pixel), *pixel) * w
    chunks = _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, colour_type, 0, 0, 0))
    if icc:
        chunks += _chunk(b"iCCP", b"profile\x00\x00" + zlib.compress(icc))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunks + _chunk(b"IDAT", zlib.compress(row * h)) + _chunk(b"IEND", b""))


def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


def _xyz(v: tuple[float, float, float]) -> bytes:
    return b"XYZ \0\0\0\0" + b"".join(_s15(c) for c in v)


def _desc(text: str) -> bytes:
    ascii_ = text.encode("ascii") + b"\0"
    return b"desc\0\0\0\0" + struct.pack(">I", len(ascii_)) + ascii_ + b"\0" * 4 + b"\0" * 4 + b"\0\0\0" + b"\0" * 67


def rgb_profile(colorants=ADOBE_RGB_COLORANTS, gamma: float = ADOBE_RGB_GAMMA, name: str = "Adobe RGB (1998) test") -> bytes:
    """An ICC v2 display profile (matrix/TRC): ``colorants`` (three XYZ, D50) and one gamma."""
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, round(gamma * 256)) + b"\0\0"
    tags = [(b"desc", _desc(name)), (b"wtpt", _xyz(D50)), (b"rXYZ", _xyz(colorants[0])),
            (b"gXYZ", _xyz(colorants[1])), (b"bXYZ", _xyz(colorants[2])), (b"rTRC", curve),
            (b"gTRC", curve), (b"bTRC", curve), (b"cprt", b"text\0\0\0\0no copyright\0")]
    table_size = 4 + 12 * len(tags)
    offset, entries, body = 128 + table_size, b"", b""
    for sig, data in tags:
        data += b"\0" * (-len(data) % 4)
        entries += sig + struct.pack(">II", offset + len(body), len(data))
        body += data
    size = 128 + table_size + len(body)
    header = (struct.pack(">I", size) + b"\0" * 4 + bytes([2, 0x10, 0, 0]) + b"mntrRGB XYZ " + b"\0" * 12 + b"acsp"
              + b"\0" * 24 + b"\0" * 4 + b"".join(_s15(c) for c in D50) + b"\0" * 48)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + entries + body


def cmyk_jpeg(path, cmyk: tuple[int, int, int, int], adobe_marker: bool, size: tuple[int, int] = (64, 64)) -> None:
    """A CMYK JPEG of one colour (0–255 = no ink … full ink). With ``adobe_marker`` the file is as
    Photoshop writes it (APP14 "Adobe", values stored inverted); without, the plain values are
    stored and no APP14 segment is present (as some RIPs and older tools write them)."""
    if adobe_marker:
        Image.new("CMYK", size, cmyk).save(path, quality=98)
        return
    inverted = tuple(255 - c for c in cmyk)  # Pillow stores 255 − value: store the plain values
    Image.new("CMYK", size, inverted).save(path, quality=98)
    data = path.read_bytes()
    at = data.index(b"\xff\xee")
    length = struct.unpack(">H", data[at + 2:at + 4])[0]
    assert data[at + 4:at + 9] == b"Adobe"
    path.write_bytes(data[:at] + data[at + 2 + length:])
