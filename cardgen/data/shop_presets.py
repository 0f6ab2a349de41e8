"""Print-shop presets (``cardgen/presets/shops.yaml``): what each shop wants of the files, as data.

One :class:`ShopPreset` per shop, validated once per process; :func:`shop_preset` finds one by name
(a clear error listing the names otherwise). The shop step (:mod:`cardgen.steps.exports`) and the
colour preflight read them.
"""
# Annotations are objects, not strings (no `from __future__ import annotations`): pydantic would
# evaluate each string at class creation (the manifest's models: 5-13 ms of every command that reads a game, measured).

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from cardgen.core.errors import CardgenError, Problem, did_you_mean

SHOPS_FILE = Path(__file__).resolve().parents[1] / "presets" / "shops.yaml"


class ShopPreset(BaseModel):
    """One shop's requirements (see the keys' comments in shops.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = ""
    name: str
    guide: str
    card_sizes: list[tuple[float, float]] | None = None
    bleed_mm: float | None = None
    safe_mm: float | None = None
    colour: Literal["cmyk", "rgb"] = "cmyk"
    tac: float | None = Field(None, gt=0, le=400)
    rich_black: tuple[float, float, float, float] | None = None
    standard: Literal["PDF/X-4", "PDF/X-1a"] | None = None
    format: Literal["pdf", "png"] = "pdf"
    dpi: float = 300
    # no shop we know wants トンボ in its files, and the shop step draws none: a preset that asked
    # for them would be silently ignored, so only false is accepted (a shop that needs marks is a
    # new feature of the shop step, not a flag here)
    crop_marks: Literal[False] = False
    files: Literal["deck", "distinct", "face"] = "deck"
    names: Literal["ascii"] = "ascii"
    page_order: Literal["front-first", "back-first"] = "front-first"
    back_rotation: Literal[0, 180] = 0

    def size_fits(self, size_mm: tuple[float, float], tol: float = 0.05) -> bool:
        """Whether a trim ``size_mm`` (either orientation) is one the shop prints."""
        if self.card_sizes is None:
            return True
        w, h = size_mm
        return any(abs(w - a) <= tol and abs(h - b) <= tol or abs(w - b) <= tol and abs(h - a) <= tol
                   for a, b in self.card_sizes)


@lru_cache(maxsize=1)
def shop_presets() -> dict[str, ShopPreset]:
    """Every preset of shops.yaml by id."""
    data = yaml.safe_load(SHOPS_FILE.read_text(encoding="utf-8"))
    return {key: ShopPreset(id=key, **value) for key, value in data.items()}


def shop_preset(name: str, where: str = "--preset", file: str = "", line: int | None = None) -> ShopPreset:
    """The preset ``name``; CardgenError (at ``file:line``) naming the known ones when there is none."""
    presets = shop_presets()
    hit = presets.get(name.strip().lower())
    if hit is None:
        raise CardgenError(Problem(file, line, where, f"no print-shop preset {name!r}{did_you_mean(name, presets)}",
                                   f"use one of {', '.join(presets)} (docs/printing-shops.md)",
                                   code="unknown-shop-preset"))
    return hit
