"""Raster images for card art, opened safely with Pillow.

- EXIF-rotated photos come out upright (``ImageOps.exif_transpose``).
- Colour as the file means it: art with an embedded ICC profile (Adobe RGB, a CMYK press
  profile, a grey profile) is converted to sRGB with Pillow's ImageCms; untagged art is taken as
  sRGB. CMYK JPEGs: Pillow reads every CMYK JPEG as Adobe (Photoshop) writes them, values stored
  inverted (raw mode ``CMYK;I``); a file without the APP14 "Adobe" marker stores plain values, so
  it is inverted back here (else cyan prints black). Untagged CMYK uses Pillow's plain conversion.
- 16-bit greyscale PNGs (Pillow mode ``I;16``) are scaled to 8 bits (Pillow's ``convert`` clips:
  50 % grey would print white); 16-bit RGB(A) PNGs Pillow already reads as 8-bit.
- Alpha is kept (RGBA/LA → PDF soft mask).
- Decompression bombs (more than :data:`MAX_PIXELS` pixels, Pillow's ``MAX_IMAGE_PIXELS`` by
  default) and unreadable or missing files raise :class:`CardgenError` naming the file.

Placement (:func:`place`): ``cover`` scales the image to fill the box (the box clips the
overflow), ``contain`` scales it to fit inside the box; both centre it.
"""
from __future__ import annotations

import io
import struct
import threading
import warnings
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageChops, ImageOps, UnidentifiedImageError

from cardgen.core.boundary import spelt_otherwise
from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.core.unicode_text import forms
from cardgen.layout.ops import Image

#: The image formats cardgen opens (Pillow plugin names). Anything else — EPS, which would run
#: Ghostscript, PSD, TIFF, ICO… — is refused from its header, whatever the file is called.
FORMATS = ("PNG", "JPEG", "WEBP", "GIF")

#: Largest image (width × height in pixels) cardgen opens; None → ``PIL.Image.MAX_IMAGE_PIXELS``.
MAX_PIXELS: int | None = None

_HEADER_LOCK = threading.Lock()
_SWAP = {5, 6, 7, 8}  # EXIF orientations that turn the image by 90°


def _limit() -> int:
    return MAX_PIXELS if MAX_PIXELS is not None else (PILImage.MAX_IMAGE_PIXELS or 1 << 62)


def _err(path: str | Path, message: str, hint: str, code: str) -> CardgenError:
    return CardgenError(Problem(rel(Path(path)), None, "image", message, hint, code=code))


def _open(path: str | Path) -> PILImage.Image:
    p = Path(path)
    if not p.is_file():
        other = spelt_otherwise(p)  # art/natsu3.png for art/Natsu3.png: the names differ in letter case
        if other is not None:
            how = "letter case" if other.name.casefold() == p.name.casefold() else "letter case, width or Unicode form"
            raise _err(p, f"the image {rel(p)} does not exist; did you mean {rel(other)!r}? (the names differ in "
                       f"{how}, and a file is found only by its name exactly as written)",
                       f"rename the file to {p.name!r} or write {other.name!r} in the card table or template",
                       "missing-file")
        raise _err(p, f"the image {rel(p)} does not exist{forms(rel(p))}", "check the file name in the card table or template",
                   "missing-file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            im = PILImage.open(p, formats=FORMATS)
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        w, h = _header_size(p)
        im = None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        why = "it is not a PNG, JPEG, WebP or GIF file" if isinstance(exc, UnidentifiedImageError) else exc
        raise _err(p, f"the image {rel(p)} cannot be read: {why}", "save it as PNG or JPEG", "bad-image")
    else:
        w, h = im.size
    if im is None or w * h > _limit():
        if im is not None:
            im.close()
        raise _err(p, f"the image {rel(p)} is too large to open safely: {w:,} × {h:,} pixels, more than "
                      f"the limit of {_limit():,}",
                   "scale the image down (300 dpi at the printed size is enough)", "image-too-large")
    return im


def _header_size(p: Path) -> tuple[int, int]:
    """Pixel size from the header alone, with Pillow's bomb check lifted (nothing is decoded)."""
    with _HEADER_LOCK:
        saved, PILImage.MAX_IMAGE_PIXELS = PILImage.MAX_IMAGE_PIXELS, None
        try:
            with PILImage.open(p, formats=FORMATS) as im:
                return im.size
        finally:
            PILImage.MAX_IMAGE_PIXELS = saved


def embedded_image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) of an image held in memory (an SVG's embedded ``data:`` image),
    from its header alone, nothing decoded; None when Pillow reads no PNG or JPEG header there."""
    with _HEADER_LOCK:
        saved, PILImage.MAX_IMAGE_PIXELS = PILImage.MAX_IMAGE_PIXELS, None
        try:
            with PILImage.open(io.BytesIO(data), formats=("PNG", "JPEG")) as im:
                return im.format, im.size[0], im.size[1]
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError, struct.error):
            return None
        finally:
            PILImage.MAX_IMAGE_PIXELS = saved


def pixel_limit() -> int:
    """The most pixels (width × height) an image cardgen opens may have (:data:`MAX_PIXELS`,
    else Pillow's ``MAX_IMAGE_PIXELS``)."""
    return _limit()


def image_size(path: str | Path) -> tuple[int, int]:
    """Pixel size ``(w, h)`` of the image as it appears upright (EXIF orientation applied).
    Reads the header only. Raises :class:`CardgenError` (missing, unreadable, too large)."""
    im = _open(path)
    try:
        w, h = im.size
        try:
            orient = im.getexif().get(0x0112, 1)  # a PNG is read to its end to find the EXIF chunk
        except (OSError, ValueError, SyntaxError, struct.error) as exc:
            raise _err(path, f"the image {rel(Path(path))} cannot be read: {_why(exc)}",
                       "save the image again (as PNG or JPEG)", "bad-image") from None
        return (h, w) if orient in _SWAP else (w, h)
    finally:
        im.close()


def image_dpi(path: str | Path) -> float:
    """The resolution the file states (pixels per inch, horizontal; PNG pHYs, JPEG JFIF/EXIF),
    72 when it states none or an implausible one (below 10). Reads the header only. Raises
    :class:`CardgenError` (missing, unreadable, too large)."""
    im = _open(path)
    try:
        dpi = im.info.get("dpi")
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    finally:
        im.close()
    return round(value, 1) if value >= 10 else 72.0  # PNG stores pixels per metre: 11811 → 300.0


def _why(exc: BaseException) -> str:
    """A decoding failure in words: a cut-short file says so (it is not a full disk)."""
    text = str(exc)
    if "truncated" in text:
        return "the file is cut short (truncated): it was not saved or copied completely"
    return text[:200]


def load_upright(path: str | Path) -> PILImage.Image:
    """The image decoded, upright, in RGB, RGBA, L or LA, in sRGB (see the module docstring:
    ICC profiles, CMYK with or without the Adobe marker, 16-bit grey). Raises
    :class:`CardgenError` (missing, unreadable, too large, cut short)."""
    im = _open(path)
    try:
        im.load()
    except (OSError, ValueError, SyntaxError, struct.error) as exc:
        raise _err(path, f"the image {rel(Path(path))} cannot be decoded: {_why(exc)}", "save it again as PNG or JPEG",
                   "bad-image")
    im = ImageOps.exif_transpose(im)
    icc = im.info.get("icc_profile")
    if im.mode in _HIGH_BIT_GREY:
        im = _grey_to_8_bit(im)
    elif im.mode == "CMYK" and "adobe" not in im.info:
        im = ImageChops.invert(im)  # Pillow reads every CMYK JPEG as Adobe's inverted kind
    elif im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    if icc and im.mode in ("RGB", "RGBA", "L", "LA", "CMYK"):
        converted = _to_srgb(im, icc)
        if converted is not None:
            return converted
    if im.mode not in ("RGB", "RGBA", "L", "LA"):
        im = im.convert("RGBA" if "A" in im.getbands() else "RGB")
    return im


#: Pillow modes of greyscale pixels deeper than 8 bits (16-bit PNGs open as ``I;16``).
_HIGH_BIT_GREY = ("I;16", "I;16B", "I;16L", "I;16N", "I")


def _grey_to_8_bit(im: PILImage.Image) -> PILImage.Image:
    """A 16-bit greyscale image (0–65535) as 8-bit ``L`` (0–255, rounded: 32768 → 128).
    Pillow's own ``convert`` clips instead of scaling, printing 50 % grey as white."""
    import numpy as np  # lazy: +105 ms of imports here (measured)

    values = np.asarray(im, dtype=np.uint32)
    return PILImage.fromarray(((np.clip(values, 0, 65535) + 128) // 257).astype(np.uint8), "L")


def _to_srgb(im: PILImage.Image, icc: bytes) -> PILImage.Image | None:
    """``im`` converted from its embedded ICC profile to sRGB (Pillow's ImageCms, LittleCMS,
    relative colorimetric), alpha kept; None when the profile cannot be read or does not fit the
    image's colour space (the pixels are then taken as sRGB, as before)."""
    from PIL import ImageCms  # lazy: +14 ms of imports here (measured)

    alpha = im.getchannel("A") if im.mode in ("RGBA", "LA") else None
    base = im.convert(im.mode[:-1]) if alpha is not None else im
    try:
        src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        out = ImageCms.profileToProfile(base, src, _srgb(), outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError):
        return None
    if alpha is not None:
        out.putalpha(alpha)
    return out


_SRGB = None


def _srgb():
    """The sRGB profile (built once)."""
    global _SRGB
    if _SRGB is None:
        from PIL import ImageCms
        _SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    return _SRGB


def place(op: Image, pw: int, ph: int) -> tuple[float, float, float, float]:
    """Where an image of ``pw × ph`` pixels is drawn for ``op`` (pt): ``(x, y, w, h)``."""
    if op.fit == "contain":
        scale = min(op.w / pw, op.h / ph)
    else:
        scale = max(op.w / pw, op.h / ph)
    w, h = pw * scale, ph * scale
    return op.x + (op.w - w) / 2, op.y + (op.h - h) / 2, w, h


def effective_dpi(op: Image, pw: int, ph: int) -> float:
    """Pixels per inch of the image as printed for ``op``."""
    _x, _y, w, _h = place(op, pw, ph)
    return pw / (w / 72.0)


class ImageCache:
    """Opens each image file once; returns ``(ImageReader, (x, y, w, h))`` for an :class:`Image` op."""

    def __init__(self):
        self._readers: dict[str, tuple[object, tuple[int, int]]] = {}

    def open(self, path: str):
        """``(reportlab ImageReader, (width, height) px)`` of the upright image at ``path``, read
        once per cache. Raises what :func:`load_upright` raises (CardgenError for a bad image)."""
        hit = self._readers.get(path)
        if hit is None:
            from reportlab.lib.utils import ImageReader
            im = load_upright(path)
            hit = self._readers[path] = (ImageReader(im), im.size)
        return hit

    def __call__(self, op: Image):
        """Open the image of ``op`` (cached per path) and return its reader and its placement (pt)."""
        reader, (pw, ph) = self.open(op.path)
        return reader, place(op, pw, ph)
