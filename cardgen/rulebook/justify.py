"""Justified Japanese lines (両端揃え, JIS X 4051 in its simplest form) for the rulebook's
Platypus paragraphs.

reportlab justifies only by widening word spaces, which Japanese text does not have. Here every
line of a paragraph except the last, and except a line that ends at a forced break (``<br/>``),
fills its measure exactly: the line's extra width is spread evenly over all the gaps between
its glyphs and inline icons, drawn with the PDF character spacing operator (``Tc``). Icons are
placed where that spacing puts them, so they stay in step with the text around them. Spaces at
the end of a justified line (a break at a Latin word space) are not drawn.

The lines are the CJK ``FragLine`` s (kind 1) of :func:`cardgen.rulebook.kinsoku.kinsoku_split`;
only what the rulebook's markup makes is handled (fonts, colours, images). A paragraph with
anything else (links, underlines, background colours, bullets, auto leading) is drawn by
reportlab, unjustified.
"""
from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.platypus.paragraph import imgNormV, imgVRange
from reportlab.rl_config import paraFontSizeHeightOffset

from cardgen.core.units import EPS
from cardgen.layout import jlreq
from cardgen.rulebook.ruby import RubyDrawer


def _plain(line) -> bool:
    """Only fonts, colours and images in this line (what :func:`draw_justified` can draw)."""
    for f in line.words:
        if getattr(f, "link", None) or getattr(f, "us_lines", None) or getattr(f, "backColor", None):
            return False
        if getattr(f, "rise", 0):
            return False
        cb = getattr(f, "cbDefn", None)
        if cb is not None and getattr(cb, "kind", "img") not in ("img", "onDraw"):
            return False
    return True


def can_justify(para) -> bool:
    """Can :func:`draw_justified` draw this paragraph (see the module docstring)?"""
    bl, style = para.blPara, para.style
    return (bl.kind == 1 and bool(bl.lines) and not para.bulletText and not para.debug
            and not style.backColor and not (style.borderColor and style.borderWidth)
            and getattr(para, "autoLeading", getattr(style, "autoLeading", "")) in ("", "off", None)
            and all(_plain(ln) for ln in bl.lines))


def line_adjustments(line) -> list[list[float]]:
    """Per frag of ``line`` and per character of its text: the change of that character's
    advance in pt (JLREQ punctuation compression and Japanese–Latin space of
    :func:`cardgen.layout.jlreq.adjustments`, times the font size). Characters are paired across
    frags; an image between two characters, and the end of the line, pair with nothing. A line made by
    :func:`cardgen.rulebook.kinsoku.kinsoku_split` carries the composer's own changes
    (``jlreq_adjust``: compression where the line was set tighter, the line-end trim), used as they are."""
    given = getattr(line, "jlreq_adjust", None)
    if given is not None:
        it = iter(given)
        return [[] if getattr(f, "cbDefn", None) is not None else [next(it, 0.0) for _ in f.text]
                for f in line.words]
    out: list[list[float]] = []
    prev: tuple[int, int, str, float] | None = None  # frag index, char index, char, size
    for fi, f in enumerate(line.words):
        if getattr(f, "cbDefn", None) is not None:
            out.append([])
            if getattr(f.cbDefn, "width", 0):
                prev = None
            continue
        adj = [0.0] * len(f.text)
        out.append(adj)
        for ci, ch in enumerate(f.text):
            if prev is not None:
                pf, pc, pch, psize = prev
                out[pf][pc] = jlreq.adjustment(pch, ch) * psize
            prev = (fi, ci, ch, f.fontSize)
    return out


def _items(line) -> tuple[int, float]:
    """``(gaps, width)`` of the line without its trailing spaces: the number of gaps between its
    glyphs and images, and their natural width in pt (with the JLREQ adjustments)."""
    count, width, trail, trail_w = 0, 0.0, 0, 0.0
    for f, adj in zip(line.words, line_adjustments(line)):
        cb = getattr(f, "cbDefn", None)
        if cb is not None:
            w = getattr(cb, "width", 0)
            if w:
                count, width, trail, trail_w = count + 1, width + w, 0, 0.0
            continue
        for ch, a in zip(f.text, adj):
            w = stringWidth(ch, f.fontName, f.fontSize) + a
            count, width = count + 1, width + w
            if ch == " ":
                trail, trail_w = trail + 1, trail_w + w
            else:
                trail, trail_w = 0, 0.0
    return max(0, count - trail - 1), width - trail_w


def char_space(line, last: bool) -> float:
    """The extra space (pt) after each glyph and image of ``line``: 0 for the last line of a
    paragraph, a line ending at a forced break, a line of one glyph, or a line already full."""
    if last or getattr(line, "lineBreak", False):
        return 0.0
    gaps, width = _items(line)
    extra = line.maxWidth - width
    return extra / gaps if gaps and extra > EPS else 0.0


def draw_justified(para, justify: bool = True) -> None:
    """Draw ``para`` (a laid-out :class:`~reportlab.platypus.Paragraph` with CJK lines) on its
    canvas: every glyph at its JLREQ position (:func:`line_adjustments`), lines justified when
    ``justify``, else aligned as the style says (left, centre, right). Lines start at the
    style's left indent (plus the first-line indent and any per-line offsets) and are
    ``style.leading`` apart, as reportlab sets them. Ruby (:mod:`cardgen.rulebook.ruby`) is drawn
    above its base text."""
    canvas, style, lines = para.canv, para.style, para.blPara.lines
    offsets = list(getattr(para, "_offsets", [0]))
    offsets += [offsets[-1]] * (len(lines) - len(offsets))
    justify_last = getattr(para, "_JustifyLast", False)
    first = lines[0]
    y = para.height - (first.fontSize if paraFontSizeHeightOffset else getattr(first, "ascent", first.fontSize))
    doc = canvas._doc
    ruby = RubyDrawer(canvas)
    canvas.saveState()
    tx = canvas.beginText(0, y)
    font = color = last = None
    cs = tail = 0.0  # tail: the space after the last glyph drawn (character spacing + adjustment)
    for i, line in enumerate(lines):
        x = style.leftIndent + offsets[i] + (style.firstLineIndent if i == 0 else 0)
        gap = char_space(line, i == len(lines) - 1 and not justify_last) if justify else 0.0
        if not justify and style.alignment in (1, 2):  # TA_CENTER, TA_RIGHT
            room = line.maxWidth - _items(line)[1]
            x += room / 2 if style.alignment == 1 else room
        ruby.line = (x, x + (line.maxWidth if gap else _items(line)[1]))  # ruby stays within the line
        if gap != cs:
            cs = gap
            tx.setCharSpace(cs)
        origin = None  # where the text object's current line starts (the last run drawn)
        size = font[1] if font else style.fontSize
        words = _without_trailing_spaces(line.words) if gap else line.words
        for f, adj in zip(words, line_adjustments(line)):
            cb = getattr(f, "cbDefn", None)
            if cb is not None:
                if getattr(cb, "kind", "") == "onDraw":
                    ruby.mark(cb, x - (tail if cb.name == "rubyend" else 0.0), y, last)
                    continue
                w = imgNormV(cb.width, para.width)
                if w:
                    h = imgNormV(cb.height, size)
                    bottom, _top = imgVRange(h, cb.valign, size)
                    canvas.drawImage(cb.image, x, y + bottom, w, h, mask="auto")
                    x += w + cs
                    tail = cs
                continue
            if (f.fontName, f.fontSize) != font:
                font = (f.fontName, f.fontSize)
                size = f.fontSize
                tx.setFont(f.fontName, f.fontSize)
            if f.textColor != color:
                color = f.textColor
                tx.setFillColor(color)
            last = (f.fontName, f.fontSize, f.textColor)
            at = 0
            for run in _runs(f.text, f.fontName, doc, adj):
                if origin is None:
                    tx.setTextOrigin(x, y)
                else:
                    tx.moveCursor(x - origin, 0)
                origin = x
                tx.textOut(run)
                at += len(run)
                tail = cs + adj[at - 1]
                x += stringWidth(run, f.fontName, f.fontSize) + cs * (len(run) - 1) + tail
        y -= style.leading
    if cs:
        tx.setCharSpace(0)
    canvas.drawText(tx)
    ruby.draw()
    canvas.restoreState()


def _without_trailing_spaces(words: list) -> list:
    """The frags of a justified line without the spaces at its end (a line broken at a Latin
    word space keeps it): they would reach past the measure. The frags are not changed."""
    words = list(words)
    while words:
        f = words[-1]
        if getattr(f, "cbDefn", None) is not None or not f.text.endswith(" "):
            break
        text = f.text.rstrip(" ")
        if text:
            words[-1] = f.clone(text=text)
            break
        words.pop()
    return words


def _runs(text: str, font_name: str, doc, adj: list[float] | None = None) -> list[str]:
    """``text`` cut where reportlab switches between the subsets of an embedded TrueType font,
    and after every character whose advance ``adj`` changes, so that each piece is one
    text-showing operator. Each piece is placed at its own computed position: the spacing after
    the last glyph of a piece then never matters, and readers that drop it (pdfminer) place the
    glyphs where viewers do."""
    font = getFont(font_name)
    pieces = [text]
    if getattr(font, "_dynamicFont", False):
        out, i = [], 0
        for _subset, chunk in font.splitString(text, doc):
            out.append(text[i:i + len(chunk)])
            i += len(chunk)
        if i == len(text):
            pieces = out
    if not adj or not any(adj):
        return pieces
    cut, at = [], 0
    for piece in pieces:
        start = 0
        for k in range(len(piece)):
            if adj[at + k] and k + 1 < len(piece):
                cut.append(piece[start:k + 1])
                start = k + 1
        cut.append(piece[start:])
        at += len(piece)
    return cut
