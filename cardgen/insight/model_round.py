"""The numba interpreter of a compiled ``insight.model`` (:mod:`cardgen.insight.model_compile`):
one round from a shuffled deck, and many rounds in parallel.

Arrays (all int64): ``attr[card, column]`` (column 0 the kind index, 1 the river value, then the
model's ``columns``), ``T[pattern, kind]`` (the base yaku's tile counts, their points in the last
column), ``code``/``spans`` (the stack programs of :mod:`cardgen.insight.model_expr`),
``calls[call, 4]`` (held column or −1, condition program, points program, face-down callable),
``prio[kind]`` (the priority policy's rank), ``prm`` (the ``P_*`` parameters), ``pol[seat]``.
A round's state is one array ``S[seat]``: river sum, river count, river last, chips, then per kind
the cards in hand (from ``HC``), face up in the river, and discarded (few arguments per call: the
interpreter is called some twenty times a turn).

A round's result row: ``R_END`` (0 the wall ran dry or the turn limit, 1 own-turn win, 2 call),
``R_TURN`` (turns played, all seats), ``R_WINNER``/``R_LOSER`` (seats, −1 none), ``R_POINTS``,
``R_FIRST`` (1: the dealer won on the first draw), ``R_CALL`` (index of the call, −1),
``R_WALL`` (cards left in the wall). Round ``r`` plays from the random stream ``(seed, r)``
(:mod:`cardgen.insight.rng`), so results never depend on the number of threads.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardgen.insight.model_expr import (ADD, AND, CARD, CONST, DISC, DISCARDED, EQ, FDIV, GE, GT, HELD, IN_HAND, IN_RIVER, LE,
                                        LT, MAX, MIN, MOD, MUL, NE, NEG, NOT, OR, PPOINTS, SELECT, SUB, VAR, WINS)
from cardgen.insight.rng import below, round_state, shuffle

P_PLAYERS, P_HAND, P_DEAD, P_TURNS, P_TSUMO_AFTER, P_TSUMO_WHEN, P_TSUMO_POINTS = 0, 1, 2, 3, 4, 5, 6
P_GAIN, P_FACEDOWN, P_GREEDY, P_NCALLS, P_NKINDS = 7, 8, 9, 10, 11
N_PARAMS = 12
R_END, R_TURN, R_WINNER, R_LOSER, R_POINTS, R_FIRST, R_CALL, R_WALL = 0, 1, 2, 3, 4, 5, 6, 7
WIDTH = 8
POL_RANDOM, POL_GREEDY, POL_PRIORITY = 0, 1, 2
POLICIES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "priority": POL_PRIORITY}
MAX_HAND = 64
HC = 4  #: first column of the hand's kind counts in S


@njit(cache=True)
def pattern_best(S, seat, T, extra):
    """The best points of a pattern the hand (plus kind ``extra`` ≥ 0) holds, −1 for none."""
    nk = T.shape[1] - 1
    best = -1
    for t in range(T.shape[0]):
        ok = True
        for k in range(nk):
            if S[seat, HC + k] + (1 if k == extra else 0) < T[t, k]:
                ok = False
                break
        if ok and T[t, nk] > best:
            best = T[t, nk]
    return best


@njit(cache=True)
def run(p, code, spans, attr, seat, card, held, disc, ctx, S, pts, stack):
    """Evaluate program ``p`` for ``seat``: ``card``, ``held``, ``disc`` are card indexes (−1:
    none; ``disc`` ≥ 0 also joins the hand for ``in_hand``); ``ctx`` = (turn, wall, players);
    ``pts``: the best pattern the hand holds (:func:`pattern_best`, −1 none) for ``wins()`` and
    ``pattern_points()``. No loop but the program's own in here: numba compiled this function
    ten times slower with the pattern search written inside it (527 against 43 ns a run)."""
    nk = (S.shape[1] - HC) // 3
    sp = 0
    start, n = spans[p, 0], spans[p, 1]
    for i in range(start, start + n):
        op, a = code[i, 0], code[i, 1]
        if op == CONST:
            stack[sp] = a
            sp += 1
        elif op == CARD or op == HELD or op == DISC:
            c = card if op == CARD else (held if op == HELD else disc)
            stack[sp] = attr[c, a] if c >= 0 else 0
            sp += 1
        elif op == VAR:
            if a <= 3:
                v = S[seat, a]
            elif a == 4:
                v = ctx[0]
            elif a == 5:
                v = ctx[2]
            elif a == 6:
                v = ctx[1]
            else:
                v = seat
            stack[sp] = v
            sp += 1
        elif op == IN_RIVER or op == DISCARDED or op == IN_HAND:
            k = stack[sp - 1]
            if k < 0 or k >= nk:
                stack[sp - 1] = 0
            elif op == IN_HAND:
                stack[sp - 1] = S[seat, HC + k] + (1 if disc >= 0 and attr[disc, 0] == k else 0)
            else:
                stack[sp - 1] = 1 if S[seat, (HC + nk if op == IN_RIVER else HC + 2 * nk) + k] > 0 else 0
        elif op == WINS or op == PPOINTS:
            stack[sp] = (1 if pts >= 0 else 0) if op == WINS else max(pts, 0)
            sp += 1
        elif op == NEG:
            stack[sp - 1] = -stack[sp - 1]
        elif op == NOT:
            stack[sp - 1] = 1 if stack[sp - 1] == 0 else 0
        elif op == SELECT:
            c, x, y = stack[sp - 3], stack[sp - 2], stack[sp - 1]
            sp -= 2
            stack[sp - 1] = x if c != 0 else y
        else:
            x, y = stack[sp - 2], stack[sp - 1]
            sp -= 1
            if op == ADD:
                r = x + y
            elif op == SUB:
                r = x - y
            elif op == MUL:
                r = x * y
            elif op == FDIV:
                r = x // y if y != 0 else 0
            elif op == MOD:
                r = x % y if y != 0 else 0
            elif op == AND:
                r = 1 if (x != 0 and y != 0) else 0
            elif op == OR:
                r = 1 if (x != 0 or y != 0) else 0
            elif op == LT:
                r = 1 if x < y else 0
            elif op == LE:
                r = 1 if x <= y else 0
            elif op == GT:
                r = 1 if x > y else 0
            elif op == GE:
                r = 1 if x >= y else 0
            elif op == EQ:
                r = 1 if x == y else 0
            elif op == NE:
                r = 1 if x != y else 0
            elif op == MIN:
                r = min(x, y)
            elif op == MAX:
                r = max(x, y)
            else:
                r = 0
            stack[sp - 1] = r
    return stack[0] if sp > 0 else 0


@njit(cache=True)
def _closeness(S, s, T, nk, without):
    """How many tiles of the nearest pattern the hand holds once kind ``without`` is played."""
    best = 0
    for t in range(T.shape[0]):
        total = 0
        for k in range(nk):
            total += min(S[s, HC + k] - (1 if k == without else 0), T[t, k])
        if total > best:
            best = total
    return best


@njit(cache=True)
def _choose(s, pol, hand, hsize, prm, code, spans, uses, attr, ctx, S, T, prio, state, stack):
    """Index in ``hand[s]`` of the card seat ``s`` plays."""
    n = hsize[s]
    nk = T.shape[1] - 1
    if pol[s] == POL_RANDOM:
        return below(state, n)
    if prm[P_TSUMO_AFTER] == 2:  # a play that wins now
        for i in range(n):
            c = hand[s, i]
            g = run(prm[P_GAIN], code, spans, attr, s, c, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_GAIN]] else -1, stack)
            S[s, 3] += g
            ok = run(prm[P_TSUMO_WHEN], code, spans, attr, s, c, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_TSUMO_WHEN]] else -1, stack)
            S[s, 3] -= g
            if ok != 0:
                return i
    best, pick = -(1 << 62), 0
    for i in range(n):
        c = hand[s, i]
        score = -prio[attr[c, 0]] * (1 << 32) if pol[s] == POL_PRIORITY else 0
        if prm[P_GREEDY] >= 0:
            score += run(prm[P_GREEDY], code, spans, attr, s, c, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_GREEDY]] else -1, stack)
        elif T.shape[0] > 0:
            score += _closeness(S, s, T, nk, attr[c, 0])
        else:
            score += attr[c, 1]
        if score > best:
            best, pick = score, i
    return pick


@njit(cache=True)
def play_round(order, attr, T, code, spans, uses, calls, prio, prm, pol, state, row):
    """Play one round with the deck in ``order`` (top first); fills ``row``."""
    players, n = prm[P_PLAYERS], order.shape[0]
    nk = T.shape[1] - 1
    RK, DK = HC + nk, HC + 2 * nk
    hand = np.full((players, MAX_HAND), -1, dtype=np.int64)
    hsize = np.zeros(players, dtype=np.int64)
    S = np.zeros((players, HC + 3 * nk), dtype=np.int64)
    ctx = np.zeros(3, dtype=np.int64)
    ctx[2] = players
    stack = np.empty(256, dtype=np.int64)
    pos = 0
    for s in range(players):
        for _ in range(prm[P_HAND]):
            c = order[pos]
            pos += 1
            hand[s, hsize[s]] = c
            hsize[s] += 1
            S[s, HC + attr[c, 0]] += 1
    pos += prm[P_DEAD]
    total = prm[P_TURNS] * players if prm[P_TURNS] > 0 else n + 1
    row[R_END], row[R_WINNER], row[R_LOSER], row[R_POINTS], row[R_FIRST], row[R_CALL] = 0, -1, -1, 0, 0, -1
    t = 0
    while pos < n and t < total and hsize[t % players] < MAX_HAND:
        s = t % players
        c = order[pos]
        pos += 1
        t += 1
        ctx[0], ctx[1] = (t - 1) // players + 1, n - pos
        hand[s, hsize[s]] = c
        hsize[s] += 1
        S[s, HC + attr[c, 0]] += 1
        if prm[P_TSUMO_AFTER] == 1 and run(prm[P_TSUMO_WHEN], code, spans, attr, s, c, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_TSUMO_WHEN]] else -1, stack) != 0:
            row[R_END], row[R_WINNER], row[R_FIRST] = 1, s, 1 if t == 1 else 0
            row[R_POINTS] = run(prm[P_TSUMO_POINTS], code, spans, attr, s, c, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_TSUMO_POINTS]] else -1, stack)
            break
        i = _choose(s, pol, hand, hsize, prm, code, spans, uses, attr, ctx, S, T, prio, state, stack)
        p = hand[s, i]
        down = run(prm[P_FACEDOWN], code, spans, attr, s, p, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_FACEDOWN]] else -1, stack)
        S[s, 3] += run(prm[P_GAIN], code, spans, attr, s, p, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_GAIN]] else -1, stack)
        hsize[s] -= 1
        hand[s, i] = hand[s, hsize[s]]
        hand[s, hsize[s]] = -1
        S[s, HC + attr[p, 0]] -= 1
        if prm[P_TSUMO_AFTER] == 2 and run(prm[P_TSUMO_WHEN], code, spans, attr, s, p, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_TSUMO_WHEN]] else -1, stack) != 0:
            row[R_END], row[R_WINNER], row[R_FIRST] = 1, s, 1 if t == 1 else 0
            row[R_POINTS] = run(prm[P_TSUMO_POINTS], code, spans, attr, s, p, -1, -1, ctx, S,
                     pattern_best(S, s, T, -1) if uses[prm[P_TSUMO_POINTS]] else -1, stack)
            break
        v = 0 if down != 0 else attr[p, 1]
        S[s, 0] += v
        S[s, 1] += 1
        S[s, 2] = v
        if down == 0:
            S[s, RK + attr[p, 0]] += 1
        S[s, DK + attr[p, 0]] += 1
        won = False
        for ci in range(prm[P_NCALLS]):
            if down != 0 and calls[ci, 3] == 0:
                continue
            when, pay = calls[ci, 1], calls[ci, 2]
            for k in range(1, players):
                o = (s + k) % players
                pts = pattern_best(S, o, T, attr[p, 0]) if uses[when] or uses[pay] else -1
                if calls[ci, 0] >= 0:
                    for j in range(hsize[o]):
                        h = hand[o, j]
                        if attr[h, calls[ci, 0]] > 0 and run(when, code, spans, attr, o, p, h, p, ctx, S, pts,
                                                             stack) != 0:
                            row[R_POINTS] = run(pay, code, spans, attr, o, p, h, p, ctx, S, pts, stack)
                            won = True
                            break
                elif run(when, code, spans, attr, o, p, -1, p, ctx, S, pts, stack) != 0:
                    row[R_POINTS] = run(pay, code, spans, attr, o, p, -1, p, ctx, S, pts, stack)
                    won = True
                if won:
                    row[R_END], row[R_WINNER], row[R_LOSER], row[R_CALL] = 2, o, s, ci
                    break
            if won:
                break
        if won:
            break
    row[R_TURN] = t
    row[R_WALL] = n - pos


@njit(cache=True, parallel=True)
def play_many(seed, first, res, size, attr, T, code, spans, uses, calls, prio, prm, pol):
    """Rounds ``first … first + len(res) − 1`` into ``res`` (one row each), in parallel."""
    for i in prange(res.shape[0]):
        state = round_state(seed, first + i)
        order = np.arange(size, dtype=np.int64)
        shuffle(order, state)
        row = np.zeros(WIDTH, dtype=np.int64)
        play_round(order, attr, T, code, spans, uses, calls, prio, prm, pol, state, row)
        for k in range(WIDTH):
            res[i, k] = row[k]
