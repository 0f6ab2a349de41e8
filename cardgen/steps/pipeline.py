"""Orchestration only: load → validate → lay out → render → write, per game.

The CLI calls these functions; each raises :class:`CardgenError` for expected failures.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cardgen.core.errors import CardgenError, Problem
from cardgen.data.expand import PhysicalCard, expand
from cardgen.fonts.fontset import FontSet
from cardgen.layout.card import plan_card, shared_face_findings
from cardgen.layout.face import Frame
from cardgen.layout.ops import CardPlan
from cardgen.layout.grid import SheetSpec, choose_grid, common_orientation
from cardgen.layout.sheet import impose
from cardgen.presets import paper_mm
from cardgen.check.print_setup import find_template, piece_size_mm
from cardgen.check.icons import icon_specs
from cardgen.data.project import Project
from cardgen.check.deck_math import Report
from cardgen.data.game import Game, safe_path
from cardgen.core.units import MM


@dataclass
class SheetOptions:
    """Print sheet settings (``cardgen sheets`` options). Lengths in mm."""

    paper: str = "a4"
    marks: str = "japanese"
    backs: bool = True
    duplex: str = "long-edge"
    margin: float = 5.0
    draft: bool = False  #: print the "DRAFT – validation failed" mark
    sides: str = "both"  #: pages written: ``front`` | ``back`` | ``both`` (``backs=False`` means front)
    back_offset: tuple[float, float] = (0.0, 0.0)  #: mm, added to back pages (x right, y down), see duplex calibration
    one_sided: str = "blank"  #: components without a back: ``blank`` back pages, or a ``separate`` file
    label_note: str = ""  #: said on every page label after the draft, e.g. "reprint 再印刷 · changed since HEAD~1"


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
    """Every component's card rows as plain dicts (``count`` kept), for ``tables.<id>`` in templates."""
    return {cid: [dict(r.values) for r in rows] for cid, rows in game.tables.items()}


def context(game: Game, values: dict[str, Any], tables: dict[str, Any] | None = None) -> dict[str, Any]:
    """The expression context of a card: ``card``, ``game``, ``design``, and ``tables`` (every
    component's rows, e.g. a reference card listing the yaku table)."""
    m = game.manifest
    return {"card": values, "game": m.game.model_dump(), "design": dict(m.design),
            "tables": tables if tables is not None else table_context(game)}


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
    frame = Frame(w * MM, h * MM, m.print.bleed, m.print.safe, m.print.cut_tolerance)
    front_t = find_template(project, game, comp.template, ("components", idx, "template"))
    back_t = find_template(project, game, comp.back, ("components", idx, "back")) if comp.back else None
    icons = icon_specs(game)
    from cardgen.data.template_checks import geometry_problems
    bad = [p for t in (front_t, back_t) if t is not None
           for p in geometry_problems(t, (w, h), frame.bleed / MM, set(fonts.faces))]
    if bad:
        raise CardgenError(list(dict.fromkeys(bad)))
    cards = expand(game, cid)
    findings: list[Problem] = []
    base = context(game, {}, table_context(game))  # game, design and tables: the same for every card

    def ctx_of(card: PhysicalCard) -> dict[str, Any]:
        return {**base, "card": card.row.values}

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

    for card in cards:
        rid = card.row.id
        if rid in front_keys:
            continue
        ctx = ctx_of(card)
        res = plan_card_(front_t, ctx, frame, fonts.width, card.ref("front"), resolve_file=resolve,
                         exists=_is_file, missing_chars=fonts.missing_chars,
                         prepare=fonts.prepare, icons=icons)
        findings.extend(res.findings)
        front_keys[rid] = res.plan.key
        if res.plan.key not in front_plans:
            front_plans[res.plan.key] = compact(res.plan)
        if back_t is not None:
            back = plan_card_(back_t, ctx, frame, fonts.width, card.ref("back"),
                             resolve_file=resolve, exists=_is_file, missing_chars=fonts.missing_chars,
                             prepare=fonts.prepare, icons=icons)
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
    from cardgen.layout.draft_mark import draft_mark

    for p in plans:
        for faces in (p.fronts, p.backs):
            stored = faces.plans.values() if isinstance(faces, FacePlans) else \
                list({id(f): f for f in faces if f is not None}.values())  # copies share a plan: mark it once
            for plan in stored:
                plan.ops = plan.ops + draft_mark(plan.width, plan.height, safe_pt, fonts.width)


def _is_file(path: str) -> bool:
    return Path(path).is_file()


def layout_problems(game: Game, plans: list[ComponentPlans]) -> list[Problem]:
    """Layout findings as problems naming the card and the field.

    The same finding on several cards (a template expression that fails for every card, an
    image file used by many rows) is one problem naming the cards: at the template line when
    the template is at fault, else at the first card's row."""
    groups: dict[tuple, list] = {}
    for p in plans:
        for f in p.findings:
            at_template = f.file != f.card.file  # else at the card's row
            where = (f.file, f.line) if at_template else ("", None)
            key = (*where, p.component, f.field, f.message, f.severity, f.code)
            groups.setdefault(key, []).append(f)
    out = []
    for (file, line, comp, fld, message, severity, code), hits in groups.items():
        f = hits[0]
        cards = list(dict.fromkeys(h.card.label.removeprefix(f"{comp} ") for h in hits))
        if not f.card.card_id:  # a back shared by every card (shared_face_findings)
            message = f"{message} (the back shared by every card of {comp})"
        elif len(cards) > 1 or file:
            shown = ", ".join(cards[:3]) + (f" and {len(cards) - 3} more" if len(cards) > 3 else "")
            message = f"{message} (card{'s' if len(cards) > 1 else ''} {shown})"
        if file:
            where, at, path = file, line, f"elements → {fld}"
        else:
            where, at = f.card.file or game.manifest_file, f.card.line
            path = f"{f.card.label} → {fld}" if len(cards) == 1 else f"{comp} → {fld}"
        out.append(Problem(where, at, path, message, _HINTS.get(code, ""), severity, code,
                           card=f.card if len(cards) == 1 else None, field=fld))
    return out


_HINTS = {
    "unknown-icon": "use one of the known icon names (`:power:` in text, `icon: power` in a template)",
    "text-overflow": "shorten the text, or give the box more room or a smaller min_size in the template",
    "text-shrunk": "the text is smaller than the template's preferred size; shorten it for a uniform look",
    "outside-safe": "keep text at least the safe distance inside the trim",
    "cut-tolerance": "move the box in (print.cut_tolerance in game.yaml sets the distance), or set bleed: true",
    "small-text": "give the box more room or shorten the text; min_size below 6 pt says it is meant",
    "template-expr": "check the field names used in the template against the card table's columns",
    "template-sandbox": "templates may read card, game and design values only",
    "template-limit": "keep numbers, strings and loops small (README → Security lists the limits)",
    "missing-file": "put the image in the game folder, or fix the file name (it is relative to the game folder)",
    "missing-glyph": "use another character, or a font that has it (fonts: in game.yaml or fonts/fonts.yaml)",
    "bad-image": "save it as PNG or JPEG",
    "image-too-large": "scale the image down (300 dpi at the printed size is enough)",
    "path-escape": "name a file inside the game folder, relative to it",
    "icons-overflow": "lower the number or give the box more room",
}


def sheet_spec(options: SheetOptions, size_mm: tuple[float, float], bleed_pt: float) -> SheetSpec:
    """The imposition spec (pt) for cards of trim ``size_mm`` (w, h mm) with ``bleed_pt`` on
    ``options.paper`` (sizes from cardgen/presets/sizes.yaml). Raises CardgenError: unknown paper."""
    try:
        pw, ph = paper_mm(options.paper)
    except KeyError:
        raise CardgenError(Problem("", None, "--paper", f"unknown paper {options.paper!r}", "use a4, letter or b5",
                                   code="unknown-paper"))
    return SheetSpec(pw * MM, ph * MM, size_mm[0] * MM, size_mm[1] * MM, bleed=bleed_pt,
                     margin=options.margin * MM, marks=options.marks)  # type: ignore[arg-type]


def one_sided(plans: Sequence[ComponentPlans]) -> list[ComponentPlans]:
    """The components of ``plans`` without a back template (they print on one side only)."""
    return [p for p in plans if p.cards and all(b is None for b in p.backs)]


def write_sheets(game: Game, fonts: FontSet, plans: list[ComponentPlans], options: SheetOptions, path: Path,
                 on_page: Callable[[], None] | None = None,
                 progress: Callable[[str, int], Callable[[], None]] | None = None) -> int:
    """Impose and render the print sheets of ``plans`` into ``path``. Returns the page count.

    Duplex pairing: with backs (the default), every front page is followed by its back page of
    the same size and orientation; a component without a back gets blank back pages (labelled
    so), so a double-sided print of the whole file pairs every front with its own back. Without
    backs (``--no-backs``, ``--sides front``) only fronts are written; ``--sides back`` writes
    the back pages of components that have backs. One orientation for the file when every
    component can take it without needing more sheets (:func:`common_orientation`); otherwise
    each page label says how to feed the page.

    ``on_page`` is called after each page; or ``progress("sheets", pages)`` gives that callable
    once the page count is known.

    Raises:
        CardgenError: unknown paper; a component whose card does not fit on the paper.
    """
    from cardgen.render.images import ImageCache
    from cardgen.render.pdf_sheets import SheetRun, render_sheets

    m = game.manifest
    bleed = m.print.bleed
    specs = []
    for p in plans:
        spec = sheet_spec(options, p.size_mm, bleed)
        try:
            choose_grid(spec)
        except ValueError as exc:
            raise CardgenError(Problem(game.manifest_file, None, f"components → {p.component}",
                                       f"{exc} ({p.size_mm[0]:g} × {p.size_mm[1]:g} mm on {options.paper})",
                                       "use larger paper or a smaller printer margin", code="no-fit"))
        specs.append(spec)
    landscape = common_orientation([(s, len(p.fronts)) for s, p in zip(specs, plans)])
    want_backs = options.backs and options.sides != "front"
    runs = []
    for p, spec in zip(plans, specs):
        has_back = any(b is not None for b in p.backs)
        grid = choose_grid(spec, landscape)
        _grid, pages = impose(len(p.fronts), spec, backs=want_backs and has_back,
                              duplex=options.duplex,  # type: ignore[arg-type]
                              back_offset=(options.back_offset[0] * MM, -options.back_offset[1] * MM), grid=grid,
                              blank_backs=want_backs and not has_back and options.sides == "both"
                              and options.one_sided != "separate")
        if options.sides == "back" and options.backs:
            pages = [pg for pg in pages if pg.side == "back"]
        if pages:
            runs.append(SheetRun(f"{p.name}", pages, p.fronts, p.backs))
    paper = options.paper.upper()

    def label(run, page, sheets):
        # the back label says how to flip the sheet (the backs are mirrored for that flip)
        if page.blank:
            side = f"裏 back · 白紙 blank: {run.title}は片面（裏なし）"
        elif page.side == "front":
            side = "表 front"
        else:
            side = f"裏 back · {options.duplex} flip"
        feed = ""
        if landscape is None:  # the file mixes orientations: say how to feed this page
            feed = f" · {paper} 横 landscape" if page.width > page.height else f" · {paper} 縦 portrait"
        note = f" · {options.label_note}" if options.label_note else ""
        return (f"{m.game.title} {m.game.version}{note} · {run.title} · {side} · sheet {page.number}/{sheets}{feed}"
                + (" · DRAFT – validation failed" if options.draft else ""))

    if progress is not None and on_page is None:
        on_page = progress("sheets", sum(len(r.pages) for r in runs))
    return render_sheets(path, runs, fonts, label, draft=options.draft,
                         images=ImageCache(), metadata={"title": f"{m.game.title} {m.game.version} print sheets",
                                                        "author": "cardgen", "subject": m.game.source},
                         on_page=on_page, paper=options.paper,
                         duplex=options.duplex if want_backs and any(pg.side == "back" for r in runs for pg in r.pages)
                         else "simplex")


def _rulebook_parts(game: Game, report: Report, fonts: FontSet, paper: str | None,
                    plans: Sequence[ComponentPlans]) -> tuple:
    """What drawing the rulebook needs: blocks, page design, book info, page size (mm), card plan
    and image lookups (see :func:`write_rulebook`)."""
    from cardgen.rulebook.assemble import rulebook_blocks
    from cardgen.rulebook.story import BookInfo
    from cardgen.rulebook.design import load_design

    m = game.manifest
    project = Project.for_game(game.root)
    settings = m.rulebook
    paper = (paper or settings.paper).lower()
    try:
        page = paper_mm(paper)
    except KeyError:
        raise CardgenError(Problem("", None, "--paper", f"unknown paper {paper!r}", "use a5, a4, b5 or letter",
                                   code="unknown-paper"))
    design, _ = load_design([d for d in (game.root / "templates" / "rulebook", project.root / "templates" / "rulebook")
                             if d.is_dir()], settings.template, project.allowed(),
                            (game.manifest_file, game.line("rulebook", "template")))

    def missing_chars(role: str, text: str) -> list[str]:
        return fonts.missing_chars(role, text)

    missing_chars.design = design
    blocks = rulebook_blocks(game, report, missing_chars=missing_chars)
    planned: dict[str, ComponentPlans] = {p.component: p for p in plans}

    def card_plan(component: str, card_id: str | None = None, side: str = "front") -> CardPlan | None:
        """The face of ``card_id`` (the component's first card when None); ``side="back"``: its
        back, None when the component has none."""
        if component not in planned:
            planned[component] = plan_component(game, component, fonts, project)
        cp = planned[component]
        k = next(k for k, c in enumerate(cp.cards) if card_id is None or c.row.id == card_id)
        return (cp.backs if side == "back" else cp.fronts)[k]

    rules_dir = game.root / "rules"

    def resolve_image(src: str) -> Path:
        return safe_path(rules_dir, src, m.game.id + "/rules", None, "rulebook → image")

    info = BookInfo(m.game.title, m.game.subtitle, m.game.version, m.game.source, draft=bool(report.errors))
    return blocks, design, info, page, card_plan, resolve_image


def write_rulebook(game: Game, report: Report, fonts: FontSet, path: Path, paper: str | None = None,
                   plans: Sequence[ComponentPlans] = (), findings: list | None = None) -> int:
    """Render ``card_data/<game>/rules/*.md`` into the rulebook PDF at ``path``. Returns the page count.
    Warnings about the rulebook (an image scaled down to the frame) are appended to ``findings``.

    Paper: ``paper`` (CLI), else the manifest's ``rulebook.paper`` (A5 by default). The page
    design is ``templates/rulebook/<rulebook.template>.yaml`` (the game folder's first).
    Card images in the text reuse ``plans`` (the build's component plans); a component not
    among them is laid out here, once.

    Raises:
        CardgenError: missing rules, template errors (file:line), unknown paper or page design,
            characters the fonts lack (file:line), a word too wide for its table column.
    """
    from cardgen.render.images import ImageCache
    from cardgen.rulebook.pdf import render_rulebook

    blocks, design, info, page, card_plan, resolve_image = _rulebook_parts(game, report, fonts, paper, plans)
    return render_rulebook(path, blocks, design, fonts, info, page, card_plan, resolve_image, images=ImageCache(),
                           findings=findings, icons=icon_specs(game))


def check_rulebook(game: Game, report: Report, fonts: FontSet,
                   plans: Sequence[ComponentPlans] = ()) -> list[Problem]:
    """Every problem :func:`write_rulebook` would meet (``cardgen validate``): its errors raised as
    :class:`CardgenError` (rules text, glyphs), then those of laying the book out in memory
    returned (words too wide for a table column, images scaled down, short last lines). Card
    figures reuse ``plans`` (those already laid out by the check), as the build does."""
    from cardgen.render.images import ImageCache
    from cardgen.rulebook.pdf import check_story

    blocks, design, info, page, card_plan, resolve_image = _rulebook_parts(game, report, fonts, None, plans)
    return check_story(blocks, design, fonts, info, page, card_plan, resolve_image, images=ImageCache(),
                       icons=icon_specs(game))
