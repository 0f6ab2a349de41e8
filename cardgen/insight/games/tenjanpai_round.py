"""The numba kernel of 天雀牌 draft 3: one round played turn by turn (:func:`play_round`), and many
rounds in parallel (:func:`play_many`). The rules, options and policies it follows are stated in
:mod:`cardgen.insight.games.tenjanpai`, which registers it.

Every function the round calls lives in this one module (compiled with ``cache=True``): numba
checks a cached compilation against its own module's file only, so an edit here recompiles all of
them together.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardgen.insight.rng import below, round_state, shuffle
from cardgen.insight.sim_layout import (COL_CHI_AFF, COL_CHI_USED, COL_DEALT_PAIRS, COL_DOWN, COL_DOWNMASK, COL_KIND, COL_LOSER, COL_PON_AFF,
                                        COL_PON_USED, COL_POINTS, COL_POWER, COL_TURN, COL_UP, COL_UPMASK,
                                        COL_WINNER, END_RON, END_TSUMO, EV_CHI, EV_DISCARD, EV_DRAW,
                                        EV_EXHAUSTED, EV_PON, EV_POWER, EV_RON, EV_TSUMO, POLICY_GREEDY, WIDTH)

# river entry states
UP, DOWN, SIDEWAYS, TAKEN = 0, 1, 2, 3
# P_* : indices into the int64 parameter vector
P_PLAYERS, P_HAND, P_DEAD, P_THRESHOLD, P_CAP, P_FLAT, P_FD_CALLS, P_SW_BLOCKS, P_MAXNUM = range(9)
N_PARAMS = 9


@njit(cache=True)
def _bonus(power, cap, flat):
    return power if power <= cap else flat


@njit(cache=True)
def _log(trace, tn, on, t, player, ev, a, b, c):
    if on and tn[0] < trace.shape[0]:
        i = tn[0]
        trace[i, 0], trace[i, 1], trace[i, 2], trace[i, 3], trace[i, 4], trace[i, 5] = t, player, ev, a, b, c
        tn[0] += 1


@njit(cache=True)
def _rightmost(rc, rs, rn, num, p):
    """Value of the rightmost card still in p's river (face-down 0), or -1 when it is empty."""
    for k in range(rn[p] - 1, -1, -1):
        if rs[p, k] != TAKEN:
            return 0 if rs[p, k] == DOWN else num[rc[p, k]]
    return -1


@njit(cache=True)
def _best_target(rc, rs, rn, num, speed, P, p, want_lo, want_hi):
    """The best card in another river with a number in [want_lo, want_hi] that is face up (not
    sideways): (player, index, number), highest number first, then the owner's 聴牌速度; (-1, -1, -1)."""
    bq, bk, bn, bs = -1, -1, -1, -1
    for q in range(P):
        if q == p:
            continue
        for k in range(rn[q]):
            if rs[q, k] == UP:
                n = num[rc[q, k]]
                if want_lo <= n <= want_hi and (n > bn or (n == bn and speed[q] > bs)):
                    bq, bk, bn, bs = q, k, n, speed[q]
    return bq, bk, bn


@njit(cache=True)
def _call_gain(c, power_after, rc, rs, rn, num, pon, chi, cost, speed, P, p):
    """The number a call after discarding card ``c`` face up would take (0 if none is affordable)."""
    if power_after < cost[c]:
        return 0
    g = 0
    n = num[c]
    if pon[c] > 0:
        g = max(g, _best_target(rc, rs, rn, num, speed, P, p, n, n)[2])
    if chi[c] > 0:
        g = max(g, _best_target(rc, rs, rn, num, speed, P, p, n - 1, n - 1)[2],
                _best_target(rc, rs, rn, num, speed, P, p, n + 1, n + 1)[2])
    return g


@njit(cache=True)
def _greedy_discard(hand, hn, p, num, present, speed, power, turns_left, prm, rc, rs, rn, pon, chi, cost, P):
    """(hand index, face up?) the greedy policy plays (see the module docstring)."""
    thr, maxnum = prm[P_THRESHOLD], prm[P_MAXNUM]
    n_cards = hn[p]
    # least useful card, for a face-down play
    worst, wkey = 0, 1 << 30
    for j in range(n_cards):
        n = num[hand[p, j]]
        same = 0
        for i in range(n_cards):
            if num[hand[p, i]] == n:
                same += 1
        key = (0 if present[p, n] > 0 else 1) * 1000 + (1 if same >= 2 else 0) * 100 + n
        if key < wkey:
            worst, wkey = j, key
    if speed[p] >= thr:
        return worst, False
    rv = _rightmost(rc, rs, rn, num, p)
    best, bkey, bgain = -1, -1, 0
    for j in range(n_cards):
        c = hand[p, j]
        n = num[c]
        same = 0
        for i in range(n_cards):
            if num[hand[p, i]] == n:
                same += 1
        power_after = power[p] + (1 if (rv >= 0 and n > rv) else 0)
        gain = n + _call_gain(c, power_after, rc, rs, rn, num, pon, chi, cost, speed, P, p)
        safe = 1
        if speed[p] + gain >= thr:  # keep a 和了牌: some other card whose number is not in the river
            safe = 0
            for i in range(n_cards):
                if i != j:
                    m = num[hand[p, i]]
                    if present[p, m] == 0 and m != n:
                        safe = 1
        key = (1 if same < 2 else 0) * 100000 + safe * 10000 + gain
        if key > bkey:
            best, bkey, bgain = j, key, gain
    if speed[p] + bgain + maxnum * turns_left >= thr:
        return best, True
    return worst, False


@njit(cache=True)
def play_round(order, num, pon, chi, cost, prm, policy, state, res, trace, tn, on):
    """Play one round with the deck in ``order`` (card indexes, top first); write ``res`` (one row of
    :data:`cardgen.insight.sim_layout.WIDTH` ints) and, when ``on``, the events into ``trace``."""
    P, H, D = prm[P_PLAYERS], prm[P_HAND], prm[P_DEAD]
    thr, cap, flat = prm[P_THRESHOLD], prm[P_CAP], prm[P_FLAT]
    N = order.shape[0]
    draws = N - P * H - D
    per = (draws + P - 1) // P
    hand = np.empty((P, H + 1), dtype=np.int64)
    hn = np.zeros(P, dtype=np.int64)
    pos = 0
    for p in range(P):
        for j in range(H):
            hand[p, j] = order[pos]
            pos += 1
        hn[p] = H
    pos += D  # the dead wall (王牌) is never drawn
    cap_r = 2 * per + 2
    rc = np.zeros((P, cap_r), dtype=np.int64)
    rs = np.zeros((P, cap_r), dtype=np.int64)
    rn = np.zeros(P, dtype=np.int64)
    speed = np.zeros(P, dtype=np.int64)
    power = np.zeros(P, dtype=np.int64)
    present = np.zeros((P, 16), dtype=np.int64)
    res[:] = 0
    res[COL_WINNER] = -1
    res[COL_LOSER] = -1
    for p in range(P):
        pair = False
        for i in range(H):
            for j in range(i + 1, H):
                if num[hand[p, i]] == num[hand[p, j]]:
                    pair = True
        if pair:
            res[COL_DEALT_PAIRS] += 1
    for t in range(draws):
        p = t % P
        c = order[pos]
        pos += 1
        hand[p, hn[p]] = c
        hn[p] += 1
        _log(trace, tn, on, t, p, EV_DRAW, c, num[c], speed[p])
        # 2. tsumo
        if speed[p] >= thr:
            pick, seen = -1, 0
            for j in range(hn[p]):
                n = num[hand[p, j]]
                if present[p, n] == 0:
                    if policy[p] == POLICY_GREEDY:
                        if pick < 0 or n > num[hand[p, pick]]:
                            pick = j
                    else:
                        seen += 1
                        if below(state, seen) == 0:
                            pick = j
            if pick >= 0:
                w = hand[p, pick]
                res[COL_KIND], res[COL_TURN], res[COL_WINNER] = END_TSUMO, t + 1, p
                res[COL_POINTS] = num[w] + _bonus(power[p], cap, flat)
                res[COL_POWER] = power[p]
                _log(trace, tn, on, t, p, EV_TSUMO, w, num[w], res[COL_POINTS])
                return
        # 3. discard
        if policy[p] == POLICY_GREEDY:
            turns_left = (draws - 1 - t) // P
            j, up = _greedy_discard(hand, hn, p, num, present, speed, power, turns_left, prm, rc, rs, rn,
                                    pon, chi, cost, P)
        else:
            j = below(state, hn[p])
            up = below(state, 2) == 0
        c = hand[p, j]
        hn[p] -= 1
        hand[p, j] = hand[p, hn[p]]
        n = num[c]
        v = n if up else 0
        rv = _rightmost(rc, rs, rn, num, p)
        rc[p, rn[p]] = c
        rs[p, rn[p]] = UP if up else DOWN
        rn[p] += 1
        if up:
            speed[p] += n
            present[p, n] += 1
            res[COL_UP + n] += 1
            res[COL_UPMASK + p] |= 1 << n
        else:
            res[COL_DOWN + n] += 1
            res[COL_DOWNMASK + p] |= 1 << n
        _log(trace, tn, on, t, p, EV_DISCARD, c, v, 1 if up else 0)
        if rv >= 0 and v > rv:
            power[p] += 1
            _log(trace, tn, on, t, p, EV_POWER, power[p], v, rv)
        # 4. ron: the nearest player in turn order first
        if up:
            for k in range(1, P):
                q = (p + k) % P
                same = 0
                for i in range(hn[q]):
                    if num[hand[q, i]] == n:
                        same += 1
                if same >= 2:
                    res[COL_KIND], res[COL_TURN], res[COL_WINNER], res[COL_LOSER] = END_RON, t + 1, q, p
                    res[COL_POINTS] = n + _bonus(power[q], cap, flat)
                    res[COL_POWER] = power[q]
                    _log(trace, tn, on, t, q, EV_RON, c, n, res[COL_POINTS])
                    return
        # 5. pon / chi
        if (up or prm[P_FD_CALLS] != 0) and (pon[c] > 0 or chi[c] > 0):
            can_pay = power[p] >= cost[c]
            pq, pk, pn = -1, -1, -1
            cq, ck, cn = -1, -1, -1
            if pon[c] > 0:
                pq, pk, pn = _best_target(rc, rs, rn, num, speed, P, p, n, n)
            if chi[c] > 0:
                lq, lk, ln = _best_target(rc, rs, rn, num, speed, P, p, n - 1, n - 1)
                hq, hk, hn_ = _best_target(rc, rs, rn, num, speed, P, p, n + 1, n + 1)
                if hn_ >= 0 and (ln < 0 or hn_ > ln or (hn_ == ln and speed[hq] >= speed[lq])):
                    cq, ck, cn = hq, hk, hn_
                elif ln >= 0:
                    cq, ck, cn = lq, lk, ln
            if can_pay and pq >= 0:
                res[COL_PON_AFF] += 1
            if can_pay and cq >= 0:
                res[COL_CHI_AFF] += 1
            act = 0  # 0 none, 1 pon, 2 chi
            if can_pay and (pq >= 0 or cq >= 0):
                if policy[p] == POLICY_GREEDY:
                    act = 1 if (pq >= 0 and (cq < 0 or pn >= cn)) else 2
                else:
                    # uniform over: no call, and every affordable call target
                    opts = 1
                    for q in range(P):
                        if q != p:
                            for k in range(rn[q]):
                                if rs[q, k] == UP:
                                    m = num[rc[q, k]]
                                    if (pon[c] > 0 and m == n) or (chi[c] > 0 and (m == n - 1 or m == n + 1)):
                                        opts += 1
                    pick = below(state, opts)
                    if pick > 0:
                        i = 0
                        for q in range(P):
                            if q != p:
                                for k in range(rn[q]):
                                    if rs[q, k] == UP:
                                        m = num[rc[q, k]]
                                        is_pon = pon[c] > 0 and m == n
                                        is_chi = chi[c] > 0 and (m == n - 1 or m == n + 1)
                                        if is_pon or is_chi:
                                            i += 1
                                            if i == pick:
                                                act = 1 if is_pon else 2
                                                if is_pon:
                                                    pq, pk, pn = q, k, m
                                                else:
                                                    cq, ck, cn = q, k, m
            if act != 0:
                tq, tk, tnum = (pq, pk, pn) if act == 1 else (cq, ck, cn)
                power[p] -= cost[c]
                taken = rc[tq, tk]
                rs[tq, tk] = TAKEN
                speed[tq] -= tnum
                present[tq, tnum] -= 1
                rc[p, rn[p]] = taken
                rs[p, rn[p]] = SIDEWAYS
                rn[p] += 1
                speed[p] += tnum
                if prm[P_SW_BLOCKS] != 0:
                    present[p, tnum] += 1
                res[COL_PON_USED if act == 1 else COL_CHI_USED] += 1
                _log(trace, tn, on, t, p, EV_PON if act == 1 else EV_CHI, taken, tq, cost[c])
    res[COL_TURN] = draws
    _log(trace, tn, on, draws, -1, EV_EXHAUSTED, 0, 0, 0)


@njit(parallel=True, cache=True)
def play_many(seed, first, res, deck, num, pon, chi, cost, prm, policy):
    """Rounds ``first … first + len(res) − 1``: round ``r`` shuffles ``deck`` with the stream of
    ``(seed, r)`` and plays it; one row of ``res`` per round. Threads never change the result."""
    for i in prange(res.shape[0]):
        state = round_state(seed, first + i)
        order = deck.copy()
        shuffle(order, state)
        trace = np.zeros((1, 6), dtype=np.int64)
        tn = np.zeros(1, dtype=np.int64)
        row = np.zeros(WIDTH, dtype=np.int64)
        play_round(order, num, pon, chi, cost, prm, policy, state, row, trace, tn, False)
        for k in range(WIDTH):
            res[i, k] = row[k]
