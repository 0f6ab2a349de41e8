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
from typing import Any, Literal, Union

from jinja2 import StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from cardgen.errors import CardgenError, Problem, rel
from cardgen.load import load_yaml

Box = tuple[float, float, float, float]


class _T(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Element(_T):
    """One named box on a card face."""

    kind: Literal["rect", "text", "icon", "icons", "image", "circle", "line"] = Field(description="What the box draws.")
    name: str = Field("", description="Name used in messages (e.g. the field it shows).")
    box: tuple[float, float, float, float] = Field(description="[x, y, w, h] in mm from the trim's top-left corner, y down.")
    bleed: bool = Field(False, description="Extend the box into the bleed on every side where it touches the trim.")
    show_if: str | None = Field(None, alias="if", description="Draw only when this expression is true, e.g. `card.pon`.")
    fill: str | None = Field(None, description="Fill colour, `#rrggbb` (or an expression in `{{ }}`, e.g. `{{ card.color }}`).")
    stroke: str | None = Field(None, description="Outline colour (expression allowed, as for `fill`).")
    stroke_width: float = Field(0.0, description="Outline width, pt.")
    radius: float = Field(0.0, description="Corner radius, mm.")
    text: str | None = Field(None, description="Text (jinja2 expression syntax inside `{{ }}`), e.g. `{{ card.skill_text }}`.")
    font: str = Field("body", description="Font role (fonts/fonts.yaml).")
    size: float = Field(9.0, description="Preferred font size, pt.")
    min_size: float | None = Field(None, description="Smallest size the text may shrink to, pt (default: size — no shrinking).")
    leading: float = Field(1.35, description="Line height as a multiple of the size.")
    align: Literal["left", "center", "right"] = Field("left", description="Horizontal alignment.")
    valign: Literal["top", "middle", "bottom"] = Field("top", description="Vertical alignment.")
    color: str = Field("#000000", description="Text colour (expression allowed, as for `fill`).")
    icon: str | None = Field(None, description="Icon name (`pon`, `chi`, `ron`, `tsumo`, `kan`, `power`, `power_empty`) or an expression giving one.")
    repeat: str | None = Field(None, description="For `icons`: how many (expression), e.g. `card.power`.")
    gap: float = Field(1.0, description="For `icons`: gap between icons, mm.")
    file: str | None = Field(None, description="For `image`: file in the game folder (expression allowed).")
    fit: Literal["cover", "contain"] = Field("cover", description="For `image`: fill the box (cropping) or fit inside it.")


class Template(_T):
    """A card face: a background colour and elements drawn in order, later ones on top."""

    _file: str = PrivateAttr("")
    _lines: list = PrivateAttr(default_factory=list)

    def source(self, index: int) -> tuple[str, int | None]:
        """``(file, line)`` of element ``index`` as loaded (``("", None)`` when built in code)."""
        line = self._lines[index] if index < len(self._lines) else None
        return self._file, line

    description: str = Field("", description="What the template is for.")
    background: str | None = Field(None, description="Colour filling the whole face including bleed.")
    elements: list[Element] = Field(default_factory=list, description="Boxes, drawn in order.")


#: Largest string or list an expression may build with ``*``, and largest exponent for ``**``.
MAX_SEQUENCE = 100_000
MAX_EXPONENT = 1_000


class SafeSandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox (no attribute starting with ``_``, no mutation of values, no
    Python builtins), plus limits on ``*`` and ``**`` so an expression cannot build a
    gigabyte string (``'x' * 10**10``) or spend minutes on ``9 ** 9 ** 9``.
    Violations raise :class:`jinja2.exceptions.SecurityError`."""

    intercepted_binops = frozenset({"*", "**"})

    def unsafe_undefined(self, obj, attribute):
        """Refuse at once (jinja2 would return an undefined value and fail later, naming the
        wrong attribute)."""
        raise SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe")

    def call_binop(self, context, operator, left, right):
        if operator == "**":
            if isinstance(right, (int, float)) and not isinstance(right, bool) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"the exponent {right!r} is too large (at most {MAX_EXPONENT})")
            return left ** right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_SEQUENCE:
                    raise SecurityError(f"the expression would build a sequence of {len(seq) * n:,} items "
                                        f"(at most {MAX_SEQUENCE:,})")
            return left * right
        return super().call_binop(context, operator, left, right)  # pragma: no cover


@lru_cache(maxsize=1)
def sandbox() -> ImmutableSandboxedEnvironment:
    """The one jinja2 sandbox used for template expressions, with the filters ``num``
    (:mod:`cardgen.numfmt`: ``{{ card.points | num }}`` → ``1,000``) and ``nobreak``
    (:func:`cardgen.layout.text.nobreak`: the text is never broken across lines)."""
    from cardgen.layout.text import nobreak
    from cardgen.numfmt import FILTERS

    env = SafeSandbox(undefined=StrictUndefined, autoescape=False)
    env.filters.update(FILTERS, nobreak=nobreak)
    return env


@lru_cache(maxsize=4096)
def compile_text(source: str):
    return sandbox().from_string(source)


@lru_cache(maxsize=4096)
def compile_expr(source: str):
    return sandbox().compile_expression(source, undefined_to_none=False)


def load_template(templates_dir: Path, name: str, referenced_from: str = "", line: int | None = None) -> Template:
    """Load ``templates_dir/<name>.yaml``.

    Raises:
        CardgenError: missing file (naming the manifest line that asks for it), YAML or schema problems.
    """
    if not _NAME.match(name or ""):
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
    loaded = load_yaml(path, rel(path))
    if not isinstance(loaded.data, (dict, type(None))):
        raise CardgenError(Problem(loaded.source.file, 1, "", "a card template must be a mapping (description:, elements:)",
                                   code="template-type"))
    try:
        template = Template.model_validate(loaded.data or {})
    except ValidationError as exc:
        from cardgen.schema import _problems_from_validation
        raise CardgenError(_problems_from_validation(exc, Template, loaded.source, loaded.data))
    template._file = loaded.source.file
    template._lines = [loaded.source.line(("elements", i)) for i in range(len(template.elements))]
    _check_expressions(template, loaded.source)
    return template


#: Element attributes holding expressions: attribute → (key as written, whole expression or text with {{ }}).
_EXPRESSIONS = (("text", "text", False), ("show_if", "if", True), ("icon", "icon", False),
                ("repeat", "repeat", True), ("file", "file", False))


def _check_expressions(template: Template, src) -> None:
    """Compile every expression once, so a syntax error is reported at its line in the template
    (once), not once per card. Raises CardgenError with every problem found."""
    problems = []
    for i, el in enumerate(template.elements):
        for attr, key, whole in _EXPRESSIONS:
            source = getattr(el, attr)
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
            problems.append(Problem(src.file, src.line(("elements", i, key)), f"elements → {el.name or i} → {key}",
                                    f"the expression cannot be read: {msg}",
                                    "write fields as {{ card.COLUMN }} in text; `if` and `repeat` take a bare "
                                    "expression such as `card.pon > 0`", code="template-syntax"))
    if problems:
        raise CardgenError(problems)


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def render_text(source: str, ctx: dict[str, Any]) -> str:
    """Evaluate a template string. Raises TemplateError/SecurityError (callers report them)."""
    if "{" not in source:
        return source
    return compile_text(source).render(**ctx)


def eval_expr(source: str, ctx: dict[str, Any]) -> Any:
    """Evaluate an expression. Raises TemplateError/SecurityError (callers report them)."""
    return compile_expr(source)(**ctx)


__all__ = ["Template", "Element", "load_template", "render_text", "eval_expr", "TemplateError"]
