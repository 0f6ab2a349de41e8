"""The numbers shared by the model's compiler (:mod:`cardgen.insight.model_compile`, no numba)
and its interpreter (:mod:`cardgen.insight.model_round`): the parameter vector, the result row,
policies, river card states. Kept apart so that ``cardgen validate`` checks a model without
importing numba.
"""
from __future__ import annotations

P_PLAYERS, P_HAND, P_DEAD, P_TURNS, P_TSUMO_AFTER, P_TSUMO_WHEN, P_TSUMO_POINTS = 0, 1, 2, 3, 4, 5, 6
P_GAIN, P_FACEDOWN, P_GREEDY, P_NCALLS, P_NKINDS = 7, 8, 9, 10, 11
P_NTAKES, P_CHOOSE_FACE, P_GREEDY_DOWN, P_TSUMO_ANY = 12, 13, 14, 15
N_PARAMS = 16
R_END, R_TURN, R_WINNER, R_LOSER, R_POINTS, R_FIRST, R_CALL, R_WALL, R_TAKES, R_DOWN = range(10)
WIDTH = 10
POL_RANDOM, POL_GREEDY, POL_PRIORITY = 0, 1, 2
POLICIES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "priority": POL_PRIORITY}
MAX_HAND = 64
HC = 4  #: first column of the hand's kind counts in S
UP, DOWN, SIDEWAYS, TAKEN = 0, 1, 2, 3  #: a river card's state
#: rounds are played in this many blocks (each with its own workspace); a fixed number, so the
#: blocks — and the results — are the same on any number of threads
BLOCKS = 256
