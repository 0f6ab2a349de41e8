"""The settings of the PNG, TTS and print-shop exports (:mod:`cardgen.steps.exports`), apart so a
build that writes none of them (``cardgen sheets``) does not load the exports' rasterising and
worker-pool modules to make its default settings."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ExportOptions:
    """Settings of the PNG, TTS and print-shop exports.

    Attributes:
        dpi: PNG resolution (pixels per inch).
        bleed: PNGs include the bleed (else they are cut at the trim).
        jobs: worker processes for rasterising (None → ``os.cpu_count()``).
        sides: faces in the print-shop PDF (``front|back|both``).
        png_sides: faces written as PNG (default fronts: one PNG per physical card).
        preset: the print-shop preset of the shop files (cardgen/presets/shops.yaml), or None:
            the manifest's ``print.shop``, else plain RGB files with a page per physical card.
        tts_base_url: where the TTS images are hosted (the saved object's image URLs are this
            plus the file name); None: their file:// paths on this machine.
    """

    dpi: float = 300.0
    bleed: bool = True
    jobs: int | None = None
    sides: str = "both"
    png_sides: str = "front"
    preset: str | None = None
    tts_base_url: str | None = None
