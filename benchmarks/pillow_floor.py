"""The independent PNG floor: the generated deck's card fronts drawn with Pillow alone.

    python benchmarks/pillow_floor.py GAME_DIR OUT_DIR     # {"seconds", "cpu_seconds", "cards", "bytes"} as JSON

No cardgen and no reportlab: each front of benchmarks/gen.py's deck (the character template's
band, frames and text boxes, 63 × 88 mm + 3 mm bleed at 300 dpi = 815 × 1110 px) is drawn with
``ImageDraw`` and IPAex Gothic (``ImageFont.truetype``), text broken greedily and shrunk to fit
(the boxes of benchmarks/raw_floor.py), and saved as one PNG per card with Pillow's default
zlib level, in one process. The clock covers reading the CSV through the last file written;
imports are not timed. What a hand-written Pillow script costs per card on one core.
"""
from __future__ import annotations

import csv
import json
import re
import sys
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from raw_floor import FONT_FILES, FRONT, ICON, NO_END, NO_START

DPI = 300
PX = DPI / 25.4  # px per mm
BLEED = 3


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    for m in ICON.finditer(text):
        out.extend(text[pos:m.start()])
        out.append(m.group(0))
        pos = m.end()
    return out + list(text[pos:])


def _lines(font, text: str, box_w: float, size: float) -> list[list[str]]:
    lines, line, used = [], [], 0.0
    for tok in _tokens(text):
        w = size if len(tok) > 1 else font.getlength(tok)
        if line and used + w > box_w:
            carry = [line.pop()] if tok in NO_START else []
            while line and line[-1] in NO_END:
                carry.insert(0, line.pop())
            lines.append(line)
            line = carry
            used = sum(size if len(t) > 1 else font.getlength(t) for t in carry)
        line.append(tok)
        used += w
    return lines + [line] if line else lines


def draw_card(row: dict, fonts: dict) -> Image.Image:
    w, h = round((63 + 2 * BLEED) * PX), round((88 + 2 * BLEED) * PX)
    img = Image.new("RGB", (w, h), "#fbf7ee")
    d = ImageDraw.Draw(img)

    def mm(x: float) -> int:
        return round((x + BLEED) * PX)

    d.rectangle((0, 0, w, mm(19)), fill="#23395b")
    d.rounded_rectangle((mm(4), mm(22), mm(59), mm(50)), radius=round(2 * PX), outline="#23395b", width=3)
    d.rounded_rectangle((mm(4), mm(53), mm(59), mm(81)), radius=round(2 * PX), fill="#f3e6c4", outline="#8c1c13", width=3)
    for _name, (x, y, bw, bh), fmt, size, min_size, colour, align in FRONT:
        text = fmt.format(**row)
        while True:
            px_size = round(size * DPI / 72)
            if px_size not in fonts:
                fonts[px_size] = ImageFont.truetype(fonts["file"], px_size)
            font = fonts[px_size]
            lines = _lines(font, text, bw * PX, px_size)
            if size <= min_size or len(lines) * px_size * 1.2 <= bh * PX + 1:
                break
            size = max(min_size, size - 0.5)
        ty = mm(y)
        for line in lines:
            lx = mm(x)
            if align == "right":
                lx = mm(x + bw) - sum(px_size if len(t) > 1 else font.getlength(t) for t in line)
            run = ""
            for tok in line:
                if len(tok) > 1:
                    d.text((lx, ty), run, font=font, fill=colour)
                    lx += font.getlength(run)
                    run = ""
                    d.ellipse((lx, ty + px_size * 0.1, lx + px_size * 0.9, ty + px_size), fill="#e8a317")
                    lx += px_size
                else:
                    run += tok
            d.text((lx, ty), run, font=font, fill=colour)
            ty += round(px_size * 1.2)
    return img


def build(game: Path, out: Path) -> tuple[int, int]:
    """Write one PNG per card of ``game`` into ``out``; returns (cards, bytes)."""
    with (game / "characters.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    fonts: dict = {"file": next(f for f in FONT_FILES if Path(f).is_file())}
    out.mkdir(parents=True, exist_ok=True)
    total = 0
    for row in rows:
        path = out / f"{re.sub(r'[^0-9a-z]', '_', row['id'])}.png"
        draw_card(row, fonts).save(path, "PNG", dpi=(DPI, DPI))
        total += path.stat().st_size
    return len(rows), total


if __name__ == "__main__":
    t, cpu = time.perf_counter(), time.process_time()
    n, size = build(Path(sys.argv[1]), Path(sys.argv[2]))
    dt = time.perf_counter() - t
    print(json.dumps({"seconds": dt, "cpu_seconds": time.process_time() - cpu, "cards": n, "bytes": size}))
