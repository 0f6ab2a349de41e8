"""The print setup of a game: card sizes, print settings and templates, checked before a build.

Light on imports on purpose: ``cardgen validate`` uses this module without loading the PDF
libraries.
"""
from __future__ import annotations

import difflib
from dataclasses import replace
from pathlib import Path

from cardgen.check.coverage import all_coverage, coverage
from cardgen.check.deck_math import Report, validate
from cardgen.core.boundary import confine
from cardgen.core.errors import CardgenError, Problem, did_you_mean, rel
from cardgen.core.units import MM
from cardgen.data.editions import apply_edition, edition_problems
from cardgen.data.game import Game, load_game
from cardgen.data.project import Project
from cardgen.data.readable import covered, permission_problem, unreadable_parts
from cardgen.data.template import load_template, plain_name
from cardgen.data.template_model import Template
from cardgen.presets import card_mm, sizes


def piece_size_mm(game: Game, comp_size) -> tuple[float, float]:
    """Trim size (mm) of a component: its own ``size`` or ``print.card_size``.

    Raises:
        CardgenError: an unknown preset name, naming game.yaml and the line.
    """
    spec = comp_size if comp_size is not None else game.manifest.print.card_size
    idx = next((i for i, c in enumerate(game.manifest.components) if c.size is comp_size), None)
    where = ("print", "card_size") if comp_size is None or idx is None else ("components", idx, "size")
    if isinstance(spec, str):
        try:
            return card_mm(spec)
        except KeyError:
            names = list(sizes()["cards"])
            raise CardgenError(game.problem(where, f"unknown card size {spec!r}" + did_you_mean(spec.lower(), names),
                                            f"use {', '.join(names)} or {{width, height}} in mm",
                                            code="unknown-size"))
    w, h = spec.width / MM, spec.height / MM
    if not (0 < w <= MAX_PIECE_MM and 0 < h <= MAX_PIECE_MM):
        raise CardgenError(game.problem(where, f"a card of {w:g} × {h:g} mm cannot be printed: width and height "
                                        f"must be more than 0 and at most {MAX_PIECE_MM:g} mm",
                                        "give the trim size in mm, e.g. {width: 63, height: 88}, or a preset (poker…)",
                                        code="bad-size"))
    return w, h


#: Largest piece side (mm) and largest bleed and safe distance (mm) cardgen accepts.
MAX_PIECE_MM = 600.0
MAX_BLEED_MM = 20.0


def print_settings_problems(game: Game) -> list[Problem]:
    """``print.bleed`` and ``print.safe`` (pt since validation): lengths from 0 to :data:`MAX_BLEED_MM` mm."""
    out = []
    for key in ("bleed", "safe"):
        mm = getattr(game.manifest.print, key) / MM
        if not 0 <= mm <= MAX_BLEED_MM:
            out.append(game.problem(("print", key), f"{mm:g} mm is out of range (0 to {MAX_BLEED_MM:g} mm)",
                                    "3 mm is usual for bleed (塗り足し) and for the safe area", code="bad-length"))
    return out


def tts_field_problems(game: Game) -> list[Problem]:
    """A warning for each column a component's ``tts`` names (``name`` when written, every
    ``description`` entry) that its card table does not have: the Tabletop Simulator save would
    name the cards by id or leave their text out."""
    out = []
    for i, comp in enumerate(game.manifest.components):
        rows = game.tables.get(comp.id) or []
        if comp.kind != "deck" or not rows:
            continue
        columns = sorted({k for r in rows for k in r.values})
        wanted = [("name", None, comp.tts.name)] if "name" in comp.tts.model_fields_set else []
        wanted += [("description", j, col) for j, col in enumerate(comp.tts.description)]
        for key, j, col in wanted:
            if col in columns:
                continue
            path = ("components", i, "tts", key) + ((j,) if j is not None else ())
            out.append(game.problem(path, f"{comp.id}'s card table has no column {col!r}{did_you_mean(col, columns)}",
                                    f"name one of its columns: {', '.join(columns)}", code="tts-unknown-column",
                                    severity="warning"))
    return out


#: The prefix naming a shared template (``template: shared/character``): the project's
#: ``templates/cards/`` beside the game folders, never another game's. A plain name is looked up
#: in the game's own ``templates/cards/`` only, so a game never borrows a template silently.
SHARED_PREFIX = "shared/"


def template_source(project: Project, game: Game, name: str) -> tuple[Path, str, bool]:
    """Where ``name`` is looked up: ``(folder, file stem, shared)``. ``shared/NAME`` is the
    project's shared ``templates/cards/``; a plain name the game's own."""
    own = game.root.resolve() / "templates" / "cards"
    if isinstance(name, str) and name.startswith(SHARED_PREFIX):
        return project.root.resolve() / "templates" / "cards", name[len(SHARED_PREFIX):], True
    return own, name, False


def find_template(project: Project, game: Game, name: str, line_path: tuple) -> Template:
    """Load template ``name``: a plain name from the game's own ``templates/cards/``,
    ``shared/NAME`` from the project's shared ``templates/cards/`` (:data:`SHARED_PREFIX`).

    Raises:
        CardgenError: missing template (naming the manifest line that asks for it, and the shared
        template of that name when there is one), template problems.
    """
    folder, stem, shared = template_source(project, game, name)
    own = game.root.resolve() / "templates" / "cards"
    if shared and folder == own:
        why = ("this game folder is its own project (its own templates/cards/ and fonts/)"
               if own.is_dir() and (game.root / "fonts").is_dir()
               else "no shared templates/cards/ with fonts/ is in the folders above it")
        raise CardgenError(game.problem(line_path, f"{name!r} names a shared template, but {why}: there are no "
                                        "shared templates", f"create {rel(own / (stem + '.yaml'))} (copy one from a "
                                        f"cardgen checkout's templates/cards/ to start) and write `{stem}`",
                                        code="missing-template"))
    if plain_name(stem) and (folder / f"{stem}.yaml").is_file():
        confine(rel(folder / f"{stem}.yaml"), project.allowed(), game.manifest_file, game.line(*line_path),
                "template", what="the card template")
        return load_template(folder, stem, game.manifest_file, game.line(*line_path))
    try:
        return load_template(folder, stem, game.manifest_file, game.line(*line_path))
    except CardgenError as exc:
        raise CardgenError([_not_found(project, game, name, p) if p.code == "missing-template" else p
                            for p in exc.problems])


def _not_found(project: Project, game: Game, name: str, problem: Problem) -> Problem:
    """The missing-template problem saying where cardgen looked, what it found elsewhere, and the fix."""
    folder, stem, shared_asked = template_source(project, game, name)
    own = game.root.resolve() / "templates" / "cards"
    shared = project.root.resolve() / "templates" / "cards"
    if shared_asked:
        avail = sorted(SHARED_PREFIX + p.stem for p in shared.glob("*.yaml")) if shared.is_dir() else []
        close = difflib.get_close_matches(name, avail, 1)
        return replace(problem, message=f"the shared card template {stem!r} was not found in {rel(shared)}/",
                       hint=(f"did you mean {close[0]!r}? else " if close else "")
                       + f"create {rel(own / (stem + '.yaml'))} in the game folder and write `{stem}`"
                       + (f"; shared: {', '.join(avail)}" if avail else "; no shared templates are there"))
    looked = f"{rel(own)}/ (the game's own; a plain name is looked up there only)"
    has_shared = shared != own and (shared / f"{stem}.yaml").is_file()
    avail = sorted(p.stem for p in own.glob("*.yaml")) if own.is_dir() else []
    root = game.root.resolve()
    games = [p for p in root.parents if (p / "game.yaml").is_file()] + sorted(root.parent.glob("*/"))
    others = [g / "templates" / "cards" / f"{stem}.yaml" for g in games if g.resolve() != root
              and (g / "game.yaml").is_file() and (g / "templates" / "cards" / f"{stem}.yaml").is_file()]
    elsewhere = (f"; {rel(others[0])} has that name but belongs to another game, whose templates are never used"
                 if others else "")

    close = difflib.get_close_matches(stem, avail, 1)
    shared_hint = (f"write `{SHARED_PREFIX}{stem}` to use the shared {rel(shared / (stem + '.yaml'))}, or "
                   if has_shared else "")
    return replace(problem, message=f"the card template {name!r} was not found; looked in {looked}" + elsewhere,
                   hint=(f"did you mean {close[0]!r}? else " if close else "") + shared_hint
                   + f"create {rel(own / (stem + '.yaml'))} (copy one from a cardgen checkout's templates/cards/ "
                   "to start), or name an existing template" + (f"; available: {', '.join(avail)}" if avail else
                                                                  "; none are available"))


def print_setup_problems(game: Game) -> list[Problem]:
    """Problems a build would meet before drawing: unknown sizes, missing or broken templates."""
    project = Project.for_game(game.root)
    problems: list[Problem] = []
    seen: set[tuple] = set()
    for i, comp in enumerate(game.manifest.components):
        if comp.kind == "not_included" or not comp.template:
            continue
        checks = [lambda c=comp: piece_size_mm(game, c.size)]
        for key in ("template", "back"):
            name = getattr(comp, key)
            if name:
                checks.append(lambda n=name, k=key, i=i: find_template(project, game, n, ("components", i, k)))
        for check in checks:
            try:
                check()
            except (CardgenError, PermissionError) as exc:
                for p in exc.problems if isinstance(exc, CardgenError) else [permission_problem(exc)]:
                    sig = (p.file, p.line, p.message)
                    if sig not in seen:
                        seen.add(sig)
                        problems.append(p)
    return problems


def load_and_validate(game_dir: Path | str, check_print_setup: bool = True,
                      edition: str | None = None) -> tuple[Game | None, Report]:
    """Load a game and run the validator plus (``check_print_setup``) :func:`print_setup_problems`.

    ``edition``: the edition to check (:func:`cardgen.data.editions.apply_edition`; None: the
    default edition, with the coverage of every other edition, :mod:`cardgen.check.coverage`).

    A build passes ``check_print_setup=False``: it meets those problems itself while laying out,
    where ``--force`` cannot help.

    A folder or file of the game that cannot be read (no permission) is one finding, first
    (:func:`cardgen.data.readable.unreadable_parts`); what follows from it inside that part is
    not repeated (:func:`cardgen.data.readable.covered`), and the rest is checked as usual.

    Load errors become report errors (game is None); never raises for bad input.
    """
    blocked = unreadable_parts(game_dir)
    try:
        game, report = _load_and_validate(game_dir, check_print_setup, edition)
    except PermissionError as exc:  # met while loading: the game cannot be read as a whole
        game, report = None, Report(Path(game_dir).resolve().name, "", "", errors=[permission_problem(exc)])
    if blocked:
        report.errors[:] = blocked + [p for p in report.errors if not covered(p, blocked)]
        report.warnings[:] = [p for p in report.warnings if not covered(p, blocked)]
    return game, report


def _load_and_validate(game_dir: Path | str, check_print_setup: bool, edition: str | None) -> tuple[Game | None, Report]:
    try:
        game = load_game(game_dir)
    except CardgenError as exc:
        return None, Report(Path(game_dir).resolve().name, "", "", errors=[p for p in exc.problems if p.severity == "error"],
                            warnings=[p for p in exc.problems if p.severity == "warning"])
    problems = edition_problems(game)
    # another edition's problems never stop the default edition: warnings there, errors only in its own build
    found = [replace(p, severity="warning") for p in all_coverage(game)] if edition is None else \
        coverage(game, edition) if edition in game.manifest.editions else []
    try:
        game = apply_edition(game, edition)
    except CardgenError as exc:
        return None, Report(game.id, game.manifest.game.title, game.manifest.game.version, errors=list(exc.problems))
    report = validate(game)
    for p in problems + found:
        (report.errors if p.severity == "error" else report.warnings).append(p)
    report.errors.extend(print_settings_problems(game))
    report.warnings.extend(tts_field_problems(game))
    for p in (print_setup_problems(game) if check_print_setup else []):
        (report.errors if p.severity == "error" else report.warnings).append(p)
    return game, report
