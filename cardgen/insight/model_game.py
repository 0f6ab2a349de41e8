"""The numba loop of a whole game (``insight.model.game``): rounds of
:func:`cardgen.insight.model_round.play_round` one after another, with what carries over between
them (the players' counters, the chips a player keeps, the pot), the dealer's seat, the end of
the game and its winner.

A round is played with seat 0 as its dealer, so game seat ``g`` sits at round seat
``(g − dealer) mod players``; the game's own numbers are per game seat (seat 1 is the first
dealer, 起家). After each round the game's expressions (:mod:`cardgen.insight.model_expr`'s
``GAME_VARS`` and the counters) read ``G[game seat, column]``, filled from the round's row and
the round's final state: in order, the pot payments, the counters (all from their values before
the round), the chips carried over, whether the dealer stays, then the ends. The game's
parameter vector ``gp`` is laid out by :mod:`cardgen.insight.model_layout`'s ``GP_*``, the
game's result row by its ``GR_*``. Game ``g`` under ``--seed s`` plays from its own random stream (``s``,
``GAME_STREAM + g``): the results depend on the seed and the games only, never on the threads.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardgen.insight.model_expr import G_COUNTERS, G_WIDTH, GAME_VARS
from cardgen.insight.model_layout import (BLOCKS, GAME_STREAM, GP_AFTER, GP_CARRY, GP_ENDS, GP_MAXR, GP_NC, GP_NENDS,
                                          GP_NRANK, GP_OUT, GP_POT, GP_RANK, GP_READY, GP_START, GP_STAYS, GR_DRY, GR_END,
                                          GR_FIRST, GR_OUT, GR_ROUNDS, GR_WINNER, MAX_SEATS, P_MELDS, P_NKINDS, P_PLAYERS, R_END, R_LOSER, R_POINTS,
                                          R_SEAT_LOST, R_SEAT_POINTS, R_WINNER, R_WINS, WIDTH)
from cardgen.insight.model_round import NO, ZERO, melds_ok, pattern_best, play_round, run, workspace
from cardgen.insight.rng import round_state, seed_state, shuffle


_POINTS, _LOST, _RPOINTS, _WON, _WINNER, _LOSER = (GAME_VARS[k] for k in
                                                   ("points", "lost", "round_points", "won", "winner", "loser"))
_TSUMO, _CALL, _DRY, _DEALER, _SEAT, _WSEAT, _LSEAT = (GAME_VARS[k] for k in
                                                      ("tsumo", "call", "dry", "dealer", "seat", "winner_seat",
                                                       "loser_seat"))
_RSUM, _CHIPS, _TOP, _TOPS, _READY, _POT, _PAY, _POTWON, _ROUND, _MOVES, _PLAYERS = (
    GAME_VARS[k] for k in ("river.sum", "chips", "top_river", "top_rivers", "ready()", "pot", "pay", "pot_won",
                           "round", "moves", "players"))


@njit(cache=True, _nrt=False)
def _ready(S, r, T, prm, stack):
    """1 when one more card of some kind would complete round seat ``r``'s hand (``wins()`` or ``melds()``)."""
    for k in range(prm[P_NKINDS]):
        if T.shape[0] > 0 and pattern_best(S, r, T, k) >= 0:
            return 1
        if prm[P_MELDS] != 0 and melds_ok(S, r, k, prm, stack) != 0:
            return 1
    return 0


@njit(cache=True, _nrt=False)
def _gev(p, g, M, G, ctx, stack):
    """Game program ``p`` for game seat ``g`` (reads ``G``; −1: 0)."""
    if p < 0:
        return 0
    return run(p, M[2], M[3], M[0], g, NO, NO, NO, ctx, G, NO, stack)


@njit(cache=True, _nrt=False)
def play_game(M, gp, W, G, pol, polr, carry, chips0, order, state, grow, row):
    """Play one game into ``grow`` (``GR_*``): rounds until an end holds (or ``gp[GP_MAXR]``)."""
    prm = M[8]
    T = M[1]
    S, ctx, stack = W[2], W[6], W[7]
    n = prm[P_PLAYERS]
    nc = gp[GP_NC]
    G[:, :] = 0
    for g in range(n):
        for j in range(nc):
            G[g, G_COUNTERS + j] = gp[GP_START + j]
        carry[g] = 0
        G[g, _PLAYERS] = n
    grow[:] = 0
    grow[GR_END], grow[GR_WINNER] = -1, -1
    dealer, moves, pot, rounds = ZERO, 0, 0, 0
    while rounds < gp[GP_MAXR]:
        for r in range(n):
            polr[r] = pol[(r + dealer) % n]
            chips0[r] = carry[(r + dealer) % n]
        for k in range(order.shape[0]):
            order[k] = k
        shuffle(order, state)
        play_round(order, M, W, polr, state, row, chips0)
        rounds += 1
        wins = row[R_WINS]
        if wins == 0:
            grow[GR_DRY] += 1
        top, tops = -(1 << 62), 0
        for r in range(n):
            if S[r, 0] > top:
                top, tops = S[r, 0], 1
            elif S[r, 0] == top:
                tops += 1
        wseat = row[R_WINNER] if wins > 0 else -1
        lseat = row[R_LOSER] if wins > 0 else -1
        for g in range(n):
            r = (g - dealer) % n
            G[g, _POINTS] = row[R_SEAT_POINTS + r] if r < MAX_SEATS else 0
            G[g, _LOST] = row[R_SEAT_LOST + r] if r < MAX_SEATS else 0
            G[g, _RPOINTS] = row[R_POINTS]
            G[g, _WON] = S[r, 4]
            G[g, _WINNER] = 1 if r == wseat else 0
            G[g, _LOSER] = 1 if r == lseat and lseat >= 0 else 0
            G[g, _TSUMO] = 1 if wins > 0 and row[R_END] == 1 else 0
            G[g, _CALL] = 1 if wins > 0 and row[R_END] == 2 else 0
            G[g, _DRY] = 1 if wins == 0 else 0
            G[g, _DEALER] = 1 if r == 0 else 0
            G[g, _SEAT], G[g, _WSEAT], G[g, _LSEAT] = r, wseat, lseat
            G[g, _RSUM], G[g, _CHIPS] = S[r, 0], S[r, 3]
            G[g, _TOP], G[g, _TOPS] = (1 if S[r, 0] == top else 0), tops
            G[g, _READY] = _ready(S, r, T, prm, stack) if gp[GP_READY] != 0 else 0
            G[g, _POT], G[g, _ROUND], G[g, _MOVES] = pot, rounds, moves
        paid = 0
        for g in range(n):
            G[g, _PAY] = _gev(gp[GP_POT], g, M, G, ctx, stack)
            paid += G[g, _PAY]
        for g in range(n):
            G[g, _POTWON] = pot if G[g, _WINNER] != 0 else 0
        pot = (0 if wins > 0 else pot) + paid
        for g in range(n):
            for j in range(nc):
                G[g, G_COUNTERS + 8 + j] = _gev(gp[GP_AFTER + j], g, M, G, ctx, stack)
            carry[g] = _gev(gp[GP_CARRY], g, M, G, ctx, stack)
        stays = _gev(gp[GP_STAYS], dealer, M, G, ctx, stack)
        if stays == 0:
            dealer = (dealer + 1) % n
            moves += 1
        for g in range(n):
            for j in range(nc):
                G[g, G_COUNTERS + j] = G[g, G_COUNTERS + 8 + j]
            G[g, _POT], G[g, _MOVES] = pot, moves
        for e in range(gp[GP_NENDS]):
            for g in range(n):
                if _gev(gp[GP_ENDS + e], g, M, G, ctx, stack) != 0:
                    grow[GR_END] = e
                    break
            if grow[GR_END] >= 0:
                break
        if grow[GR_END] >= 0:
            break
    grow[GR_ROUNDS] = rounds
    best, tied = -1, 0
    for g in range(n):
        out = _gev(gp[GP_OUT], g, M, G, ctx, stack)
        if g < MAX_SEATS:
            grow[GR_OUT + g] = 1 if out != 0 else 0
            grow[GR_FIRST + g] = G[g, G_COUNTERS] if nc > 0 else 0
        for q in range(gp[GP_NRANK]):
            G[g, G_COUNTERS + 16 + q] = _gev(gp[GP_RANK + q], g, M, G, ctx, stack)
        if out != 0:
            continue
        if best < 0:
            best, tied = g, 0
            continue
        cmp = 0
        for q in range(gp[GP_NRANK]):
            a, b = G[g, G_COUNTERS + 16 + q], G[best, G_COUNTERS + 16 + q]
            if a != b:
                cmp = 1 if a > b else -1
                break
        if cmp > 0:
            best, tied = g, 0
        elif cmp == 0:
            tied = 1
    grow[GR_WINNER] = best if tied == 0 else -1


@njit(cache=True, parallel=True)
def play_games(seed, first, gres, size, M, gp, pol):
    """Games ``first … first + len(gres) − 1`` into ``gres`` (one ``GR_*`` row each), in
    :data:`BLOCKS` parallel blocks, each with one workspace."""
    prm = M[8]
    n = prm[P_PLAYERS]
    games = gres.shape[0]
    per = (games + BLOCKS - 1) // BLOCKS
    for b in prange(BLOCKS):
        W = workspace(n, size, prm[P_NKINDS])
        G = np.zeros((n, G_WIDTH), dtype=np.int64)
        polr = np.zeros(n, dtype=np.int64)
        carry = np.zeros(n, dtype=np.int64)
        chips0 = np.zeros(n, dtype=np.int64)
        order = np.empty(size, dtype=np.int64)
        row = np.zeros(WIDTH, dtype=np.int64)
        state = round_state(seed, ZERO)
        for i in range(b * per, min(games, (b + 1) * per)):
            seed_state(state, seed, GAME_STREAM + first + i)
            play_game(M, gp, W, G, pol, polr, carry, chips0, order, state, gres[i], row)
