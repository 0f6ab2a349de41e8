"""The numbers shared by the model's compiler (:mod:`cardgen.insight.model_compile`, no numba)
and its interpreter (:mod:`cardgen.insight.model_round`): the parameter vector, the result row,
policies, river card states. Kept apart so that ``cardgen validate`` checks a model without
importing numba.
"""
from __future__ import annotations

P_PLAYERS, P_HAND, P_DEAD, P_TURNS, P_TSUMO_AFTER, P_TSUMO_WHEN, P_TSUMO_POINTS = 0, 1, 2, 3, 4, 5, 6
P_GAIN, P_FACEDOWN, P_GREEDY, P_NCALLS, P_NKINDS = 7, 8, 9, 10, 11
P_NTAKES, P_CHOOSE_FACE, P_GREEDY_DOWN, P_TSUMO_ANY, P_WINS, P_MELDS, P_MELD_SETS = 12, 13, 14, 15, 16, 17, 18
P_NCLAIMS = 19
#: parameters; then, for melds(), per kind the kind of the next number of its suit (−1 none), then
#: of the previous one
N_PARAMS = 20
R_END, R_TURN, R_WINNER, R_LOSER, R_POINTS, R_FIRST, R_CALL, R_WALL, R_TAKES, R_DOWN, R_WINS = range(11)
MAX_SEATS = 8
R_SEAT_POINTS = 11  #: per seat (up to MAX_SEATS): points won this round
R_SEAT_LOST = R_SEAT_POINTS + MAX_SEATS  #: per seat: points of the calls won on its discards
MAX_CLAIMS = 4
R_CLAIMS = R_SEAT_LOST + MAX_SEATS  #: per claim (up to MAX_CLAIMS): times it was made this round
WIDTH = R_CLAIMS + MAX_CLAIMS
#: a claim's row (``claims[claim, 4]``): condition, greedy's choice, where the card goes, face down claimable
CL_WHEN, CL_GREEDY, CL_TO, CL_DOWN = 0, 1, 2, 3
CL_HAND, CL_RIVER = 0, 1
POL_RANDOM, POL_GREEDY, POL_PRIORITY = 0, 1, 2
POLICIES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "priority": POL_PRIORITY}
MAX_HAND = 64
HC = 5  #: first column of the hand's kind counts in S (before it: river sum, count, last, chips, wins)
SCRATCH = 256  #: the expression stack's second half: melds()' working counts
UP, DOWN, SIDEWAYS, TAKEN = 0, 1, 2, 3  #: a river card's state
#: rounds are played in this many blocks (each with its own workspace); a fixed number, so the
#: blocks — and the results — are the same on any number of threads
BLOCKS = 256

#: the game's parameters: counters, programs (−1: none), ends, rank keys, the round limit, ready() used
GP_NC, GP_CARRY, GP_POT, GP_STAYS, GP_OUT, GP_NENDS, GP_NRANK, GP_MAXR, GP_READY = range(9)
GP_START = 9  #: 8 counters' start values, then their `after` programs, then 8 ends, then 4 rank keys
GP_AFTER, GP_ENDS, GP_RANK = GP_START + 8, GP_START + 16, GP_START + 24
GP_WIDTH = GP_START + 28
#: a game's result row: rounds, the end (index of `ends`, −1 the round limit), the winner's game
#: seat (−1 a draw), rounds without a win, then per game seat 1 when the player is `out`, then
#: per game seat the first counter's final value
GR_ROUNDS, GR_END, GR_WINNER, GR_DRY, GR_OUT = 0, 1, 2, 3, 4
GR_FIRST = GR_OUT + MAX_SEATS
GR_WIDTH = GR_FIRST + MAX_SEATS
#: game g draws from the stream (seed, GAME_STREAM + g): apart from every round stream (r < 2**40)
GAME_STREAM = 1 << 40
