"""Rulebook typography: the page design (``templates/rulebook/*.yaml``), Japanese line breaking
for Platypus paragraphs, inline icons, runs → Paragraph markup.

Line breaking: reportlab's own CJK wrapping lets one 、 or 。 hang past the right edge and
does not keep a line from ending with （「 or Latin words whole. :class:`KinsokuParagraph`
breaks lines with the kinsoku classes of :mod:`cardgen.layout.text` (JIS X 4051): a character
that may not start a line pulls the previous character down with it (追い出し), so no line
starts with 、。）」… and no text runs past the frame.

Icons (``:pon:``…) are set as ``<img>`` of a 1×1 placeholder PNG per icon (this reserves the
width in the line); :class:`RulebookCanvas` draws the vector icon of
:func:`cardgen.render.icons.draw_icon` in its place, bottom on the baseline.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import _FUZZ, cjkU, makeCJKParaLine, ParaLines, _handleBulletWidth

from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.layout import jlreq
from cardgen.rulebook.blocks import IconRun, Span
from cardgen.layout.text import NO_END, NO_START
from cardgen.data.yaml_source import load_yaml
from cardgen.layout.ops import GameIcon
from cardgen.render.icons import draw_icon
from cardgen.render.svg_icons import draw_game_icon
from cardgen.rulebook.justify import can_justify, draw_justified
from cardgen.rulebook.ruby import is_end, ruby_markup


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TextStyle(_M):
    """A text style: font role, size (pt), leading (× size), colour, space before/after (mm)."""

    font: str = "body"
    size: float = 9.0
    leading: float = 1.5
    color: str = "#000000"
    space_before: float = 0.0
    space_after: float = 0.0
    rule: str | None = Field(None, description="Colour of a rule under the text (headings).")
    text: str = Field("", description="Header/footer text: {title}, {subtitle}, {version}, {page}.")
    title: str = Field("", description="Table of contents title.")
    indent: float = 0.0


class TableStyleSpec(_M):
    font: str = "body"
    size: float = 8.0
    leading: float = 1.35
    header_fill: str = "#eeeeee"
    grid: str = "#888888"
    padding: float = 1.5  #: mm


class QuoteStyle(_M):
    fill: str = "#f5f5f5"
    bar: str = "#999999"
    indent: float = 3.0  #: mm


class PageDesign(_M):
    """``templates/rulebook/<name>.yaml``: margins (mm), text styles, header and footer."""

    margins: dict[str, float] = Field(default_factory=lambda: {"top": 15, "bottom": 15, "left": 14, "right": 14})
    body: TextStyle = TextStyle()
    strong: TextStyle = TextStyle(font="heading")
    emphasis: TextStyle = TextStyle(font="heading")
    code: TextStyle = TextStyle(font="heading")
    title: TextStyle = TextStyle(font="heading", size=20)
    subtitle: TextStyle = TextStyle(font="heading", size=10)
    headings: list[TextStyle] = Field(default_factory=lambda: [TextStyle(font="heading", size=13)])
    toc: TextStyle = TextStyle(title="目次")
    table: TableStyleSpec = TableStyleSpec()
    quote: QuoteStyle = QuoteStyle()
    list_indent: float = 5.0  #: mm
    figure_gap: float = 3.0  #: mm
    header: TextStyle = TextStyle(size=7, text="{title} {version}")
    footer: TextStyle = TextStyle(size=8, text="{page}")

    def heading(self, depth: int) -> TextStyle:
        """The heading style of ``depth`` (0 = level 1); deeper levels reuse the last style."""
        return self.headings[min(depth, len(self.headings) - 1)]


#: The built-in page design, used when no templates/rulebook/default.yaml is found (a game made
#: with `cardgen new` outside a checkout). A test keeps it equal to templates/rulebook/default.yaml.
BUILTIN_DESIGN = Path(__file__).resolve().parent.parent / "presets" / "rulebook-default.yaml"


def load_design(dirs: list[Path], name: str, allowed: list[Path] | None = None,
                where: tuple[str, int | None] = ("", None)) -> tuple[PageDesign, Path]:
    """Find ``<name>.yaml`` in ``dirs`` (first hit; for ``default``, the built-in design last)
    and read it. ``name`` must be a plain name; with ``allowed``, the file found must lie in one
    of those folders (:func:`cardgen.core.boundary.confine`, symlinks followed). ``where`` is the
    manifest's ``file, line`` of ``rulebook.template``. Raises CardgenError."""
    from cardgen.core.boundary import confine
    from cardgen.data.template import plain_name

    if not plain_name(name):
        raise CardgenError(Problem(where[0], where[1], "rulebook → template",
                                   f"the page design name {str(name)[:80]!r} is not a plain name",
                                   "name a file in templates/rulebook/ without `.yaml`, folders or `..`, e.g. `a5`",
                                   code="path-escape"))
    if name == "default":
        dirs = [*dirs, BUILTIN_DESIGN.parent]
        name_for = {BUILTIN_DESIGN.parent: BUILTIN_DESIGN.stem}
    else:
        name_for = {}
    for d in dirs:
        path = Path(d) / f"{name_for.get(Path(d), name)}.yaml"
        if path.is_file():
            if allowed is not None and Path(d) != BUILTIN_DESIGN.parent:
                confine(path, allowed, where[0], where[1], "rulebook → template", what="the page design")
            loaded = load_yaml(path, rel(path))
            try:
                return PageDesign.model_validate(loaded.data or {}), path
            except ValidationError as exc:
                raise CardgenError([Problem(rel(path), None, " → ".join(map(str, e["loc"])), e["msg"],
                                            code="rulebook-design") for e in exc.errors()])
    raise CardgenError(Problem("", None, "rulebook → template", f"no page design {name!r} in "
                               + (", ".join(rel(d) for d in dirs) or "any templates/rulebook folder"),
                               "add templates/rulebook/<name>.yaml",
                               code="rulebook-design"))


# ------------------------------------------------------------------ kinsoku line breaking

#: One character of a Latin word or number (the same set as :mod:`cardgen.layout.text`): never
#: broken inside (``abc<def``, ``abc_def``, ``32,000``).
_WORD = re.compile(r"[!-~\u00C0-\u024F’×]")


_NO_SPLIT = set("―—…‥")


def _zero(u) -> bool:
    return hasattr(u.frag, "cbDefn") and not getattr(u.frag.cbDefn, "width", 0)


def can_break(U, b: int) -> bool:
    """May a line end between glyphs ``U[b-1]`` and ``U[b]``?"""
    prev, nxt = U[b - 1], U[b]
    if nxt in NO_START or prev in NO_END or (_zero(prev) and not is_end(prev)):
        return False
    if prev == nxt and prev in _NO_SPLIT:
        return False  # ―― and …… stay together (分離禁止)
    if _WORD.match(prev or "") and _WORD.match(nxt or ""):
        return False  # inside a Latin word or number
    return True


def _units(frags) -> list:
    """The paragraph's frags as reportlab CJK units (one per character or image), each unit's
    width changed by the JLREQ adjustment with the character after it
    (:func:`cardgen.layout.jlreq.adjustment`: punctuation compression, Japanese–Latin space)."""
    U = []
    for f in frags:
        if f.text:
            U.extend(cjkU(t, f, "utf8") for t in f.text)
        else:
            U.append(cjkU(f.text, f, "utf8"))
    prev = None
    for u in U:
        if hasattr(u.frag, "cbDefn"):
            if getattr(u.frag.cbDefn, "width", 0) or hasattr(u.frag, "lineBreak"):
                prev = None
            continue
        if prev is not None:
            prev._adj = jlreq.adjustment(prev, u) * prev.frag.fontSize
            prev._width += prev._adj
        prev = u
    return U


def _adj(u) -> float:
    return getattr(u, "_adj", 0.0)


def _ruby_inside(U) -> set[int]:
    """Indexes ``b`` at which a line may not break because ``U[b-1]`` and ``U[b]`` are both in a
    ruby run (from its begin marker to its end marker)."""
    from cardgen.rulebook.ruby import is_begin, is_end

    inside, depth = set(), False
    for b, u in enumerate(U):
        if is_begin(u):
            depth = True
        elif depth:
            inside.add(b)
            if is_end(u):
                depth = False
    return inside


#: A last line may hold this many characters at least (not counting punctuation) when the
#: paragraph has more than one line (JLREQ §3.8 widow/orphan practice: no line of 1–2 characters).
MIN_LAST_LINE = 3
#: The most extra space per glyph gap (em) that pushing characters down to the last line may
#: give the line before it (追い出し).
MAX_PUSH_SPACE = 0.25


def kinsoku_split(frags, maxWidths, calcBounds):
    """Break ``frags`` into CJK lines (reportlab's ParaLines kind 1) with the JLREQ rules: kinsoku
    classes (:func:`can_break`), glyph widths with punctuation compression and Japanese–Latin
    spacing, ruby bases kept whole, and no last line of fewer than :data:`MIN_LAST_LINE`
    characters (:func:`_push_down`)."""
    U = _units(frags)
    ruby = _ruby_inside(U)
    spans = []  # (start, end, forced line break, measure)
    start, n = 0, len(U)
    while start < n:
        max_w = maxWidths[min(len(spans), len(maxWidths) - 1)]
        if spans:
            while start < n and U[start] == " ":
                start += 1
            if start >= n:
                break
        width, i, line_break = 0.0, start, False
        while i < n:
            u = U[i]
            if hasattr(u.frag, "lineBreak"):
                i += 1
                line_break = True
                break
            if width + u.width - _adj(u) > max_w + _FUZZ and i > start:
                break
            width += u.width
            i += 1
        end = i
        if not line_break and end < n:
            b = end
            while b > start + 1 and not (can_break(U, b) and b not in ruby):
                b -= 1
            if can_break(U, b) and b not in ruby:
                end = b
        spans.append((start, end, line_break, max_w))
        start = end
    spans = _push_down(U, spans, ruby)
    short = short_last_line(U, spans)
    lines = []
    for start, end, line_break, max_w in spans:
        seg = U[start:end]
        used = _used(seg)
        lines.append(makeCJKParaLine(seg, max_w, used, max_w - used, line_break, calcBounds))
    return ParaLines(kind=1, lines=lines, short_last=short)


def short_last_line(U, spans: list) -> str:
    """The text of the paragraph's last line when it is still shorter than :data:`MIN_LAST_LINE`
    characters after :func:`_push_down` (and the line before does not end at a forced break);
    "" otherwise."""
    if len(spans) < 2 or spans[-2][2]:
        return ""
    ls, le = spans[-1][0], spans[-1][1]
    tail = "".join(str(u) for u in U[ls:le] if not hasattr(u.frag, "lineBreak"))
    return tail if tail.strip() and jlreq.visible_count(tail) < MIN_LAST_LINE else ""


def _used(seg) -> float:
    """Natural width of a line's units (pt): the last glyph pairs with nothing."""
    text = [u for u in seg if not hasattr(u.frag, "lineBreak")]
    used = sum(u.width for u in text)
    return used - (_adj(text[-1]) if text else 0.0)


def _push_down(U, spans: list, ruby: set) -> list:
    """When the paragraph's last line holds fewer than :data:`MIN_LAST_LINE` characters (not
    counting punctuation), move characters from the end of the line before it down to it
    (追い出し), at the last legal break that gives the last line enough characters while the
    line before keeps at most :data:`MAX_PUSH_SPACE` em of extra space per glyph gap. Lines
    ending at a forced break are left alone; so is a paragraph where no such break exists
    (:func:`short_last_lines` in the tests lists those)."""
    if len(spans) < 2:
        return spans
    (ps, pe, pbreak, pw), (ls, le, lbreak, lw) = spans[-2], spans[-1]
    if pbreak or jlreq.visible_count("".join(str(u) for u in U[ls:le])) >= MIN_LAST_LINE:
        return spans
    size = max((u.frag.fontSize for u in U[ps:pe] if not hasattr(u.frag, "cbDefn")), default=0)
    for b in range(pe - 1, ps + 1, -1):
        if not can_break(U, b) or b in ruby:
            continue
        tail = U[b:le]
        if jlreq.visible_count("".join(str(u) for u in tail)) < MIN_LAST_LINE:
            continue
        head = U[ps:b]
        room = pw - _used(head)
        gaps = max(1, len(head) - 1)
        if room / gaps > MAX_PUSH_SPACE * size or _used(tail) > lw + _FUZZ:
            break
        return spans[:-2] + [(ps, b, False, pw), (b, le, lbreak, lw)]
    return spans


def _split_lines(blPara, start: int, stop: int) -> list:
    """The frags of lines ``start:stop``, for the two parts of a paragraph split across frames.
    reportlab's own version appends a space to the last frag of every line (for Latin text
    broken at spaces) and so puts spaces into Japanese text; :func:`kinsoku_split` keeps a
    line's own spaces, so the lines are joined as they are, and no frag is changed."""
    return [w for ln in blPara.lines[start:stop] for w in ln.words]


class KinsokuParagraph(Paragraph):
    """A Paragraph that always breaks lines with :func:`kinsoku_split` (Japanese and mixed text).
    ``on_short_last(text)``, when set, is called with the last line's text when it stays shorter
    than :data:`MIN_LAST_LINE` characters (no legal break could pull it in)."""

    on_short_last = None

    def breakLinesCJK(self, maxWidths):
        """reportlab hook: break the paragraph into lines under JLREQ rules at ``maxWidths`` (pt)."""
        if not isinstance(maxWidths, (list, tuple)):
            maxWidths = [maxWidths]
        _handleBulletWidth(self.bulletText, self.style, maxWidths)
        if hasattr(self, "blPara") and getattr(self, "_splitpara", 0):
            return self.blPara
        if not self.frags:
            s = self.style
            return ParaLines(kind=0, fontSize=s.fontSize, fontName=s.fontName, textColor=s.textColor, lines=[],
                             ascent=s.fontSize, descent=-0.2 * s.fontSize)
        auto = getattr(self, "autoLeading", getattr(self.style, "autoLeading", ""))
        lines = kinsoku_split(self.frags, maxWidths, auto not in ("", "off"))
        if lines.short_last and self.on_short_last is not None:
            self.on_short_last(lines.short_last)
        return lines

    def breakLines(self, width):  # every paragraph gets the same rules, Latin-only ones too
        """reportlab hook: every paragraph goes through the JLREQ breaker, Latin-only ones too."""
        return self.breakLinesCJK(width)

    def _get_split_blParaFunc(self):
        return _split_lines

    def drawPara(self, debug=0):
        """Every glyph at its JLREQ position (:mod:`cardgen.rulebook.justify`); ``alignment=TA_JUSTIFY``
        sets the lines justified, other alignments as reportlab would."""
        if can_justify(self):
            return draw_justified(self, justify=self.style.alignment == TA_JUSTIFY)
        return super().drawPara(debug)


# ------------------------------------------------------------------ icons and markup

_ICON_DIR: Path | None = None  #: a private temporary folder of this process, removed at exit
ICON_FILES: dict[str, str] = {}  #: placeholder file → icon name


def _icon_dir() -> Path:
    global _ICON_DIR
    if _ICON_DIR is None:
        import atexit
        import shutil

        _ICON_DIR = Path(tempfile.mkdtemp(prefix="cardgen-icons-"))
        atexit.register(shutil.rmtree, _ICON_DIR, True)
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
    from cardgen.render.pdf_doc import print_preferences

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


__all__ = ["PageDesign", "TextStyle", "load_design", "KinsokuParagraph", "kinsoku_split", "can_break",
           "markup", "canvas_class", "icon_file", "Span"]
