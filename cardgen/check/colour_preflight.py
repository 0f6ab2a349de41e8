"""The colour preflight of a print-shop preset: what the CMYK conversion will do to a game's colours,
told before the files are written (``cardgen validate`` and the build, when game.yaml names
``print.shop``; the shop step for ``--preset``).

Pure over the laid-out faces and the preset's ink model; one finding per distinct (component,
side, element kind, value), naming the first card and how many faces show it:

- ``shop-tac`` (warning): a colour needing more ink than the preset's TAC: printed with less C, M,
  Y (darker, duller) — the value, the ink it needs and what it becomes;
- ``shop-not-k-only`` (warning): small text (below 12 pt) or a thin line (below 1 mm) in a dark
  colour that is not a neutral grey: it prints in four inks and blurs when the plates shift;
- ``shop-transparency`` (error, PDF/X-1a presets): a translucent colour or art with alpha;
- ``shop-low-dpi`` (warning): art below the preset's resolution at its printed size.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from cardgen.core.colours import parse_colour
from cardgen.core.errors import Problem, card_problem
from cardgen.layout.ops import Circle, Image, Line, Rect, Text, TurnedText
from cardgen.render.cmyk import InkModel

SMALL_TEXT_PT = 12.0
THIN_MM = 1.0


def _pct(cmyk) -> str:
    return " ".join(f"{n}{round(v * 100)}" for n, v in zip("CMYK", cmyk))


def _uses(op) -> list[tuple[str, str, float]]:
    """(what, colour, size) drawn by ``op``: size in pt (text size, stroke width, fill's smaller side)."""
    if isinstance(op, (Text, TurnedText)):
        return [(f"text 「{op.text[:12]}」", op.color, op.size)]
    if isinstance(op, Line):
        return [("line", op.color, op.width)]
    if isinstance(op, Rect):
        out = []
        if op.fill:
            out.append(("rect fill", op.fill, min(op.w, op.h)))
        if op.stroke and op.stroke_width:
            out.append(("rect outline", op.stroke, op.stroke_width))
        return out
    if isinstance(op, Circle):
        out = []
        if op.fill:
            out.append(("circle fill", op.fill, 2 * op.r))
        if op.stroke and op.stroke_width:
            out.append(("circle outline", op.stroke, op.stroke_width))
        return out
    return []


def colour_findings(plans, model: InkModel | None, shop: str, tac: float | None, x1a: bool, dpi: float,
                    image_dpi: Callable[[Image], float | None]) -> list[Problem]:
    """The findings above over ``plans`` (ComponentPlans). ``model``: the preset's ink model (None
    for an RGB preset: only transparency and resolution are checked); ``image_dpi(op)``: the
    printed resolution of an image op, or None when it cannot be read."""
    found: dict[tuple, list] = {}
    face: tuple = ()

    def note(key: tuple, make) -> None:
        entry = found.get(key)
        if entry is None:
            found[key] = [make, {face}]
        else:
            entry[1].add(face)

    for p in plans:
        for card, front, back in zip(p.cards, p.fronts, p.backs):
            for plan, side in ((front, "front"), (back, "back")):
                if plan is None:
                    continue
                ref = card.ref(side)
                face = (card.row.id, card.copy, side)
                for op in plan.ops:
                    if isinstance(op, Image):
                        got = image_dpi(op)
                        if got is not None and got + 0.5 < dpi:
                            note(("dpi", p.component, side, op.path), lambda ref=ref, op=op, got=got: card_problem(
                                "warning", ref, "image", f"{op.path} prints at {got:.0f} dpi; {shop} wants {dpi:g} dpi",
                                "shop-low-dpi"))
                        continue
                    for what, colour, size in _uses(op):
                        rgba = parse_colour(colour) if colour else None
                        if rgba is None:
                            continue
                        r, g, b, a = rgba
                        if x1a and a < 255:
                            note(("alpha", p.component, side, what, colour), lambda ref=ref, what=what, colour=colour:
                                 card_problem("error", ref, what, f"{colour} is translucent: {shop} wants PDF/X-1a, "
                                              "which cannot carry transparency", "shop-transparency"))
                        if model is None:
                            continue
                        raw = model.raw_colour((r, g, b))
                        if tac is not None and not r == g == b and sum(raw) * 100 > tac + 0.5:  # greys: K only
                            note(("tac", p.component, side, colour), lambda ref=ref, what=what, colour=colour, raw=raw:
                                 card_problem("warning", ref, what,
                                              f"{colour} needs {sum(raw) * 100:.0f} % ink ({_pct(raw)}), over the {tac:g} % "
                                              f"limit of {shop}: printed as {_pct(model.colour(colour_rgb(colour)))}",
                                              "shop-tac"))
                        fine = what.startswith("text") and size < SMALL_TEXT_PT or \
                            what in ("line", "rect outline", "circle outline") and size < THIN_MM * 72 / 25.4
                        if fine and not r == g == b:
                            c, m, y, k = model.colour((r, g, b))
                            if k >= 0.5 and min(c, m, y) > 0.1:
                                note(("k", p.component, side, what.split(" ")[0], colour),
                                     lambda ref=ref, what=what, colour=colour, size=size, c=(c, m, y, k): card_problem(
                                         "warning", ref, what, f"{colour} at {size:g} pt prints in four inks ({_pct(c)}) "
                                         "and blurs when the plates shift; #000000 or a grey prints in K only",
                                         "shop-not-k-only"))
    out = []
    for make, faces in found.values():
        count = len(faces)
        problem = make()
        if count > 1:
            problem = replace(problem, message=problem.message + f" (and {count - 1} more face"
                              f"{'s' if count > 2 else ''} like it)")
        out.append(problem)
    return out


def colour_rgb(value: str) -> tuple[int, int, int]:
    """``value`` (a colour as written) as 8-bit sRGB."""
    r, g, b, _a = parse_colour(value)  # type: ignore[misc]
    return (r, g, b)
