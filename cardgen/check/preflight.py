"""Preflight: what a designer should know before printing, from the plans and the validator.

Pure over its inputs — layout plans, layout findings, the validator's report, and two lookups
(which characters a font role cannot draw; the pixel size of an image) — so it can be tested
without rendering. ``output/<game>/report.json`` is :meth:`Preflight.to_json`; the CLI prints a
summary. Categories:

- ``text-shrunk`` (warning) / ``text-overflow`` (error): text smaller than the template's size,
  or not fitting even at the minimum size (from layout).
- ``missing-glyph`` (error, from layout; this module re-checks every Text op of the plans and
  adds what layout did not already name): characters the font has no glyph for (they would
  print as blanks or boxes) — which card, which character.
- ``image-low-dpi``: card art below ``min_dpi`` (300) at its printed size is a warning, below
  ``error_dpi`` (150) an error.
- ``outside-safe`` (warning): text reaching outside the safe area.
- ``past-trim``: text running past the trim (an error: it will be cut off), or a text box reaching
  past it whose text stays inside the trim (a warning); both at the template element's line.
- ``cut-tolerance`` (warning): a frame or text box closer to the trim than ``print.cut_tolerance``
  (3 mm) without running into the bleed (:mod:`cardgen.layout.print_checks`).
- ``small-text`` (warning): card text below 6 pt where the template's min_size does not say so.
- ``missing-file`` / ``image`` problems (error): art that does not exist or cannot be opened.
- ``validation``: the validator's errors and warnings; ``deck_math``: its sums per player count.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from cardgen.core.errors import CardgenError, CardRef, Problem, card_problem, rel
from cardgen.layout.ops import Image, Text

CATEGORY = {
    "text-shrunk": "text shrunk",
    "text-overflow": "text does not fit",
    "missing-glyph": "characters the font cannot draw",
    "image-low-dpi": "images below print resolution",
    "outside-safe": "content outside the safe area",
    "past-trim": "text past the trim",
    "cut-tolerance": "frames or text boxes near the trim",
    "small-text": "text below 6 pt",
    "missing-file": "missing files",
    "image-too-large": "images that cannot be opened",
    "bad-image": "images that cannot be opened",
}


def category(finding: Problem) -> str:
    """The report's category of a finding (:data:`CATEGORY`; ``validation`` for the validator's)."""
    return CATEGORY.get(finding.code, "validation" if finding.card is None else "layout")


@dataclass
class Preflight:
    """The preflight report of one build."""

    game: str
    title: str
    version: str
    findings: list[Problem] = field(default_factory=list)
    #: the findings preflight itself made by reading the plans (also in ``findings``): characters
    #: no font draws that layout did not name, art that cannot be opened, art resolution
    plan_findings: list[Problem] = field(default_factory=list)
    #: the same before grouping: one per card face (the live preview links a grouped finding to its faces)
    face_findings: list[Problem] = field(default_factory=list)
    deck_math: list[dict] = field(default_factory=list)
    cards: dict[str, int] = field(default_factory=dict)  #: physical cards per component
    forced: bool = False  #: written by ``--force`` over validation or layout errors
    draft: bool = False  #: the faces carry the DRAFT mark (validation failed)

    @property
    def errors(self) -> list[Problem]:
        """The error findings, in report order."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The warning findings, in report order."""
        return [f for f in self.findings if f.severity == "warning"]

    def add_checked(self, problems: Sequence[Problem]) -> None:
        """Add what the rest of the game's check found (its own icons, the simulator model, the
        declared odds, the shop preset, the other editions, the rulebook), as validation findings
        are added: so report.json and the build's summary count what ``cardgen validate`` does."""
        for p in problems:
            self.findings.append(replace(p, hint="", code=p.code or "validation", field=p.path))

    def counts(self) -> dict[str, dict[str, int]]:
        """category → {"error": n, "warning": n}."""
        out: dict[str, dict[str, int]] = {}
        for f in self.findings:
            c = out.setdefault(category(f), {"error": 0, "warning": 0})
            c[f.severity] = c.get(f.severity, 0) + 1
        return out

    def to_json(self, base: Path | None = None) -> dict:
        """The report as JSON data. With ``base`` (the game folder), file names are relative to
        it, so report.json does not depend on the folder the build was run from."""
        def where(f: Problem) -> dict:
            d = {"severity": f.severity, "code": f.code, "card": f.card.label if f.card else "", "field": f.field,
                 "message": f.message, "file": f.file, "line": f.line, "detail": f.detail or {},
                 "category": category(f)}
            if base is not None and f.file:
                d["file"] = rel(f.file, base)
            return d

        return {
            "game": self.game, "title": self.title, "version": self.version,
            "ok": not self.errors, "errors": len(self.errors), "warnings": len(self.warnings),
            "forced": self.forced, "draft": self.draft,
            "cards": self.cards, "summary": self.counts(), "deck_math": self.deck_math,
            "findings": [where(f) for f in self.findings],
        }


def preflight(game: str, title: str, version: str, plans: Sequence, report, *,
              missing_chars: Callable[[str, str], list[str]],
              image_size: Callable[[str], tuple[int, int]],
              min_dpi: float = 300.0, error_dpi: float = 150.0) -> Preflight:
    """Build the report.

    Args:
        plans: :class:`cardgen.steps.component_plans.ComponentPlans` of every printed component.
        report: the validator's :class:`cardgen.check.deck_math.Report`.
        missing_chars: ``(font_role, text) -> [chars]`` (``FontSet.missing_chars``).
        image_size: ``path -> (w, h)`` upright pixels; may raise :class:`CardgenError`.
        min_dpi: art below this many pixels per inch as printed is a warning.
        error_dpi: art below this many pixels per inch as printed is an error (``--force``
            prints a proof anyway).
    """
    from cardgen.render.images import effective_dpi  # lazy: +22 ms of imports here (measured)

    out = Preflight(game, title, version)
    for p in report.errors + report.warnings:
        out.findings.append(replace(p, hint="", code=p.code or "validation", field=p.path))
    out.deck_math = [asdict(pc) for pc in report.player_counts]
    sizes: dict[str, tuple[int, int] | CardgenError] = {}
    named: set[CardRef] = set()  #: card faces that already have a missing-glyph finding
    for cp in plans:
        out.cards[cp.component] = len(cp.cards)
        once: set[tuple] = set()
        for f in cp.findings:
            if (f.card, f.field, f.code) in once:  # e.g. one outside-safe per line of a box
                continue
            once.add((f.card, f.field, f.code))
            at_row = bool(f.card.card_id)  # a face shared by every card stays at its template line
            out.findings.append(replace(f, file=f.card.file, line=f.card.line) if at_row else f)
            if f.code == "missing-glyph":
                named.add(f.card)
        seen: set[tuple] = set()
        mine = len(out.plan_findings)  # this component's own findings start here (grouped below)
        key_front = getattr(cp.fronts, "key_at", None)
        key_back = getattr(cp.backs, "key_at", None)
        for i, card in enumerate(cp.cards):  # each distinct face once, in deck order
            for faces, key_at, face in ((cp.fronts, key_front, "front"), (cp.backs, key_back, "back")):
                if key_at is not None:
                    if (key_at(i), face) in seen:
                        continue
                    plan = faces[i]
                else:
                    plan = faces[i]
                    if plan is None or (plan.key, face) in seen:
                        continue
                seen.add((plan.key, face))
                _check_plan(plan, card.ref(face), missing_chars, image_size, sizes, (min_dpi, error_dpi), out,
                            effective_dpi, named)
        out.face_findings += out.plan_findings[mine:]
        grouped = _grouped(out.plan_findings[mine:])
        out.plan_findings[mine:] = grouped
        out.findings.extend(grouped)
    return out


def _grouped(found: list[Problem]) -> list[Problem]:
    """The same finding on several faces of one component (an image used by nine cards) as one
    finding naming the cards, at the first card's row (as layout findings are,
    :func:`cardgen.steps.layout_findings.layout_problems`); ``detail["cards"]`` lists them all."""
    groups: dict[tuple, list[Problem]] = {}
    for f in found:
        groups.setdefault((f.field, f.message, f.severity, f.code), []).append(f)
    out = []
    for hits in groups.values():
        f = hits[0]
        if len(hits) == 1:
            out.append(f)
            continue
        comp = f.card.component
        cards = list(dict.fromkeys(h.card.label.removeprefix(f"{comp} ") for h in hits))
        shown = ", ".join(cards[:3]) + (f" and {len(cards) - 3} more" if len(cards) > 3 else "")
        out.append(replace(f, path=f"{comp} → {f.field}", message=f"{f.message} (cards {shown})", card=None,
                           detail={**(f.detail or {}), "cards": cards}))
    return out


#: How to fix what preflight finds by reading the plans, by (code, severity).
HINTS = {
    ("image-low-dpi", "error"): "use a larger image (300 dpi at the printed size looks sharp), "
                                "or build with --force to print a proof anyway",
    ("image-low-dpi", "warning"): "a larger image (300 dpi at the printed size) prints sharper",
    ("missing-glyph", "error"): "use another character, or a font that has it (fonts: in game.yaml or fonts/fonts.yaml)",
    ("bad-image", "error"): "save it as PNG or JPEG",
    ("image-too-large", "error"): "scale the image down (300 dpi at the printed size is enough)",
}


def _add(out: Preflight, finding: Problem) -> None:
    """A finding of preflight's own, with its hint."""
    finding = replace(finding, hint=HINTS.get((finding.code, finding.severity), ""))
    out.plan_findings.append(finding)  # into out.findings once grouped, after the component's faces


def _check_plan(plan, ref: CardRef, missing_chars, image_size, sizes, dpis, out, effective_dpi, named) -> None:
    min_dpi, error_dpi = dpis
    chars: dict[str, list[str]] = {}
    for op in plan.ops:
        if isinstance(op, Text) and ref not in named:
            for ch in missing_chars(op.font, op.text):
                chars.setdefault(op.font, [])
                if ch not in chars[op.font]:
                    chars[op.font].append(ch)
        elif isinstance(op, Image):
            if op.path not in sizes:
                try:
                    sizes[op.path] = image_size(op.path)
                except CardgenError as exc:
                    sizes[op.path] = exc
            size = sizes[op.path]
            if isinstance(size, CardgenError):
                for p in size.problems:
                    _add(out, card_problem("error", ref, "image", p.message, p.code))
                continue
            dpi = effective_dpi(op, *size)
            if dpi < min_dpi - 0.5:
                low = dpi < error_dpi - 0.5
                _add(out, card_problem(
                    "error" if low else "warning", ref, "image",
                    f"{op.path.rsplit('/', 1)[-1]} prints at {dpi:.0f} dpi ({size[0]} × {size[1]} px over "
                    f"{op.w / 72 * 25.4:.1f} × {op.h / 72 * 25.4:.1f} mm); "
                    + (f"below {error_dpi:.0f} dpi it prints visibly blurred" if low
                       else f"{min_dpi:.0f} dpi or more looks sharp"),
                    "image-low-dpi", detail={"dpi": round(dpi, 1), "pixels": list(size), "path": op.path}))
    if ref in named:
        return
    for role, missing in chars.items():
        named.add(ref)
        shown = " ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
        _add(out, card_problem("error", ref, f"font {role}", f"the {role} font has no glyph for {shown}",
                               "missing-glyph", detail={"font": role, "chars": missing}))
