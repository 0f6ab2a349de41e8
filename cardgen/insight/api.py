"""Library entry points of ``cardgen odds`` and ``cardgen simulate`` (the CLI is a thin layer).

Both read a game folder as data (:func:`cardgen.data.game.load_game`; a draft whose deck math
fails validation still gets its odds), compute, and merge their results into
``OUT/<game>/report.json`` (:func:`cardgen.insight.report_file.merge_report`). They raise
:class:`cardgen.core.errors.CardgenError` for bad input and never print.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from cardgen.core.atomic import AtomicOutput
from cardgen.data.loaded import display_path
from cardgen.insight.report_file import merge_report, write_json
from cardgen.insight.sim_layout import MAX_ROUNDS, MAX_SEED

REPORT_JSON = "report.json"


@dataclass
class OddsRun:
    """What ``cardgen odds`` computed for one game."""

    game: str
    title: str
    results: list  #: :class:`cardgen.insight.odds.OddsResult` per declaration
    report: Path | None  #: report.json written (None when nothing is declared)


def odds_game(game_dir: Path | str, out: Path | str = "output") -> OddsRun:
    """Exact odds of every ``insight.odds`` declaration, merged into OUT/<game>/report.json as ``odds``.

    Raises:
        CardgenError: schema problems of the game, or a declaration that does not fit the data.
    """
    from cardgen.data.game import load_game  # lazy: +250 ms of imports here (measured)
    from cardgen.insight.odds import compute_odds  # lazy: +231 ms of imports here (measured)

    game = load_game(game_dir)
    results = compute_odds(game)
    gid = game.manifest.game.id
    path = None
    if results:
        path = merge_report(Path(out) / gid / REPORT_JSON, "odds", [r.to_json() for r in results])
    return OddsRun(gid, game.manifest.game.title, results, path)


SIMULATION_JSON = "simulation.json"
INSIGHT_PDF = "insight.pdf"


@dataclass
class SimulationRun:
    """What ``cardgen simulate`` produced for one game (and the variant it was compared with)."""

    game: str
    result: object  #: :class:`cardgen.insight.model_run.ModelResult`
    other: object | None = None  #: the compared game or variant, same rounds
    comparison: list | None = None  #: :func:`cardgen.insight.estimates.compare` rows
    files: list[Path] | None = None
    #: warnings about the run (a way to win that can never happen, or never happened), for stderr
    notes: list = dataclasses.field(default_factory=list)


def simulate_game(game_dir: Path | str, out: Path | str = "output", *, rounds: int = 100_000, games: int | None = None,
                  seed: int = 1,
                  policy: str = "greedy", options: list[str] | None = None, players: list[int] | None = None,
                  compare_with: Path | str | None = None, compare_options: list[str] | None = None,
                  jobs: int | None = None, pdf: bool = True, progress=None) -> SimulationRun:
    """Simulate ``rounds`` rounds per player count and write OUT/<game>/simulation.json and
    OUT/<game>/insight.pdf (plots and the exact odds tables).

    ``compare_with``: another game folder, or a variant file (YAML: ``label``, ``cards``,
    ``design``, ``options``; see docs/insight.md) applied to this game; ``compare_options``:
    ``NAME=N`` answers of the model's options for the second side; both play the same rounds.
    ``games``: whole games per player count when the model has ``game:`` (0: none; default a
    tenth of ``rounds``, at least 2).
    ``jobs``: threads (default: all cores); the results never depend on it.

    Raises:
        CardgenError: the game describes no model, a model problem
            (:func:`cardgen.insight.model_compile.compile_model`), a bad ``--option``, ``--policy`` or variant file.
    """
    from cardgen.core.errors import CardgenError, Problem, UsageError  # lazy: +9 ms of imports here (measured)

    if rounds < 2:
        raise CardgenError(Problem("--rounds", None, "rounds", f"{rounds} rounds: at least 2 are needed for a "
                                   "standard error", "e.g. --rounds 100000", code="insight-rounds"))
    if rounds > MAX_ROUNDS:
        raise CardgenError(Problem("--rounds", None, "rounds", f"{rounds} rounds: at most {MAX_ROUNDS:,} per player "
                                   "count are played", "e.g. --rounds 1000000", code="insight-rounds"))
    games = max(rounds // 10, 2) if games is None else games
    if not 0 <= games <= MAX_ROUNDS:
        raise CardgenError(Problem("--games", None, "games", f"{games} games: from 0 to {MAX_ROUNDS:,} per player "
                                   "count are played", "e.g. --games 10000", code="insight-rounds"))
    if not 0 <= seed <= MAX_SEED:
        raise CardgenError(Problem("--seed", None, "seed", f"the seed {seed} is not a whole number from 0 to "
                                   f"{MAX_SEED}", "e.g. --seed 1", code="insight-seed"))
    if jobs:
        import numba
        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))
    from cardgen.data.game import load_game  # lazy: +180 ms of imports here (measured)

    game = load_game(game_dir)
    declared = [pc.players for pc in game.manifest.setup.player_counts]
    unknown = [n for n in players or [] if n not in declared]
    if unknown:
        raise UsageError(Problem("--players", None, "players",
                                   f"{game.manifest.game.title} has no setup for {', '.join(map(str, unknown))} players",
                                   f"give a declared player count: {', '.join(map(str, declared))} "
                                   "(setup → player_counts in game.yaml)", code="insight-players"))
    _refuse_model_problems(game)
    if game.manifest.insight.model is not None:
        return _simulate_model(game, out, rounds=rounds, games=games, seed=seed, policy=policy, options=options or [],
                               players=players, compare_with=compare_with, compare_options=compare_options or [],
                               pdf=pdf, progress=progress)
    raise CardgenError(Problem(game.source.file, None, "insight → model",
                               f"{game.manifest.game.title} describes no round to simulate: cardgen plays only "
                               "the rules a game's own manifest describes",
                               "add `insight: model:` to game.yaml (players' turns, the win test, calls, "
                               "scoring; see docs/insight-model.md)", code="insight-no-model"))


def interpreter_compiled() -> bool:
    """Whether the simulator's interpreter is compiled already (the first ``simulate`` after an
    install or upgrade compiles it first; :func:`cardgen.insight.model_run.interpreter_compiled`)."""
    from cardgen.insight.model_run import interpreter_compiled as compiled  # lazy: +547 ms of imports here (measured: numba)

    return compiled()


def _refuse_model_problems(game) -> None:
    """The schema problems of ``insight.model`` (warnings for a build, :attr:`cardgen.data.game.Game.model_problems`)
    as the errors they are for ``cardgen simulate``.

    Raises:
        CardgenError: when the model has any.
    """
    from cardgen.core.errors import CardgenError  # lazy: +8 ms of imports here (measured)

    if game.model_problems:
        raise CardgenError([dataclasses.replace(p, severity="error") for p in game.model_problems])


def _write_outputs(out_dir: Path, data: dict, draw_pdf) -> list[Path]:
    """simulation.json (and insight.pdf, drawn by ``draw_pdf(path)``) written all or nothing:
    staged beside ``out_dir`` and swapped in whole (:class:`cardgen.core.atomic.AtomicOutput`, as
    a build writes), so a failure (a full disk) leaves the previous pair as it was. → the final paths."""
    names = [SIMULATION_JSON] + ([INSIGHT_PDF] if draw_pdf else [])
    with AtomicOutput(out_dir) as staged:
        write_json(staged.path(SIMULATION_JSON), data)
        if draw_pdf:
            draw_pdf(staged.path(INSIGHT_PDF))
    return [out_dir / n for n in names]


def _simulate_model(game, out, *, rounds: int, games: int, seed: int, policy: str, options: list[str], players, compare_with,
                    compare_options: list[str], pdf: bool, progress) -> SimulationRun:
    """``cardgen simulate`` of a game with ``insight.model``: simulation.json (and insight.pdf
    with the exact odds and the model's estimates); with ``compare_with`` (another game folder
    with a model, or a variant file of this game) or ``compare_options`` (``NAME=N`` answers of
    this game's options), a second run on the same rounds and their paired differences."""
    from cardgen.core.errors import CardgenError, Problem, UsageError  # lazy: +8 ms of imports here (measured)
    from cardgen.data.game import load_game  # lazy: +180 ms of imports here (measured)
    from cardgen.insight.estimates import compare  # lazy: +117 ms of imports here (measured)
    from cardgen.insight.model_compile import compile_model  # lazy: +432 ms of imports here (measured)
    from cardgen.insight.model_run import simulate_model  # lazy: +547 ms of imports here (measured)
    from cardgen.insight.variant import Variant, load_variant  # lazy: +180 ms of imports here (measured)

    def compiled(of, values, where: str, variant=None):
        """``compile_model``; the option names it does not know are blamed on ``where`` (the
        option or variant file that gave them: the first side's were checked before), and when
        only those are wrong, a command-line ``where`` makes it a usage error (exit 2)."""
        try:
            return compile_model(of, values, variant)
        except CardgenError as exc:
            problems = [dataclasses.replace(p, file=where) if p.file == "--option" else p for p in exc.problems]
            if where.startswith("--") and all(p.file.startswith("--") for p in problems):
                raise UsageError(problems) from None
            raise CardgenError(problems) from None

    flags = _model_flags(options, "--option")
    cm = compiled(game, flags, "--option")
    other_cm, label = None, ""
    if compare_with is not None and compare_options:
        raise CardgenError(Problem("--compare-option", None, "compare", "--compare and --compare-option both name "
                                   "the second side", "give one of them", code="insight-compare"))
    if compare_with is not None:
        path = Path(compare_with)
        if path.is_dir():
            other = load_game(path)
            _refuse_model_problems(other)
            if other.manifest.insight.model is None:
                raise CardgenError(Problem(other.source.file, None, "insight → model", f"{path} describes no round "
                                           "to simulate, so it cannot be compared", "add `insight: model:` to its "
                                           "game.yaml (see docs/insight-model.md)", code="insight-no-model"))
            other_cm = compile_model(other, flags)
            label = str(path) if path.resolve() != game.root.resolve() else "as built (again)"
        else:
            variant = load_variant(path, game.root)
            known = game.manifest.insight.model.options  # an unknown one is the variant's problem, at its line
            other_cm = compiled(game, {**flags, **_model_flags(
                [f"{k}={v}" for k, v in variant.options.items() if k in known and isinstance(v, int)], variant.source)},
                variant.source, variant)
            label = variant.label
    elif compare_options:
        other_cm = compiled(game, {**flags, **_model_flags(compare_options, "--compare-option")}, "--compare-option",
                            Variant(" ".join(compare_options)))
        label = ", ".join(compare_options)
    sides = 2 if other_cm is not None else 1
    played = len([c for c in cm.counts if not players or c.deck.players in players])
    total = (rounds + (games if cm.model.game else 0)) * played * sides  # progress ticks: rounds and games
    tick = progress(total) if progress else None
    result = simulate_model(cm, rounds, seed, policy, tick, players, games=games)
    other_result = simulate_model(other_cm, rounds, seed, policy, tick, players, label, games=games) \
        if other_cm else None
    comparison = compare(result.parts, other_result.parts) if other_result else None
    data = {"simulation": result.to_json()}
    if other_result is not None:
        data["compared_with"] = other_result.to_json()
        data["comparison"] = comparison
    draw = None
    if pdf:
        from cardgen.insight.odds import compute_odds
        from cardgen.insight.plots import write_model_pdf

        draw = lambda path: write_model_pdf(path, result, compute_odds(game), font_path=_body_font(game),  # noqa: E731
                                            other=other_result, comparison=comparison)
    return SimulationRun(cm.game_id, result, other_result, comparison,
                         files=_write_outputs(Path(out) / cm.game_id, data, draw),
                         notes=cm.notes + _never_won(game, cm, result))


def _never_won(game, cm, result) -> list:
    """A warning for each declared way to win (``tsumo``, each call) that no simulated round
    ended in, and each claim no round made, at its game.yaml line, naming the player counts (a condition that cannot hold
    is already among ``cm.notes``)."""
    from cardgen.core.errors import Problem  # lazy: +8 ms of imports here (measured)

    model = cm.model
    said = {p.path for p in cm.notes}
    ways = ([("end.own", ("tsumo", "when"), model.tsumo.name)] if model.tsumo else []) + [
        (f"end.call.{i}", ("calls", i, "when"), c.name) for i, c in enumerate(model.calls)] + [
        (f"claims.{i}", ("claims", i, "when"), c.name) for i, c in enumerate(model.claims)]
    out = []
    for key, path, name in ways:
        where = ("insight", "model", *path)
        shown = display_path(where, game.manifest)  # as the model check names it (cm.notes)
        never = [c["players"] for c in result.counts if c["estimates"].get(key, {}).get("value", 1) == 0]
        if not never or shown in said:
            continue
        first = "" if model.wins_per_round == "1" or key.startswith("claims.") else " as a round's first win"
        out.append(Problem(game.source.file, game.source.line(where), shown,
                           f"{name} never happened{first} in {result.rounds:,} rounds at "
                           f"{' and '.join(map(str, never))} players",
                           "check its condition (and the policy: --policy random tries other plays)",
                           severity="warning", code="insight-model-never"))
    return out


def _model_flags(texts: list[str], where: str) -> dict[str, int]:
    """``NAME=N`` (a whole number, or true/false) → option values.

    Raises:
        UsageError: a command-line text (``where`` an option) that is not NAME=N.
        CardgenError: a variant file's text that is not NAME=N.
    """
    from cardgen.core.errors import CardgenError, Problem, UsageError  # lazy: +8 ms of imports here (measured)

    flags = {}
    for text in texts:
        name, sep, value = str(text).partition("=")
        try:
            flags[name.strip()] = int({"true": "1", "false": "0"}.get(value.strip().lower(), value.strip()))
        except ValueError:
            problem = Problem(where, None, "option", f"cannot read {text!r}",
                              "write NAME=N (a whole number, or true/false)", code="insight-option")
            # a command-line value is a usage error (exit 2); a variant file's is the file's problem
            raise (UsageError if where.startswith("--") else CardgenError)(problem) from None
    return flags


def _body_font(game) -> Path | None:
    """The font file of the game's ``body`` role (for Japanese text in the plots), or None."""
    from cardgen.core.errors import CardgenError  # lazy: +8 ms of imports here (measured)
    from cardgen.fonts.fontset import fonts_for  # lazy: +63 ms of imports here (measured)

    try:
        return fonts_for(game).path("body")
    except (CardgenError, KeyError, OSError):
        return None
