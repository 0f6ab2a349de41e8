"""Library entry points of ``cardgen odds`` and ``cardgen simulate`` (the CLI is a thin layer).

Both read a game folder as data (:func:`cardgen.data.game.load_game`; a draft whose deck math
fails validation still gets its odds), compute, and merge their results into
``OUT/<game>/report.json`` (:func:`cardgen.insight.report_file.merge_report`). They raise
:class:`cardgen.core.errors.CardgenError` for bad input and never print.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.insight.report_file import merge_report, write_json

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
    from cardgen.data.game import load_game  # lazy: +187 ms of imports here (measured)
    from cardgen.insight.odds import compute_odds  # lazy: +168 ms of imports here (measured)

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
    result: object  #: :class:`cardgen.insight.simulate.SimulationResult`
    other: object | None = None  #: the compared game or variant, same rounds
    comparison: list | None = None  #: :func:`cardgen.insight.estimates.compare` rows
    files: list[Path] | None = None


def simulate_game(game_dir: Path | str, out: Path | str = "output", *, rounds: int = 100_000, seed: int = 1,
                  policy: str = "greedy", options: list[str] | None = None, players: list[int] | None = None,
                  compare_with: Path | str | None = None, jobs: int | None = None, pdf: bool = True,
                  progress=None) -> SimulationRun:
    """Simulate ``rounds`` rounds per player count and write OUT/<game>/simulation.json and
    OUT/<game>/insight.pdf (plots and the exact odds tables).

    ``compare_with``: another game folder, or a variant file (YAML: ``label``, ``cards``,
    ``design``, ``options``; see docs/insight.md) applied to this game; both play the same rounds.
    ``jobs``: threads (default: all cores); the results never depend on it.

    Raises:
        CardgenError: the game cannot be simulated (see :func:`cardgen.insight.simulate.prepare`),
            a bad ``--option``, ``--policy`` or variant file.
    """
    from cardgen.core.errors import CardgenError, Problem  # lazy: +7 ms of imports here (measured)
    from cardgen.insight.estimates import compare  # lazy: +126 ms of imports here (measured)
    from cardgen.insight.simulate import prepare, simulate  # lazy: +272 ms of imports here (measured)
    from cardgen.insight.variant import load_variant, parse_options  # lazy: +172 ms of imports here (measured)

    if rounds < 2:
        raise CardgenError(Problem("--rounds", None, "rounds", f"{rounds} rounds: at least 2 are needed for a "
                                   "standard error", "e.g. --rounds 100000", code="insight-rounds"))
    if jobs:
        import numba
        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))
    base = prepare(game_dir)
    flags = parse_options(options or [], base.procedure)
    base.options.update(flags)
    other_setup = None
    if compare_with is not None:
        path = Path(compare_with)
        if path.is_dir():
            other_setup = prepare(path)
            other_setup.label = str(path) if path.resolve() != Path(game_dir).resolve() else "as built (again)"
        else:
            other_setup = prepare(game_dir, load_variant(path))
        other_setup.options.update(flags)
    total = rounds * (len(players) if players else len(base.decks)) * (2 if other_setup else 1)
    tick = progress(total) if progress else None
    result = simulate(base, rounds, seed, policy, tick, players)
    other = simulate(other_setup, rounds, seed, policy, tick, players) if other_setup else None
    comparison = compare(result, other) if other is not None else None
    out_dir = Path(out) / base.game_id
    data = {"simulation": result.to_json()}
    if other is not None:
        data["compared_with"] = other.to_json()
        data["comparison"] = comparison
    files = [write_json(out_dir / SIMULATION_JSON, data)]
    if pdf:
        from cardgen.data.game import load_game
        from cardgen.insight.odds import compute_odds
        from cardgen.insight.plots import write_insight_pdf

        game = load_game(game_dir)
        files.append(write_insight_pdf(out_dir / INSIGHT_PDF, result, other, comparison, compute_odds(game),
                                       font_path=_body_font(game)))
    return SimulationRun(base.game_id, result, other, comparison, files)


def _body_font(game) -> Path | None:
    """The font file of the game's ``body`` role (for Japanese text in the plots), or None."""
    from cardgen.core.errors import CardgenError  # lazy: +6 ms of imports here (measured)
    from cardgen.fonts.fontset import fonts_for  # lazy: +70 ms of imports here (measured)

    try:
        return fonts_for(game).path("body")
    except (CardgenError, KeyError, OSError):
        return None
