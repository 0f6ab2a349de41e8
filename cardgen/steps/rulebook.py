"""The rulebook step: the rules text laid out with the game's page design and drawn into a PDF
(:func:`write_rulebook`), or laid out in memory for its problems only (:func:`check_rulebook`)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cardgen.check.deck_math import Report
from cardgen.check.icons import icon_specs
from cardgen.check.print_setup import SHARED_PREFIX
from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.data.template import plain_name
from cardgen.data.game import Game, safe_path
from cardgen.data.project import Project
from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.presets import paper_mm
from cardgen.rulebook import block_memo
from cardgen.rulebook.book_info import BookInfo
from cardgen.rulebook.words import book_words
from cardgen.steps.component_plans import ComponentPlans, plan_component


def design_source(game: Game, project: Project, name: str) -> tuple[list, str]:
    """Where the page design ``name`` is looked up: a plain name in the game's own
    ``templates/rulebook/`` (``default``: then the built-in design), ``shared/NAME`` in the
    project's shared ``templates/rulebook/`` only (as card templates:
    :data:`cardgen.check.print_setup.SHARED_PREFIX`). Returns ``(folders, file stem)``."""
    if name.startswith(SHARED_PREFIX):
        shared = project.root.resolve() / "templates" / "rulebook"
        return [shared] if shared != game.root.resolve() / "templates" / "rulebook" else [], name[len(SHARED_PREFIX):]
    own = game.root / "templates" / "rulebook"
    return [own] if own.is_dir() else [], name


def _rulebook_parts(game: Game, report: Report, fonts: FontSet, paper: str | None,
                    plans: Sequence[ComponentPlans]) -> tuple:
    """What drawing the rulebook needs: blocks, page design, book info, page size (mm), card plan
    and image lookups (see :func:`write_rulebook`)."""
    from cardgen.rulebook.assemble import rulebook_blocks  # lazy: +85 ms of imports here (measured)
    from cardgen.rulebook.design import design_font_problems, load_design  # lazy: +14 ms of imports here (measured)

    m = game.manifest
    project = Project.for_game(game.root)
    settings = m.rulebook
    paper = (paper or settings.paper).lower()
    try:
        page = paper_mm(paper)
    except KeyError:
        raise CardgenError(Problem("", None, "--paper", f"unknown paper {paper!r}", "use a5, a4, b5 or letter",
                                   code="unknown-paper"))
    where = (game.manifest_file, game.line("rulebook", "template"))
    try:
        design, design_path = load_design(*design_source(game, project, settings.template), project.allowed(), where)
    except CardgenError as exc:
        shared = project.root.resolve() / "templates" / "rulebook" / f"{settings.template}.yaml"
        if plain_name(settings.template) and shared.is_file() and \
                shared.parent != game.root.resolve() / "templates" / "rulebook":
            raise CardgenError([Problem(*where, "rulebook → template", f"no page design {settings.template!r} in "
                                        f"{rel(game.root / 'templates' / 'rulebook')}/ (a plain name is looked up "
                                        "in the game's own folder only)",
                                        f"write `{SHARED_PREFIX}{settings.template}` to use the shared {rel(shared)}, "
                                        f"or create {rel(game.root / 'templates' / 'rulebook' / shared.name)}",
                                        code="rulebook-design")]) from exc
        raise
    wrong_fonts = design_font_problems(design, design_path, fonts.roles())
    if wrong_fonts:
        raise CardgenError(wrong_fonts)

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

    rules_dir = game.rules_dir

    def resolve_image(src: str) -> Path:
        return safe_path(rules_dir, src, m.game.id + "/rules", None, "rulebook → image")

    info = BookInfo(m.game.title, m.game.subtitle, m.game.version, m.game.source, draft=bool(report.errors),
                    language=game.language, words=book_words(game))
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
    from cardgen.render.images import ImageCache  # lazy: +8 ms of imports here (measured)
    from cardgen.rulebook.pdf import render_rulebook  # lazy: +118 ms of imports here (measured)

    blocks, design, info, page, card_plan, resolve_image = _rulebook_parts(game, report, fonts, paper, plans)
    return render_rulebook(path, blocks, design, fonts, info, page, card_plan, resolve_image, images=ImageCache(),
                           findings=findings, icons=icon_specs(game))


def check_rulebook(game: Game, report: Report, fonts: FontSet,
                   plans: Sequence[ComponentPlans] = ()) -> list[Problem]:
    """Every problem :func:`write_rulebook` would meet (``cardgen validate``): its errors raised as
    :class:`CardgenError` (rules text, unknown icon names, glyphs), then those of laying the book out in memory
    returned (words too wide for a table column, images scaled down, short last lines). Card
    figures reuse ``plans`` (those already laid out by the check), as the build does. Every run
    lays the rules out; a resident process (``cardgen watch``) holds each block's findings in
    memory between saves (:mod:`cardgen.rulebook.block_memo`), so a save lays out the blocks it
    changed only."""
    from cardgen.render.images import ImageCache  # lazy: +9 ms of imports here (measured)
    from cardgen.rulebook.pdf import check_story  # lazy: +132 ms of imports here (measured)

    blocks, design, info, page, card_plan, resolve_image = _rulebook_parts(game, report, fonts, None, plans)
    icons = icon_specs(game)
    memo = None
    if block_memo.on():  # a watch's check: the blocks a save left as they were are not laid out again
        memo = block_memo.BlockMemo(block_memo.book_key(design, page, info, fonts, icons), card_plan, resolve_image)
        card_plan, resolve_image = memo.card_plan, memo.resolve_image
    return check_story(blocks, design, fonts, info, page, card_plan, resolve_image, images=ImageCache(),
                       icons=icons, memo=memo)
