"""Card template + card values → :class:`CardPlan` (pure geometry, pt, trim-relative, y up)."""
from __future__ import annotations

import hashlib
import json
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from jinja2 import TemplateError
from jinja2.exceptions import SecurityError

from cardgen.core.errors import CardgenError, CardRef, Problem, Severity, card_problem
from cardgen.layout.icon_names import BUILTIN_ICONS, IconSpec, unknown_icon
from cardgen.layout.print_checks import cut_tolerance_message, small_text_message
from cardgen.layout.ops import CardPlan, Circle, GameIcon, Icon, Image, Line, Rect, Text, TurnedIcon, TurnedText
from cardgen.layout.text import Fitted, Measure, fit_text, ruby_size, runs
from cardgen.core.sandbox import evaluation, expression_error, is_plain
from cardgen.core.size_guards import LimitError
from cardgen.data.template import (CircleElement, Element, IconElement, IconsElement, ImageElement, LineElement,
                                   RectElement, Template, TextElement, color_problem, eval_expr, is_color,
                                   render_text)
from cardgen.core.units import EPS, MM
from cardgen.core.unicode_text import forms

MAX_ICONS = 100  #: icons one `icons` box may repeat


def shared_face_findings(template: Template, component: str, side: str,
                         findings: list[Problem]) -> list[Problem]:
    """Findings of a face that is the same on every card of ``component`` (e.g. one back for the
    whole deck), said once: named ``"<component> <side>"`` and placed at the template element
    (file and line of ``templates/cards/<name>.yaml``) instead of at a card row."""
    names = [el.name or el.kind for el in template.elements]
    out = []
    shared = CardRef(component, "", face=side)
    for f in findings:
        file, line = (f.file, f.line) if f.file != f.card.file else (None, None)
        if not file:
            file, line = template.source(names.index(f.field)) if f.field in names else (template.source(0)[0], None)
        out.append(card_problem(f.severity, shared, f.field, f.message, f.code, file, line, f.detail))
    return out


@dataclass
class Frame:
    """Card geometry in pt: trim width/height, bleed, safe inset."""

    width: float
    height: float
    bleed: float
    safe: float
    cut_tolerance: float = 3 * MM  #: frames and text boxes keep this far from the trim, or reach it


def face_key(template: Template, frame: Frame, values: Any) -> str:
    """The key of a face: the template's content, the card geometry (pt) and the card's values.

    Faces with equal keys draw the same (within one game, whose ``game``/``design``/``tables``
    are the same for every card), so renderers draw them once. Content, never ``id()``: an
    object's id is reused once it is freed, which let a back share a front's key."""
    geometry = [round(v, 4) for v in (frame.width, frame.height, frame.bleed, frame.safe, frame.cut_tolerance)]
    return hashlib.sha1(json.dumps([template.digest(), geometry, values], sort_keys=True,
                                   default=str).encode()).hexdigest()


@dataclass
class LayoutResult:
    """A laid-out face: its plan (ops in pt) and what layout found (overflow, shrunk text, missing glyphs)."""
    plan: CardPlan
    findings: list[Problem] = field(default_factory=list)


def _box(el: Element, frame: Frame) -> tuple[float, float, float, float]:
    x, y, w, h = (v * MM for v in el.box)
    X, Y = x, frame.height - y - h
    if el.bleed:
        b = frame.bleed
        if X <= EPS:
            w += b + X
            X = -b
        if Y <= EPS:
            h += b + Y
            Y = -b
        if X + w >= frame.width - EPS:
            w = frame.width + b - X
        if Y + h >= frame.height - EPS:
            h = frame.height + b - Y
    return X, Y, w, h


def plan_card(template: Template, ctx: dict[str, Any], frame: Frame, measure: Measure, card: CardRef | str,
              ascent: float = 0.88, resolve_file=None, exists=None, missing_chars=None, prepare=None,
              icons: Mapping[str, IconSpec] | None = None) -> LayoutResult:
    """Lay out one card face.

    Args:
        template: the face template.
        ctx: expression context: ``card`` (values), ``game``, ``design``.
        frame: card geometry (pt).
        measure: text width function ``(text, font_role, size_pt) -> pt``.
        card: the face findings point at (:class:`CardRef`: component, card id, row, face); a
            plain string is a label only (``"battle b3-pon"``, no row).
        ascent: font ascent as a fraction of the size (for placing the first baseline).
        resolve_file: callable mapping an image file name to a path string; a CardgenError it
            raises (missing file, path outside the game, image too large) becomes an error finding.
        missing_chars: callable ``(font_role, text) -> [chars the font lacks]``; text using a
            character its font cannot show is an error finding (it would print as a blank box).
        exists: callable ``(path) -> bool``; a missing image becomes an ``error`` finding
            (``missing-file``) instead of an op. Layout never opens the file.
        prepare: callable ``(font_role, text) -> text``: the text as that font draws it (NFC,
            invisible characters dropped, variation sequences — ``FontSet.prepare`` in cardgen.fonts), applied
            to every text element before its glyphs are checked, measured and placed.
        icons: the game's own icons (``icons:`` in game.yaml), name → :class:`IconSpec`; they are
            known names besides the built-in ones and become :class:`GameIcon` ops.

    Returns:
        :class:`LayoutResult`: the plan and findings (text that does not fit at the minimum size
        is an ``error``; text that had to shrink or leaves the safe area is a ``warning``).
    """
    if isinstance(card, str):
        card = CardRef("", card)
    ops: list = []
    findings: list[Problem] = []
    face = _Face(ctx, frame, measure, card, ascent, resolve_file, exists, missing_chars, ops, findings, prepare,
                 dict(icons or {}))
    if template.background:
        b = frame.bleed
        bg = render_text(template.background, ctx).strip() if "{" in template.background else template.background
        if not is_color(bg):
            findings.append(card_problem("error", card, "background", f"background: {color_problem(bg)}",
                                        "template-expr", *template.source(len(template.elements))))
            bg = "#ffffff"
        ops.append(Rect(-b, -b, frame.width + 2 * b, frame.height + 2 * b, fill=bg))
    for index, (el, plain, colours) in enumerate(zip(template.elements, *_element_facts(template))):
        name = el.name or el.kind
        try:
            with nullcontext() if plain else _guard(template, index, el):
                if el.show_if is not None and not eval_expr(el.show_if, ctx):
                    continue
                if colours:  # per-card colours, e.g. "{{ card.color }}" (literals were checked at load)
                    el = el.model_copy(update={k: render_text(v, ctx).strip() for k, v in colours.items()})
                    wrong = [(k, v) for k in colours if not is_color(v := getattr(el, k))]
                    if wrong:  # a per-card colour expression gave something else
                        findings.append(card_problem("error", card, name,
                                                     f"{wrong[0][0]}: {color_problem(wrong[0][1])}",
                                                     "template-expr", *template.source(index)))
                        continue
                box = _box(el, frame)
                PLANNERS[el.kind](el, box, name, face)
                if el.kind in ("rect", "circle", "text") and (el.kind == "text" or getattr(el, "stroke", None)):
                    stroke = getattr(el, "stroke_width", 0.0) if el.kind != "text" else 0.0
                    msg = cut_tolerance_message(box, frame.width, frame.height, stroke, frame.cut_tolerance)
                    if msg:
                        findings.append(card_problem("warning", card, name, f"the {el.kind} box {msg}", "cut-tolerance",
                                                     *template.source(index)))
        except CardgenError as exc:  # from resolve_file: the card row names the file
            for p in exc.problems:
                findings.append(card_problem("error", card, name, p.message, p.code or "file"))
        except LimitError as exc:
            findings.append(card_problem("error", card, name, f"the template expression asks for too much: {exc}",
                                        "template-limit", *template.source(index)))
        except SecurityError as exc:
            findings.append(card_problem("error", card, name, f"the template expression is not allowed: {exc}",
                                        "template-sandbox", *template.source(index)))
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError, RecursionError) as exc:
            msg = expression_error(exc, ctx, repr(el))
            findings.append(card_problem("error", card, name, f"template expression failed: {msg}", "template-expr",
                                        *template.source(index)))
    key = face_key(template, frame, ctx.get("card"))
    return LayoutResult(CardPlan(frame.width, frame.height, frame.bleed, ops, key), findings)


@dataclass
class _Face:
    """One card face being laid out: what every element planner reads, and the ops and findings
    it adds (see :func:`plan_card` for the callables)."""

    ctx: dict[str, Any]
    frame: Frame
    measure: Measure
    card: CardRef
    ascent: float
    resolve_file: Callable | None
    exists: Callable | None
    missing_chars: Callable | None
    ops: list
    findings: list[Problem]
    prepare: Callable | None = None
    icons: dict[str, IconSpec] = field(default_factory=dict)

    def found(self, severity: Severity, name: str, message: str, code: str) -> None:
        """Add a finding about element ``name`` of this face (at the card's row)."""
        self.findings.append(card_problem(severity, self.card, name, message, code))

    def icon(self, icon: str, element: str, x: float, y: float, size: float, check: bool = True):
        """The op of icon ``icon`` in the square ``x, y, size`` (pt): a :class:`GameIcon` for one
        of the game's own icons, else a built-in :class:`Icon`; an unknown name is an error
        finding naming the closest known name (the op still draws a grey square on a proof)."""
        message = unknown_icon(icon, BUILTIN_ICONS + tuple(self.icons)) if check else None
        if message:
            self.found("error", element, message, "unknown-icon")
        spec = self.icons.get(icon)
        if spec is not None:
            return GameIcon(icon, x, y, size, spec.file, spec.label, spec.label_colour)
        return Icon(icon, x, y, size)


#: ``(element, box, name, face)``: add the element's ops (and findings) to ``face``; ``box`` is
#: ``(x, y, w, h)`` in pt, trim-relative, y up (:func:`_box`), ``name`` names it in findings.
Planner = Callable[[Any, tuple[float, float, float, float], str, _Face], None]
#: The planner of each element kind (one per model in :data:`cardgen.data.template.ELEMENT_KINDS`).
PLANNERS: dict[str, Planner] = {}


def planner(kind: str) -> Callable[[Planner], Planner]:
    """Decorator: register the planner of element ``kind``."""
    def register(fn: Planner) -> Planner:
        PLANNERS[kind] = fn
        return fn
    return register


@planner("rect")
def _plan_rect(el: RectElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    face.ops.append(Rect(X, Y, W, H, el.fill, el.stroke, el.stroke_width, el.radius * MM))


@planner("circle")
def _plan_circle(el: CircleElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    r = min(W, H) / 2
    face.ops.append(Circle(X + W / 2, Y + H / 2, r, el.fill, el.stroke, el.stroke_width))


@planner("line")
def _plan_line(el: LineElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    face.ops.append(Line(X, Y + H, X + W, Y, el.stroke_width or 0.5, el.stroke or el.color))


@planner("icon")
def _plan_icon(el: IconElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    icon = el.icon or ""
    if "{" in icon:
        icon = render_text(icon, face.ctx)
    s = min(W, H)
    face.ops.append(face.icon(icon, name, X + (W - s) / 2, Y + (H - s) / 2, s))


@planner("icons")
def _plan_icons(el: IconsElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    n = max(0, int(eval_expr(el.repeat, face.ctx))) if el.repeat else 1
    if n > MAX_ICONS:
        face.found("error", name, f"`repeat` gives {n} icons; a box holds at most {MAX_ICONS}", "icons-overflow")
        n = 0
    s = H
    gap = el.gap * MM
    total = n * s + max(0, n - 1) * gap
    x0 = X + {"left": 0, "center": (W - total) / 2, "right": W - total}[el.align]
    for i in range(n):  # an unknown name is reported once, with the first icon
        face.ops.append(face.icon(el.icon or "power", name, x0 + i * (s + gap), Y, s, check=i == 0))
    if total > W + EPS:
        face.found("warning", name, f"{n} icons need {total / MM:.1f} mm, the box is {W / MM:.1f} mm", "icons-overflow")


@planner("image")
def _plan_image(el: ImageElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    src = render_text(el.file or "", face.ctx)
    if src:
        path = face.resolve_file(src) if face.resolve_file else src
        if face.exists is not None and not face.exists(path):
            face.found("error", name, f"the image {src!r} does not exist{forms(src)}", "missing-file")
        else:
            face.ops.append(Image(path, X, Y, W, H, clip=(X, Y, W, H), fit=el.fit))


@planner("text")
def _plan_text_element(el: TextElement, box, name: str, face: _Face) -> None:
    X, Y, W, H = box
    text = render_text(el.text or "", face.ctx)
    if face.prepare is not None:
        text = face.prepare(el.font, text)
    if face.missing_chars is not None:
        lacking = face.missing_chars(el.font, text.replace("\\n", "\n"))
        if lacking:
            face.found("error", name, f"the {el.font} font has no glyph for {' '.join(lacking)} (U+"
                       + ", U+".join(f"{ord(c):04X}" for c in lacking) + ")", "missing-glyph")
    _plan_text(el, text, X, Y, W, H, name, face)


def _element_facts(template: Template) -> tuple[list[bool], list[dict[str, str]]]:
    """Per element of ``template``, worked out once per template object: whether its expressions
    only read values (no per-call guard needed, see :func:`_guard`), and its colour fields that
    are expressions (``{"fill": "{{ card.color }}"}``; literal colours were checked at load)."""
    facts = template._facts
    if facts is None:
        plain, colours = [], []
        for el in template.elements:
            f = el.__dict__  # the element's fields (every kind has its own set)
            sources = [f.get(k) for k in ("text", "file", "icon", "fill", "stroke", "color")]
            plain.append(all(is_plain(v) for v in sources if isinstance(v, str))
                         and el.show_if is None and f.get("repeat") is None)
            colours.append({k: v for k in ("fill", "stroke", "color") if isinstance(v := f.get(k), str) and "{" in v})
        facts = template._facts = (plain, colours)
    return facts


def _guard(template: Template, index: int, el):
    """The per-call guard of one element's expressions (:func:`cardgen.core.sandbox.evaluation`: time,
    size allowance, ``file:line`` for the build budget)."""
    file, line = template.source(index)
    return evaluation(f"{file}:{line}" if line else file, f"the expressions of element {el.name or el.kind!r}")


_FIT_CACHE: dict[tuple, Fitted] = {}
_FIT_CACHE_MAX = 2048  # plans are kept per distinct face, so this only serves text shared between rows


def fit_cached(text: str, width: float, height: float, font: str, size: float, min_size: float,
               measure: Measure, leading: float) -> Fitted:
    """:func:`fit_text`, memoised per (text, box, font, sizes, leading, measure).

    The same text in the same box (a fixed label, a shared back, copies of a card) is fitted
    once per process. The result is shared: callers must not mutate it.
    """
    key = (text, width, height, font, size, min_size, leading, measure)
    hit = _FIT_CACHE.get(key)
    if hit is None:
        if len(_FIT_CACHE) >= _FIT_CACHE_MAX:
            _FIT_CACHE.clear()
        hit = _FIT_CACHE[key] = fit_text(text, width, height, font, size, min_size, measure, leading)
    return hit


def _plan_text(el: TextElement, text: str, X: float, Y: float, W: float, H: float, name: str, face: _Face) -> None:
    frame, measure, ascent, card, ops, findings = face.frame, face.measure, face.ascent, face.card, face.ops, face.findings
    if not text.strip():
        return
    min_size = el.min_size if el.min_size is not None else el.size
    fitted = fit_cached(text, W, H, el.font, el.size, min_size, measure, el.leading)
    if not fitted.fits:
        findings.append(card_problem(
            "error", card, name,
            f"the text does not fit its box ({W / MM:.1f} × {H / MM:.1f} mm) even at {min_size:g} pt: {text[:40]!r}",
            "text-overflow"))
    elif fitted.shrunk:
        findings.append(card_problem("warning", card, name,
                                    f"the text was shrunk from {el.size:g} pt to {fitted.size:g} pt to fit", "text-shrunk"))
    small = small_text_message(fitted.size, el.min_size)
    if small:
        findings.append(card_problem("warning", card, name, small, "small-text"))
    s = fitted.size
    first = len(ops)
    raise_ = [ruby_size(s) if ln.has_ruby else 0.0 for ln in fitted.lines]  # room for ruby above a line
    block = s * ascent + (len(fitted.lines) - 1) * fitted.leading + sum(raise_)
    top = Y + H
    if el.valign == "middle":
        top = Y + H - (H - block - s * 0.12) / 2
    elif el.valign == "bottom":
        top = Y + block + s * 0.12
    safe = frame.safe
    for i, line in enumerate(fitted.lines):
        base = top - s * ascent - i * fitted.leading - sum(raise_[:i + 1])
        x = X + {"left": 0.0, "center": (W - line.width) / 2, "right": W - line.width}[el.align]
        if x < safe - EPS or x + line.width > frame.width - safe + EPS or base - 0.12 * s < safe - EPS \
                or base + s * ascent > frame.height - safe + EPS:
            findings.append(card_problem("warning", card, name, "text reaches outside the safe area", "outside-safe"))
        for kind, value in runs(line):
            if kind == "icon":
                ops.append(face.icon(value, name, x + s * 0.025, base - s * 0.12, s * 1.0))
                x += s * 1.05
            elif kind == "ruby":  # group ruby: the reading centred over the base, both centred in the atom
                text_, reading = value
                rs = ruby_size(s)
                bw, rw = measure(text_, el.font, s), measure(reading, el.font, rs)
                aw = max(bw, rw - rs)  # the reading may overhang each neighbour by half a ruby em
                ops.append(Text(x + (aw - bw) / 2, base, text_, el.font, s, el.color))
                ops.append(Text(x + (aw - rw) / 2, base + s * ascent + rs * 0.12, reading, el.font, rs, el.color))  # em boxes touch
                x += aw
            else:
                ops.append(Text(x, base, value, el.font, s, el.color))
                x += measure(value, el.font, s)
    if el.rotate == 180:  # turned about the box centre: read from across the table
        ops[first:] = [_turned(op, X + W / 2, Y + H / 2) for op in ops[first:]]
    if not fitted.fits:  # a forced build prints the card: the proof shows where the text does not fit
        ops.extend(overflow_mark(X, Y, W, H))


def _turned(op, cx: float, cy: float):
    """``op`` turned 180° about ``(cx, cy)`` (pt): text becomes :class:`TurnedText` anchored at
    the mirrored baseline start; an inline icon becomes :class:`TurnedIcon` (a game's own icon a
    :class:`GameIcon` with ``angle`` 180), its square moved to the mirrored place and the drawing
    turned upside down in it."""
    if isinstance(op, Text):
        return TurnedText(2 * cx - op.x, 2 * cy - op.y, op.text, op.font, op.size, op.color, 180.0)
    if isinstance(op, Icon):
        return TurnedIcon(op.name, 2 * cx - op.x - op.size, 2 * cy - op.y - op.size, op.size, 180.0)
    if isinstance(op, GameIcon):
        return replace(op, x=2 * cx - op.x - op.size, y=2 * cy - op.y - op.size, angle=(op.angle + 180.0) % 360)
    return op


OVERFLOW_COLOR = "#e0001b"  #: dashes of the outline around a text box whose text does not fit
OVERFLOW_GAP_COLOR = "#ffffff"  #: the dashes between them, so the outline shows on any background
_DASH = 1.5 * MM


def overflow_mark(x: float, y: float, w: float, h: float, width: float = 1.0) -> list[Line]:
    """A dashed outline (``Line`` dashes, pt), red and white in turn so it shows on a light or a
    dark card, around the box ``x, y, w, h`` (pt, y up): drawn on top of a card whose text
    overflows its box, so the sheets and PNGs of a forced build show where."""
    out: list[Line] = []
    for (x0, y0, x1, y1) in ((x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)):
        length = abs(x1 - x0) + abs(y1 - y0)
        dx, dy = (x1 - x0) / length, (y1 - y0) / length
        t, k = 0.0, 0
        while t < length - EPS:
            e = min(t + _DASH, length)
            out.append(Line(x0 + dx * t, y0 + dy * t, x0 + dx * e, y0 + dy * e, width,
                            OVERFLOW_GAP_COLOR if k % 2 else OVERFLOW_COLOR))
            t, k = e, k + 1
    return out
