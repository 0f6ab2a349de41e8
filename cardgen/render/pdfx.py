"""PDF/X identification of a CMYK shop file (ISO 15930-7 PDF/X-4, ISO 15930-4 PDF/X-1a:2003), with pikepdf.

What the standard asks of the file beyond its drawing, set here on a file :mod:`cardgen.render.press_pdf`
has converted:

- the output intent (``/OutputIntents``, ``/S /GTS_PDFX``) with the destination CMYK profile embedded
  (``/DestOutputProfile``, ``/N 4``) and its condition named;
- ``/Trapped /False`` in the document information and the XMP (cardgen does no trapping);
- XMP metadata: title, dates, creator tool, producer, ``pdfxid:GTS_PDFXVersion`` (X-4) or the
  ``GTS_PDFXVersion``/``GTS_PDFXConformance`` info keys (X-1a), ``xmpMM:DocumentID``/``InstanceID``
  derived from the file's content, so the same input gives the same bytes;
- the PDF version (X-4: 1.6; X-1a: 1.4) and the trailer's document ``/ID`` (qpdf's deterministic ID);
- ``/TrimBox`` and ``/BleedBox`` on every page (the shop canvas sets them; checked here).

:func:`transparency_in` says where a file uses transparency (a PDF/X-1a file must not).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pikepdf
from pikepdf import Name

STANDARDS = ("PDF/X-4", "PDF/X-1a")
VERSION = {"PDF/X-4": "1.6", "PDF/X-1a": "1.4"}
PDFX_NS = "http://www.npes.org/pdfx/ns/id/"
XMPMM_NS = "http://ns.adobe.com/xap/1.0/mm/"


def _xmp_date(pdf_date: str) -> str:
    """``D:20000101000000+00'00'`` → ``2000-01-01T00:00:00+00:00``."""
    d = str(pdf_date)[2:] if str(pdf_date).startswith("D:") else str(pdf_date)
    date = f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}"
    tz = d[14:].replace("'", "")
    if not tz or tz in ("Z", "+0000", "-0000"):
        return date + "+00:00"
    return f"{date}{tz[0]}{tz[1:3]}:{tz[3:5]}"


def transparency_in(pdf: pikepdf.Pdf) -> list[str]:
    """Where ``pdf`` uses transparency: graphics states with ``/ca`` or ``/CA`` below 1, a soft
    mask or a blend mode other than Normal; images with a soft mask; transparency groups. One line
    each (page, resource)."""
    found: list[str] = []
    seen: set[tuple[int, int]] = set()

    def walk(owner, where: str) -> None:
        if owner.objgen != (0, 0):
            if owner.objgen in seen:
                return
            seen.add(owner.objgen)
        if "/Group" in owner:
            found.append(f"{where}: transparency group")
        res = owner.get("/Resources", {})
        for name, gs in res.get("/ExtGState", {}).items():
            for key in ("/ca", "/CA"):
                if key in gs and float(gs[key]) < 1:
                    found.append(f"{where}: {name} opacity {key[1:]} {float(gs[key]):g}")
            if gs.get("/SMask", Name.None_) != Name.None_:
                found.append(f"{where}: {name} soft mask")
            if gs.get("/BM", Name.Normal) not in (Name.Normal, Name.Compatible):
                found.append(f"{where}: {name} blend mode {gs['/BM']}")
        for name, x in res.get("/XObject", {}).items():
            if x.get("/Subtype") == "/Image" and "/SMask" in x:
                found.append(f"{where}: image {name} with a soft mask (alpha)")
            elif x.get("/Subtype") == "/Form":
                walk(x, f"{where} → {name}")

    for i, page in enumerate(pdf.pages, 1):
        walk(page.obj, f"page {i}")
    return found


def make_pdfx(pdf: pikepdf.Pdf, standard: str, profile: bytes, condition: str, title: str) -> None:
    """Make ``pdf`` (already DeviceCMYK) identify as ``standard`` with the CMYK ``profile`` as its
    output intent. Raises ValueError when a page lacks a TrimBox or BleedBox (a drawing bug)."""
    if standard not in STANDARDS:
        raise ValueError(f"unknown PDF standard {standard!r} (use {', '.join(STANDARDS)})")
    for i, page in enumerate(pdf.pages, 1):
        for box in ("/TrimBox", "/BleedBox"):
            if box not in page.obj:
                raise ValueError(f"page {i} has no {box[1:]}")
    icc = pdf.make_stream(profile)
    icc.N = 4
    intent = pikepdf.Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=condition,
                                OutputCondition=condition, Info=condition, RegistryName="http://www.color.org",
                                DestOutputProfile=icc)
    pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
    info = pdf.docinfo
    info.Title = title
    info.Trapped = Name("/False")
    created = str(info.get("/CreationDate", "D:20000101000000+00'00'"))
    info.CreationDate = created
    info.ModDate = str(info.get("/ModDate", created))
    info.Producer = f"cardgen (reportlab, pikepdf {pikepdf.__version__})"
    if standard == "PDF/X-1a":
        info.GTS_PDFXVersion = "PDF/X-1a:2003"
        info.GTS_PDFXConformance = "PDF/X-1a:2003"
    elif "/GTS_PDFXVersion" in info:
        del info["/GTS_PDFXVersion"]
    digest = hashlib.sha256()
    for page in pdf.pages:
        digest.update(page.obj.Contents.read_raw_bytes() if isinstance(page.obj.Contents, pikepdf.Stream) else b"")
    digest.update(title.encode("utf-8") + standard.encode() + hashlib.sha256(profile).digest())
    uid = digest.hexdigest()
    doc_id = f"uuid:{uid[0:8]}-{uid[8:12]}-{uid[12:16]}-{uid[16:20]}-{uid[20:32]}"
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta.register_xml_namespace(PDFX_NS, "pdfxid")
        meta["dc:title"] = title
        meta["dc:format"] = "application/pdf"
        meta["xmp:CreateDate"] = _xmp_date(created)
        meta["xmp:ModifyDate"] = _xmp_date(str(info.ModDate))
        meta["xmp:MetadataDate"] = _xmp_date(str(info.ModDate))
        meta["xmp:CreatorTool"] = "cardgen"
        meta["pdf:Producer"] = str(info.Producer)
        meta["pdf:Trapped"] = "False"
        meta[f"{{{XMPMM_NS}}}DocumentID"] = doc_id
        meta[f"{{{XMPMM_NS}}}InstanceID"] = doc_id
        meta[f"{{{XMPMM_NS}}}VersionID"] = "1"
        meta[f"{{{XMPMM_NS}}}RenditionClass"] = "default"
        if standard == "PDF/X-4":
            meta[f"{{{PDFX_NS}}}GTS_PDFXVersion"] = "PDF/X-4"
        else:
            meta[f"{{{PDFX_NS}}}GTS_PDFXVersion"] = "PDF/X-1a:2003"
            meta[f"{{{PDFX_NS}}}GTS_PDFXConformance"] = "PDF/X-1a:2003"


def save_pdfx(pdf: pikepdf.Pdf, path: Path, standard: str) -> None:
    """Write ``pdf`` at the standard's PDF version with a document ID made from its content."""
    version = VERSION[standard]
    # stream_decode_level none: the streams are written as they are (qpdf would otherwise inflate
    # and deflate every one again, the fonts' too: 0.12 s of 天雀牌's three files)
    pdf.save(path, force_version=version, deterministic_id=True, compress_streams=True,
             stream_decode_level=pikepdf.StreamDecodeLevel.none,
             object_stream_mode=pikepdf.ObjectStreamMode.disable if standard == "PDF/X-1a"
             else pikepdf.ObjectStreamMode.preserve)
