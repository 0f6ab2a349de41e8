"""The PDF/X checker (``cardgen preflight``): one seeded failing file per rule, each made from a
good PDF/X file by breaking exactly one thing with pikepdf, and the good files passing.

One shop build of the mini game (module-scoped): a PDF/X-4 file of the popls preset.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Name

from cardgen.api import build_game
from cardgen.check.pdfx_check import preflight_pdf
from cardgen.steps.export_options import ExportOptions
from tests.minigame import write_game


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("pdfx")
    game = write_game(tmp, manifest={"print": {"shop": "popls"}})
    res = build_game(game, tmp / "out", steps=("shop",), exports=ExportOptions(jobs=1))
    return sorted((res.out_dir / "shop").glob("*_front.pdf"))[0]


def _seed(good: Path, tmp: Path, change, **save) -> Path:
    out = tmp / "seeded.pdf"
    with pikepdf.open(good) as pdf:
        change(pdf)
        pdf.save(out, **save)
    return out


def _codes(path: Path, **kw) -> set[str]:
    return {p.code for p in preflight_pdf(path, **kw)}


def test_good_file_passes(good):
    assert preflight_pdf(good, tac=300) == []


def _append(pdf, ops: bytes) -> None:
    page = pdf.pages[0]
    page.contents_add(pdf.make_stream(ops))


def _del_boxes(pdf):
    del pdf.pages[0].obj["/TrimBox"]


def _unembed(pdf):
    seen = False
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == Name.FontDescriptor and "/FontFile2" in obj:
            del obj["/FontFile2"]
            seen = True
    assert seen


def _no_pdfx_id(pdf):
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        del meta["{http://www.npes.org/pdfx/ns/id/}GTS_PDFXVersion"]


def _no_xmp_ids(pdf):
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        del meta["{http://ns.adobe.com/xap/1.0/mm/}DocumentID"]


def _open_action(pdf):
    pdf.Root.OpenAction = pikepdf.Dictionary(S=Name.JavaScript, JS="app.alert(1)")


def _bad_intent(pdf):
    pdf.Root.OutputIntents[0].DestOutputProfile.N = 3


SEEDS = {
    "pdfx-version": (lambda pdf: None, {"force_version": "1.4"}),
    "pdfx-id": (_no_pdfx_id, {}),
    "output-intent": (lambda pdf: pdf.Root.__delattr__("OutputIntents"), {}),
    "trapped": (lambda pdf: pdf.docinfo.__setitem__("/Trapped", Name("/Unknown")), {}),
    "xmp": (_no_xmp_ids, {}),
    "page-boxes": (_del_boxes, {}),
    "font-embedded": (_unembed, {}),
    "device-rgb": (lambda pdf: _append(pdf, b"1 0 0 rg 0 0 5 5 re f"), {}),
    "javascript": (_open_action, {}),
    "tac": (lambda pdf: _append(pdf, b"1 1 1 0.5 k 0 0 5 5 re f"), {}),
    "registration": (lambda pdf: _append(pdf, b"1 1 1 1 K 0 0 m 5 5 l S"), {}),
}


@pytest.mark.parametrize("code", sorted(SEEDS))
def test_each_rule_fails_its_seeded_file(good, tmp_path, code):
    change, save = SEEDS[code]
    seeded = _seed(good, tmp_path, change, **save)
    assert code in _codes(seeded, tac=300)


def test_output_intent_of_three_components(good, tmp_path):
    seeded = _seed(good, tmp_path, _bad_intent)
    found = preflight_pdf(seeded)
    assert [p.code for p in found] == ["output-intent"] and "3 components" in found[0].message


def test_document_id(good, tmp_path):
    plain = tmp_path / "plain.pdf"
    with pikepdf.open(good) as pdf:
        pdf.save(plain, qdf=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    data = plain.read_bytes()
    at = data.rindex(b"/ID [")
    (tmp_path / "noid.pdf").write_bytes(data[:at] + b"/XD [" + data[at + 5:])
    assert "document-id" in _codes(tmp_path / "noid.pdf")


def test_transparency_in_x1a(good, tmp_path):
    def translucent(pdf):
        page = pdf.pages[0].obj
        page.Resources.ExtGState = pikepdf.Dictionary(half=pikepdf.Dictionary(Type=Name.ExtGState, ca=0.5))
        _append(pdf, b"/half gs 0 0 0 1 k 0 0 5 5 re f")

    seeded = _seed(good, tmp_path, translucent)
    assert "transparency" in _codes(seeded, standard="PDF/X-1a")
    assert "transparency" not in _codes(seeded)  # PDF/X-4 carries it


def test_encrypted(good, tmp_path):
    seeded = _seed(good, tmp_path, lambda pdf: None, encryption=pikepdf.Encryption(owner="o", user="", R=4))
    assert "encrypted" in _codes(seeded)


def test_plain_rgb_file_fails_with_every_missing_piece(tmp_path):
    """A shop file without a preset (RGB, no output intent) is not PDF/X, and says why."""
    game = write_game(tmp_path)
    res = build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1))
    codes = _codes(res.out_dir / "shop" / "cards.pdf")
    assert {"pdfx-id", "pdfx-version", "output-intent", "xmp"} <= codes


def test_command_line(good, tmp_path):
    run = [sys.executable, "-m", "cardgen", "preflight"]
    ok = subprocess.run(run + [str(good), "--tac", "300"], capture_output=True, text=True)
    assert ok.returncode == 0 and "no findings" in ok.stdout
    seeded = _seed(good, tmp_path, _del_boxes)
    bad = subprocess.run(run + [str(seeded)], capture_output=True, text=True)
    assert bad.returncode == 1 and "page 1" in bad.stdout and "TrimBox" in bad.stdout


def test_same_input_same_bytes(good, tmp_path):
    """A second build of the same game writes the same PDF/X file, byte for byte (the document ID
    and the XMP identifiers come from the content, the dates are reportlab's invariant ones)."""
    game = write_game(tmp_path, manifest={"print": {"shop": "popls"}})
    res = build_game(game, tmp_path / "out", steps=("shop",), exports=ExportOptions(jobs=1))
    again = res.out_dir / "shop" / good.name
    assert again.read_bytes() == good.read_bytes()
