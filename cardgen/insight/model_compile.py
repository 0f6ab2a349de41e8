"""A game's ``insight.model`` compiled to the arrays the numba interpreter plays
(:mod:`cardgen.insight.model_round`), one set per player count: the checked plan of
:mod:`cardgen.insight.model_check` (every problem at its game.yaml line) as int64 arrays.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardgen.core.errors import Problem
from cardgen.data.game import Game
from cardgen.data.sim_model import GameModel
from cardgen.insight.deck import DealtDeck
from cardgen.insight.model_check import plan_model
from cardgen.insight.model_expr import (CONST, MELDS, MELDS_PAIR, NEAR, NOT_IN_RIVER, PPOINTS, TAKE_GAIN, USES_FRESH,
                                        USES_MELDS, USES_MPAIR, USES_NEAR, USES_PATTERN, USES_TAKE, WINS, Programs)
from cardgen.insight.variant import Variant


@dataclass
class CompiledCount:
    """The arrays of one player count."""

    deck: DealtDeck
    attr: np.ndarray
    prm: np.ndarray
    gp: np.ndarray | None = None  #: the game's parameters (model_game's GP_*), None: single rounds only


@dataclass
class CompiledModel:
    """A model ready to play: shared programs and tables, and the arrays per player count."""

    game_id: str
    title: str
    model: GameModel
    options: dict[str, int]
    kinds: list[str]
    T: np.ndarray  #: patterns × (kinds + 1): tile counts per kind, then points
    code: np.ndarray
    spans: np.ndarray
    uses: np.ndarray  #: per program: USES_* bits (what it reads that the interpreter works out first)
    calls: np.ndarray
    takes: np.ndarray
    prio: np.ndarray
    claims: np.ndarray  #: per claim: model_layout's CL_* (condition, greedy's choice, where the card goes, face down)
    counts: list[CompiledCount] = field(default_factory=list)
    #: warnings that do not stop a run: a way to win whose condition can never hold (model_bounds)
    notes: list[Problem] = field(default_factory=list)
    terms: dict[str, str] = field(default_factory=dict)  #: the manifest's words (reports use them)

    def arrays(self, k: int) -> tuple:
        """The model tuple ``M`` of :mod:`cardgen.insight.model_round` for player count ``k``."""
        c = self.counts[k]
        return (c.attr, self.T, self.code, self.spans, self.uses, self.calls, self.takes, self.prio, c.prm, self.claims)


def compile_model(game: Game, flags: dict[str, int] | None = None, variant: Variant | None = None) -> CompiledModel:
    """Compile ``game.manifest.insight.model`` (with ``flags``: ``--option`` answers; ``variant``:
    changed card values and design constants of a ``--compare`` side).

    Raises:
        CardgenError: every problem at once (:func:`cardgen.insight.model_check.plan_model`).
    """
    p = plan_model(game, flags, variant)
    i64 = np.int64
    nk = max(len(p.kinds), 1)
    targets = np.array(p.targets, dtype=i64) if p.targets else np.zeros((0, nk), dtype=i64)
    T = np.concatenate([targets, np.array(p.tpoints, dtype=i64).reshape(-1, 1)], axis=1)
    code, spans = _program_arrays(p.progs)
    uses = np.array([_uses(code[a:a + n, 0]) for a, n in spans] or [0], dtype=i64)
    counts = [CompiledCount(c.deck, np.array(c.attr, dtype=i64).reshape(-1, p.width), np.array(c.prm, dtype=i64),
                            None if c.gp is None else np.array(c.gp, dtype=i64)) for c in p.counts]
    return CompiledModel(p.game_id, p.title, p.model, p.options, p.kinds, T, code, spans, uses,
                         np.array(p.calls, dtype=i64).reshape(-1, 5), np.array(p.takes, dtype=i64).reshape(-1, 3),
                         np.array(p.prio, dtype=i64), np.array(p.claims, dtype=i64).reshape(-1, 4), counts, p.notes,
                         p.terms)


def _program_arrays(progs: Programs) -> tuple[np.ndarray, np.ndarray]:
    """``(code[n, 2], spans[m, 2])`` of every program as int64 arrays."""
    code = np.array(progs.code or [(CONST, 0)], dtype=np.int64).reshape(-1, 2)
    return code, np.array(progs.spans, dtype=np.int64).reshape(-1, 2)


def _uses(ops: np.ndarray) -> int:
    """The USES_* bits of a program's opcodes."""
    have = set(ops.tolist())
    return ((USES_PATTERN if have & {WINS, PPOINTS} else 0) | (USES_TAKE if TAKE_GAIN in have else 0)
            | (USES_FRESH if NOT_IN_RIVER in have else 0) | (USES_MELDS if MELDS in have else 0)
            | (USES_NEAR if NEAR in have else 0) | (USES_MPAIR if MELDS_PAIR in have else 0))
