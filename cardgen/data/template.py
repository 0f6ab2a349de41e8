"""Card face templates: ``templates/cards/<name>.yaml`` (named boxes bound to card fields).

Boxes are ``[x, y, w, h]`` in mm from the trim's top-left corner, y downwards (as a designer
measures on paper). Text and conditions are jinja2 expressions evaluated in a sandbox with
StrictUndefined: a template can read the card's fields (``card.X``), the game (``game.title``…)
and the design constants (``design.X``), and nothing else — no files, no Python.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from jinja2 import StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.data.yaml_source import load_yaml
from cardgen.data.fields import Colour
from cardgen.data.model_problems import validation_problems
from cardgen.core.sandbox import SafeSandbox, time_budget

Box = tuple[float, float, float, float]


class _T(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class _Element(_T):
    """What every element kind has: its kind, a name, a box, bleed and a condition."""

    kind: str = Field(description="What the box draws.")
    name: str = Field("", description="Name used in messages (e.g. the field it shows).")
    box: tuple[float, float, float, float] = Field(description="[x, y, w, h] in mm from the trim's top-left corner, y down.")
    bleed: bool = Field(False, description="Extend the box into the bleed on every side where it touches the trim.")
    show_if: str | None = Field(None, alias="if", description="Draw only when this expression is true, e.g. `card.pon`.")


_FILL = "Fill colour: `#rgb`, `#rrggbb`, `#rrggbbaa` (opacity) or a CSS name such as `teal` (or an expression in `{{ }}`, e.g. `{{ card.color }}`)."
_STROKE = "Outline colour (expression allowed, as for `fill`)."


class RectElement(_Element):
    """`rect`: a rectangle, filled and/or outlined, corners optionally rounded."""

    kind: Literal["rect"] = Field(description="What the box draws.")
    fill: Colour | None = Field(None, description=_FILL)
    stroke: Colour | None = Field(None, description=_STROKE)
    stroke_width: float = Field(0.0, description="Outline width, pt.")
    radius: float = Field(0.0, description="Corner radius, mm.")


class CircleElement(_Element):
    """`circle`: the largest circle centred in the box."""

    kind: Literal["circle"] = Field(description="What the box draws.")
    fill: Colour | None = Field(None, description=_FILL)
    stroke: Colour | None = Field(None, description=_STROKE)
    stroke_width: float = Field(0.0, description="Outline width, pt.")


class LineElement(_Element):
    """`line`: from the box's bottom-left corner to its top-right one (height 0: a horizontal rule)."""

    kind: Literal["line"] = Field(description="What the box draws.")
    stroke: Colour | None = Field(None, description="Line colour (expression allowed); default: `color`.")
    stroke_width: float = Field(0.0, description="Line width, pt (0 draws 0.5 pt).")
    color: Colour = Field("#000000", description="Line colour when `stroke` is not given.")


class TextElement(_Element):
    """`text`: text fitted into the box (kinsoku line breaks, shrunk down to `min_size`)."""

    kind: Literal["text"] = Field(description="What the box draws.")
    text: str | None = Field(None, description="Text (jinja2 expression syntax inside `{{ }}`), e.g. `{{ card.skill_text }}`.")
    font: str = Field("body", description="Font role (fonts/fonts.yaml).")
    size: float = Field(9.0, description="Preferred font size, pt.")
    min_size: float | None = Field(None, description="Smallest size the text may shrink to, pt (default: size — no shrinking).")
    leading: float = Field(1.35, description="Line height as a multiple of the size.")
    align: Literal["left", "center", "right"] = Field("left", description="Horizontal alignment.")
    valign: Literal["top", "middle", "bottom"] = Field("top", description="Vertical alignment.")
    color: Colour = Field("#000000", description="Text colour (expression allowed, as for `fill`).")
    rotate: Literal[0, 180] = Field(0, description="`180`: the text is turned upside down about the box's centre — a second corner index read from across the table (lay it out as for the top-left corner: `align: left`, `valign: top` land at the bottom right).")


class IconElement(_Element):
    """`icon`: one vector icon, as large as the box allows, centred."""

    kind: Literal["icon"] = Field(description="What the box draws.")
    icon: str | None = Field(None, description="Icon name — built in (`pon`, `chi`, `ron`, `tsumo`, `kan`, each also `<name>_off`, `power`, `power_empty`, `stick_dot`) or one of the game's own (`icons:` in game.yaml) — or an expression giving one.")


class IconsElement(_Element):
    """`icons`: one icon repeated in a row, each as high as the box."""

    kind: Literal["icons"] = Field(description="What the box draws.")
    icon: str | None = Field(None, description="Icon name, as for `icon` (default `power`).")
    repeat: str | None = Field(None, description="How many (expression), e.g. `card.power` (default 1).")
    gap: float = Field(1.0, description="Gap between icons, mm.")
    align: Literal["left", "center", "right"] = Field("left", description="Where the row sits in the box.")


class ImageElement(_Element):
    """`image`: card art from a file in the game folder, clipped to the box."""

    kind: Literal["image"] = Field(description="What the box draws.")
    file: str | None = Field(None, description="File in the game folder (expression allowed).")
    fit: Literal["cover", "contain"] = Field("cover", description="Fill the box (cropping) or fit inside it.")


#: One model per element kind: ``kind`` picks the model, so each kind refuses the keys of the
#: others. A new kind: its model here, and its planner in :data:`cardgen.layout.card.PLANNERS`.
ELEMENT_KINDS: dict[str, type[_Element]] = {
    "rect": RectElement, "text": TextElement, "icon": IconElement, "icons": IconsElement,
    "image": ImageElement, "circle": CircleElement, "line": LineElement,
}
Element = Annotated[Union[tuple(ELEMENT_KINDS.values())], Field(discriminator="kind")]


class Template(_T):
    """A card face: a background colour and elements drawn in order, later ones on top."""

    _file: str = PrivateAttr("")
    _lines: list = PrivateAttr(default_factory=list)
    _digest: str = PrivateAttr("")
    _facts: Any = PrivateAttr(None)  #: per-element facts worked out once by the layout (layout/card.py)

    def digest(self) -> str:
        """A sha1 hex digest of what the template draws (background and elements, not its file
        name or lines): two templates with the same content share it. Part of a face key."""
        if not self._digest:
            import hashlib
            self._digest = hashlib.sha1(self.model_dump_json().encode()).hexdigest()
        return self._digest

    def source(self, index: int) -> tuple[str, int | None]:
        """``(file, line)`` of element ``index`` as loaded (``("", None)`` when built in code)."""
        line = self._lines[index] if index < len(self._lines) else None
        return self._file, line

    description: str = Field("", description="What the template is for.")
    background: Colour | None = Field(None, description="Colour filling the whole face including bleed.")
    elements: list[Element] = Field(default_factory=list, description="Boxes, drawn in order.")


@lru_cache(maxsize=1)
def sandbox() -> ImmutableSandboxedEnvironment:
    """The one jinja2 sandbox used for template expressions, with the filters ``num``
    (:mod:`cardgen.core.numfmt`: ``{{ card.points | num }}`` → ``1,000``) and ``nobreak``
    (:func:`cardgen.core.nobreak.nobreak`: the text is never broken across lines)."""
    from cardgen.core.nobreak import nobreak
    from cardgen.core.numfmt import FILTERS

    env = SafeSandbox(undefined=StrictUndefined, autoescape=False)
    env.filters.update(FILTERS, nobreak=nobreak)
    return env


@lru_cache(maxsize=4096)
def compile_text(source: str):
    """A template string (``"{{ card.name }}"``) compiled in :func:`sandbox`, cached by source.
    Raises jinja2's TemplateSyntaxError (callers report it at the template line)."""
    return sandbox().from_string(source)


@lru_cache(maxsize=4096)
def compile_expr(source: str):
    """An expression (an element's ``if:``) compiled in :func:`sandbox`, cached by source;
    undefined names raise instead of giving None. Raises TemplateSyntaxError."""
    return sandbox().compile_expression(source, undefined_to_none=False)


#: Loaded templates by (path, shown path, content hash), while a caller keeps them (:func:`remember_templates`).
_MEMO: dict | None = None


def remember_templates(memo: dict | None) -> dict | None:
    """Keep every template :func:`load_template` loads in ``memo`` and reuse it while the file's
    bytes are the same (None: stop). Returns the previous memo. The live preview parses each
    template once instead of on every rebuild; a template is never changed after loading."""
    global _MEMO
    before, _MEMO = _MEMO, memo
    return before


def load_template(templates_dir: Path, name: str, referenced_from: str = "", line: int | None = None) -> Template:
    """Load ``templates_dir/<name>.yaml``, parsed once while its bytes stay the same (in the memo
    of :func:`remember_templates` when one is kept, else in this process's own, :data:`_LOADED`).

    Raises:
        CardgenError: missing file (naming the manifest line that asks for it), YAML or schema problems.
    """
    if not plain_name(name):
        raise CardgenError(Problem(referenced_from or "", line, "template",
                                   f"the template name {name!r} is not a plain name",
                                   "name a file in templates/cards/ without `.yaml`, folders or `..`, e.g. `battle`",
                                   code="path-escape"))
    path = templates_dir / f"{name}.yaml"
    if not path.is_file():
        avail = sorted(p.stem for p in templates_dir.glob("*.yaml")) if templates_dir.is_dir() else []
        raise CardgenError(Problem(referenced_from or rel(path), line, "template",
                                   f"the card template {name!r} does not exist ({rel(path)})",
                                   "available: " + (", ".join(avail) or "none"), code="missing-template"))
    from cardgen.data.yaml_source import MAX_YAML_BYTES, read_capped

    import hashlib
    shown = rel(path)
    memo = _MEMO if _MEMO is not None else _LOADED
    key = (str(path.resolve()), shown, hashlib.sha1(read_capped(path, shown, MAX_YAML_BYTES)).hexdigest())
    if key in memo:
        return memo[key]
    template = _load(path)
    if memo is _LOADED and len(_LOADED) >= 256:
        _LOADED.clear()
    memo[key] = template
    return template


def _load(path: Path) -> Template:
    """Parse and check one template file (raises CardgenError)."""
    loaded = load_yaml(path, rel(path))
    if not isinstance(loaded.data, (dict, type(None))):
        raise CardgenError(Problem(loaded.source.file, 1, "", "a card template must be a mapping (description:, elements:)",
                                   code="template-type"))
    try:
        template = Template.model_validate(loaded.data or {})
    except ValidationError as exc:
        raise CardgenError(validation_problems(exc, Template, loaded.source, loaded.data))
    template._file = loaded.source.file
    template._lines = [loaded.source.line(("elements", i)) for i in range(len(template.elements))]
    _check_expressions(template, loaded.source)
    _check_values(template, loaded.source)
    return template


#: Templates loaded without a problem, by (path, path as shown, sha1 of the bytes), when no memo of
#: :func:`remember_templates` is kept: a template named by several components, or checked by
#: validation and then planned, is read once per process. Templates are not changed after
#: loading (a per-card colour makes a copy of its element).
_LOADED: dict[tuple[str, str, str], Template] = {}




def is_color(value: str) -> bool:
    """``#rgb``, ``#rrggbb``, ``#rrggbbaa`` or a CSS colour name (:mod:`cardgen.core.colours`)."""
    from cardgen.core.colours import parse_colour
    return parse_colour(value) is not None


def color_problem(value: str) -> str:
    """The message for a colour that is none of those forms (see :func:`is_color`)."""
    return (f"{value!r} is not a colour; write #rgb, #rrggbb, #rrggbbaa or a CSS colour name, e.g. \"#1a2b3c\" "
            "or white (quote a # colour: # starts a YAML comment)")


#: Largest coordinate, size, stroke, radius or gap a template may give, mm (a 3.5e19 mm box made
#: reportlab fail inside; a card is at most 600 mm, cardgen.check.print_setup.MAX_PIECE_MM).
MAX_BOX_MM = 10_000.0


def _check_values(template: Template, src) -> None:
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
        x, y, w, h = el.box
        if any(abs(v) > MAX_BOX_MM for v in el.box):
            bad(i, "box", f"the box [x, y, w, h] = {list(el.box)} reaches beyond {MAX_BOX_MM:,.0f} mm",
                "boxes are [x, y, width, height] in mm from the trim's top-left corner; a card is at most 600 mm")
            continue
        if el.kind != "line" and (w <= 0 or h <= 0):
            bad(i, "box", f"the box [x, y, w, h] = {list(el.box)} has no area (w and h must be more than 0 mm)",
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
            if not 0 < el.leading <= 10:
                bad(i, "leading", f"leading {el.leading:g} is out of range (more than 0, at most 10)", "e.g. 1.35")
        for key in ("stroke_width", "radius", "gap"):
            if getattr(el, key, 0) < 0:
                bad(i, key, f"{key} {getattr(el, key):g} is negative", "use 0 or more")
            elif getattr(el, key, 0) > MAX_BOX_MM:
                bad(i, key, f"{key} {getattr(el, key):g} is more than {MAX_BOX_MM:,.0f} mm", "e.g. 0.5")
    if problems:
        raise CardgenError(problems)


def geometry_problems(template: Template, card_mm: tuple[float, float], bleed_mm: float,
                      roles: set[str] | None = None) -> list[Problem]:
    """Problems only the card size and the fonts tell: a box lying wholly outside the card and its
    bleed (it would never print), and a text ``font`` role that the font set lacks (it would
    silently fall back to ``body``)."""
    out = []
    cw, ch = card_mm
    for i, el in enumerate(template.elements):
        file, line = template.source(i)
        x, y, w, h = el.box
        x0, x1, y0, y1 = min(x, x + w), max(x, x + w), min(y, y + h), max(y, y + h)
        if x1 < -bleed_mm or y1 < -bleed_mm or x0 > cw + bleed_mm or y0 > ch + bleed_mm:
            out.append(Problem(file, line, f"elements → {el.name or i} → box",
                               f"the box {list(el.box)} lies outside the card ({cw:g} × {ch:g} mm) and would never "
                               "print", "boxes are [x, y, width, height] in mm from the trim's top-left corner",
                               code="box-outside"))
        if roles is not None and el.kind == "text" and el.font not in roles:
            out.append(Problem(file, line, f"elements → {el.name or i} → font",
                               f"no font role {el.font!r}", "roles: " + ", ".join(sorted(roles)) +
                               " (fonts/fonts.yaml or fonts: in game.yaml)", code="unknown-font-role"))
    return out


#: Element attributes holding expressions: attribute → (key as written, whole expression or text with {{ }}).
_EXPRESSIONS = (("text", "text", False), ("show_if", "if", True), ("icon", "icon", False),
                ("repeat", "repeat", True), ("file", "file", False))


def _check_expressions(template: Template, src) -> None:
    """Compile every expression once, so a syntax error is reported at its line in the template
    (once), not once per card. Raises CardgenError with every problem found."""
    problems = []
    for i, el in enumerate(template.elements):
        for attr, key, whole in _EXPRESSIONS:
            source = getattr(el, attr, None)
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


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def plain_name(name: object) -> bool:
    """Whether ``name`` is a plain template name (letters, digits, ``_ . -``; no folders, no ``..``)."""
    return isinstance(name, str) and bool(_NAME.match(name)) and ".." not in name


def render_text(source: str, ctx: dict[str, Any]) -> str:
    """Evaluate a template string. Raises TemplateError/SecurityError (callers report them)."""
    if "{" not in source:
        return source
    if "{%" in source:  # statements can loop: stop them after MAX_SECONDS
        with time_budget("the template text"):
            return compile_text(source).render(**ctx)
    return compile_text(source).render(**ctx)


def eval_expr(source: str, ctx: dict[str, Any]) -> Any:
    """Evaluate an expression. Raises TemplateError/SecurityError (callers report them)."""
    return compile_expr(source)(**ctx)


__all__ = ["Template", "Element", "load_template", "render_text", "eval_expr", "TemplateError"]
