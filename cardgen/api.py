"""The library API the CLI is a thin layer over. Every function raises
:class:`cardgen.core.errors.CardgenError` for expected failures and never prints."""
from __future__ import annotations

import json
import os
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ContextManager, Iterator, Sequence

from cardgen.check.deck_math import Report
from cardgen.check.coverage import final_coverage
from cardgen.check.open_questions import final_problems
from cardgen.core.boundary import confine, inside, output_outside
from cardgen.core.errors import CardgenError, Problem, UsageError, rel
from cardgen.data.editions import edition_ids, unknown_edition
from cardgen.data.expand import printable_components
from cardgen.data.game import load_game
from cardgen.data.yaml_source import load_yaml
from cardgen.diff.reprint import reprint_sheets as run
from cardgen.diff.run import run_diff
from cardgen.fonts.fontset import fonts_for
from cardgen.steps.component_plans import ComponentPlans, mark_draft, plan_component
from cardgen.steps.export_options import ExportOptions
from cardgen.steps.game_check import GameCheck, check_game
from cardgen.steps.registry import STEPS, StepRun
from cardgen.steps.sheets import SheetOptions

if TYPE_CHECKING:
    from cardgen.check.preflight import Preflight
from cardgen.core.atomic import AtomicOutput, clean_stale_temps
from cardgen.core.written import by_kind, record_and_prune

#: What ``cardgen build`` produces by default.
DEFAULT_STEPS = ("sheets", "rulebook")
REPORT_JSON = "report.json"


@dataclass
class BuildResult:
    """What a build of one game produced."""

    game: str
    out_dir: Path
    report: Report
    files: list[Path] = field(default_factory=list)
    layout: list[Problem] = field(default_factory=list)  #: layout findings (warnings)
    preflight: "Preflight | None" = None  #: the preflight report (also OUT/<game>/report.json)
    notes: list[str] = field(default_factory=list)  #: things the user should know (e.g. faces not written)
    removed: list[str] = field(default_factory=list)  #: files an earlier build wrote and this one no longer does


def validate_game(game_dir: Path | str) -> Report:
    """Every check a build makes short of drawing (:func:`cardgen.steps.game_check.check_game`): the
    report's errors and warnings are the validator's, then those of card layout and preflight.
    Problems are part of the report (never raised)."""
    return check_game(game_dir).merged_report()


def shared_output_problems(game_dirs: list[Path]) -> list[Problem]:
    """Games of one build that would write the same ``output/<id>/`` folder (a copied game whose
    ``game.id`` was not changed). Reads only each manifest's ``game.id``; unreadable manifests are
    left to the build to report."""
    first: dict[str, Path] = {}
    problems = []
    for d in game_dirs:
        try:
            confine(Path(d) / "game.yaml", [Path(d).resolve()], rel(Path(d) / "game.yaml"), None, "")
            loaded = load_yaml(Path(d) / "game.yaml", rel(Path(d) / "game.yaml"))
            gid = loaded.data["game"]["id"]
        except (CardgenError, KeyError, TypeError):
            continue
        if not isinstance(gid, str):
            continue
        if gid in first:
            problems.append(loaded.source.problem(("game", "id"), f"{gid!r} is also the id of {rel(first[gid])}; "
                                                  f"both would write output/{gid}/",
                                                  "give each game its own id (a copied game keeps the original's id)",
                                                  code="duplicate-game-id"))
        else:
            first[gid] = Path(d)
    return problems


def find_games(card_data: Path) -> list[Path]:
    """Game folders (holding game.yaml) directly under ``card_data``, sorted by name."""
    return sorted(p for p in Path(card_data).iterdir() if (p / "game.yaml").is_file()) if Path(card_data).is_dir() else []


def games_to_build(game_dirs: Sequence[Path], card_data: Path) -> list[Path]:
    """The games one build covers: ``game_dirs``, else every game in ``card_data``.

    Raises:
        UsageError: no game given and none found in ``card_data``.
        CardgenError: two of the games would write the same output folder (:func:`shared_output_problems`).
    """
    dirs = list(game_dirs) or find_games(card_data)
    if not dirs:
        raise UsageError(f"no games found in {card_data}/ (a game is a folder with game.yaml)")
    clashes = shared_output_problems(dirs)
    if clashes:
        raise CardgenError(clashes)
    return dirs


def build_games(game_dirs: Sequence[Path], out_root: Path | str = "output",
                bars: Callable[[], ContextManager] | None = None, run: Callable[..., "BuildResult"] | None = None,
                **build) -> Iterator[tuple[Path, "BuildResult | CardgenError"]]:
    """Build each game in turn with :func:`build_game` (``build``: its keyword arguments), yielding
    ``(game folder, result)``, the result being the :class:`CardgenError` of a game that failed: one
    failing game does not stop the others. ``bars()`` (optional) gives a context manager per game
    whose value is passed as ``progress``. ``run(game_dir, out_root, **build)`` (optional) builds
    one game instead of :func:`build_game` (the CLI runs it under the build budget,
    :mod:`cardgen.core.budget`)."""
    for d in game_dirs:
        result: BuildResult | CardgenError
        try:
            if run is not None:
                result = run(d, out_root, **build)
            else:
                with bars() if bars is not None else nullcontext() as progress:
                    result = build_game(d, out_root, progress=progress, **build)
        except CardgenError as exc:
            result = exc
        yield d, result


def _plans(game, fonts) -> list[ComponentPlans]:
    return [plan_component(game, cid, fonts) for cid in printable_components(game)]


#: The export steps (per-card images and print-shop files), in build order.
EXPORT_STEPS = tuple(name for name in STEPS if name in ("png", "tts", "shop"))


def _check_out_dir(game, out_dir: Path) -> None:
    """Refuse an output folder inside the game folder, or one holding it (the swap of
    :class:`AtomicOutput` would replace the game's own files). Raises UsageError."""
    check_output_folder(game.root, out_dir)


def check_output_folder(game_dir: Path | str, out_dir: Path | str) -> None:
    """:func:`_check_out_dir` for a game folder not loaded yet (``cardgen watch`` checks its
    ``--out`` once, before it starts). Raises UsageError."""
    g, o = Path(game_dir).resolve(), Path(out_dir).resolve()
    if inside(o, g) or inside(g, o):
        how = "is inside" if o != g and inside(o, g) else "would be, or hold,"
        raise UsageError(Problem("--out", None, "", f"the output folder {rel(Path(out_dir))} {how} the game folder "
                                 f"{rel(Path(game_dir))}",
                                 f"write outputs outside the game folder, e.g. --out {os.path.relpath(output_outside(g))} "
                                 "(or leave --out out: that is the default)", code="out-in-game"))


def refuse_open_questions(game) -> None:
    """A ``--final`` build stops while the design has open questions (:mod:`cardgen.check.open_questions`).

    ``game``: a loaded game or its folder.

    Raises:
        CardgenError: one problem per open question (at its manifest line) and a summary.
    """
    if isinstance(game, (str, Path)):
        game = load_game(game)
    still_open = final_problems(game)
    if still_open:
        raise CardgenError(still_open + [Problem(
            game.manifest_file, None, "", f"--final: {len(still_open)} open question(s) remain; nothing was written "
            f"for {game.id!r}", "a release prints only what the designer decided: settle each question (then "
            "`decided: true`), or build without --final for a playtest copy (notes marked 【未確定】)",
            code="final-open-questions")])


def edition_out_dir(out_root: Path, game) -> Path:
    """Where a game's edition is written: ``out_root/<game id>/`` for the default edition (and a
    game without editions), ``out_root/<game id>/<edition id>/`` for every other."""
    ed = game.edition
    return out_root / game.id if ed is None or ed.default else out_root / game.id / ed.id


def refuse_incomplete_edition(game, report: Report) -> None:
    """A ``--final`` build of an edition stops while it has missing or stale translations
    (:func:`cardgen.check.coverage.final_coverage`). Raises CardgenError naming each."""
    ed = game.edition
    bad = final_coverage(report.warnings, ed.id) if ed is not None else []
    if bad:
        raise CardgenError(bad + [Problem(
            game.manifest_file, None, "", f"--final: edition {ed.id!r} has {len(bad)} missing or stale translation(s); "
            f"nothing was written for {game.id!r}", "translate what is named above (and set each source_hash), or "
            "build without --final for a playtest copy", code="final-edition-incomplete")])


def edition_list(game_dir: Path | str, edition: str | None) -> list[str | None]:
    """The editions ``--edition`` asks for: ``[None]`` (the default), ``[edition]`` or, for
    ``all``, every edition of the game. Raises CardgenError for an edition the game lacks."""
    if edition is None:
        return [None]
    game = load_game(game_dir)
    ids = edition_ids(game)
    if edition == "all":
        return list(ids) or [None]
    if edition not in ids:
        raise unknown_edition(game, edition)
    return [edition]


def build_game(game_dir: Path | str, out_root: Path | str = "output", options: SheetOptions | None = None,
               force: bool = False, steps: tuple[str, ...] = DEFAULT_STEPS,
               progress: Callable[[str, int], Callable[[], None]] | None = None,
               exports: "ExportOptions | None" = None, rulebook_paper: str | None = None,
               rulebook_booklet: bool = False,
               strict: bool = False, final: bool = False, edition: str | None = None,
               checked: GameCheck | None = None,
               on_written: Callable[[tuple[str, ...], list[Path], tuple[str, ...]], None] | None = None) -> BuildResult:
    """Check (:func:`cardgen.steps.game_check.check_game`, the same checks as ``cardgen validate``),
    then produce the outputs of ``steps`` into ``out_root/<game id>/`` atomically, with the
    preflight report ``report.json`` (see :mod:`cardgen.check.preflight`) beside them.

    Steps: ``sheets`` (print-sheets.pdf), ``rulebook`` (rulebook.pdf from card_data/<game>/rules/;
    skipped when the game has no rules folder). ``rulebook_paper`` overrides ``rulebook.paper``;
    ``rulebook_booklet`` also writes rulebook-booklet.pdf (the pages imposed two-up for saddle
    stitching, :mod:`cardgen.layout.booklet`).

    Raises:
        CardgenError: every error the check found — validation, card layout (text that does not
            fit, missing images, unknown template fields), art below 150 dpi — with every warning
            (unless ``force``; then every card face in every output carries a small DRAFT mark or
            red outlines, and report.json says ``"forced": true``); missing
            templates or fonts and images that cannot be opened (even with ``force``); and with
            ``strict`` any warning; with ``final`` (a release build) any open question left in
            ``game.choices`` (even with ``force``), or missing or stale translations of the
            edition built (:mod:`cardgen.check.coverage`).

    ``edition``: the edition built (:mod:`cardgen.data.editions`; None: the default edition). The
    default edition writes ``out_root/<game id>/``, every other ``out_root/<game id>/<edition>/``.

    ``checked``: the check of this game already made (``cardgen watch`` checks once per save,
    :func:`check_then_build`): it must cover at least what this build's own check would
    (:func:`build_check` with the same arguments, or more); the game is not checked again.
    ``on_written(steps, files, steps still to write)``: each step is swapped into the output folder
    on its own, as soon as it is written (print-sheets.pdf is there before the rulebook is drawn), and reported so;
    without it the whole build is swapped in at once, at the end. Every file is still all or
    nothing (a step that fails leaves the files of the steps before it, new, and its own, old).
    """
    options = options or SheetOptions()
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        raise UsageError(f"unknown step(s) {', '.join(map(repr, unknown))}; steps: {', '.join(STEPS)}")
    card_steps = any(STEPS[s].cards for s in steps)
    chk = checked if checked is not None else build_check(game_dir, steps, options, exports, edition)
    game, report = chk.game, chk.report
    if game is None:
        raise CardgenError(report.errors)
    if final:
        refuse_open_questions(game)
        refuse_incomplete_edition(game, report)
    errors = chk.errors
    if chk.fatal:  # nothing can be drawn: no summary offers --force
        raise CardgenError(errors + chk.warnings)
    if errors and not force:
        summary = (f"validation failed with {len(errors)} error(s)" if report.errors  # every error printed above
                   else f"{len(errors)} card layout error(s)")
        hint = ("fix the errors above, or build with --force to print the draft anyway (every card is marked DRAFT)"
                if report.errors else "fix what is named above, or build with --force to print a proof anyway "
                "(text that does not fit is outlined in red)")
        raise CardgenError(errors + chk.warnings + [Problem(
            game.manifest_file, None, "", f"{summary}; nothing was written for {game.id!r} "
            "(its output folder keeps the files of the last build)", hint,
            code="validation-failed" if report.errors else "layout-failed")])
    if errors:  # forced past validation or layout errors: a draft, marked as one everywhere (issue 11)
        options = SheetOptions(**{**options.__dict__, "draft": True})
    fonts = chk.fonts if chk.fonts is not None else fonts_for(game)
    plans, pf = chk.plans, chk.preflight
    if errors:  # forced: every face carries the DRAFT mark, in every output drawn from the plans
        mark_draft(plans, fonts, game.manifest.print.safe)
    if pf is not None:
        pf.forced, pf.draft = bool(force and errors), bool(errors)
    problems = chk.layout
    if strict and chk.warnings:
        raise CardgenError(chk.warnings + [Problem(
            game.manifest_file, None, "", f"{game.id}: {len(chk.warnings)} warning(s) with --strict, nothing was written",
            "fix the warnings above, or build without --strict", code="strict-failed")])
    out_dir = edition_out_dir(Path(out_root), game)
    _check_out_dir(game, out_dir)
    clean_stale_temps(out_dir.parent)
    result = BuildResult(game.id, out_dir, report, layout=problems, preflight=pf)

    def ran(written: dict[str, list[str]], step: str, mark: int) -> None:
        """Record in ``written`` what ``step`` wrote, by kind (:func:`cardgen.core.written.kind_of`):
        the kind an option adds is recorded (and so pruned) only when the option was asked for this time."""
        files = [p.relative_to(out_dir).as_posix() for p in result.files[mark:]]
        asked = {"rulebook:booklet": rulebook_booklet,
                 "png:back": (exports.png_sides if exports else "front") in ("back", "both")}
        for kind, part in by_kind(step, files).items():
            if kind == step or asked.get(kind, True):
                written[kind] = part
        for kind, wanted in asked.items():
            if wanted and kind.split(":")[0] == step:
                written.setdefault(kind, [])
        if step == "png" and exports is not None and exports.png_sides == "back":
            written.pop("png", None)  # fronts were not asked for: the PNGs of fronts stay

    removed: list[str] = []  # what the last build wrote and this one did not (issue 11), pruned before the swap
    ordered = tuple(name for name in STEPS if name in steps)  # in build order, whatever the order asked
    stages = [ordered] if on_written is None else [(name,) for name in ordered]
    for k, stage in enumerate(stages):
        written: dict[str, list[str]] = {}  # step → files it wrote (relative), for the output manifest
        first = len(result.files)
        with AtomicOutput(out_dir, finish=lambda staged, w=written: removed.extend(record_and_prune(staged, w))) as out:
            report_json = k == 0 and pf is not None and card_steps  # the preflight covers the cards
            if report_json:
                data = pf.to_json(game.root)
                if chk.odds:  # the declared exact odds travel with the report
                    data["odds"] = [r.to_json() for r in chk.odds]
                out.path(REPORT_JSON).write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            run = StepRun(game, report, fonts, plans, options, exports or ExportOptions(), out, progress, rulebook_paper,
                          rulebook_booklet=rulebook_booklet, only=tuple(steps) == ("rulebook",), notes=result.notes,
                          findings=result.layout)
            for name in stage:
                mark = len(result.files)
                result.files.extend(out_dir / f for f in STEPS[name].write(run))
                ran(written, name, mark)
            if report_json:
                result.files.append(out_dir / REPORT_JSON)
                ran(written, "report", len(result.files) - 1)
        if on_written is not None:
            on_written(stage, result.files[first:], tuple(name for later in stages[k + 1:] for name in later))
    result.removed = removed
    return result


def build_check(game_dir: Path | str, steps: Sequence[str] = DEFAULT_STEPS, options: SheetOptions | None = None,
                exports: "ExportOptions | None" = None, edition: str | None = None) -> GameCheck:
    """The check :func:`build_game` makes before writing ``steps`` (the cards laid out only when a
    step draws them, the rulebook checked only when it is written)."""
    card_steps = any(STEPS[s].cards for s in steps if s in STEPS)
    return check_game(game_dir, layout=card_steps, rulebook="rulebook" in steps,
                      sheets=(options or SheetOptions()) if "sheets" in steps else False,
                      shop=exports.preset if exports is not None and "shop" in steps else None, edition=edition)


def check_then_build(game_dir: Path | str, out_root: Path | str, plan_steps: Callable[[str], tuple[str, ...]],
                     force: bool = False, on_report: Callable[[Report], None] | None = None,
                     on_written: Callable[[tuple[str, ...], list[Path], tuple[str, ...]], None] | None = None,
                     options: SheetOptions | None = None, exports: "ExportOptions | None" = None,
                     **build) -> tuple[Report, "BuildResult | None", tuple[str, ...]]:
    """One save of ``cardgen watch``: the game checked once — every check of ``cardgen validate``,
    with the watch's sheet options — its findings reported (``on_report``, before anything is
    drawn), then the steps ``plan_steps(game id)`` names built from that same check, each swapped
    in as soon as it is written (``on_written``, see :func:`build_game`): print-sheets.pdf before
    the rulebook. Validation errors skip the build unless ``force``.

    A save that is not built for its errors leaves the output folder's files as they were, but
    not their verdict: a report.json there (an earlier save's) is replaced by this save's
    (:func:`record_unbuilt`), so the folder never claims a verdict the last save did not give
    (a game that could not be read has no id to name its folder by: the watch, which knows it
    from an earlier save, replaces that one).

    Returns ``(report, build result or None, the steps asked)``. Raises what :func:`build_game` raises.
    """
    chk = check_game(game_dir, sheets=options or SheetOptions(),
                     shop=exports.preset if exports is not None else None)
    report = chk.merged_report()
    if on_report is not None:
        on_report(report)
    todo = plan_steps(report.game) if report.game and chk.game is not None else ()
    if "rulebook" in todo and not chk.game.rules_dir.is_dir():  # a game without rules has no rulebook to rebuild
        todo = tuple(s for s in todo if s != "rulebook")
    if report.errors and chk.game is not None and (not force or chk.fatal):  # not built (fatal: build_game refuses it)
        record_unbuilt(report, edition_out_dir(Path(out_root), chk.game), chk.preflight, chk.game.root)
    if not todo or (report.errors and not force):
        return report, None, todo
    result = build_game(game_dir, out_root, options=options, exports=exports, force=force, steps=todo,
                        checked=chk, on_written=on_written, **build)
    return report, result, todo


def record_unbuilt(report: Report, out_dir: Path | str, pf: "Preflight | None" = None,
                   base: Path | None = None) -> Path | None:
    """Replace the report.json in ``out_dir`` — an earlier build's, when there is one — by the
    verdict ``report`` of a save that was not built (``cardgen watch``: its check failed, or did
    not finish): the report a build writes (``pf``, the check's preflight, when the cards were
    laid out; else one made of ``report``'s findings), its ``ok`` false, with ``"built": false``
    and a ``note`` that the folder's other files are from an earlier save. ``base``: the game
    folder file names are shown relative to. Nothing is written where no report.json is (no
    earlier build claims a verdict there). → the file replaced, or None."""
    from cardgen.check.preflight import preflight  # lazy: +16 ms of imports here (measured)

    target = Path(out_dir) / REPORT_JSON
    if not target.is_file():
        return None
    if pf is None:
        pf = preflight(report.game, report.title, report.version, [], report, missing_chars=lambda *_a: [],
                       image_size=lambda _p: (0, 0))
    data = pf.to_json(base)
    data.update(ok=False, built=False, note="this save was not built (why: the errors listed here); the other files "
                "in this folder are from an earlier save")
    tmp = target.with_name(f".{REPORT_JSON}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, target)
    return target


def diff_drafts(old: Path | str, new: Path | str | None = None, rev: str | None = None,
                out_root: Path | str | None = "output", pdf: bool = True):
    """Compare two drafts of a game: two folders, or one folder at git revision ``rev`` against
    the folder as it is (see :mod:`cardgen.diff`). Returns a :class:`cardgen.diff.run.DiffResult`
    (the JSON-ready report and the files written: ``out_root/<new game id>/diff.pdf``).

    Raises:
        UsageError: neither or both of ``new`` and ``rev``.
        CardgenError: a bad revision, a draft that cannot be read, fonts that cannot be loaded.
    """
    return run_diff(old, new, rev, out_root, pdf)


def reprint_sheets(game_dir: Path | str, out_root: Path | str = "output", options: SheetOptions | None = None,
                   since: str | None = None, cards: list[str] | None = None, force: bool = False):
    """Print sheets of only the cards whose face changed ``since`` a folder or git revision, or
    of the ``cards`` named by id, into ``out_root/<game id>/reprint-sheets.pdf`` (see
    :mod:`cardgen.diff.reprint`). Returns a :class:`cardgen.diff.reprint.ReprintResult`.

    Raises:
        UsageError: neither or both of ``since`` and ``cards``.
        CardgenError: a bad revision or folder, unknown ids, validation or layout errors (unless
            ``force``).
    """
    return run(game_dir, out_root, options or SheetOptions(), since=since, cards=cards, force=force)


def preflight_file(path: Path | str, standard: str | None = None, tac: float | None = None) -> list[Problem]:
    """The PDF/X findings of the PDF at ``path`` (:mod:`cardgen.check.pdfx_check`; none: it passes)."""
    from cardgen.check.pdfx_check import (
        preflight_pdf,  # lazy: +156 ms of imports here (measured); pikepdf: loaded only by this command
    )

    return preflight_pdf(path, standard, tac)
