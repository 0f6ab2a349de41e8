"""Rulebook runs → reportlab Paragraph markup, and the inline icons in it.

:func:`markup` writes escaped text, fonts for bold/italic/code and ruby between its markers
(:mod:`cardgen.rulebook.ruby`). Icons (``:pon:``…) are set as ``<img>`` of a 1×1 placeholder PNG
per icon (this reserves the width in the line); the canvas of :func:`canvas_class` draws the vector
icon (:func:`cardgen.render.icons.draw_icon`, or the game's own icon) in its place, bottom on the
baseline.
"""
from __future__ import annotations

from html import escape as _html_escape
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.layout.ops import GameIcon
from cardgen.render.icons import draw_icon
from cardgen.render.svg_icons import draw_game_icon
from cardgen.rulebook.blocks import IconRun
from cardgen.rulebook.design import PageDesign
from cardgen.rulebook.ruby import ruby_markup

_ICON_DIR: Path | None = None  #: a private temporary folder of this process, removed at exit
ICON_FILES: dict[str, str] = {}  #: placeholder file → icon name


def _icon_dir() -> Path:
    global _ICON_DIR
    if _ICON_DIR is None:
        from cardgen.core.budget import private_temp_dir

        # removed at exit, also in a build's child (which ends without atexit), and by the parent
        # when it kills that child (Ctrl-C)
        _ICON_DIR = Path(private_temp_dir("cardgen-icons-"))
    return _ICON_DIR


def icon_file(name: str) -> str:
    """The placeholder PNG that stands for icon ``name`` in Paragraph markup (a 1 × 1 transparent
    image in a private temporary folder; the rulebook canvas draws the vector icon in its place,
    so the file never reaches the PDF)."""
    path = _icon_dir() / f"{name}.png"
    if str(path) not in ICON_FILES:
        if not path.is_file():
            from PIL import Image
            Image.new("RGBA", (1, 1), (0, 0, 0, 0)).save(path)
        ICON_FILES[str(path)] = name
    return str(path)


def canvas_class(icon_font: str, initial_font: str | None = None, icons: dict | None = None):
    """A reportlab Canvas class that draws vector icons where the placeholders are (the game's
    own ``icons`` — name → :class:`cardgen.layout.icon_names.IconSpec` — from their files), and starts
    each page with an embedded font (so no unembedded Helvetica is ever referenced), and asks
    viewers to print at 100 % (:func:`cardgen.render.pdf_doc.print_preferences`)."""
    from cardgen.render.pdf_doc import print_preferences  # lazy: +18 ms of imports here (measured)

    class RulebookCanvas(Canvas):
        def __init__(self, *a, **kw):
            if not kw.get("initialFontName"):
                kw["initialFontName"] = initial_font or icon_font
            super().__init__(*a, **kw)
            print_preferences(self)

        def drawImage(self, image, x, y, width=None, height=None, mask=None, *a, **kw):
            name = ICON_FILES.get(str(getattr(image, "fileName", "") or ""))
            if name is not None:
                spec = (icons or {}).get(name)
                if spec is not None:
                    draw_game_icon(self, GameIcon(name, x, y, width, spec.file, spec.label, spec.label_colour),
                                   icon_font)
                else:
                    draw_icon(self, name, x, y, width, icon_font)
                return (width, height)
            return super().drawImage(image, x, y, width, height, mask, *a, **kw)

    return RulebookCanvas


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as the entities reportlab's Paragraph markup reads (quotes left as
    they are: text is never inside an attribute here); what ``xml.sax.saxutils.escape`` does,
    without its import of ``urllib.request``, ``http.client`` and ``ssl``."""
    return _html_escape(text, quote=False)


def markup(runs: list, design: PageDesign, fonts, size: float) -> str:
    """Runs → reportlab Paragraph markup (escaped text, fonts for bold/italic, icon images, ruby
    between its markers of :mod:`cardgen.rulebook.ruby`)."""
    out = []
    for r in runs:
        if isinstance(r, IconRun):
            s = size * 0.95
            out.append(f'<img src="{icon_file(r.name)}" width="{s:.2f}" height="{s:.2f}" valign="baseline"/>')
            continue
        text = escape(r.text).replace("\n", "<br/>")
        st = design.code if r.code else design.strong if r.bold else design.emphasis if r.italic else None
        if st is not None:
            text = f'<font name="{fonts.name(st.font)}" color="{st.color}">{text}</font>'
        if getattr(r, "ruby", ""):
            text = ruby_markup(text, escape(r.ruby))
        out.append(text)
    return "".join(out)
