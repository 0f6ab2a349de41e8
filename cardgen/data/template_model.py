"""The card template model: one pydantic model per element kind (:data:`ELEMENT_KINDS`) and the
:class:`Template` holding them. Boxes are written ``[x, y, w, h]`` in mm (or with a unit, ``"0.5in"``)
from the trim's top-left corner, y downwards (as a designer measures on paper); every length
(box, ``radius``, ``gap``) is held in pt from validation on (:data:`cardgen.data.fields.TemplateLength`),
so layout converts nothing. Font sizes and stroke widths are pt as written. Loading and checking a
template file: :mod:`cardgen.data.template`.
"""
# Annotations are objects, not strings (no `from __future__ import annotations`): pydantic would
# evaluate each string at class creation (the manifest's models: 5-13 ms of every command that reads a game, measured).

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from cardgen.data.fields import Colour, TemplateLength

Box = tuple[float, float, float, float]


class _T(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class _Element(_T):
    """What every element kind has: its kind, a name, a box, bleed and a condition."""

    kind: str = Field(description="What the box draws.")
    name: str = Field("", description="Name used in messages (e.g. the field it shows).")
    box: tuple[TemplateLength, TemplateLength, TemplateLength, TemplateLength] = Field(
        description="[x, y, w, h] in mm from the trim's top-left corner, y down (a string with a unit also works: `\"0.5in\"`, `\"12pt\"`).")
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
    radius: TemplateLength = Field(0.0, validate_default=True, description="Corner radius, mm (or a string with a unit).")


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
    max_size: float | None = Field(None, description="Largest size the text may grow to where the box has room, pt (default: size — no growing); the text is set at the largest size from `max_size` down that fits, and only going below `size` is reported.")
    leading: float = Field(1.35, description="Line height as a multiple of the size.")
    align: Literal["left", "center", "right"] = Field("left", description="Horizontal alignment.")
    valign: Literal["top", "middle", "bottom"] = Field("top", description="Vertical alignment.")
    color: Colour = Field("#000000", description="Text colour (expression allowed, as for `fill`).")
    direction: Literal["horizontal", "vertical"] = Field("horizontal", description="`vertical` (縦書き): characters top to bottom, columns right to left, with the font's vertical forms, Latin words turned 90° clockwise and short digit runs across the column (see docs/vertical.md). `align` then places the block of columns in the box, `valign` the text along each column; `rotate: 180` is for horizontal text only.")
    mirror: bool = Field(False, description="`true`: the text is also printed turned 180° in the opposite corner (its box mirrored through the card's centre), at the same size — a corner index read from across the table, always as large as the upright one.")
    rotate: Literal[0, 180] = Field(0, description="`180`: the text is turned upside down about the box's centre — a second corner index read from across the table (lay it out as for the top-left corner: `align: left`, `valign: top` land at the bottom right).")
    hang: bool = Field(False, description="`true`: 、 and 。 may hang past the box's right edge by half an em (ぶら下げ, JLREQ) instead of taking the character before them to the next line; leave room for it.")
    phrases: bool = Field(True, description="Break Japanese lines between phrases (文節, found by BudouX), inside a phrase only when it is longer than the line; `false`: at any place JLREQ allows.")
    label_indent: bool = Field(False, description="`true`: a paragraph that begins with a 【…】 label continues under the first character after the label (a hanging indent as wide as the label), as a glossary or quick reference is set.")
    tcy_digits: int = Field(2, ge=0, le=4, description="Vertical text: a run of up to this many digits is set across the column in one em (縦中横, tate-chu-yoko); longer numbers are turned like Latin words. `0`: never.")
    upright_caps: int = Field(3, ge=0, le=8, description="Vertical text: a word of all capitals up to this many letters (`HP`, `JIS`) stands upright letter by letter; longer words are turned 90° clockwise. A single letter always stands upright.")

    @field_validator("mirror")
    @classmethod
    def _mirror_horizontal(cls, mirror, info):
        if mirror and info.data.get("direction") == "vertical":
            raise ValueError("`mirror: true` is for horizontal text only; drop it or use `direction: horizontal`")
        return mirror

    @field_validator("rotate")
    @classmethod
    def _vertical_not_turned(cls, rotate, info):
        if rotate == 180 and info.data.get("direction") == "vertical":
            raise ValueError("`rotate: 180` is for horizontal text only; drop it or use `direction: horizontal`")
        return rotate


class IconElement(_Element):
    """`icon`: one vector icon, as large as the box allows, centred."""

    kind: Literal["icon"] = Field(description="What the box draws.")
    icon: str | None = Field(None, description="Icon name — built in (`pon`, `chi`, `ron`, `tsumo`, `kan`, each also `<name>_off`, `power`, `power_empty`, `stick_dot`) or one of the game's own (`icons:` in game.yaml) — or an expression giving one.")


class IconsElement(_Element):
    """`icons`: one icon repeated in a row, each as high as the box."""

    kind: Literal["icons"] = Field(description="What the box draws.")
    icon: str | None = Field(None, description="Icon name, as for `icon` (default `power`).")
    repeat: str | None = Field(None, description="How many (expression), e.g. `card.power` (default 1).")
    gap: TemplateLength = Field(1.0, validate_default=True, description="Gap between icons, mm (or a string with a unit).")
    align: Literal["left", "center", "right"] = Field("left", description="Where the row sits in the box.")


class ImageElement(_Element):
    """`image`: card art from a file in the game folder, clipped to the box."""

    kind: Literal["image"] = Field(description="What the box draws.")
    file: str | None = Field(None, description="File in the game folder (expression allowed).")
    fit: Literal["cover", "contain"] = Field("cover", description="Fill the box (cropping) or fit inside it.")


#: One model per element kind: ``kind`` picks the model, so each kind refuses the keys of the
#: others. A new kind: its model here, and its planner in :data:`cardgen.layout.planners.PLANNERS`.
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
        name or lines): two templates with the same content share it. Part of a face key. Made
        from the values as held (lengths in pt, unrounded), not from a JSON dump (mm, rounded)."""
        if not self._digest:
            import hashlib
            import json
            self._digest = hashlib.sha1(json.dumps(self.model_dump(), default=str).encode()).hexdigest()
        return self._digest

    def source(self, index: int) -> tuple[str, int | None]:
        """``(file, line)`` of element ``index`` as loaded (``("", None)`` when built in code)."""
        private = self.__pydantic_private__  # read as a dict: each `self._x` is a call of BaseModel.__getattr__
        lines = private["_lines"]
        return private["_file"], lines[index] if index < len(lines) else None

    description: str = Field("", description="What the template is for.")
    background: Colour | None = Field(None, description="Colour filling the whole face including bleed.")
    elements: list[Element] = Field(default_factory=list, description="Boxes, drawn in order.")

