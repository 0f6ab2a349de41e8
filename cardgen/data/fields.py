"""Field types the manifest and the card templates share, each declared once: an id, a player
count, a length with units, a colour. Field descriptions stay with the fields that use them."""
from __future__ import annotations

from typing import Annotated, Union

from pydantic import AfterValidator, Field, PlainSerializer

from cardgen.core.units import MM, parse_length

#: A short machine name: lowercase a–z, 0–9, ``-`` and ``_`` (``battle``, ``power-tokens``).
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")]

#: How many players a game or a setup entry is for: a whole number from 1 to 12.
Players = Annotated[int, Field(ge=1, le=12)]


def _mm(pt: float) -> float:
    """A length in pt back to mm (rounded to 1/1000 mm), as JSON dumps show it (``cardgen diff``)."""
    return round(pt / MM, 3)


#: A length: mm as a number, or a string with a unit (``"2.5in"``, ``"12pt"``), converted to pt (a
#: plain float) once, at validation, by :func:`cardgen.core.units.parse_length` (refused at load when it
#: does not read as a length). JSON dumps (``cardgen diff``) show it in mm.
Length = Annotated[Union[float, str], AfterValidator(parse_length), PlainSerializer(_mm, when_used="json")]

#: A colour: ``#rgb``, ``#rrggbb``, ``#rrggbbaa`` or a CSS name; in card templates also an expression in ``{{ }}`` that gives one
#: (checked by :func:`cardgen.data.template_checks.is_color`).
Colour = str
