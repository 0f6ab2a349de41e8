"""Duplex calibration sheet: measure how far a printer shifts the backs (pure geometry, pt).

Printed double-sided, the front carries thin crosshairs at five targets (centre and four
points 30 mm in from the corners); the back carries, behind each target, a horizontal and a
vertical millimetre scale. Near the centre, a vernier pair for X and Y (:mod:`cardgen.layout.vernier`:
a main ruler on the front, a vernier on the back) reads the same correction to 0.25 mm. Held against the light, each front line crosses its scale at a
number: read X on the horizontal scale and Y on the vertical one and pass them as
``--back-offset X,Y`` (mm, x right and y down as seen on the back). With a perfect printer both
read 0. Why the number is the correction: if the printer moves the back by +d, the scale mark
labelled −d lands on the front line, and moving the back by −d cancels the shift.

A side mark (表↑ / 裏↑, boxed, off the page centre) shows a wrong long-/short-edge setting at
once: the back's box then shows on the diagonally opposite side instead of behind the front's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.layout.ops import Line, Rect, Text
from cardgen.layout.vernier import vernier
from cardgen.core.units import MM

SCALE_MM = 10  #: each scale runs −10 … +10 mm
GAP = 13 * MM  #: distance of a scale from its target: past the other scale, so they never overlap


@dataclass
class CalibrationPage:
    """One side ("front" or "back") of the duplex calibration sheet: page size and ops in pt."""
    side: str
    width: float
    height: float
    ops: list = field(default_factory=list)


def targets(width: float, height: float, inset: float = 30 * MM) -> list[tuple[float, float]]:
    """Target points on the front page (pt, y up): centre, then the four inset corners."""
    return [(width / 2, height / 2), (inset, height - inset), (width - inset, height - inset),
            (inset, inset), (width - inset, inset)]


def mirror(point: tuple[float, float], width: float, height: float, duplex: str) -> tuple[float, float]:
    """Where a front point lies on the back page. A long-edge flip mirrors across the long edge's
    axis: x on a portrait page, y on a landscape one (``width > height``); short-edge the other."""
    x, y = point
    mirrors_x = (duplex == "long-edge") != (width > height)
    return (width - x, y) if mirrors_x else (x, height - y)


#: Centre of the front's side mark as a fraction of the page width and height: off-centre both
#: ways, so the two flip settings put the back's mark in clearly different places.
MARK_AT = (0.3, 0.72)
MARK_W, MARK_H = 30 * MM, 16 * MM
NOTES_X = 60 * MM  #: left end of the instruction lines

#: The page texts, by language. ``{way}`` is the orientation word.
TEXTS = {
    "ja": {
        "front_word": "表", "back_word": "裏", "mark_size": 28,
        "landscape": "横向きのページ", "portrait": "縦向きのページ",
        "front": ["cardgen 両面印刷の位置合わせ — 表 — {way}",
                  "このPDFを両面で、倍率100%（実際のサイズ）で印刷してください。",
                  "両面の設定（長辺とじ・短辺とじ）は印刷シートと同じにします。",
                  "印刷したら、光にかざして裏を透かして見ます。",
                  "「裏」の枠が「表」の枠にちょうど重なって見えず、紙の対角の側にあるときは、",
                  "長辺とじ・短辺とじの設定が逆です。切り替えて印刷し直してください。"],
        "back": ["cardgen 両面印刷の位置合わせ — 裏 — {way}",
                 "光にかざすと、この「裏」の枠は表の「表」の枠に重なるはずです（対角の側なら長辺・短辺が逆）。",
                 "表の線が目盛りと交わる数字を読みます。横の目盛りで X、縦の目盛りで Y。",
                 "ビルドに --back-offset X,Y を付けます（mm。この面で見て右と下が正）。",
                 "X も Y も 0 なら、このプリンターに補正はいりません。",
                 "0.25 mm まで読むには、中央そばの細い X・Y の目盛り：裏の 0 の線より手前の表の数（mm）に、",
                 "表の線と一直線にそろう裏の線の数（.25 刻み）を足します。cardgen printer add 名前 --offset X,Y で保存。"],
    },
    "en": {
        "front_word": "FRONT", "back_word": "BACK", "mark_size": 14,
        "landscape": "LANDSCAPE page", "portrait": "PORTRAIT page",
        "front": ["cardgen duplex calibration — FRONT — {way}",
                  "Print this PDF double-sided at 100 % (actual size), with the same duplex setting",
                  "(long-edge or short-edge flip) you use for the print sheets.",
                  "Then look at the back against a light.",
                  "If the BACK box does not sit right behind the FRONT box but on the opposite corner,",
                  "the long-edge/short-edge setting is the wrong one: switch it and print again."],
        "back": ["cardgen duplex calibration — BACK — {way}",
                 "Against the light this BACK box covers the FRONT box (opposite corner: wrong flip setting).",
                 "Each front line crosses a scale: read X on the horizontal scales, Y on the vertical ones.",
                 "Build with --back-offset X,Y (mm; x right, y down as seen here).",
                 "Both 0: your printer needs no correction.",
                 "To 0.25 mm, use the fine X and Y rulers near the centre: the front number before the back's 0 line, plus the",
                 "back line (.25 steps) that lines up with a front line. Keep it: cardgen printer add NAME --offset X,Y."],
    },
}


def mark_box(width: float, height: float) -> tuple[float, float, float, float]:
    """The front's side mark as ``x, y, w, h`` (pt, y up): left of and above the page centre."""
    cx, cy = width * MARK_AT[0], height * MARK_AT[1]
    return cx - MARK_W / 2, cy - MARK_H / 2, MARK_W, MARK_H


def calibration_pages(width: float, height: float, duplex: str = "long-edge", font: str = "body",
                      back_offset: tuple[float, float] = (0.0, 0.0), note: str = "",
                      language: str = "en") -> list[CalibrationPage]:
    """Front and back page of the calibration sheet for paper ``width × height`` (pt; landscape
    when ``width > height``, which both pages then say). ``back_offset`` (mm, x right, y down)
    shifts the back like ``--back-offset`` would, so a corrected printer can be checked with a
    second print. ``note``: a line under the heading, e.g. which print sheets share the orientation.
    ``language``: ``"ja"`` or ``"en"`` (a key of :data:`TEXTS`), the language of every word on it.

    Besides the targets, each side carries a side mark — a box with 表 / 裏 (FRONT / BACK) and an
    arrow pointing up — off the page centre (:data:`MARK_AT`). The back's box lies right behind
    the front's for the ``duplex`` flip; printed with the other flip setting, the back turns
    180° against the front and its box shows on the diagonally opposite side.

    Raises:
        KeyError: unknown ``language``.
    """
    words = TEXTS[language]
    way = words["landscape" if width > height else "portrait"]
    dx, dy = back_offset[0] * MM, -back_offset[1] * MM
    front = CalibrationPage("front", width, height)
    back = CalibrationPage("back", width, height)
    # The front lines reach the scales even when the back is shifted the full ±SCALE_MM along the
    # line (the scale then sits GAP + SCALE_MM from the target); they end 5 mm from the paper edge.
    arm = GAP + (SCALE_MM + 2) * MM
    for tx, ty in targets(width, height):
        front.ops += [Line(tx - arm, ty, tx + arm, ty, 0.3), Line(tx, ty - arm, tx, ty + arm, 0.3)]
        front.ops += [Rect(tx - 0.6 * MM, ty - 0.6 * MM, 1.2 * MM, 1.2 * MM, stroke="#000000", stroke_width=0.3)]
        bx, by = mirror((tx, ty), width, height, duplex)
        back.ops += _scales(bx + dx, by + dy, font)
    for axis, (ax, ay) in (("x", VERNIER_X), ("y", VERNIER_Y)):  # the 0.25 mm rulers, near the centre
        vx, vy = mirror((width / 2 + ax, height / 2 + ay), width, height, duplex)
        f_ops, b_ops = vernier(vx, vy, axis, font)
        front.ops += [_mirrored(op, width, height, duplex) for op in f_ops]
        back.ops += [_moved(op, dx, dy) for op in b_ops]
    fx, fy, mw, mh = mark_box(width, height)
    front.ops += _side_mark(fx, fy, words["front_word"], words["mark_size"], font)
    # the same box seen from the back: mirror two opposite corners and take the box between them
    (ax, ay), (bx2, by2) = (mirror((fx, fy), width, height, duplex), mirror((fx + mw, fy + mh), width, height, duplex))
    back_x, back_y = min(ax, bx2) + dx, min(ay, by2) + dy
    back.ops += _side_mark(back_x, back_y, words["back_word"], words["mark_size"], font)
    fill = [note] if note else []
    front.ops += _notes(height, font, [words["front"][0].format(way=way), *fill, *words["front"][1:]], above=False)
    back.ops += _notes(height, font, [words["back"][0].format(way=way), *fill, *words["back"][1:]],
                       above=back_y + MARK_H / 2 < height / 2)  # the half without the back's mark
    return [front, back]


#: Where the vernier rulers' zeros lie on the front, from the page centre (pt): right of the centre
#: target and clear of the instructions (:func:`_notes`) and the side mark.
VERNIER_X = (45 * MM, -16 * MM)
VERNIER_Y = (45 * MM, 4 * MM)


def _mirrored(op, width: float, height: float, duplex: str):
    """A back-page op drawn at the same place of the front (a Line exactly; a Text by its middle)."""
    if isinstance(op, Line):
        (x1, y1), (x2, y2) = mirror((op.x1, op.y1), width, height, duplex), mirror((op.x2, op.y2), width, height, duplex)
        return Line(x1, y1, x2, y2, op.width, op.color)
    half = len(op.text) * op.size * 0.3
    mx, my = mirror((op.x + half, op.y + op.size * 0.35), width, height, duplex)
    return Text(mx - half, my - op.size * 0.35, op.text, op.font, op.size)


def _moved(op, dx: float, dy: float):
    if isinstance(op, Line):
        return Line(op.x1 + dx, op.y1 + dy, op.x2 + dx, op.y2 + dy, op.width, op.color)
    return Text(op.x + dx, op.y + dy, op.text, op.font, op.size)


def _side_mark(x: float, y: float, word: str, size: float, font: str) -> list:
    """A framed ``word`` with an arrow pointing up at its right end, in the box ``x, y`` (pt,
    :data:`MARK_W` × :data:`MARK_H`)."""
    ax = x + MARK_W - 5 * MM
    top, foot = y + MARK_H - 2.5 * MM, y + 2.5 * MM
    return [Rect(x, y, MARK_W, MARK_H, stroke="#000000", stroke_width=1.2),
            Text(x + 2.5 * MM, y + (MARK_H - size * 0.72) / 2, word, font, size),
            Line(ax, foot, ax, top, 1.5),
            Line(ax, top + 0.5, ax - 2.2 * MM, top - 2.6 * MM, 1.5),
            Line(ax, top + 0.5, ax + 2.2 * MM, top - 2.6 * MM, 1.5)]


def _scales(cx: float, cy: float, font: str) -> list:
    ops: list = []
    hy = cy + GAP  # horizontal scale above the target: the front's vertical line crosses it
    vx = cx - GAP  # vertical scale left of the target: the front's horizontal line crosses it
    ops.append(Line(cx - SCALE_MM * MM, hy, cx + SCALE_MM * MM, hy, 0.3))
    ops.append(Line(vx, cy - SCALE_MM * MM, vx, cy + SCALE_MM * MM, 0.3))
    for v in range(-SCALE_MM, SCALE_MM + 1):
        t = (3.0 if v == 0 else 2.0 if v % 5 == 0 else 1.2) * MM
        w = 0.4 if v == 0 else 0.2
        x = cx + v * MM
        ops.append(Line(x, hy, x, hy + t, w))
        y = cy - v * MM  # y down: +v is below the target
        ops.append(Line(vx, y, vx - t, y, w))
        if v % 5 == 0:
            label = f"{v:+d}" if v else "0"
            ops.append(Text(x - len(label) * 1.1, hy + t + 0.8 * MM, label, font, 5))
            ops.append(Text(vx - t - 1 * MM - len(label) * 2.2, y - 1.6, label, font, 5))
    ops.append(Text(cx + SCALE_MM * MM + 1 * MM, hy - 1.6, "X", font, 6))
    ops.append(Text(vx - 1.5, cy - SCALE_MM * MM - 3 * MM, "Y", font, 6))
    return ops


def _notes(height: float, font: str, lines: list[str], above: bool = False) -> list:
    """The instruction lines as Text ops (pt), from :data:`NOTES_X` in (right of the corner
    crosshairs), the first one larger: below the centre crosshair, or above the centre scales
    when ``above``."""
    y0 = height / 2 + 22 * MM + (len(lines) - 1) * 4.5 * MM if above else height / 2 - 30 * MM
    return [Text(NOTES_X, y0 - i * 4.5 * MM, s, font, 8 if i == 0 else 6.5) for i, s in enumerate(lines)]
