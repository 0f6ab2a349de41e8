"""The simulator's shared codes: one result row per round, event codes of a trace, policies.

A round's result row (int) holds, by column: how it ended (``COL_KIND``: 0 流局, 1 tsumo, 2 ron),
the turn it ended on (1-based; a 流局 counts every turn), winner and discarder seats (−1 none),
points of the win and the winner's power, calls possible and made (``COL_PON_AFF`` …), per seat
a bit mask of the numbers that seat played face up (``COL_UPMASK + seat``) and face down
(``COL_DOWNMASK + seat``), and per number the
cards played face up / face down (``COL_UP + number``, ``COL_DOWN + number``), and how many
seats were dealt a hand holding a pair (``COL_DEALT_PAIRS``). Numbers 0–15 and
at most 8 seats fit.
"""
from __future__ import annotations

#: Most rounds per player count one simulation plays (a result row is ~100 bytes: 10⁸ rounds are
#: past the default memory budget already, which then stops the run cleanly).
MAX_ROUNDS = 100_000_000
#: Largest --seed: the compiled procedures take the seed as a 64-bit signed integer.
MAX_SEED = 2**63 - 1

END_DRAW, END_TSUMO, END_RON = 0, 1, 2
END_NAMES = {END_DRAW: "流局", END_TSUMO: "tsumo", END_RON: "ron"}

COL_KIND, COL_TURN, COL_WINNER, COL_LOSER, COL_POINTS, COL_POWER = 0, 1, 2, 3, 4, 5
COL_PON_AFF, COL_PON_USED, COL_CHI_AFF, COL_CHI_USED = 6, 7, 8, 9
MAX_SEATS, MAX_NUMBER = 8, 15
COL_UPMASK = 10
COL_UP = COL_UPMASK + MAX_SEATS
COL_DOWN = COL_UP + MAX_NUMBER + 1
COL_DEALT_PAIRS = COL_DOWN + MAX_NUMBER + 1  #: seats whose dealt hand holds two cards of one number
COL_DOWNMASK = COL_DEALT_PAIRS + 1  #: per seat: bit mask of the numbers it played face down
WIDTH = COL_DOWNMASK + MAX_SEATS

# trace events: (turn, seat, event, a, b, c)
EV_DRAW = 1        # a = card index, b = its number, c = 聴牌速度 before the draw
EV_TSUMO = 2       # a = 和了牌 card, b = its number, c = points
EV_DISCARD = 3     # a = card, b = value counted (0 face down), c = 1 face up / 0 face down
EV_POWER = 4       # a = power now, b = value played, c = rightmost value before
EV_RON = 5         # seat = winner; a = discard card, b = its number, c = points
EV_PON = 6         # a = card taken, b = seat taken from, c = power paid
EV_CHI = 7         # as EV_PON
EV_EXHAUSTED = 8   # draw pile empty: 流局
EV_NAMES = {EV_DRAW: "draw", EV_TSUMO: "tsumo", EV_DISCARD: "discard", EV_POWER: "power", EV_RON: "ron",
            EV_PON: "pon", EV_CHI: "chi", EV_EXHAUSTED: "exhausted"}

POLICY_RANDOM, POLICY_GREEDY = 0, 1
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY}
