"""Library entry points of ``cardgen odds`` and ``cardgen simulate`` (the CLI is a thin layer).

Both read a game folder as data (:func:`cardgen.data.game.load_game`; a draft whose deck math
fails validation still gets its odds), compute, and merge their results into
``OUT/<game>/report.json`` (:func:`cardgen.insight.report_file.merge_report`). They raise
:class:`cardgen.core.errors.CardgenError` for bad input and never print.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.insight.report_file import merge_report

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
    from cardgen.insight.odds import compute_odds
    from cardgen.data.game import load_game

    game = load_game(game_dir)
    results = compute_odds(game)
    gid = game.manifest.game.id
    path = None
    if results:
        path = merge_report(Path(out) / gid / REPORT_JSON, "odds", [r.to_json() for r in results])
    return OddsRun(gid, game.manifest.game.title, results, path)
