"""The independent floor: a generated deck (benchmarks/gen.py) drawn by hand with reportlab alone.

    python benchmarks/raw_floor.py GAME_DIR OUT.pdf     # prints {"seconds", "cards", "bytes"} as JSON

No cardgen code at all: this is what a competent hand-written reportlab script does for the same
deck — landscape A4, 4 × 2 poker cards (63 × 88 mm, 3 mm bleed) per page, Japanese crop marks
(double corner marks on the trim and bleed lines, centre marks) around every card, the IPAex
fonts, every text box of the character template broken into lines (greedy, with the common
kinsoku characters kept off line starts and ends) and shrunk until it fits, inline ``:icon:``
marks as small circles, one back drawn once as a form and placed on mirrored back pages, a
page label. Canvas settings as a speed-minded author would pick (page compression, no ASCII85,
invariant). The clock covers reading the folder (csv) through saving the PDF; imports are not
timed (as for cardgen's in-process clock). benchmarks/floor.py is the other floor, which draws
cardgen's own drawing list.
"""
from __future__ import annotations

import csv
import json
import re
import sys
import time
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
W, H, BLEED, MARGIN, GAP = 63 * MM, 88 * MM, 3 * MM, 5 * MM, 9 * MM  # card, bleed, printer margin, gutter
PAGE = (297 * MM, 210 * MM)  # A4 landscape
COLS, ROWS = 4, 2
FONT_FILES = ["/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf"]
NO_START = set("、。，．・：；？！ー）」』】〕〉》’”ぁぃぅぇぉっゃゅょァィゥェォッャュョ々")
NO_END = set("（「『【〔〈《‘“")
ICON = re.compile(r":([a-z_]+):")
# The character template's boxes: name, (x, y from top, w, h) mm, field format, size, min size, colour
FRONT = [
    ("title", (5, 4.5, 40, 5), "{title}", 7.5, 6, "#e8c77a", "left"),
    ("name", (5, 9.5, 42, 8), "{name}", 15, 10, "#ffffff", "left"),
    ("stage", (45, 5, 14, 12), "{stage}/3", 14, 10, "#ffffff", "right"),
    ("skill_name", (6, 23.5, 51, 5.5), "スキル「{skill_name}」", 8.5, 7, "#23395b", "left"),
    ("skill_cost", (6, 29, 51, 4), "手札1枚を捨てて使う・1手番1回", 6, 6, "#6b5a44", "left"),
    ("skill_text", (6, 34, 51, 15), "{skill_text}", 8.5, 6.5, "#000000", "left"),
    ("ougi_name", (6, 54.5, 51, 5.5), "奥義「{ougi_name}」", 8.5, 7, "#8c1c13", "left"),
    ("ougi_cost", (6, 60, 51, 4), "脱衣で発動・常時有効", 6, 6, "#6b5a44", "left"),
    ("ougi_text", (6, 65, 51, 15), "{ougi_text}", 8.5, 6.5, "#000000", "left"),
]


def width(text: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, "G", size)


def tokens(text: str) -> list[str]:
    """Characters, with ``:icon:`` marks kept whole."""
    out, pos = [], 0
    for m in ICON.finditer(text):
        out.extend(text[pos:m.start()])
        out.append(m.group(0))
        pos = m.end()
    return out + list(text[pos:])


def tok_w(tok: str, size: float) -> float:
    return size if len(tok) > 1 else width(tok, size)


def break_lines(text: str, box_w: float, size: float) -> list[list[str]]:
    lines, line, used = [], [], 0.0
    for tok in tokens(text):
        w = tok_w(tok, size)
        if line and used + w > box_w:
            carry = []
            if tok in NO_START:  # take the last character down with it
                carry = [line.pop()]
            while line and line[-1] in NO_END:
                carry.insert(0, line.pop())
            lines.append(line)
            line, used = carry, sum(tok_w(t, size) for t in carry)
        line.append(tok)
        used += w
    return lines + [line] if line else lines


def fit(text: str, box_w: float, box_h: float, size: float, min_size: float) -> tuple[float, list[list[str]]]:
    while True:
        lines = break_lines(text, box_w, size)
        if size <= min_size or len(lines) * size * 1.2 <= box_h + 0.01:
            return size, lines
        size = max(min_size, size - 0.5)


def draw_text(c: Canvas, box, text: str, size: float, min_size: float, colour: str, align: str) -> None:
    x, top, w, h = box[0] * MM, H - box[1] * MM, box[2] * MM, box[3] * MM
    size, lines = fit(text, w, h, size, min_size)
    y = top - size * 0.88 if align == "left" else top - h / 2 - size * 0.35
    for line in lines:
        lx = x + w - sum(tok_w(t, size) for t in line) if align == "right" else x
        c.setFont("G", size)
        run = ""
        for tok in line:
            if len(tok) > 1:  # an inline icon
                c.setFillColor(HexColor(colour))
                c.drawString(lx, y, run)
                lx += width(run, size)
                run = ""
                c.setFillColor(HexColor("#e8a317"))
                c.circle(lx + size / 2, y + size * 0.35, size * 0.46, stroke=0, fill=1)
                lx += size
            else:
                run += tok
        c.setFillColor(HexColor(colour))
        c.drawString(lx, y, run)
        y -= size * 1.2


def front(c: Canvas, row: dict) -> None:
    p = c.beginPath()
    p.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(HexColor("#fbf7ee"))
    c.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColor(HexColor("#23395b"))
    c.rect(-BLEED, H - 19 * MM, W + 2 * BLEED, 19 * MM + BLEED, stroke=0, fill=1)
    c.setLineWidth(0.8)
    c.setStrokeColor(HexColor("#23395b"))
    c.roundRect(4 * MM, H - 50 * MM, 55 * MM, 28 * MM, 2 * MM, stroke=1, fill=0)
    c.setStrokeColor(HexColor("#8c1c13"))
    c.setFillColor(HexColor("#f3e6c4"))
    c.roundRect(4 * MM, H - 81 * MM, 55 * MM, 28 * MM, 2 * MM, stroke=1, fill=1)
    for _name, box, fmt, size, min_size, colour, align in FRONT:
        draw_text(c, box, fmt.format(**row), size, min_size, colour, align)


def back(c: Canvas, title: str) -> None:
    c.setFillColor(HexColor("#23395b"))
    c.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#e8c77a"))
    c.setLineWidth(1.5)
    c.roundRect(4 * MM, 4 * MM, 55 * MM, 80 * MM, 3 * MM, stroke=1, fill=0)
    c.setFillColor(HexColor("#fbf7ee"))
    c.setFont("G", 24)
    c.drawCentredString(W / 2, H - 40 * MM, title)
    c.setFillColor(HexColor("#e8c77a"))
    c.setFont("G", 11)
    c.drawCentredString(W / 2, H - 52 * MM, "雀士")


def slots(mirror: bool) -> list[tuple[float, float]]:
    gx = (PAGE[0] - COLS * W - (COLS - 1) * GAP) / 2
    gy = (PAGE[1] - ROWS * H - (ROWS - 1) * GAP) / 2 + 2 * MM  # above the label
    out = []
    for r in range(ROWS):
        for col in range(COLS):
            col = COLS - 1 - col if mirror else col
            out.append((gx + col * (W + GAP), gy + (ROWS - 1 - r) * (H + GAP)))
    return out


def marks(c: Canvas, xy: list[tuple[float, float]]) -> None:
    """Japanese crop marks: each corner on the trim and on the bleed line, and centre marks."""
    p, n = c.beginPath(), 5.67
    for x, y in xy:
        x0, y0, x1, y1 = x, y, x + W, y + H
        for vx in (x0, x1, x0 - BLEED, x1 + BLEED):
            p.moveTo(vx, y1 + BLEED), p.lineTo(vx, y1 + BLEED + n)
            p.moveTo(vx, y0 - BLEED), p.lineTo(vx, y0 - BLEED - n)
        for hy in (y0, y1, y0 - BLEED, y1 + BLEED):
            p.moveTo(x0 - BLEED, hy), p.lineTo(x0 - BLEED - n, hy)
            p.moveTo(x1 + BLEED, hy), p.lineTo(x1 + BLEED + n, hy)
        p.moveTo((x0 + x1) / 2, y1 + BLEED), p.lineTo((x0 + x1) / 2, y1 + BLEED + n)
        p.moveTo((x0 + x1) / 2, y0 - BLEED), p.lineTo((x0 + x1) / 2, y0 - BLEED - n)
        p.moveTo(x0 - BLEED, (y0 + y1) / 2), p.lineTo(x0 - BLEED - n, (y0 + y1) / 2)
        p.moveTo(x1 + BLEED, (y0 + y1) / 2), p.lineTo(x1 + BLEED + n, (y0 + y1) / 2)
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.25)
    c.drawPath(p, stroke=1, fill=0)


def build(game: Path, out: Path) -> int:
    """Write the deck of ``game`` to ``out``; returns the number of cards."""
    manifest = (game / "game.yaml").read_text(encoding="utf-8")
    title = re.search(r"title: (.*)", manifest).group(1)
    version = re.search(r'version: "(.*)"', manifest).group(1)
    with (game / "characters.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    font = next(f for f in FONT_FILES if Path(f).is_file())
    pdfmetrics.registerFont(TTFont("G", font))
    rl_config.useA85 = 0
    c = Canvas(str(out), pagesize=PAGE, invariant=1, pageCompression=1, initialFontName="G")
    per = COLS * ROWS
    sheets = (len(rows) + per - 1) // per
    c.beginForm("back", lowerx=-BLEED, lowery=-BLEED, upperx=W + BLEED, uppery=H + BLEED)
    back(c, title)
    c.endForm()
    for s in range(sheets):
        chunk = rows[s * per:(s + 1) * per]
        for side in ("表 front", "裏 back"):
            xy = slots(mirror=side != "表 front")[:len(chunk)]
            for (x, y), row in zip(xy, chunk):
                c.saveState()
                c.translate(x, y)
                front(c, row) if side == "表 front" else c.doForm("back")
                c.restoreState()
            marks(c, xy)
            c.setFillColor(HexColor("#555555"))
            c.setFont("G", 7)
            c.drawString(MARGIN, MARGIN + 1.2 * MM, f"{title} {version} · 天雀カード · {side} · sheet {s + 1}/{sheets}")
            if s == 0 and side == "表 front":
                c.setLineWidth(0.5)
                c.line(PAGE[0] - MARGIN - 100 * MM, MARGIN + 0.5 * MM, PAGE[0] - MARGIN, MARGIN + 0.5 * MM)
                c.drawCentredString(PAGE[0] - MARGIN - 50 * MM, MARGIN + 1.2 * MM, "100 mm · 100%（実際のサイズ）で印刷")
            c.showPage()
    c.save()
    return len(rows)


if __name__ == "__main__":
    t = time.perf_counter()
    n = build(Path(sys.argv[1]), Path(sys.argv[2]))
    dt = time.perf_counter() - t
    print(json.dumps({"seconds": dt, "cards": n, "bytes": Path(sys.argv[2]).stat().st_size}))
