"""Field types the manifest and the card templates share, each declared once: an id, a player
count, a length with units, a colour. Field descriptions stay with the fields that use them."""
from __future__ import annotations

from typing import Annotated, Union

from pydantic import AfterValidator, Field, PlainSerializer

from cardgen.core.units import ANY_SIZE_MM, MM, parse_length

#: A short machine name: lowercase a–z, 0–9, ``-`` and ``_`` (``battle``, ``power-tokens``).
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")]

#: Longest game id: it names the output folder, whose staging folder beside it
#: (``.<id>.tmp-<pid>-<8 characters>``, :mod:`cardgen.core.atomic`) must fit the file system's
#: 255-byte limit on one name (NAME_MAX) with room to spare.
MAX_GAME_ID = 200

#: How many players a game or a setup entry is for: a whole number from 1 to 12.
Players = Annotated[int, Field(ge=1, le=12)]


def as_mm(pt: float) -> float:
    """A length in pt back to mm (rounded to 1/1000 mm), as JSON dumps and messages show it
    (``cardgen diff``, a template box in a finding, the preview's box outlines)."""
    return round(pt / MM, 3)


#: A length: mm as a number, or a string with a unit (``"2.5in"``, ``"12pt"``), converted to pt (a
#: plain float) once, at validation, by :func:`cardgen.core.units.parse_length` (refused at load when it
#: does not read as a length). JSON dumps (``cardgen diff``) show it in mm.
Length = Annotated[Union[float, str], AfterValidator(parse_length), PlainSerializer(as_mm, when_used="json")]


def _any_size(value: float | int | str) -> float:
    """:func:`parse_length` with no size limit but a finite pt value."""
    return parse_length(value, ANY_SIZE_MM)


#: A card template's length (a box's x, y, w, h, a corner radius, a gap): as :data:`Length`, mm as a
#: number or a string with a unit, converted to pt once, at validation; of any size, since the
#: template's own check (:data:`cardgen.data.template_checks.MAX_BOX_MM`) names the whole box.
TemplateLength = Annotated[Union[float, str], AfterValidator(_any_size), PlainSerializer(as_mm, when_used="json")]

#: A colour: ``#rgb``, ``#rrggbb``, ``#rrggbbaa`` or a CSS name; in card templates also an expression in ``{{ }}`` that gives one
#: (checked by :func:`cardgen.data.template_checks.is_color`).
Colour = str
