"""The rulebook step: the rules text laid out with the game's page design and drawn into a PDF
(:func:`write_rulebook`), or laid out in memory for its problems only (:func:`check_rulebook`)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cardgen.core.errors import CardgenError, Problem
from cardgen.fonts.fontset import FontSet
from cardgen.layout.ops import CardPlan
from cardgen.presets import paper_mm
from cardgen.check.icons import icon_specs
from cardgen.data.project import Project
from cardgen.check.deck_math import Report
from cardgen.data.game import Game, safe_path
from cardgen.rulebook.words import book_words
from cardgen.steps.component_plans import ComponentPlans, plan_component


def _rulebook_parts(game: Game, report: Report, fonts: FontSet, paper: str | None,
                    plans: Sequence[ComponentPlans]) -> tuple:
    """What drawing the rulebook needs: blocks, page design, book info, page size (mm), card plan
    and image lookups (see :func:`write_rulebook`)."""
    from cardgen.rulebook.assemble import rulebook_blocks
    from cardgen.rulebook.book_info import BookInfo
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
    from cardgen.render.images import ImageCache
    from cardgen.rulebook.pdf import render_rulebook

    blocks, design, info, page, card_plan, resolve_image = _rulebook_parts(game, report, fonts, paper, plans)
    return render_rulebook(path, blocks, design, fonts, info, page, card_plan, resolve_image, images=ImageCache(),
                           findings=findings, icons=icon_specs(game))


def check_rulebook(game: Game, report: Report, fonts: FontSet,
                   plans: Sequence[ComponentPlans] = ()) -> list[Problem]:
    """Every problem :func:`write_rulebook` would meet (``cardgen validate``): its errors raised as
    :class:`CardgenError` (rules text, unknown icon names, glyphs), then those of laying the book out in memory
    returned (words too wide for a table column, images scaled down, short last lines). Card
    figures reuse ``plans`` (those already laid out by the check), as the build does. The laid-out
    part is kept on disk by what it reads (:mod:`cardgen.steps.rulebook_check_cache`): an edit
    that leaves the rules text, the page design, the fonts, the figures' card sizes and the
    images as they were does not lay the rules out again, and an edit to the rules text lays out
    only the blocks it changed (:class:`cardgen.steps.rulebook_check_cache.BlockMemo`)."""
    from cardgen.steps.rulebook_check_cache import book_key, cached_check, check_key, key_parts

    blocks, design, info, page, card_plan, resolve_image = _rulebook_parts(game, report, fonts, None, plans)
    icons = icon_specs(game)

    def check(card_plan, resolve_image, memo=None) -> list[Problem]:
        from cardgen.render.images import ImageCache
        from cardgen.rulebook.pdf import check_story
        return check_story(blocks, design, fonts, info, page, card_plan, resolve_image, images=ImageCache(),
                           icons=icons, memo=memo)

    parts: list = []  # key_parts, computed once for both keys (cardgen's code is read once)

    def fixed() -> list[str]:
        if not parts:
            parts.append(key_parts(design, page, info, fonts, icons))
        return parts[0]

    return cached_check(lambda: check_key(blocks, design, page, info, fonts, parts=fixed()), card_plan, resolve_image,
                        check, blocks_key=lambda: book_key(design, page, info, fonts, parts=fixed()))
