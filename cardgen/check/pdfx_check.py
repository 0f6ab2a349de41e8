"""``cardgen preflight FILE.pdf``: the PDF/X rules a program can check, read with pikepdf.

Not a certified PDF/X validator (none with an open licence can be installed here; see
docs/printing-shops.md): the rules of ISO 15930-7 (PDF/X-4) and ISO 15930-4 (PDF/X-1a:2003) that are
questions about the file's objects, each one finding with a stable code:

| code | rule |
|---|---|
| ``pdfx-version`` | the PDF version the standard is built on (X-4: ≥ 1.6; X-1a: ≤ 1.4) |
| ``pdfx-id`` | the file says which standard (XMP ``pdfxid:GTS_PDFXVersion``; X-1a also the info keys) |
| ``output-intent`` | exactly one ``/GTS_PDFX`` output intent with an embedded destination profile (``/N 4`` for CMYK) |
| ``trapped`` | ``/Trapped`` is ``/True`` or ``/False`` in the info dictionary and the XMP |
| ``xmp`` | XMP metadata with title, dates, ``xmpMM:DocumentID``, ``xmpMM:VersionID``, ``xmpMM:RenditionClass`` |
| ``document-id`` | the trailer's ``/ID`` |
| ``page-boxes`` | every page has a TrimBox and a BleedBox, TrimBox ⊆ BleedBox ⊆ MediaBox |
| ``font-embedded`` | every font a page uses is embedded |
| ``device-rgb`` | no DeviceRGB colour (operators, colour spaces, images) under a CMYK output intent |
| ``transparency`` | PDF/X-1a: no soft masks, opacity or transparency groups |
| ``encrypted`` | the file is not encrypted |
| ``javascript`` | no JavaScript or launch actions |
| ``tac`` | (with a limit) no CMYK colour or image pixel above the total area coverage |
| ``registration`` | no registration colour (C100 M100 Y100 K100): it belongs on トンボ, and a shop file has none |
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pikepdf
from pikepdf import Name

from cardgen.core.errors import Problem
from cardgen.core.units import MM
from cardgen.render.pdfx import transparency_in

PDFX_NS = "http://www.npes.org/pdfx/ns/id/"
XMPMM = "http://ns.adobe.com/xap/1.0/mm/"
_RGB_OPS = {"rg", "RG"}


def _find(file: str, where: str, message: str, hint: str, code: str, severity: str = "error") -> Problem:
    return Problem(file, None, where, message, hint, severity, code)  # type: ignore[arg-type]


def _standard(pdf: pikepdf.Pdf, meta) -> str | None:
    v = meta.get(f"{{{PDFX_NS}}}GTS_PDFXVersion") or str(pdf.docinfo.get("/GTS_PDFXVersion", "")) or None
    return str(v) if v else None


def _box(page, name: str):
    b = page.obj.get(name)
    return [float(v) for v in b] if b is not None else None


def _inside(inner, outer, tol: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol and inner[2] <= outer[2] + tol
            and inner[3] <= outer[3] + tol)


def _walk(pdf: pikepdf.Pdf):
    """(where, owner) for every page and, once each, every form XObject it uses."""
    seen: set = set()

    def rec(owner, where):
        if owner.objgen != (0, 0):
            if owner.objgen in seen:
                return
            seen.add(owner.objgen)
        yield where, owner
        for name, x in owner.get("/Resources", {}).get("/XObject", {}).items():
            if x.get("/Subtype") == "/Form":
                yield from rec(x, f"{where} → {name}")

    for i, page in enumerate(pdf.pages, 1):
        yield from rec(page.obj, f"page {i}")


def preflight_pdf(path: Path | str, standard: str | None = None, tac: float | None = None) -> list[Problem]:
    """Every finding about the PDF at ``path`` (none: it passes). ``standard`` (``PDF/X-4`` or
    ``PDF/X-1a``) overrides what the file says it is; ``tac`` (percent) adds the ink limit check."""
    file = str(path)
    try:
        pdf = pikepdf.open(path)
    except pikepdf.PasswordError:
        return [_find(file, "", "the file is encrypted", "write it without a password or restrictions", "encrypted")]
    except (pikepdf.PdfError, OSError) as exc:
        return [_find(file, "", f"not a readable PDF: {exc}", "export it again", "unreadable")]
    with pdf:
        return _check(pdf, file, standard, tac)


def _check(pdf: pikepdf.Pdf, file: str, standard: str | None, tac: float | None) -> list[Problem]:
    out: list[Problem] = []
    add = out.append
    meta = pdf.open_metadata()
    said = _standard(pdf, meta)
    std = standard or said
    if pdf.is_encrypted:
        add(_find(file, "", "the file is encrypted", "write it without a password or restrictions", "encrypted"))
    if std is None:
        add(_find(file, "XMP", "the file does not say it is PDF/X (no pdfxid:GTS_PDFXVersion)",
                  "write it with a PDF/X preset (cardgen shop --preset NAME)", "pdfx-id"))
        std = "PDF/X-4"
    x1a = std.startswith("PDF/X-1a")
    if said is None or (standard is not None and not said.startswith(standard)):
        if said is not None:
            add(_find(file, "XMP", f"the file says {said}, not {standard}", "write it with the preset's standard",
                      "pdfx-id"))
    elif x1a and str(pdf.docinfo.get("/GTS_PDFXVersion", "")) != "PDF/X-1a:2003":
        add(_find(file, "Info", "a PDF/X-1a file names PDF/X-1a:2003 in the info dictionary's GTS_PDFXVersion",
                  "set /GTS_PDFXVersion (PDF/X-1a:2003)", "pdfx-id"))
    version = tuple(int(p) for p in pdf.pdf_version.split("."))
    if x1a and version > (1, 4):
        add(_find(file, "header", f"PDF {pdf.pdf_version}: PDF/X-1a:2003 files are PDF 1.3 or 1.4",
                  "write the file as PDF 1.4", "pdfx-version"))
    if not x1a and version < (1, 6):
        add(_find(file, "header", f"PDF {pdf.pdf_version}: PDF/X-4 files are PDF 1.6 or later",
                  "write the file as PDF 1.6", "pdfx-version"))
    cmyk_intent = _output_intent(pdf, file, add)
    trapped = pdf.docinfo.get("/Trapped")
    if trapped not in (Name("/True"), Name("/False")):
        add(_find(file, "Info", f"/Trapped is {trapped if trapped is not None else 'missing'}: PDF/X wants True or False",
                  "say whether the file is trapped (/Trapped /False)", "trapped"))
    elif str(meta.get("pdf:Trapped", "")) != str(trapped)[1:]:
        add(_find(file, "XMP", f"pdf:Trapped is {meta.get('pdf:Trapped') or 'missing'}, the info dictionary says "
                  f"{str(trapped)[1:]}", "write the same /Trapped in the XMP", "trapped"))
    missing = [k for k in ("dc:title", "xmp:CreateDate", "xmp:ModifyDate", f"{{{XMPMM}}}DocumentID",
                           f"{{{XMPMM}}}VersionID", f"{{{XMPMM}}}RenditionClass") if not meta.get(k)]
    if missing:
        names = ", ".join(k.replace(f"{{{XMPMM}}}", "xmpMM:") for k in missing)
        add(_find(file, "XMP", f"the XMP metadata lacks {names}", "write the metadata a PDF/X file carries", "xmp"))
    if "/ID" not in pdf.trailer:
        add(_find(file, "trailer", "no document /ID", "write the file with a document ID", "document-id"))
    for i, page in enumerate(pdf.pages, 1):
        media, trim, bleed = _box(page, "/MediaBox"), _box(page, "/TrimBox"), _box(page, "/BleedBox")
        if trim is None or bleed is None:
            what = " and ".join(n for n, b in (("TrimBox", trim), ("BleedBox", bleed)) if b is None)
            add(_find(file, f"page {i}", f"no {what}", "give every page its TrimBox and BleedBox", "page-boxes"))
        elif not (_inside(trim, bleed) and _inside(bleed, media)):
            add(_find(file, f"page {i}", "the TrimBox is not inside the BleedBox inside the MediaBox "
                      f"(trim {_mm(trim)}, bleed {_mm(bleed)}, media {_mm(media)} mm)", "fix the page boxes",
                      "page-boxes"))
    _fonts(pdf, file, add)
    if cmyk_intent or tac is not None:
        _colours(pdf, file, add, cmyk_intent, tac)
    if x1a:
        for where in transparency_in(pdf):
            add(_find(file, where, "transparency in a PDF/X-1a file", "use opaque colours (#rrggbb, no alpha) or a "
                      "PDF/X-4 preset", "transparency"))
    if "/Names" in pdf.Root and "/JavaScript" in pdf.Root.Names or "/OpenAction" in pdf.Root and \
            pdf.Root.OpenAction.get("/S") in (Name("/JavaScript"), Name("/Launch")):
        add(_find(file, "catalog", "the file has JavaScript or a launch action", "remove it", "javascript"))
    return out


def _mm(box) -> str:
    return "×".join(f"{(box[j + 2] - box[j]) / MM:.2f}" for j in (0, 1)) if box else "?"


def _output_intent(pdf, file, add) -> bool:
    intents = [oi for oi in pdf.Root.get("/OutputIntents", []) if oi.get("/S") == Name("/GTS_PDFX")]
    if len(intents) != 1:
        add(_find(file, "catalog", f"{len(intents)} PDF/X output intents: a PDF/X file has exactly one",
                  "embed the printing condition's profile as the output intent", "output-intent"))
        return False
    oi = intents[0]
    prof = oi.get("/DestOutputProfile")
    if prof is None or not isinstance(prof, pikepdf.Stream):
        if not str(oi.get("/RegistryName", "")):
            add(_find(file, "output intent", "no embedded destination profile (and no registered condition)",
                      "embed the CMYK profile (/DestOutputProfile)", "output-intent"))
        return True
    n = int(prof.get("/N", 0))
    if n != 4:
        add(_find(file, "output intent", f"the destination profile has {n} components, a CMYK press 4",
                  "embed a CMYK output profile", "output-intent"))
    if not str(oi.get("/OutputConditionIdentifier", "")):
        add(_find(file, "output intent", "no OutputConditionIdentifier", "name the printing condition",
                  "output-intent"))
    return n == 4


def _fonts(pdf, file, add) -> None:
    seen: set = set()
    for where, owner in _walk(pdf):
        for name, font in owner.get("/Resources", {}).get("/Font", {}).items():
            if font.objgen in seen:
                continue
            seen.add(font.objgen)
            if font.get("/Subtype") == Name("/Type3"):
                continue
            desc_owner = font
            if font.get("/Subtype") == Name("/Type0"):
                desc_owner = font.DescendantFonts[0]
            desc = desc_owner.get("/FontDescriptor")
            if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                add(_find(file, where, f"the font {font.get('/BaseFont', name)} is not embedded",
                          "use an embedded font (every cardgen font role is embedded)", "font-embedded"))


def _colours(pdf, file, add, rgb: bool, tac: float | None) -> None:
    """DeviceRGB colour (``rgb``: under a CMYK output intent) and ink over ``tac`` percent: one
    pass over every content stream's colour operators and every image."""
    limit = tac / 100 + 0.005 if tac is not None else math.inf
    for where, owner in _walk(pdf):
        res = owner.get("/Resources", {})
        for name, x in res.get("/XObject", {}).items():
            if x.get("/Subtype") != "/Image":
                continue
            cs = x.get("/ColorSpace")
            if rgb and _is_rgb(cs):
                add(_find(file, where, f"image {name} is DeviceRGB under a CMYK output intent",
                          "convert the art to CMYK (a CMYK shop preset does)", "device-rgb"))
            elif tac is not None and cs == Name("/DeviceCMYK"):
                px = np.asarray(pikepdf.PdfImage(x).as_pil_image(), dtype=np.float64).reshape(-1, 4)
                top = float(px.sum(axis=1).max()) / 255 if px.size else 0.0
                if top > limit:
                    add(_find(file, where, f"image {name} has pixels of {top * 100:.0f} % ink, over the {tac:g} % "
                              "limit", "convert the image with the preset's ink limit", "tac"))
        if rgb:
            for name, cs in res.get("/ColorSpace", {}).items():
                if _is_rgb(cs):
                    add(_find(file, where, f"colour space {name} is DeviceRGB", "use DeviceCMYK", "device-rgb"))
        rgb_ops: set[str] = set()
        n_rgb, worst, registration = 0, 0.0, 0
        for operands, op in pikepdf.parse_content_stream(owner, "rg RG k K"):
            name = str(op)
            if name in _RGB_OPS:
                n_rgb += 1
                rgb_ops.add(name)
            else:
                values = [float(v) for v in operands]
                worst = max(worst, sum(values))
                registration += all(v >= 0.999 for v in values)
        if registration:
            add(_find(file, where, f"{registration} uses of registration colour (C100 M100 Y100 K100) outside crop marks",
                      "use K100 for black, a rich black for large solids", "registration"))
        if rgb and n_rgb:
            add(_find(file, where, f"{n_rgb} DeviceRGB colour operators ({', '.join(sorted(rgb_ops))})",
                      "convert the colours to CMYK (a CMYK shop preset does)", "device-rgb"))
        if worst > limit:
            add(_find(file, where, f"a colour of {worst * 100:.0f} % ink, over the {tac:g} % limit",
                      "use lighter colours, or a rich black within the limit", "tac"))


def _is_rgb(cs) -> bool:
    if cs is None:
        return False
    if cs == Name("/DeviceRGB"):
        return True
    if isinstance(cs, pikepdf.Array) and len(cs) >= 2:
        if cs[0] == Name("/Indexed"):
            return _is_rgb(cs[1])
        if cs[0] == Name("/ICCBased"):
            return False  # device-independent: allowed in PDF/X-4
    return False
