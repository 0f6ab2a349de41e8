"""Raster images for card art: opened safely with Pillow, EXIF-rotated upright, fitted to boxes."""
from __future__ import annotations

from PIL import Image as PILImage, ImageOps
from reportlab.lib.utils import ImageReader

from cardgen.layout.ops import Image


class ImageCache:
    """Opens each image file once; returns ``(ImageReader, (x, y, w, h))`` for an :class:`Image` op."""

    def __init__(self):
        self._readers: dict[str, tuple[ImageReader, tuple[int, int]]] = {}

    def open(self, path: str):
        hit = self._readers.get(path)
        if hit is None:
            with PILImage.open(path) as im:
                im = ImageOps.exif_transpose(im)
                if im.mode == "CMYK":
                    im = im.convert("RGB")
                elif im.mode not in ("RGB", "RGBA", "L", "LA"):
                    im = im.convert("RGBA")
                im.load()
                hit = self._readers[path] = (ImageReader(im), im.size)
        return hit

    def __call__(self, op: Image):
        reader, (pw, ph) = self.open(op.path)
        # cover: scale so the image fills the box, centred (the clip crops the overflow)
        scale = max(op.w / pw, op.h / ph)
        w, h = pw * scale, ph * scale
        return reader, (op.x + (op.w - w) / 2, op.y + (op.h - h) / 2, w, h)
