"""Helpers for tests that read produced PDFs back."""
from __future__ import annotations

from pathlib import Path

import pdfplumber

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"


def page_texts(pdf_path: Path) -> list[str]:
    """Text of every page (form XObjects included), in page order, without rotated text (the
    diagonal DRAFT mark of a forced build would otherwise interleave with the card text)."""
    with pdfplumber.open(str(pdf_path)) as pdf:
        return [p.filter(lambda o: o.get("object_type") != "char" or o.get("upright", True)).extract_text() or ""
                for p in pdf.pages]


def page_sizes_mm(pdf_path: Path) -> list[tuple[float, float]]:
    with pdfplumber.open(str(pdf_path)) as pdf:
        return [(round(float(p.width) * 25.4 / 72, 1), round(float(p.height) * 25.4 / 72, 1)) for p in pdf.pages]
