"""Card face templates: ``templates/cards/<name>.yaml`` (named boxes bound to card fields).

Boxes are ``[x, y, w, h]`` in mm from the trim's top-left corner, y downwards (as a designer
measures on paper). Text and conditions are jinja2 expressions evaluated in a sandbox with
StrictUndefined: a template can read the card's fields (``card.X``), the game (``game.title``…)
and the design constants (``design.X``), and nothing else — no files, no Python.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Union

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

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
    fill: str | None = Field(None, description="Fill colour, `#rrggbb`.")
    stroke: str | None = Field(None, description="Outline colour.")
    stroke_width: float = Field(0.0, description="Outline width, pt.")
    radius: float = Field(0.0, description="Corner radius, mm.")
    text: str | None = Field(None, description="Text (jinja2 expression syntax inside `{{ }}`), e.g. `{{ card.skill_text }}`.")
    font: str = Field("body", description="Font role (fonts/fonts.yaml).")
    size: float = Field(9.0, description="Preferred font size, pt.")
    min_size: float | None = Field(None, description="Smallest size the text may shrink to, pt (default: size — no shrinking).")
    leading: float = Field(1.35, description="Line height as a multiple of the size.")
    align: Literal["left", "center", "right"] = Field("left", description="Horizontal alignment.")
    valign: Literal["top", "middle", "bottom"] = Field("top", description="Vertical alignment.")
    color: str = Field("#000000", description="Text colour.")
    icon: str | None = Field(None, description="Icon name (`pon`, `chi`, `power`, `ron`, `tsumo`) or an expression giving one.")
    repeat: str | None = Field(None, description="For `icons`: how many (expression), e.g. `card.power`.")
    gap: float = Field(1.0, description="For `icons`: gap between icons, mm.")
    file: str | None = Field(None, description="For `image`: file in the game folder (expression allowed).")
    fit: Literal["cover", "contain"] = Field("cover", description="For `image`: fill the box (cropping) or fit inside it.")


class Template(_T):
    """A card face template."""

    description: str = Field("", description="What the template is for.")
    background: str | None = Field(None, description="Colour filling the whole face including bleed.")
    elements: list[Element] = Field(default_factory=list, description="Boxes, drawn in order.")


@lru_cache(maxsize=1)
def sandbox() -> ImmutableSandboxedEnvironment:
    """The one jinja2 sandbox used for template expressions."""
    return ImmutableSandboxedEnvironment(undefined=StrictUndefined, autoescape=False)


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
    path = templates_dir / f"{name}.yaml"
    if not path.is_file():
        avail = sorted(p.stem for p in templates_dir.glob("*.yaml")) if templates_dir.is_dir() else []
        raise CardgenError(Problem(referenced_from or rel(path), line, "template",
                                   f"the card template {name!r} does not exist ({rel(path)})",
                                   "available: " + (", ".join(avail) or "none"), code="missing-template"))
    loaded = load_yaml(path, rel(path))
    try:
        return Template.model_validate(loaded.data or {})
    except ValidationError as exc:
        from cardgen.schema import _problems_from_validation
        raise CardgenError(_problems_from_validation(exc, Template, loaded.source))


def render_text(source: str, ctx: dict[str, Any]) -> str:
    """Evaluate a template string. Raises TemplateError/SecurityError (callers report them)."""
    if "{" not in source:
        return source
    return compile_text(source).render(**ctx)


def eval_expr(source: str, ctx: dict[str, Any]) -> Any:
    """Evaluate an expression. Raises TemplateError/SecurityError (callers report them)."""
    return compile_expr(source)(**ctx)


__all__ = ["Template", "Element", "load_template", "render_text", "eval_expr", "TemplateError"]
