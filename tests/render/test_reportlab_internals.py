"""The reportlab internals cardgen relies on (private names and module attributes) are still there.

pyproject.toml pins reportlab to the range these were tested with; a reportlab upgrade that drops or
renames one fails here, by name, instead of in a rulebook or a print sheet."""
from __future__ import annotations

import importlib

import pytest
from reportlab.pdfgen.canvas import Canvas

#: (module, name) pairs imported by cardgen/rulebook/kinsoku.py, justify.py, render/pdf_sheets.py and render/draw.py.
USED = [
    ("reportlab.platypus.paragraph", "_FUZZ"),
    ("reportlab.platypus.paragraph", "_handleBulletWidth"),
    ("reportlab.platypus.paragraph", "makeCJKParaLine"),
    ("reportlab.platypus.paragraph", "cjkU"),
    ("reportlab.platypus.paragraph", "ParaLines"),
    ("reportlab.platypus.paragraph", "imgNormV"),
    ("reportlab.platypus.paragraph", "imgVRange"),
    ("reportlab.rl_config", "paraFontSizeHeightOffset"),
    ("reportlab.rl_config", "useA85"),
    ("reportlab.pdfbase.pdfdoc", "PDFObject"),
    ("reportlab.pdfbase.pdfdoc", "PDFDictionary"),
    ("reportlab.pdfbase.pdfdoc", "PDFPage"),
    ("reportlab.pdfbase.pdfdoc", "format"),
    ("reportlab.pdfbase.pdfdoc", "PDFStream"),
    ("reportlab.pdfbase.pdfdoc", "PDFZCompress"),
    ("reportlab.pdfbase.pdfdoc", "xObjectName"),
    ("reportlab.pdfbase.pdfdoc", "PDF_SUPPORT_VERSION"),
    ("reportlab.pdfbase.ttfonts", "makeToUnicodeCMap"),  # wrapped by fonts/vertical_forms.py
]


def test_subsets_take_their_to_unicode_map_from_the_module():
    """fonts/vertical_forms.py maps its vertical forms back to their characters by replacing
    ``ttfonts.makeToUnicodeCMap``: TTFont.addObjects must look it up there when it writes a subset."""
    import inspect

    from reportlab.pdfbase import ttfonts

    from cardgen.fonts.vertical_forms import VERTICAL_BASE  # importing it installs the wrap

    assert "makeToUnicodeCMap(" in inspect.getsource(ttfonts.TTFont.addObjects)
    assert ttfonts.makeToUnicodeCMap.__name__ == "_to_unicode_cmap"
    cmap = ttfonts.makeToUnicodeCMap("X", [0, 0x41, VERTICAL_BASE + 0x30FC])
    assert "<02> <30FC>" in cmap and "<01> <0041>" in cmap


@pytest.mark.parametrize("module, name", USED)
def test_private_name_exists(module, name):
    assert hasattr(importlib.import_module(module), name), f"{module}.{name} is gone: check the pin in pyproject.toml"


def test_canvas_keeps_its_document(tmp_path):
    """pdf_sheets.py and justify.py reach the document behind a canvas as ``canvas._doc``."""
    c = Canvas(str(tmp_path / "x.pdf"))
    assert all(hasattr(c._doc, name) for name in ("Reference", "idToObject", "Pages"))


def test_canvas_state_draw_py_writes(tmp_path):
    """render/draw.py writes a text line's operators itself and keeps the canvas's state as reportlab
    would: ``_code``, ``_fillColorObj``, ``_fontname``/``_fontsize``/``_leading``, and reads
    ``_extgstate._d`` (the opacity in force), ``_doc._pdfVersion``, ``_enforceColorSpace``, ``bottomup``
    and ``_escape`` (tests/render/test_draw_text.py compares the bytes)."""
    c = Canvas(str(tmp_path / "x.pdf"))
    for name in ("_code", "_fillColorObj", "_fontname", "_fontsize", "_leading", "_enforceColorSpace", "bottomup",
                 "_escape", "_extgstate", "setFillAlpha"):
        assert hasattr(c, name), f"Canvas.{name} is gone"
    assert isinstance(c._extgstate._d, dict) and isinstance(c._doc._pdfVersion, tuple)


def test_c_accelerator_in_use():
    """rl_accel (a dependency) replaces reportlab's pure-Python number formatting and string widths.

    Without it every coordinate of a print sheet is formatted in Python (issue 19 measured the sheets
    build 21–30 % slower); a broken wheel would fall back silently, so this test says so."""
    from reportlab.lib import rl_accel

    for name in ("fp_str", "escapePDF", "instanceStringWidthTTF"):
        assert getattr(rl_accel, name).__module__ == "_rl_accel", f"{name} is the pure-Python fallback"


def test_ttf_face_tables_for_variant_glyphs():
    """fonts/variations.py gives a variant glyph (an ideographic variation sequence) a private code
    point by entering it in the registered face's tables, as reportlab's own ``hbFont`` does:
    ``charToGlyph``, ``glyphToChar``, ``charWidths``, ``hmetrics``, ``defaultWidth``,
    ``subfontNameX`` (a .ttc face index) and ``TTFont.pdfScale``."""
    from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

    from tests.conftest import IPAEX

    if not IPAEX.is_file():
        pytest.skip("IPAex fonts not installed")
    font = TTFont("_internals_probe", str(IPAEX))
    for name in ("charToGlyph", "glyphToChar", "charWidths", "hmetrics", "defaultWidth", "filename"):
        assert hasattr(font.face, name), f"TTFontFace.{name} is gone"
    assert hasattr(TTFontFace, "getSubfont") and callable(font.pdfScale)
    assert isinstance(font.face.hmetrics[1], tuple) and len(font.face.hmetrics[1]) == 2
