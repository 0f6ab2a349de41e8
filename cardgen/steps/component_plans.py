"""Component planning: every physical card of a component laid out, each distinct face once.

The plans (pt, y up) are what every output draws and what preflight reads; nothing is laid out twice.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cardgen.check.icons import icon_specs
from cardgen.check.print_setup import find_template, piece_size_mm
from cardgen.core.errors import CardgenError, Problem
from cardgen.core.units import MM
from cardgen.data.expand import PhysicalCard, expand
from cardgen.data.game import Game, safe_path
from cardgen.data.project import Project
from cardgen.data.template_checks import geometry_problems
from cardgen.fonts.fontset import FontSet
from cardgen.layout.card import plan_card, reads_card, shared_face_findings
from cardgen.layout.draft_mark import draft_mark
from cardgen.layout.face import Frame
from cardgen.layout.ops import CardPlan


class FacePlans(Sequence):
    """The face plans of a component's physical cards (a read-only sequence, one item per card).

    Plans are stored once per distinct face key (copies of a row share a face; identical backs
    share one key), made by the single planning pass of :func:`plan_component`. ``key_at(i)``
    gives the face key of card ``i`` (the PDF renderer uses it to reuse a drawn face).
    """

    def __init__(self, cards: list[PhysicalCard], keys: dict[str, str], plans: dict[str, CardPlan]):
        self.cards, self.keys, self.plans = cards, keys, plans

    def __len__(self) -> int:
        return len(self.cards)

    def key_at(self, i: int) -> str:
        """The face key of card ``i`` (cards showing the same face share it)."""
        return self.keys[self.cards[i].row.id]

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self.plans[self.keys[self.cards[i].row.id]]


@dataclass
class ComponentPlans:
    """Face plans of every physical card of one component."""

    component: str
    name: str
    cards: list[PhysicalCard]
    fronts: Sequence[CardPlan]  #: a FacePlans: one stored plan per distinct face
    backs: Sequence[CardPlan | None]
    size_mm: tuple[float, float]
    findings: list[Problem] = field(default_factory=list)


def table_context(game: Game) -> dict[str, list[dict[str, Any]]]:
    """Every component's card rows as plain dicts (``count`` kept), for ``tables.<id>`` in templates:
    the rows' own value dicts, not copies (template expressions cannot change them: the sandbox is
    immutable, and ``card`` is the same dict already)."""
    return {cid: [r.values for r in rows] for cid, rows in game.tables.items()}


def context(game: Game, values: dict[str, Any], tables: dict[str, Any] | None = None) -> dict[str, Any]:
    """The expression context of a card: ``card``, ``game``, ``design``, ``tables`` (every
    component's rows, e.g. a reference card listing the yaku table), and the edition's words
    ``terms`` and ``edition`` (its id and language; :mod:`cardgen.data.editions`)."""
    m = game.manifest
    ed = game.edition
    return {"card": values, "game": m.game.model_dump(), "design": dict(m.design),
            "tables": tables if tables is not None else table_context(game),
            "terms": dict(ed.terms) if ed is not None else {},
            "edition": {"id": ed.id, "language": ed.language} if ed is not None else {"id": "", "language": "ja"}}


def plan_component(game: Game, cid: str, fonts: FontSet, project: Project | None = None,
                   plan: Callable | None = None) -> ComponentPlans:
    """Lay out fronts and backs of every physical card of component ``cid``.

    ``plan``: the face layout function, :func:`cardgen.layout.card.plan_card` by default (the live
    preview passes its cache of faces keyed by their inputs, :class:`cardgen.preview.faces.FaceCache`).

    Returns:
        :class:`ComponentPlans`: one plan (pt, y up) per distinct face, shared by the cards that
        show it, and the layout findings (text shrunk or overflowing, missing glyphs or files).

    Raises:
        CardgenError: unknown card size preset, missing or invalid template, a box wholly
            outside the card and its bleed, a font role the font set lacks, an image file
            outside the game folder, missing, or too large to open.
    """
    project = project or Project.for_game(game.root)
    plan_card_ = plan or plan_card
    m = game.manifest
    idx = next(i for i, c in enumerate(m.components) if c.id == cid)
    comp = m.components[idx]
    w, h = piece_size_mm(game, comp.size)
    frame = Frame(w * MM, h * MM, m.print.bleed, m.print.safe, m.print.cut_tolerance, game.language)
    front_t = find_template(project, game, comp.template, ("components", idx, "template"))
    back_t = find_template(project, game, comp.back, ("components", idx, "back")) if comp.back else None
    icons = icon_specs(game)
    bad = [p for t in (front_t, back_t) if t is not None
           for p in geometry_problems(t, (w, h), frame.bleed / MM, set(fonts.faces))]
    if bad:
        raise CardgenError(list(dict.fromkeys(bad)))
    cards = expand(game, cid)
    findings: list[Problem] = []
    base = context(game, {}, table_context(game))  # game, design and tables: the same for every card

    also = game.edition.also.get(cid, {}) if game.edition is not None else {}

    def ctx_of(card: PhysicalCard) -> dict[str, Any]:  # ``also``: a bilingual face's second edition
        return {**base, "card": card.row.values, "also": also.get(card.row.id, {})}

    checked: dict[str, str] = {}

    def resolve(name: str) -> str:
        """An image named in a card: inside the game folder, present, and small enough to open."""
        if name not in checked:
            from cardgen.render.images import image_size
            path = safe_path(game.root, name, game.manifest_file, None, f"{cid} → image")
            image_size(path)  # raises: missing, unreadable, too large to open safely
            checked[name] = str(path)
        return checked[name]

    # One pass over the distinct rows lays every face out once: it collects the findings and keeps
    # one plan per distinct face key; preflight and drawing read those plans (nothing is laid out
    # twice). Memory grows with the number of distinct faces (see benchmarks/README.md).
    front_keys: dict[str, str] = {}
    back_keys: dict[str, str] = {}
    front_plans: dict[str, CardPlan] = {}
    back_plans: dict[str, CardPlan] = {}
    back_sigs: dict[str, str] = {}
    back_found: list[list[Problem]] = []
    shared: dict = {}  # op → the first equal op: template-fixed ops (frames, labels) are stored once

    def compact(plan: CardPlan) -> CardPlan:
        plan.ops = [shared.setdefault(op, op) for op in plan.ops]
        return plan

    # The same back on every card: laid out once. Not with a ``plan`` of the caller's own (the live
    # preview's face cache keys every card's faces, and finds each back by its card).
    one_back = plan is None and back_t is not None and not reads_card(back_t)
    for card in cards:
        rid = card.row.id
        if rid in front_keys:
            continue
        ctx = ctx_of(card)
        res = plan_card_(front_t, ctx, frame, fonts.width, card.ref("front"), resolve_file=resolve,
                         exists=_is_file, missing_chars=fonts.missing_chars,
                         prepare=fonts.prepare, icons=icons, without_vertical_form=fonts.without_vertical_form)
        findings.extend(res.findings)
        front_keys[rid] = res.plan.key
        if res.plan.key not in front_plans:
            front_plans[res.plan.key] = compact(res.plan)
        if one_back and back_found:  # the back reads no card field: laid out once, for the first card
            back_keys[rid] = next(iter(back_plans))
            back_found.append(back_found[0])
        elif back_t is not None:
            back = plan_card_(back_t, ctx, frame, fonts.width, card.ref("back"),
                             resolve_file=resolve, exists=_is_file, missing_chars=fonts.missing_chars,
                             prepare=fonts.prepare, icons=icons, without_vertical_form=fonts.without_vertical_form)
            back_found.append(back.findings)
            # identical backs share one key so the PDF stores the drawing once
            key = back_keys[rid] = back_sigs.setdefault(repr(back.plan.ops), back.plan.key)
            if key not in back_plans:
                back.plan.key = key
                back_plans[key] = compact(back.plan)
    if back_t is not None and len(back_sigs) == 1 and len(back_found) > 1:  # one back for every card: say it once
        findings.extend(shared_face_findings(back_t, cid, "back", back_found[0]))
    else:
        findings.extend(f for found in back_found for f in found)
    fronts = FacePlans(cards, front_keys, front_plans)
    backs = FacePlans(cards, back_keys, back_plans) if back_t is not None else [None] * len(cards)
    return ComponentPlans(cid, comp.name, cards, fronts, backs, (w, h), findings)


def mark_draft(plans: Sequence[ComponentPlans], fonts: FontSet, safe_pt: float) -> None:
    """Add the DRAFT mark (:func:`cardgen.layout.draft_mark.draft_mark`) to every stored face
    plan — fronts and backs — of ``plans`` (a forced build of a game that fails validation), so
    every output drawn from them carries it. ``safe_pt``: the safe inset, pt."""
    for p in plans:
        for faces in (p.fronts, p.backs):
            stored = faces.plans.values() if isinstance(faces, FacePlans) else \
                list({id(f): f for f in faces if f is not None}.values())  # copies share a plan: mark it once
            for plan in stored:
                plan.ops = plan.ops + draft_mark(plan.width, plan.height, safe_pt, fonts.width)


def _is_file(path: str) -> bool:
    return Path(path).is_file()
