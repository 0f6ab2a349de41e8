"""Preset sizes (data in ``sizes.yaml``): paper and card sizes in mm."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

#: The papers print sheets are imposed on (``--paper``; sizes in ``sizes.yaml``).
SHEET_PAPERS: tuple[str, ...] = ("a4", "letter", "b5")


@lru_cache(maxsize=1)
def sizes() -> dict:
    """``{"paper": {name: [w, h]}, "cards": {name: [w, h]}}`` in mm (portrait)."""
    import yaml  # lazy: +24 ms of imports here (measured); here, so the command line's options can import this package at start-up

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's safe loader: ~8× faster, same result
    return yaml.load((Path(__file__).with_name("sizes.yaml")).read_text(encoding="utf-8"), Loader=loader)


def paper_mm(name: str) -> tuple[float, float]:
    """Portrait paper size in mm. Raises KeyError for an unknown name."""
    w, h = sizes()["paper"][name.lower()]
    return float(w), float(h)


def card_mm(name: str) -> tuple[float, float]:
    """Card size in mm. Raises KeyError for an unknown name."""
    w, h = sizes()["cards"][name.lower()]
    return float(w), float(h)
