"""Card template + card values → :class:`CardPlan` (pure geometry, pt, trim-relative, y up).

:func:`plan_card` lays out one face: the background, then each element through the planner of
its kind (:data:`cardgen.layout.planners.PLANNERS`), with its expressions guarded and every
failure turned into a finding at the template line; :func:`face_key` names faces that draw the same.
"""
from __future__ import annotations

import hashlib
import json
import re
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Mapping

from jinja2 import TemplateError
from jinja2.exceptions import SecurityError, UndefinedError

from cardgen.core.errors import CardgenError, CardRef, Problem, card_problem
from cardgen.core.sandbox import evaluation, expression_error, is_bounded, is_plain, misread_names
from cardgen.core.size_guards import LimitError
from cardgen.core.units import EPS
from cardgen.data.template_checks import color_problem, is_color
from cardgen.data.template_expr import eval_expr, render_text, sandbox
from cardgen.data.template_model import Element, Template
from cardgen.layout.card_text import ASCENT
from cardgen.layout.face import Face, Frame
from cardgen.layout.icon_names import IconSpec
from cardgen.layout.ops import CardPlan, Rect
from cardgen.layout.overlap import ink_boxes, overlap_message, overlaps
from cardgen.layout.planners import PLANNERS
from cardgen.layout.print_checks import cut_tolerance_message
from cardgen.layout.text import Measure


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
    x, y, w, h = el.box  # pt, y down (converted at validation)
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
              ascent: float = ASCENT, resolve_file=None, exists=None, missing_chars=None, prepare=None,
              icons: Mapping[str, IconSpec] | None = None, without_vertical_form=None) -> LayoutResult:
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
        without_vertical_form: callable ``(font_role, chars) -> [chars without a vertical form]``;
            vertical text using such a character is a warning finding (``no-vertical-form``).

    Returns:
        :class:`LayoutResult`: the plan and findings (text that does not fit at the minimum size
        is an ``error``; text that had to shrink or leaves the safe area is a ``warning``).
    """
    if isinstance(card, str):
        card = CardRef("", card)
    ops: list = []
    findings: list[Problem] = []
    inks: list[tuple[str, int, list]] = []  # (element name, index, the ink of its text): overlaps are warned of
    face = Face(ctx, frame, measure, card, ascent, resolve_file, exists, missing_chars, ops, findings, prepare,
                 dict(icons or {}), without_vertical_form=without_vertical_form)
    if template.background:
        b = frame.bleed
        bg = render_text(template.background, ctx).strip() if "{" in template.background else template.background
        if not is_color(bg):
            findings.append(card_problem("error", card, "background",
                                         f"background: {color_problem(bg, typed_in_yaml=False)}",
                                         "template-expr", *template.source(len(template.elements))))
            bg = "#ffffff"
        ops.append(Rect(-b, -b, frame.width + 2 * b, frame.height + 2 * b, fill=bg))
    #: (column, value) → element name → its keys (fill, stroke, color) reading that cell: a colour
    #: typed wrong in a card cell is one finding naming every element it spoils, not one per element
    cells: dict[tuple[str, str], dict[str, list[str]]] = {}
    for index, (el, plain, colours, own) in enumerate(zip(template.elements, *_element_facts(template))):
        name = el.name or el.kind
        at = template.source(index)
        face.at = at if own else ("", None)
        face.element_at, face.element_text = at, getattr(el, "text", None) or ""
        try:
            with nullcontext() if plain else _guard(template, index, el):
                if el.show_if is not None and not eval_expr(el.show_if, ctx):
                    continue
                if colours:  # per-card colours, e.g. "{{ card.color }}" (literals were checked at load)
                    el = el.model_copy(update={k: render_text(v, ctx).strip() for k, v in colours.items()})
                    wrong = [(k, v) for k in colours if not is_color(v := getattr(el, k))]
                    if wrong:  # a per-card colour expression gave something else
                        for key, value in wrong:
                            column = _CARD_FIELD.match(colours[key])
                            if column:  # a card's cell as typed: one finding per cell, after the elements
                                cells.setdefault((column.group(1), value), {}).setdefault(name, []).append(key)
                            else:
                                findings.append(card_problem("error", card, name,
                                                             f"{key}: {color_problem(value, typed_in_yaml=False)}",
                                                             "template-expr", *template.source(index)))
                        continue
                box = _box(el, frame)
                first = len(ops)
                PLANNERS[el.kind](el, box, name, face)
                if el.kind == "text":
                    inks.append((name, index, ink_boxes(ops[first:], measure, ascent)))
                if el.kind in ("rect", "circle", "text") and (el.kind == "text" or getattr(el, "stroke", None)):
                    stroke = getattr(el, "stroke_width", 0.0) if el.kind != "text" else 0.0
                    msg = cut_tolerance_message(box, frame.width, frame.height, stroke, frame.cut_tolerance)
                    if msg:
                        findings.append(card_problem("warning", card, name, f"the {el.kind} box {msg}", "cut-tolerance",
                                                     *template.source(index)))
        except CardgenError as exc:  # from resolve_file: the card row names the file
            for p in exc.problems:
                findings.append(card_problem("error", card, name, p.message, p.code or "file",
                                             detail={"file": p.file} if p.code == "missing-file" else None))
        except LimitError as exc:
            findings.append(card_problem("error", card, name, f"the template expression asks for too much: {exc}",
                                        "template-limit", *template.source(index)))
        except SecurityError as exc:
            findings.append(card_problem("error", card, name, f"the template expression is not allowed: {exc}",
                                        "template-sandbox", *template.source(index)))
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError, RecursionError) as exc:
            # a misspelt name stops the evaluation: every one the element reads, not the first alone
            misread = _misread(el, ctx) if isinstance(exc, UndefinedError) else []
            for msg in misread or [expression_error(exc, ctx, repr(el))]:
                findings.append(card_problem("error", card, name, f"template expression failed: {msg}",
                                             "template-expr", *template.source(index)))
    for (column, value), uses in cells.items():  # the mistake is in the card table: at the card's row
        named = [f"{n!r} ({', '.join(keys)})" for n, keys in uses.items()]
        read = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        findings.append(card_problem("error", card, column, f"{value!r} is not a colour; the template's {read} "
                                     f"read{'s' if len(uses) == 1 else ''} this cell", "bad-colour"))
    for name_a, name_b, where in overlaps([(n, boxes) for n, _i, boxes in inks]):
        index = next(i for n, i, _b in inks if n == name_a)
        findings.append(card_problem("warning", card, name_a, overlap_message(name_a, name_b, where, frame.height),
                                     "text-overlap", *template.source(index)))
    key = face_key(template, frame, ctx.get("card"))
    return LayoutResult(CardPlan(frame.width, frame.height, frame.bleed, ops, key), findings)



def _misread(el: Element, ctx: dict[str, Any]) -> list[str]:
    """Every name element ``el``'s expressions read that the card's context ``ctx`` lacks
    (:func:`cardgen.core.sandbox.misread_names`), in the order of its fields."""
    f = el.__dict__
    sources = [(f.get(k), False) for k in ("text", "file", "icon", "fill", "stroke", "color")]
    sources += [(el.show_if, True), (f.get("repeat"), True)]
    try:
        return misread_names(sandbox(), [(v, whole) for v, whole in sources if isinstance(v, str)], ctx)
    except TemplateError:  # (syntax errors were reported at load)
        return []


#: A colour field that is one card value as typed (``{{ card.colour }}``): its mistakes are the card table's.
_CARD_FIELD = re.compile(r"^\{\{\s*card\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")


def _element_facts(template: Template) -> tuple[list[bool], list[dict[str, str]], list[bool]]:
    """Per element of ``template``, worked out once per template object: whether its expressions
    only read values and its ``if:``/``repeat:`` can neither loop nor build
    (:func:`cardgen.core.sandbox.is_bounded`): no per-call guard needed, see :func:`_guard`; its colour fields that
    are expressions (``{"fill": "{{ card.color }}"}``; literal colours were checked at load); and whether
    none of its fields names ``card`` (its values are the template's own: a finding about it is
    placed at the template's line, e.g. ``icon: coinn`` or a glyph missing from ``{{ game.title }}``)."""
    facts = template._facts
    if facts is None:
        plain, colours, own = [], [], []
        for el in template.elements:
            f = el.__dict__  # the element's fields (every kind has its own set)
            sources = [f.get(k) for k in ("text", "file", "icon", "fill", "stroke", "color")]
            plain.append(all(is_plain(v) for v in sources if isinstance(v, str))
                         and all(v is None or is_bounded(v) for v in (el.show_if, f.get("repeat"))))
            colours.append({k: v for k in ("fill", "stroke", "color") if isinstance(v := f.get(k), str) and "{" in v})
            own.append(not _CARD_NAME.search(el.model_dump_json()))
        facts = template._facts = (plain, colours, own)
    return facts


_CARD_NAME = re.compile(r"\bcard\b")


def reads_card(template: Template) -> bool:
    """Whether any field of ``template`` (its background, an element's text, ``if:``, colours…)
    names ``card``. A template that does not lays out the same face for every card of a
    component, e.g. one back for the whole deck: the other names (``game``, ``design``,
    ``tables``) are the same for all of them. Errs towards True: a field merely containing the
    word (an element named ``card``) counts; the template's description does not."""
    return bool(_CARD_NAME.search(template.model_dump_json(exclude={"description"})))


def _guard(template: Template, index: int, el):
    """The per-call guard of one element's expressions (:func:`cardgen.core.sandbox.evaluation`: time,
    size allowance, ``file:line`` for the build budget)."""
    file, line = template.source(index)
    return evaluation(f"{file}:{line}" if line else file, f"the expressions of element {el.name or el.kind!r}")

