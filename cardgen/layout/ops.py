"""Drawing operations: the vocabulary of a plan.

All coordinates are PDF points (1/72 in), y up. Card ops are relative to the card's trim
bottom-left corner (bleed extends to negative coordinates). Every op serialises to a plain
dict (:func:`to_json`), so plans can be compared as JSON goldens.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Union


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle (pt, bottom-left corner), optionally filled, stroked and with rounded corners."""
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    op: str = "rect"


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle (pt, centre and radius), optionally filled and stroked."""
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    op: str = "circle"


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line from (x1, y1) to (x2, y2) in pt, ``width`` in pt."""
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.25
    color: str = "#000000"
    op: str = "line"


@dataclass(frozen=True, slots=True)
class Text:
    """One run of text on one line; ``x, y`` is the start of the baseline."""

    x: float
    y: float
    text: str
    font: str  #: font role (see fonts/fonts.yaml)
    size: float
    color: str = "#000000"
    op: str = "text"


@dataclass(frozen=True, slots=True)
class TurnedText:
    """A run of text turned by ``angle`` degrees (counter-clockwise) about its anchor ``x, y`` —
    the start of its baseline, which after a 180° turn is the run's right end, glyphs hanging
    upside down from it (a corner index read from across the table)."""

    x: float
    y: float
    text: str
    font: str  #: font role (see fonts/fonts.yaml)
    size: float
    color: str = "#000000"
    angle: float = 180.0
    op: str = "turned_text"


@dataclass(frozen=True, slots=True)
class VerticalText:
    """One column of vertical text (縦書き, :mod:`cardgen.layout.vertical_text`): ``x`` the
    column's centre, ``y`` its top (pt); ``items``: ``(mode, text, offset)`` top to bottom, each
    ``offset`` pt below ``y`` — ``upright`` one character in its em square (drawn with the font's
    vertical form), ``turned`` a run turned 90° clockwise starting there, ``tcy`` digits set
    across the column in one em (縦中横)."""

    x: float
    y: float
    font: str  #: font role (see fonts/fonts.yaml)
    size: float
    color: str
    items: tuple[tuple[str, str, float], ...]
    op: str = "vertical_text"


@dataclass(frozen=True, slots=True)
class Icon:
    """A built-in vector icon (``pon``, ``chi``, ``power``…) in the square ``x, y, size``."""

    name: str
    x: float
    y: float
    size: float
    op: str = "icon"


@dataclass(frozen=True, slots=True)
class TurnedIcon:
    """An :class:`Icon` turned by ``angle`` degrees (counter-clockwise) about the centre of its
    square ``x, y, size`` — an inline icon of a corner index read from across the table."""

    name: str
    x: float
    y: float
    size: float
    angle: float = 180.0
    op: str = "turned_icon"


@dataclass(frozen=True, slots=True)
class GameIcon:
    """One of the game's own icons (``icons:`` in game.yaml) in the square ``x, y, size``:
    ``file`` (SVG drawn as vector paths, or PNG), ``label`` printed across its centre in
    ``label_colour``, the whole turned by ``angle`` degrees about the square's centre."""

    name: str
    x: float
    y: float
    size: float
    file: str
    label: str = ""
    label_colour: str = "#000000"
    angle: float = 0.0
    op: str = "game_icon"


@dataclass(frozen=True, slots=True)
class Image:
    """A raster image for the box ``x, y, w, h``, clipped to ``clip``.

    ``fit`` says how the renderer scales it into the box (it knows the pixel size; layout does
    not open files): ``cover`` fills the box (cropped by the clip), ``contain`` fits inside it.
    """

    path: str
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None
    fit: str = "cover"
    op: str = "image"


Op = Union[Rect, Circle, Line, Text, TurnedText, VerticalText, Icon, TurnedIcon, Image]


@dataclass
class CardPlan:
    """Everything drawn for one card face.

    Attributes:
        width, height: trim size in pt.
        bleed: bleed in pt on every side.
        ops: drawing ops, trim-relative.
        key: identifies identical faces (same template + same values) so renderers can reuse them.
    """

    width: float
    height: float
    bleed: float
    ops: list = field(default_factory=list)
    key: str = ""


def to_json(obj) -> object:
    """A plan or op as plain JSON data, floats rounded to 1/1000 pt."""
    if hasattr(obj, "__dataclass_fields__"):
        return {f.name: to_json(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_json(o) for o in obj]
    if isinstance(obj, float):
        return round(obj, 3)
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    return obj


__all__ = ["Rect", "Circle", "Line", "Text", "TurnedText", "VerticalText", "Icon", "TurnedIcon", "GameIcon", "Image", "CardPlan", "to_json",
           "asdict"]
