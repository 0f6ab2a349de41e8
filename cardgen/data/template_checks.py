"""Checks of a card template beyond its model: expressions that do not compile, sizes and literal
colours that cannot be drawn (at load, :func:`check_expressions`, :func:`check_values`), and what
only the card size and the fonts tell (:func:`geometry_problems`). Every problem at its template line.
"""
from __future__ import annotations

from jinja2 import TemplateSyntaxError

from cardgen.core.colours import parse_colour
from cardgen.core.errors import CardgenError, Problem, did_you_mean
from cardgen.core.units import MM
from cardgen.data.fields import as_mm
from cardgen.data.template_expr import compile_expr, compile_text
from cardgen.data.template_model import Template


def is_color(value: str) -> bool:
    """``#rgb``, ``#rrggbb``, ``#rrggbbaa`` or a CSS colour name (:mod:`cardgen.core.colours`)."""
    return parse_colour(value) is not None


def color_problem(value: str, typed_in_yaml: bool = True) -> str:
    """The message for a colour that is none of those forms (see :func:`is_color`). A colour typed
    in the template (``typed_in_yaml``) is reminded that YAML reads an unquoted ``#`` as a comment;
    one an expression made (a card cell, a computed value) is not: no YAML was involved."""
    return (f"{value!r} is not a colour; write #rgb, #rrggbb, #rrggbbaa or a CSS colour name, e.g. \"#1a2b3c\" "
            "or white" + (" (quote a # colour: # starts a YAML comment)" if typed_in_yaml else ""))


#: Largest coordinate, size, stroke, radius or gap a template may give, mm (a 3.5e19 mm box made
#: reportlab fail inside; a card is at most 600 mm, cardgen.check.print_setup.MAX_PIECE_MM).
MAX_BOX_MM = 10_000.0


def check_values(template: Template, src) -> None:
    """Sizes and literal colours that cannot be drawn, at their template lines: a box with no
    width or height, font sizes of 0, a min_size above the size, negative strokes, and colours
    that are none of ``#rgb``, ``#rrggbb``, ``#rrggbbaa``, a CSS name (``#12``, ``reddish``). Raises CardgenError with every problem."""
    problems = []

    def bad(i, key, message, hint):
        path = ("elements", i, key) if i is not None else (key,)
        problems.append(src.problem(path, message, hint, code="template-value", data=template))

    if template.background and "{" not in template.background and not is_color(template.background):
        bad(None, "background", color_problem(template.background), "background: \"#ffffff\"")
    for i, el in enumerate(template.elements):
        x, y, w, h = el.box  # pt
        shown = [as_mm(v) for v in el.box]
        if any(abs(v) > MAX_BOX_MM * MM for v in el.box):
            bad(i, "box", f"the box [x, y, w, h] = {shown} reaches beyond {MAX_BOX_MM:,.0f} mm",
                "boxes are [x, y, width, height] in mm from the trim's top-left corner; a card is at most 600 mm")
            continue
        if el.kind != "line" and (w <= 0 or h <= 0):
            bad(i, "box", f"the box [x, y, w, h] = {shown} has no area (w and h must be more than 0 mm)",
                "boxes are [x, y, width, height] in mm from the trim's top-left corner")
        for key in ("fill", "stroke", "color"):
            v = getattr(el, key, None)
            if v is not None and "{" not in v and not is_color(v):
                bad(i, key, color_problem(v), "an expression such as {{ card.color }} must give a colour too")
        if el.kind == "text":
            if not 0 < el.size <= 500:
                bad(i, "size", f"the font size {el.size:g} pt is out of range (more than 0, at most 500)", "e.g. size: 9")
            if el.min_size is not None and not 1 <= el.min_size <= el.size:
                bad(i, "min_size", f"min_size {el.min_size:g} pt must be from 1 pt up to the size ({el.size:g} pt)",
                    "text below about 5 pt is hard to read; e.g. min_size: 6")
            if el.max_size is not None and not el.size <= el.max_size <= 500:
                bad(i, "max_size", f"max_size {el.max_size:g} pt must be from the size ({el.size:g} pt) up to 500 pt",
                    f"the text grows from size up to max_size where it has room; e.g. max_size: {el.size + 2:g}")
            if not 0 < el.leading <= 10:
                bad(i, "leading", f"leading {el.leading:g} is out of range (more than 0, at most 10)", "e.g. 1.35")
        for key in ("stroke_width", "radius", "gap"):  # stroke_width: pt as written; radius, gap: pt, shown in mm
            value = getattr(el, key, 0)
            limit, shown_value = (MAX_BOX_MM, value) if key == "stroke_width" else (MAX_BOX_MM * MM, as_mm(value))
            if value < 0:
                bad(i, key, f"{key} {shown_value:g} is negative", "use 0 or more")
            elif value > limit:
                bad(i, key, f"{key} {shown_value:g} is more than {MAX_BOX_MM:,.0f} mm", "e.g. 0.5")
    if problems:
        raise CardgenError(problems)


def geometry_problems(template: Template, card_mm: tuple[float, float], bleed_mm: float,
                      roles: set[str] | None = None) -> list[Problem]:
    """Problems only the card size and the fonts tell: a box lying wholly outside the card
    (``card_mm``, w × h) and its bleed (``bleed_mm``) — it would never print, and a text ``font`` role that the font set lacks (it would
    silently fall back to ``body``)."""
    out = []
    cw, ch = card_mm
    b = bleed_mm * MM
    for i, el in enumerate(template.elements):
        file, line = template.source(i)
        x, y, w, h = el.box  # pt
        x0, x1, y0, y1 = min(x, x + w), max(x, x + w), min(y, y + h), max(y, y + h)
        if x1 < -b or y1 < -b or x0 > cw * MM + b or y0 > ch * MM + b:
            out.append(Problem(file, line, f"elements → {el.name or i} → box",
                               f"the box {[as_mm(v) for v in el.box]} lies outside the card ({cw:g} × {ch:g} mm) and would never "
                               "print", "boxes are [x, y, width, height] in mm from the trim's top-left corner",
                               code="box-outside"))
        if roles is not None and el.kind == "text" and el.font not in roles:
            out.append(Problem(file, line, f"elements → {el.name or i} → font",
                               f"no font role {el.font!r}" + did_you_mean(el.font, roles), "roles: " + ", ".join(sorted(roles)) +
                               " (fonts/fonts.yaml or fonts: in game.yaml)", code="unknown-font-role"))
    return out


#: Element attributes holding expressions: attribute → (key as written, whole expression or text with {{ }}).
_EXPRESSIONS = (("text", "text", False), ("show_if", "if", True), ("icon", "icon", False),
                ("repeat", "repeat", True), ("file", "file", False))


#: Full-width braces and percent sign (an IME left on), as the ASCII ones jinja2 reads.
_HALF_WIDTH = str.maketrans({"｛": "{", "｝": "}", "％": "%"})


def full_width_braces(source: str) -> bool:
    """Whether ``source`` holds ``{{ }}`` or ``{% %}`` typed, in part or whole, with full-width
    braces (``｛｛ card.word ｝｝``): jinja2 sees plain text there, and the card would print it."""
    half = source.translate(_HALF_WIDTH)
    if half == source:
        return False
    marks = ("{{", "}}", "{%", "%}")
    return any(half.count(m) > source.count(m) for m in marks)


def check_expressions(template: Template, src) -> None:
    """Compile every expression once, so a syntax error is reported at its line in the template
    (once), not once per card; a text with full-width ``｛｛ ｝｝`` is one too. Raises
    CardgenError with every problem found."""
    problems = []
    for i, el in enumerate(template.elements):
        for attr, key, whole in _EXPRESSIONS:
            source = getattr(el, attr, None)
            if source is not None and not whole and full_width_braces(source):
                problems.append(src.problem(
                    ("elements", i, key), f"{source!r} is typed with full-width ｛ ｝: it is not an expression, "
                    "and every card would print it as written",
                    f"type them half-width (IME off): {source.translate(_HALF_WIDTH)!r}", code="template-full-width",
                    data=template))
                continue
            if source is None or (not whole and "{" not in source):
                continue
            try:
                compile_expr(source) if whole else compile_text(source)
            except TemplateSyntaxError as exc:
                msg = exc.message or "syntax error"
            except RecursionError:
                msg = "nested too deeply"
            else:
                continue
            problems.append(src.problem(("elements", i, key), f"the expression cannot be read: {msg}",
                                        "write fields as {{ card.COLUMN }} in text; `if` and `repeat` take a bare "
                                        "expression such as `card.pon > 0`", code="template-syntax", data=template))
    if problems:
        raise CardgenError(problems)
