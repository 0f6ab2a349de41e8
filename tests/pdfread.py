"""Helpers for tests that read produced PDFs back."""
from __future__ import annotations

import contextlib
import hashlib
import io
from collections import OrderedDict
from pathlib import Path

import pdfplumber

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"

#: Parsed PDFs of this test process, by the sha256 of their bytes (the newest last). pdfplumber's
#: parse is pure Python and most of a read-back's cost; many modules read the same shared build
#: (tests/conftest.py's built_games), so a file is parsed once per worker. Keyed by content, read
#: from the bytes hashed (not the path: a file rewritten in place is another key), so it cannot
#: give a test another file's pages.
_PARSED: OrderedDict[str, pdfplumber.PDF] = OrderedDict()
_PARSED_MAX = 6


@contextlib.contextmanager
def open_pdf(path):
    """``with open_pdf(path) as pdf:`` — ``pdfplumber.open(path)``, parsed once per process for
    the same bytes (pages and their objects kept, the 6 most recent files)."""
    data = Path(path).read_bytes()
    key = hashlib.sha256(data).hexdigest()
    pdf = _PARSED.pop(key, None)
    if pdf is None:
        pdf = pdfplumber.open(io.BytesIO(data))
    _PARSED[key] = pdf
    while len(_PARSED) > _PARSED_MAX:
        _PARSED.popitem(last=False)[1].close()
    yield pdf


def page_texts(pdf_path: Path) -> list[str]:
    """Text of every page (form XObjects included), in page order, without rotated text (the
    diagonal DRAFT mark of a forced build would otherwise interleave with the card text); a page
    label reading up the page side comes last, as one line."""
    with open_pdf(pdf_path) as pdf:
        out = []
        for p in pdf.pages:
            text = p.filter(lambda o: o.get("object_type") != "char" or o.get("upright", True)).extract_text() or ""
            side = _side_label(p)
            out.append(text + ("\n" + side if side else ""))
        return out


def page_sizes_mm(pdf_path: Path) -> list[tuple[float, float]]:
    with open_pdf(pdf_path) as pdf:
        return [(round(float(p.width) * 25.4 / 72, 1), round(float(p.height) * 25.4 / 72, 1)) for p in pdf.pages]


def unembedded_fonts(pdf_path: Path) -> dict[int, set[str]]:
    """Fonts referenced without an embedded font program, per 1-based page number (form
    XObjects included); an empty dict when every font on every page is embedded."""
    import pypdf

    def walk(res, bad: set[str], seen: set[int]) -> None:
        if not res:
            return
        res = res.get_object()
        for font in (res.get("/Font") or {}).values():
            font = font.get_object()
            desc = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            if not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                bad.add(str(font.get("/BaseFont")))
        for xo in (res.get("/XObject") or {}).values():
            ref = getattr(xo, "idnum", None)
            if ref in seen:
                continue
            seen.add(ref)
            xo = xo.get_object()
            if xo.get("/Resources") is not None:
                walk(xo["/Resources"], bad, seen)

    out: dict[int, set[str]] = {}
    for i, page in enumerate(pypdf.PdfReader(str(pdf_path)).pages, 1):
        bad: set[str] = set()
        walk(page.get("/Resources"), bad, set())
        if bad:
            out[i] = bad
    return out


def viewer_preferences(pdf_path: Path) -> dict[str, str]:
    """The document's ``/ViewerPreferences`` as plain strings ({} when there are none)."""
    import pypdf

    prefs = pypdf.PdfReader(str(pdf_path)).trailer["/Root"].get("/ViewerPreferences")
    return {str(k): str(v) for k, v in prefs.get_object().items()} if prefs is not None else {}


def page_label(page) -> str:
    """The page label of a print-sheet page (a pdfplumber page): the text reading upwards when the
    label band runs up the page side, else the line holding ``sheet N/M``."""
    side = _side_label(page)
    if side:
        return side
    lines = (page.extract_text() or "").splitlines()
    return next((ln for ln in lines if "sheet " in ln), "")


def _side_label(page) -> str:
    """Text reading upwards within 10 mm of the left or right page edge (a side label band)."""
    edge = 10 * 72 / 25.4
    rotated = sorted((c for c in page.chars if not c.get("upright", True)
                      and (c["x1"] < edge or c["x0"] > float(page.width) - edge)), key=lambda c: -c["bottom"])
    return "".join(c["text"] for c in rotated)


def vertical_columns(page) -> list[str]:
    """The columns of vertical text (縦書き) on a pdfplumber page: upright characters sharing one
    left edge and size, each within 1.1 em below the one before, top to bottom (turned Latin
    runs of the column included)."""
    by_x: dict[tuple[float, float], list[dict]] = {}
    for c in page.chars:
        if c["text"].strip():
            by_x.setdefault((round(c["x0"], 1), round(c["size"], 1)), []).append(c)
    out = []
    for (_, size), chars in by_x.items():
        chars.sort(key=lambda c: c["top"])
        run = [chars[0]]
        for c in chars[1:]:
            if c["top"] - run[-1]["bottom"] <= 0.1 * size and abs(c["x1"] - run[-1]["x1"]) < 0.1:
                run.append(c)
            else:
                out.append("".join(ch["text"] for ch in run))
                run = [c]
        out.append("".join(ch["text"] for ch in run))
    return [s for s in out if len(s) > 1]


def column_chars(chars) -> set[int]:
    """The ``id`` of each upright character of ``chars`` (pdfplumber dicts) that stands in a
    column of vertical text: another one of its size directly above or below it (touching
    within 0.1 em, the same right edge). Horizontal reading of a page leaves these out."""
    by_edge: dict[tuple[float, float], list[dict]] = {}
    for c in chars:
        if c.get("upright", True) and c["text"].strip():
            by_edge.setdefault((round(c["x1"], 1), round(c["size"], 1)), []).append(c)
    out: set[int] = set()
    for (_x, size), col in by_edge.items():
        col.sort(key=lambda c: c["top"])
        for a, b in zip(col, col[1:]):
            if 0 <= b["top"] - a["bottom"] <= 0.1 * size or abs(b["top"] - a["bottom"]) <= 0.1 * size:
                out.update((id(a), id(b)))
    return out
