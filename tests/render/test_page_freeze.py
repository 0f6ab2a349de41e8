"""Finished sheet pages are slimmed (render/pdf_sheets._freeze_page: XObject and transition
dictionaries formatted at once, None attributes left to the class) without changing a byte of
the PDF: compared with freezing only the content stream, as before."""
from __future__ import annotations

import sys

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas

from cardgen.render import pdf_sheets


def _content_only(c: Canvas) -> None:
    """The freeze before pages were slimmed: the content stream only."""
    doc = c._doc
    page = doc.Pages.pages[-1]
    s = PDFStream(content=page.stream, filters=[PDFZCompress])
    page.Contents = doc.Reference(pdf_sheets._Frozen(s.format(doc)))
    page.stream = None


def _sheets(path, freeze) -> list:
    a85, rl_config.useA85 = rl_config.useA85, 0
    try:
        c = Canvas(str(path), invariant=1, pageCompression=1)
        for n in range(2):
            c.beginForm(f"face{n}", lowerx=0, lowery=0, upperx=50, uppery=70)
            c.rect(0, 0, 50, 70, fill=1)
            c.endForm()
        pages = []
        for p in range(4):
            c.setPageSize((400 + 10 * p, 300))
            for k in range(p + 1):  # pages using 1..4 placements of one or two forms, and a plain one
                if p != 3:
                    c.saveState()
                    c.translate(60 * k, 10)
                    c.doForm(f"face{k % 2}")
                    c.restoreState()
            c.drawString(10, 10, f"sheet {p + 1}")
            c.showPage()
            freeze(c)
            page = c._doc.Pages.pages[-1]
            pages.append((len(page.__dict__), sys.getsizeof(page.__dict__)))  # as kept until save
        c.save()
        return pages
    finally:
        rl_config.useA85 = a85


def test_slim_pages_write_the_same_bytes(tmp_path):
    before = _sheets(tmp_path / "before.pdf", _content_only)
    after = _sheets(tmp_path / "after.pdf", pdf_sheets._freeze_page)
    assert (tmp_path / "after.pdf").read_bytes() == (tmp_path / "before.pdf").read_bytes()
    assert b"/XObject <<\n/FormXob.face0" in (tmp_path / "after.pdf").read_bytes()
    # the point of it: each finished page holds far fewer attributes, in a smaller dictionary
    for (n_before, size_before), (n_after, size_after) in zip(before, after):
        assert n_after < n_before // 2 and size_after < size_before // 2
