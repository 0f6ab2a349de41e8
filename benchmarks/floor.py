"""The floor: the same cards drawn by a minimal hand-written reportlab canvas loop.

The floor draws what cardgen's plans say (same rectangles, same text runs at the same positions,
same font files, same crop marks and page labels) with direct canvas calls: every front drawn in
place, each distinct back once as a form, icons as plain circles. Canvas settings match
cardgen's (invariant, page compression, no ASCII85).

What the floor's clock covers (``draw``): registering the fonts, **fitting every distinct text
box** (the same kinsoku line breaking and shrink-to-fit as cardgen, :func:`cardgen.layout.text.fit_text`,
with reportlab's ``stringWidth`` memoised like cardgen's), drawing, font subsetting, compression
and saving. Not covered: reading the game, evaluating templates, imposition and the drawing list,
which :func:`prepare` extracts from cardgen before the clock starts (a hand-written script would
hard-code most of that). cardgen's clock additionally covers loading and validating the game,
the preflight and report.json (see benchmarks/README.md for the per-phase split).
"""
from __future__ import annotations

from pathlib import Path


def prepare(game_dir: Path) -> dict:
    """Load the game with cardgen and flatten its sheets into plain drawing data (untimed)."""
    from reportlab.pdfbase import pdfmetrics

    from cardgen.api import _plans
    from cardgen.layout.ops import Circle, Icon, Line, Rect, Text
    from cardgen.fonts.fontset import fonts_for
    from cardgen.steps.sheets import SheetOptions, sheet_spec
    from cardgen.check.print_setup import load_and_validate
    from cardgen.layout.sheet import impose
    from cardgen.core.units import parse_length

    import cardgen.layout.card_text as card_text

    game, _report = load_and_validate(game_dir)
    fonts = fonts_for(game)
    boxes: dict[tuple, None] = {}  # every distinct text box cardgen fits: (text, w, h, role, size, min, leading)
    real_fit = card_text.fit_cached

    def record(text, width, height, font, size, min_size, measure, leading):
        boxes.setdefault((text, width, height, font, size, min_size, leading))
        return real_fit(text, width, height, font, size, min_size, measure, leading)

    files = {}
    for role in fonts.roles() + ["body"]:
        f = pdfmetrics.getFont(fonts.name(role))
        files[role] = (f.face.filename, getattr(f.face, "subfontIndex", 0) or 0)

    def flat(plan):
        out = []
        for op in plan.ops:
            if isinstance(op, Text):
                out.append(("t", op.x, op.y, op.text, op.font, op.size, op.color))
            elif isinstance(op, Rect):
                out.append(("r", op.x, op.y, op.w, op.h, op.fill, op.stroke, op.stroke_width, op.radius))
            elif isinstance(op, Circle):
                out.append(("c", op.cx, op.cy, op.r, op.fill, op.stroke, op.stroke_width))
            elif isinstance(op, Line):
                out.append(("l", op.x1, op.y1, op.x2, op.y2, op.width, op.color))
            elif isinstance(op, Icon):
                out.append(("c", op.x + op.size / 2, op.y + op.size / 2, op.size * 0.46, "#e8a317", None, 0))
        return out

    opts = SheetOptions()
    bleed = parse_length(game.manifest.print.bleed)
    pages = []
    cards = 0
    card_text.fit_cached = record
    try:
        plans = _plans(game, fonts)
    finally:
        card_text.fit_cached = real_fit
    for p in plans:
        cards += len(p.fronts)
        spec = sheet_spec(opts, p.size_mm, bleed)
        _grid, plan_pages = impose(len(p.fronts), spec, backs=any(b is not None for b in p.backs))
        for page in plan_pages:
            items = []
            for slot, idx in zip(page.slots, page.card_indexes):
                if page.side == "front":
                    items.append((slot.x, slot.y, None, flat(p.fronts[idx])))
                elif p.backs[idx] is not None:
                    b = p.backs[idx]
                    items.append((slot.x, slot.y, b.key, (b.bleed, b.width, b.height, flat(b))))
            marks = [(ln.x1, ln.y1, ln.x2, ln.y2, ln.width, ln.color) for ln in page.marks]
            pages.append((page.width, page.height, items, marks, f"{game.manifest.game.title} · sheet {page.number}"))
    return {"files": files, "pages": pages, "cards": cards, "boxes": list(boxes)}


def draw(data: dict, path: Path) -> None:
    """Write the floor PDF (timed)."""
    from reportlab import rl_config
    from reportlab.lib.colors import HexColor
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from functools import lru_cache

    from cardgen.layout.text import fit_text

    rl_config.useA85 = 0
    names = {}
    for role, (file, index) in data["files"].items():
        names[role] = f"Floor-{role}"
        pdfmetrics.registerFont(TTFont(names[role], file, subfontIndex=index))

    @lru_cache(maxsize=65536)
    def measure(text: str, role: str, size: float) -> float:
        return pdfmetrics.stringWidth(text, names.get(role, names["body"]), size)

    for text, w, h, role, size, min_size, leading in data["boxes"]:  # the line breaking cardgen does
        fit_text(text, w, h, role, size, min_size, measure, leading)
    colors: dict = {}

    def col(v):
        if v not in colors:
            colors[v] = HexColor(v)
        return colors[v]

    def ops(c, items):
        for op in items:
            k = op[0]
            if k == "t":
                c.setFillColor(col(op[6]))
                c.setFont(names.get(op[4], names["body"]), op[5])
                c.drawString(op[1], op[2], op[3])
            elif k == "r":
                if op[5]:
                    c.setFillColor(col(op[5]))
                if op[6]:
                    c.setStrokeColor(col(op[6]))
                    c.setLineWidth(op[7])
                s, f = int(bool(op[6] and op[7])), int(bool(op[5]))
                if op[8]:
                    c.roundRect(op[1], op[2], op[3], op[4], op[8], stroke=s, fill=f)
                elif s or f:
                    c.rect(op[1], op[2], op[3], op[4], stroke=s, fill=f)
            elif k == "c":
                if op[4]:
                    c.setFillColor(col(op[4]))
                c.circle(op[1], op[2], op[3], stroke=int(bool(op[5] and op[6])), fill=int(bool(op[4])))
            elif k == "l":
                c.setStrokeColor(col(op[6]))
                c.setLineWidth(op[5])
                c.line(op[1], op[2], op[3], op[4])

    c = Canvas(str(path), invariant=1, pageCompression=1, initialFontName=names["body"])
    forms: set = set()
    for w, h, items, marks, label in data["pages"]:
        c.setPageSize((w, h))
        for x, y, key, face in items:
            if key is None:
                c.saveState()
                c.translate(x, y)
                ops(c, face)
                c.restoreState()
            else:
                if key not in forms:
                    b, fw, fh, fops = face
                    c.beginForm(key, lowerx=-b, lowery=-b, upperx=fw + b, uppery=fh + b)
                    ops(c, fops)
                    c.endForm()
                    forms.add(key)
                c.saveState()
                c.translate(x, y)
                c.doForm(key)
                c.restoreState()
        for x1, y1, x2, y2, lw, color in marks:
            c.setStrokeColor(col(color))
            c.setLineWidth(lw)
            c.line(x1, y1, x2, y2)
        c.setFillColor(col("#555555"))
        c.setFont(names["body"], 7)
        c.drawString(14, 17, label)
        c.showPage()
    c.save()
