"""One truth: every check a build makes short of drawing pixels, shared by ``cardgen validate``
and every command that builds.

Schema, deck math and design rules (:func:`cardgen.check.print_setup.load_and_validate`), the
game's own icons (:mod:`cardgen.check.icons`), then the font set, the layout of every distinct
face (template fields, text fit, glyph coverage, icon names, images present), and the preflight over those plans (art resolution, images that cannot be
opened, characters no font draws). Nothing is rendered; the plans are kept so a build draws
exactly what was checked.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.check.deck_math import Report
from cardgen.check.print_setup import load_and_validate
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.editions import apply_edition, edition_ids
from cardgen.data.expand import printable_components
from cardgen.data.readable import covered, permission_problem
from cardgen.insight.model_check import plan_model

if TYPE_CHECKING:
    from cardgen.check.preflight import Preflight
    from cardgen.data.game import Game
    from cardgen.fonts.fontset import FontSet
    from cardgen.steps.component_plans import ComponentPlans
    from cardgen.steps.sheets import SheetOptions

#: Preflight codes that stop every command, ``--force`` or not (nothing can be drawn).
FATAL_IMAGE_CODES = ("image-too-large", "bad-image")


@dataclass
class GameCheck:
    """The result of :func:`check_game`.

    ``report`` holds the validator's problems; ``layout`` the problems met while laying out and
    preflighting (errors and warnings, each once, in card order); ``fatal`` those of them no
    ``--force`` can print past (missing font, missing template, an image that cannot be opened).
    """

    game: "Game | None"
    report: Report
    fonts: "FontSet | None" = None
    plans: list["ComponentPlans"] = field(default_factory=list)
    layout: list[Problem] = field(default_factory=list)
    fatal: list[Problem] = field(default_factory=list)
    preflight: "Preflight | None" = None
    odds: list = field(default_factory=list)  #: :class:`cardgen.insight.odds.OddsResult` per ``insight.odds`` entry

    @property
    def errors(self) -> list[Problem]:
        """Every error: the validator's, then those of layout and preflight."""
        return self.report.errors + [p for p in self.layout if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """Every warning: the validator's, then those of layout and preflight."""
        return self.report.warnings + [p for p in self.layout if p.severity == "warning"]

    def merged_report(self) -> Report:
        """The validator's report with the layout and preflight problems added (what
        ``cardgen validate`` prints and ``--format json`` gives)."""
        return replace(self.report, errors=self.errors, warnings=self.warnings)


def _sig(p: Problem) -> tuple:
    return (p.file, p.line, p.path, p.message, p.severity)


def _odds(check: GameCheck, add) -> None:
    """The exact odds the manifest declares (``insight.odds``; they go into report.json). A
    declaration that does not fit the data is a warning here — printing does not depend on it;
    ``cardgen odds`` refuses it as an error."""
    if not check.game.manifest.insight.odds:
        return

    from cardgen.insight.odds import compute_odds  # lazy: +6 ms of imports here (measured)
    try:
        check.odds = compute_odds(check.game)
    except CardgenError as exc:
        add([replace(p, severity="warning") for p in exc.problems])


def _model(check: GameCheck, add) -> None:
    """The round the manifest describes for ``cardgen simulate`` (``insight.model``): every name,
    column, option and deal checked as the simulator checks them (in plain Python: neither numpy
    nor numba is imported), as warnings here — printing does not depend on them; ``cardgen
    simulate`` refuses them."""
    if check.game.manifest.insight.model is None:
        return
    try:
        add(plan_model(check.game).notes)  # a way to win that can never happen
    except CardgenError as exc:
        add([replace(p, severity="warning") for p in exc.problems])


def check_game(game_dir: Path | str, layout: bool = True, rulebook: bool = True, plan=None, on_fonts=None,
               sheets: "SheetOptions | bool" = True, shop: str | None = None, edition: str | None = None) -> GameCheck:
    """Load, validate and (``layout``) lay out every printed component of a game, and
    (``rulebook``, when the game has a ``rules/`` folder) read and check its rules text, without
    drawing.

    ``plan``: the face layout function given to :func:`cardgen.steps.component_plans.plan_component`
    (default :func:`cardgen.layout.card.plan_card`); ``on_fonts(game, fonts)`` is called once the
    font set is loaded, before any face is laid out (the live preview's face cache starts there).
    ``sheets``: the print-sheet options every card must fit on once (paper, margin; ``True``: the
    defaults a build uses without options, A4 with a 5 mm margin; ``False``: no print sheets).
    ``shop``: the print-shop preset the build writes for (``--preset``; else game.yaml's ``print.shop``):
    its problems and colour preflight are checked too.

    ``edition``: the edition checked (:mod:`cardgen.data.editions`; None: the default edition,
    with every other edition's coverage).

    Never raises for bad input: every problem is in the result. A problem met twice (a missing
    template found by the print-setup check and again by the layout) is kept once.
    """
    game, report = load_and_validate(game_dir, edition=edition)
    check = GameCheck(game, report)
    if game is None:
        return check
    seen = {_sig(p) for p in report.errors + report.warnings}
    blocked = [p for p in report.errors if p.code == "unreadable"]
    check.fatal.extend(blocked)  # no --force prints past a folder that cannot be read

    def add(problems: list[Problem], fatal: bool = False) -> None:
        for p in problems:
            if blocked and covered(p, blocked):  # said by the unreadable folder's own finding
                continue
            if _sig(p) not in seen:
                seen.add(_sig(p))
                check.layout.append(p)
            if fatal:
                check.fatal.append(p)

    if game.manifest.icons:  # the game's own icons: files present, drawable, not alike in greyscale
        from cardgen.check.icons import check_icons
        found = check_icons(game)
        add([p for p in found if p.severity == "error"], fatal=True)
        add([p for p in found if p.severity != "error"])
    laid = (0, 0)  # check.layout[a:b]: the problems the preflight was made from or found itself
    if layout:
        start = len(check.layout)
        _layout(check, add, plan, on_fonts)
        laid = (start, len(check.layout))
        if sheets is not False:
            from cardgen.steps.sheets import SheetOptions, paper_fit_problems
            add(paper_fit_problems(check.game, check.plans, SheetOptions() if sheets is True else sheets), fatal=True)
        _odds(check, add)
        _model(check, add)
        if (shop or game.manifest.print.shop) and check.fonts is not None:
            _shop(check, add, shop)
        if edition is None:
            _other_editions(check, add, plan)
    if rulebook and game.rules_dir.is_dir():
        from cardgen.rulebook.assemble import rulebook_blocks
        try:
            if check.fonts is not None:  # glyphs and table columns need the fonts
                from cardgen.steps.rulebook import check_rulebook
                found = check_rulebook(game, report, check.fonts, check.plans)
                add([p for p in found if p.severity == "error"], fatal=True)
                add([p for p in found if p.severity != "error"])
            else:
                rulebook_blocks(game, report)
        except CardgenError as exc:  # the rulebook step cannot be forced past these
            add(exc.problems, fatal=True)
    if check.preflight is not None:  # report.json and the build's summary count what validate counts
        check.preflight.add_checked(check.layout[:laid[0]] + check.layout[laid[1]:])
    return check


def _other_editions(check: GameCheck, add, plan=None) -> None:
    """The faces of every edition but the default laid out too (the longest text decides whether a
    box fits): their layout errors (text that does not fit, glyphs the edition's fonts lack) are
    warnings of the default edition's check, named ``edition 'en': …`` at the card — the default
    edition still builds; ``--edition en`` makes them errors of that build."""
    from cardgen.fonts.fontset import fonts_for  # lazy: +0 ms here (measured: _layout imported it already)
    from cardgen.steps.layout_findings import layout_problems  # lazy: +0 ms here (measured: as fonts_for)

    for eid in edition_ids(check.game)[1:]:
        found: list[Problem] = []
        try:
            game = apply_edition(check.game, eid)
            fonts = fonts_for(game)
        except CardgenError as exc:
            found = list(exc.problems)
        else:
            plans = _plans(game, fonts, lambda problems, fatal=False: found.extend(problems), plan)
            found += layout_problems(game, plans)
        add([replace(p, severity="warning", message=f"edition {eid!r}: {p.message}")
             for p in found if p.severity == "error"])


def _layout(check: GameCheck, add, plan=None, on_fonts=None) -> None:
    """Fonts, card plans, layout findings and preflight of ``check.game`` into ``check``."""
    from cardgen.fonts.fontset import fonts_for  # lazy: +55 ms of imports here (measured)
    from cardgen.steps.layout_findings import (  # lazy: +78 ms of imports here (measured)
        layout_problems,
        unknown_terms,
        unused_font_roles,
    )

    game, report = check.game, check.report
    add(unknown_terms(game))
    try:
        check.fonts = fonts_for(game)
    except CardgenError as exc:
        add(exc.problems, fatal=True)
        return
    if on_fonts is not None:
        on_fonts(game, check.fonts)
    check.plans = _plans(game, check.fonts, add, plan)
    add(layout_problems(game, check.plans))
    add(unused_font_roles(game, check.fonts.roles(), check.plans))
    pf = check.preflight = _preflight(game, check.fonts, check.plans, report)
    for f in pf.plan_findings:  # found by reading the plans (layout findings and validation are already in)
        add([f], fatal=f.code in FATAL_IMAGE_CODES)


def _shop(check: GameCheck, add, name: str | None = None) -> None:
    """The print-shop preset game.yaml names (``print.shop``): what stops the game going to that
    shop and the colour preflight of its CMYK conversion (:func:`cardgen.steps.shop.preset_problems`)."""
    from cardgen.steps.shop import (  # lazy: +317 ms of imports here (measured); pikepdf and LittleCMS: only for a shop
        preset_problems,
        resolve_preset,
    )

    try:
        preset = resolve_preset(check.game, name)
    except CardgenError as exc:  # an unknown preset: nothing can be written for it, --force or not
        add(exc.problems, fatal=True)
        return
    if preset is not None:  # what stops the game going to that shop cannot be forced past either
        found = preset_problems(check.game, check.fonts, check.plans, preset)
        add([p for p in found if p.severity == "error"], fatal=True)
        add([p for p in found if p.severity != "error"])


def _plans(game: "Game", fonts: "FontSet", add, plan=None) -> list["ComponentPlans"]:
    """Plans of every printed component; a component that cannot be laid out (missing template,
    a box outside the card) gives its problems to ``add`` instead."""
    from cardgen.steps.component_plans import plan_component  # lazy: +84 ms of imports here (measured)

    plans = []
    for cid in printable_components(game):
        try:
            plans.append(plan_component(game, cid, fonts, plan=plan))
        except CardgenError as exc:
            add(exc.problems, fatal=True)
        except PermissionError as exc:  # a template or image in a folder that cannot be read
            add([permission_problem(exc)], fatal=True)
    return plans


def _preflight(game: "Game", fonts: "FontSet", plans: list["ComponentPlans"], report: Report) -> "Preflight":
    """The preflight report over ``plans`` (see :mod:`cardgen.check.preflight`)."""
    from cardgen.check.preflight import preflight  # lazy: +16 ms of imports here (measured)
    from cardgen.render.images import image_size  # lazy: +31 ms of imports here (measured)

    m = game.manifest.game
    return preflight(game.id, m.title, m.version, plans, report, missing_chars=fonts.missing_chars,
                     image_size=image_size)
