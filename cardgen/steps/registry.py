"""Every output a build can write, registered once (:data:`STEPS`): its name (the ``steps=`` of
:func:`cardgen.api.build_game` and the CLI's commands), whether it draws the laid-out cards, and
the function writing it. A new output is one ``@step("name")`` function here (its writer in
``steps/``, geometry in ``layout/``, drawing in ``render/``); ``cardgen build`` makes every step.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardgen.core.atomic import AtomicOutput
from cardgen.core.errors import rel
from cardgen.layout.booklet import sheet_for
from cardgen.steps.calibration import write_calibration
from cardgen.steps.component_plans import ComponentPlans
from cardgen.steps.rulebook import write_rulebook
from cardgen.steps.sheets import SheetOptions, one_sided, write_sheets

SHEETS_PDF = "print-sheets.pdf"
ONE_SIDED_PDF = "print-sheets-one-sided.pdf"  #: ``--one-sided separate``: components without a back
RULEBOOK_PDF = "rulebook.pdf"
BOOKLET_PDF = "rulebook-booklet.pdf"  #: ``--booklet``: the rulebook imposed for saddle stitching
CALIBRATION_PDF = "duplex-calibration.pdf"


@dataclass
class StepRun:
    """What a step reads (the checked game, its fonts and card plans, the options) and where it
    writes (``out``, the build's atomic output folder); ``notes`` collects what the user should know."""

    game: Any
    report: Any
    fonts: Any
    plans: list[ComponentPlans]
    options: SheetOptions
    exports: Any  #: ExportOptions (cardgen.steps.exports)
    out: AtomicOutput
    progress: Callable | None = None
    rulebook_paper: str | None = None
    rulebook_booklet: bool = False  #: also write rulebook-booklet.pdf
    only: bool = False  #: this step is the only one asked for
    notes: list[str] = field(default_factory=list)
    findings: list = field(default_factory=list)  #: warnings (Problems) a step meets, e.g. a rulebook image scaled down


@dataclass(frozen=True)
class Step:
    """One output: ``write(run)`` writes it and returns the file names written (relative to the
    game's output folder); ``cards``: it draws the laid-out cards (a build asking for it lays
    them out and checks them)."""

    name: str
    write: Callable[[StepRun], list[str]]
    cards: bool


#: The outputs in the order a build writes them: name → :class:`Step`.
STEPS: dict[str, Step] = {}


def step(name: str, cards: bool = True) -> Callable[[Callable[[StepRun], list[str]]], Callable[[StepRun], list[str]]]:
    """Decorator: register the writer of output ``name`` (see :class:`Step`)."""
    def register(fn: Callable[[StepRun], list[str]]) -> Callable[[StepRun], list[str]]:
        STEPS[name] = Step(name, fn, cards)
        return fn
    return register


def sheet_files(plans: list[ComponentPlans], options: SheetOptions) -> list[tuple[str, list[ComponentPlans]]]:
    """The print-sheet files and the components in each: one file (one-sided components with
    blank backs), or with ``one_sided="separate"`` (and backs printed) the two-sided components
    in print-sheets.pdf and the one-sided ones in print-sheets-one-sided.pdf. A file with no
    component is not written (a game of one-sided components has only the one-sided file)."""
    printed = options.backs and options.sides != "front"
    if options.one_sided != "separate" or not printed:
        return [(SHEETS_PDF, plans)]
    single = one_sided(plans)
    double = [p for p in plans if p not in single]
    return [(name, part) for name, part in ((SHEETS_PDF, double), (ONE_SIDED_PDF, single)) if part]


@step("sheets")
def _sheets(run: StepRun) -> list[str]:
    names = []
    for name, part in sheet_files(run.plans, run.options):
        write_sheets(run.game, run.fonts, part, run.options, run.out.path(name), progress=run.progress)
        names.append(name)
    return names


@step("png")
def _png(run: StepRun) -> list[str]:
    from cardgen.steps.exports import backless_note, write_pngs  # lazy: +24 ms of imports here (measured)

    names = write_pngs(run.game, run.fonts, run.plans, run.out, run.exports, run.progress)
    note = backless_note(run.plans, run.exports.png_sides) if run.exports.png_sides != "front" else None
    if note:
        run.notes.append(note)
    return names


@step("tts")
def _tts(run: StepRun) -> list[str]:
    from cardgen.steps.exports import write_tts  # lazy: +22 ms of imports here (measured)

    return write_tts(run.game, run.fonts, run.plans, run.out, run.exports, run.progress)


@step("shop")
def _shop(run: StepRun) -> list[str]:
    from cardgen.steps.exports import write_shop  # lazy: +22 ms of imports here (measured)

    return write_shop(run.game, run.fonts, run.plans, run.out, run.exports, run.progress)


@step("calibration", cards=False)
def _calibration(run: StepRun) -> list[str]:
    write_calibration(run.game, run.fonts, run.options, run.out.path(CALIBRATION_PDF))
    return [CALIBRATION_PDF]


@step("rulebook", cards=False)
def _rulebook(run: StepRun) -> list[str]:
    """Skipped in a build of several steps when the game has no rules folder."""
    if not (run.only or run.game.rules_dir.is_dir()):  # a legitimate choice, said once in the summary
        run.notes.append(f"no rulebook: the game has no {rel(run.game.rules_dir, run.game.root)}/ folder; to start one, "
                         "write rules/rules.md in Markdown (docs/rulebook.md; `cardgen new` makes a game with one)")
        return []
    found: list = []
    write_rulebook(run.game, run.report, run.fonts, run.out.path(RULEBOOK_PDF), paper=run.rulebook_paper,
                   plans=run.plans, findings=found)
    run.findings.extend(p for p in found if p not in run.findings)  # the build's check found most already
    if not run.rulebook_booklet:
        return [RULEBOOK_PDF]
    from cardgen.render.booklet_pdf import write_booklet  # lazy: +101 ms of imports here (measured)

    paper = (run.rulebook_paper or run.game.manifest.rulebook.paper).lower()
    name, w, h = sheet_for(paper)
    sides = write_booklet(run.out.path(RULEBOOK_PDF), run.out.path(BOOKLET_PDF), (w, h))
    run.notes.append(f"{BOOKLET_PDF}: {sides // 2} {name} sheet(s), {paper.upper()} pages in saddle-stitch order; "
                     "print double-sided, flip on the short edge, at 100 %, then fold and staple")
    return [RULEBOOK_PDF, BOOKLET_PDF]
