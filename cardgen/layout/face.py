"""One card face being laid out: the card geometry (:class:`Frame`, pt) and :class:`Face`, what
every element planner (:mod:`cardgen.layout.planners`) reads and adds its ops and findings to."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardgen.core.errors import CardRef, Problem, Severity, card_problem
from cardgen.core.units import MM
from cardgen.layout.icon_names import BUILTIN_ICONS, LABEL_MIN_PT, IconSpec, label_size, unknown_icon
from cardgen.layout.ops import GameIcon, Icon
from cardgen.layout.text import Measure


@dataclass
class Frame:
    """Card geometry in pt: trim width/height, bleed, safe inset."""

    width: float
    height: float
    bleed: float
    safe: float
    cut_tolerance: float = 3 * MM  #: frames and text boxes keep this far from the trim, or reach it
    language: str = "ja"  #: the edition's language: Latin-script ones get Western line breaking (layout/western.py)


@dataclass
class Face:
    """One card face being laid out: what every element planner reads, and the ops and findings
    it adds (see :func:`cardgen.layout.card.plan_card` for the callables)."""

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
    #: ``(font_role, chars) -> [chars the font has no vertical form for]`` (``FontSet.without_vertical_form``):
    #: vertical text warns of them; None: not checked
    without_vertical_form: Callable | None = None
    #: ``(template file, line)`` of the element being laid out when none of its values comes from
    #: the card (its findings are the template's), else ``("", None)``: at the card's row
    at: tuple[str, int | None] = ("", None)
    #: ``(template file, line)`` and raw text of the element being laid out, whatever it reads: an
    #: icon name typed in the template's own text is the template's mistake, not the card's
    element_at: tuple[str, int | None] = ("", None)
    element_text: str = ""

    def found(self, severity: Severity, name: str, message: str, code: str) -> None:
        """Add a finding about element ``name`` of this face: at the card's row, or at the
        template's line of the element when its values are the template's own (:attr:`at`)."""
        self.findings.append(card_problem(severity, self.card, name, message, code, *self.at))

    def found_chars(self, severity: Severity, name: str, lead: str, chars, tail: str, code: str) -> None:
        """Findings ``lead`` + the characters ``chars`` (with their code points) + ``tail``: the
        characters typed in the element's own text at the template's line (the template holds
        the mistake, whatever card it is laid out for), the others where :meth:`found` puts them
        (the card's row, or the template when the element reads no card value)."""
        ours = [c for c in chars if self.element_at[0] and c in self.element_text]
        for group, at in ((ours, self.element_at), ([c for c in chars if c not in ours], None)):
            if group:
                message = (f"{lead} {' '.join(group)} (U+" + ", U+".join(f"{ord(c):04X}" for c in group)
                           + ")" + tail)
                if at is None:
                    self.found(severity, name, message, code)
                else:
                    self.findings.append(card_problem(severity, self.card, name, message, code, *at))

    def icon(self, icon: str, element: str, x: float, y: float, size: float, check: bool = True):
        """The op of icon ``icon`` in the square ``x, y, size`` (pt): a :class:`GameIcon` for one
        of the game's own icons, else a built-in :class:`Icon`; an unknown name is an error
        finding naming the closest known name (the op still draws a grey square on a proof)."""
        message = unknown_icon(icon, BUILTIN_ICONS + tuple(self.icons)) if check else None
        if message and f":{icon}:" in self.element_text and self.element_at[0]:  # typed in the template
            self.findings.append(card_problem("error", self.card, element, message, "unknown-icon", *self.element_at))
        elif message:
            self.found("error", element, message, "unknown-icon")
        spec = self.icons.get(icon)
        if spec is not None:
            label = spec.label
            if label and label_size(size, label) < LABEL_MIN_PT - 1e-6:
                self.found("warning", element,
                           f"the label {label!r} of icon {icon!r} would print at {label_size(size, label):.2g} pt, "
                           f"below the {LABEL_MIN_PT:g} pt that reads at arm's length: the icon is drawn without it; "
                           f"make the icon {LABEL_MIN_PT / label_size(1.0, label):.1f} pt or larger (or its text), "
                           "or give it a picture that reads alone", "small-icon-label")
                label = ""
            return GameIcon(icon, x, y, size, spec.file, label, spec.label_colour)
        return Icon(icon, x, y, size)

