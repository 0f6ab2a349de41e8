"""The ink model of a CMYK shop preset: sRGB colours and images → DeviceCMYK for one press.

Colour-managed with Pillow's ImageCms (LittleCMS): sRGB → the destination CMYK profile, relative
colorimetric with black-point compensation (the usual choice for vector colours and art headed for
a known press). On top of the profile, the rules print shops ask for:

- **neutral greys and black as K only** (スミ): a colour with r = g = b becomes ``0 0 0 K``, K
  chosen so the grey prints at the same lightness (L*) as the profile's 4-colour grey would —
  the K-only ramp of the profile read back through LittleCMS. Text and thin lines then sit on one
  plate and cannot show colour fringes when the plates are out of register.
- **rich black for large solids**: pure black (#000000) filling a shape whose smaller side is at
  least ``rich_black_min_mm`` becomes the preset's rich black (e.g. C60 M40 Y40 K100), which prints
  deep instead of a greyish K100.
- **total area coverage (TAC)**: no colour or pixel carries more than ``tac`` percent of ink;
  above it C, M and Y are scaled down together (K is kept: it carries the detail).

Profile: ``/usr/share/color/icc/ghostscript/default_cmyk.icc`` (Debian's libgs-common, installed
by the Makefile; licence and choice in docs/printing-shops.md) unless the designer names another.
"""
from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from PIL import Image as PILImage
from PIL import ImageCms

from cardgen.core import disk_cache
from cardgen.core.units import MM

#: Bumped when the conversion below changes: the colours kept on disk are then computed again.
_MODEL_VERSION = 2

#: The CMYK destination profile used when neither the preset nor the designer names one.
DEFAULT_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")

CMYK = tuple[float, float, float, float]  #: ink per plate, 0–1


@dataclass(frozen=True)
class InkRules:
    """What a preset asks of the ink (percent values as shops write them).

    Attributes:
        profile: the destination CMYK ICC profile (embedded as the PDF/X output intent).
        tac: the most ink on any spot, percent (e.g. 250).
        rich_black: C, M, Y, K percent of large black solids.
        rich_black_min_mm: a black fill whose smaller side is at least this is a large solid.
        thin_mm: strokes thinner than this (and all text) are "fine": K100 there overprints.
        overprint_black: K100 text and fine strokes overprint (shops do it anyway; this says so).
    """

    profile: Path = DEFAULT_PROFILE
    tac: float = 300.0
    rich_black: tuple[float, float, float, float] = (40.0, 30.0, 30.0, 100.0)
    rich_black_min_mm: float = 10.0
    thin_mm: float = 1.0
    overprint_black: bool = True


def limit_tac(cmyk: np.ndarray, tac: float) -> np.ndarray:
    """``cmyk`` (…, 4) in 0–1 with C, M, Y scaled down where C + M + Y + K exceeds ``tac`` / 100
    (K kept). A new array."""
    out = np.array(cmyk, dtype=np.float64)
    limit = tac / 100.0
    total = out.sum(axis=-1)
    over = total > limit + 1e-9
    if np.any(over):
        cmy = out[..., :3].sum(axis=-1)
        room = np.clip(limit - out[..., 3], 0.0, None)
        factor = np.where(over & (cmy > 0), room / np.where(cmy > 0, cmy, 1.0), 1.0)
        out[..., :3] *= factor[..., None]
    return out


def _apply(transform: ImageCms.ImageCmsTransform, im: PILImage.Image, mode: str) -> PILImage.Image:
    """``transform`` applied to ``im`` by LittleCMS, without ``ImageCms.applyTransform``'s copy of
    the output profile into the result's ``info`` (it serialises the 187 KB profile on every call:
    10 ms a colour, 0.12 s of a 0.2 s conversion of 天雀牌's character cards)."""
    out = PILImage.new(mode, im.size)
    transform.transform.apply(im.getim(), out.getim())
    return out


class InkModel:
    """sRGB → CMYK for one :class:`InkRules` (profile transforms built once, colours cached)."""

    def __init__(self, rules: InkRules):
        self.rules = rules
        try:
            self.profile_bytes = Path(rules.profile).read_bytes()
        except OSError as exc:
            raise ValueError(f"the CMYK profile {rules.profile} cannot be read: {exc.strerror or exc}") from exc
        rich = limit_tac(np.asarray([min(v, 100.0) / 100.0 for v in rules.rich_black]), rules.tac)
        self.rich_black: CMYK = tuple(round(float(v), 4) for v in rich)  # type: ignore[assignment]  # under the TAC too
        # What LittleCMS computed for this profile before (the greys' K and every colour met, as
        # the profile gives it: the ink limit is applied on top), kept on disk: building the transforms costs ~0.2 s a process.
        self._key = (hashlib.sha256(self.profile_bytes).hexdigest() + f"|{_MODEL_VERSION}").encode()
        self._colours: dict[tuple[int, int, int], CMYK] = {}
        self._known = 0
        self._stored_description: str | None = None
        stored = disk_cache.read("ink-1", self._key)
        if stored is None:
            self._cmyk  # noqa: B018 (read and checked now: a bad profile is an error before any drawing)
        else:
            try:
                data = json.loads(stored)
                self.__dict__["_grey_to_k"] = np.asarray(data["grey"], dtype=np.float64)
                self._colours = {tuple(int(v) for v in k.split(",")): tuple(c) for k, c in data["colours"].items()}
                self._stored_description = data["description"]
                self._known = len(self._colours)
            except (ValueError, KeyError, TypeError):
                self._colours, self._known = {}, 0
                self.__dict__.pop("_grey_to_k", None)

    @cached_property
    def _cmyk(self) -> ImageCms.ImageCmsProfile:
        try:
            prof = ImageCms.ImageCmsProfile(io.BytesIO(self.profile_bytes))
        except (OSError, ImageCms.PyCMSError) as exc:
            raise ValueError(f"the CMYK profile {Path(self.rules.profile).name} cannot be read: {exc}") from exc
        if prof.profile.xcolor_space.strip() != "CMYK":
            raise ValueError(f"the profile {Path(self.rules.profile).name} is not a CMYK profile "
                             f"({prof.profile.xcolor_space.strip()})")
        return prof

    @cached_property
    def _srgb(self) -> ImageCms.ImageCmsProfile:
        return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))

    def store(self) -> None:
        """Keep the greys' K and the colours converted so far on disk for the next process."""
        if len(self._colours) == self._known and self._stored_description is not None:
            return
        payload = {"grey": [float(v) for v in self._grey_to_k], "description": self.description,
                   "colours": {",".join(map(str, k)): list(v) for k, v in self._colours.items()}}
        disk_cache.write("ink-1", self._key, json.dumps(payload).encode())
        self._known = len(self._colours)
        self._stored_description = self.description

    @property
    def description(self) -> str:
        """The profile's own description (the output intent's condition)."""
        if self._stored_description is not None:
            return self._stored_description
        return ImageCms.getProfileDescription(self._cmyk).strip() or Path(self.rules.profile).stem

    @cached_property
    def _to_cmyk(self):
        return ImageCms.buildTransform(self._srgb, self._cmyk, "RGB", "CMYK",
                                       renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                       flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)

    @cached_property
    def _grey_to_k(self) -> np.ndarray:
        """For each 8-bit grey g (sRGB r = g = b), the K (0–1) whose K-only ink has the lightness
        of g converted through the profile: the profile's K ramp read back to Lab by LittleCMS."""
        lab = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB"))
        k_ramp = PILImage.frombytes("CMYK", (256, 1), bytes(b for k in range(256) for b in (0, 0, 0, k)))
        k_lab = ImageCms.applyTransform(k_ramp, ImageCms.buildTransform(self._cmyk, lab, "CMYK", "LAB"))
        k_light = np.asarray(k_lab, dtype=np.float64)[0, :, 0]  # falls as K rises
        grey = PILImage.frombytes("RGB", (256, 1), bytes(b for g in range(256) for b in (g, g, g)))
        g_lab = ImageCms.applyTransform(
            grey, ImageCms.buildTransform(self._srgb, lab, "RGB", "LAB",
                                          renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                          flags=ImageCms.Flags.BLACKPOINTCOMPENSATION))
        g_light = np.asarray(g_lab, dtype=np.float64)[0, :, 0]
        order = np.argsort(k_light)  # np.interp wants rising x
        k = np.interp(g_light, k_light[order], np.arange(256, dtype=np.float64)[order]) / 255.0
        k[0], k[255] = 1.0, 0.0  # black is K100, white no ink
        return np.clip(k, 0.0, 1.0)

    def grey(self, g: int) -> CMYK:
        """An 8-bit neutral grey as K only."""
        return (0.0, 0.0, 0.0, round(float(self._grey_to_k[g]), 4))

    def raw_colour(self, rgb: tuple[int, int, int]) -> CMYK:
        """One 8-bit sRGB colour through the profile as it comes (no K-only greys, no ink limit)."""
        hit = self._colours.get(rgb)
        if hit is None:
            px = _apply(self._to_cmyk, PILImage.new("RGB", (1, 1), rgb), "CMYK").getpixel((0, 0))
            hit = self._colours[rgb] = tuple(round(v / 255.0, 4) for v in px)  # type: ignore[assignment]
        return hit

    def colour(self, rgb: tuple[int, int, int]) -> CMYK:
        """One 8-bit sRGB colour → CMYK: greys K only, others through the profile, under the TAC."""
        r, g, b = rgb
        if r == g == b:
            return self.grey(r)
        c, m, y, k = self.raw_colour(rgb)
        limit = self.rules.tac / 100.0
        cmy = c + m + y
        if cmy + k > limit + 1e-9 and cmy > 0:
            f = max(limit - k, 0.0) / cmy
            c, m, y = c * f, m * f, y * f
        return (round(c, 4), round(m, 4), round(y, 4), k)

    def fill(self, rgb: tuple[int, int, int], smaller_side_pt: float) -> CMYK:
        """The ink of a filled shape: pure black of a large solid is the rich black."""
        if rgb == (0, 0, 0) and smaller_side_pt >= self.rules.rich_black_min_mm * MM:
            return self.rich_black
        return self.colour(rgb)

    def image(self, im: PILImage.Image) -> PILImage.Image:
        """An RGB (or grey) image → CMYK pixels: through the profile, neutral pixels K only,
        under the TAC. Alpha is the caller's (PDF images carry it as a separate soft mask)."""
        rgb = im.convert("RGB")
        cmyk = np.asarray(_apply(self._to_cmyk, rgb, "CMYK"), dtype=np.float64) / 255.0
        src = np.asarray(rgb)
        neutral = (src[..., 0] == src[..., 1]) & (src[..., 1] == src[..., 2])
        if np.any(neutral):
            k = self._grey_to_k[src[..., 0][neutral]]
            cmyk[neutral] = np.stack([np.zeros_like(k)] * 3 + [k], axis=-1)
        cmyk = limit_tac(cmyk, self.rules.tac)
        return PILImage.fromarray(np.rint(cmyk * 255).astype(np.uint8), "CMYK")


_MODELS: dict[InkRules, InkModel] = {}


def ink_model(rules: InkRules) -> InkModel:
    """The :class:`InkModel` of ``rules``, one per process (a watch or serve loop builds again)."""
    model = _MODELS.get(rules)
    if model is None:
        model = _MODELS[rules] = InkModel(rules)
    return model
