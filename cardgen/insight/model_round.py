"""The numba interpreter of a compiled ``insight.model`` (:mod:`cardgen.insight.model_compile`):
one round from a shuffled deck, and many rounds in parallel.

The model's arrays travel as one tuple ``M`` (all int64): ``attr[card, column]`` (column 0 the
kind index, 1 the river value, then the model's ``columns``), ``T[pattern, kind]`` (the base
yaku's tile counts, their points in the last column), ``code``/``spans`` (the stack programs of
:mod:`cardgen.insight.model_expr`), ``uses[program]`` (bits: what to work out before running it),
``calls[call, 5]`` (held column or −1, condition, points, face-down callable, ``wall_down``), ``takes[take, 3]``
(condition, cost, sideways card counts for ``in_river``), ``prio[kind]`` (the priority policy's
rank), ``prm`` (the ``P_*`` parameters), ``claims[claim, 4]`` (model_layout's ``CL_*``: condition,
greedy's choice, hand or river, face-down claimable). A round's state is the tuple ``W`` (one workspace per
block of rounds, allocated once, reset each round): hands, ``S[seat]`` (river sum, river count,
river last, chips, then per kind the cards in hand (from ``HC``), face up in the river, and
discarded), the rivers card by card (``rc``, state ``rs``: up, down, sideways, taken), ``ctx``
(turn, wall, players, down, take gain, cards not in the river) and the expression stack.

A round's result row: ``R_END`` (0 the wall ran dry or the turn limit, 1 own-turn win, 2 call),
``R_TURN`` (turns played, all seats), ``R_WINNER``/``R_LOSER`` (seats, −1 none), ``R_POINTS``,
``R_FIRST`` (1: the dealer won on the first draw), ``R_CALL`` (index of the call, −1),
``R_WALL`` (cards left in the wall), ``R_TAKES`` (cards taken from rivers), ``R_DOWN`` (cards
played face down), then per seat the points it won and the points of the calls won on its
discards, then per claim the times it was made (``R_CLAIMS``). Round ``r`` plays from the random stream ``(seed, r)``
(:mod:`cardgen.insight.rng`), so results never depend on the number of threads.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardgen.insight.model_expr import (ADD, AND, CARD, CONST, DISC, DISCARDED, EQ, FDIV, GE, GT, HELD, IN_HAND, IN_RIVER, LE,
                                        LT, MAX, MELDS, MELDS_PAIR, MIN, MOD, MUL, NE, NEAR, NEG, NOT, NOT_IN_RIVER,
                                        OR, PPOINTS, SELECT, SUB, TAKE_GAIN, USES_FRESH, USES_MELDS, USES_MPAIR,
                                        USES_NEAR, USES_PATTERN, USES_TAKE, VAR, WINS, GVAR)
from cardgen.insight.rng import below, round_state, seed_state, shuffle

from cardgen.insight.model_layout import (BLOCKS, DOWN, HC, MAX_HAND, N_PARAMS, P_CHOOSE_FACE, P_DEAD, P_FACEDOWN,
                                          MAX_SEATS, P_MELD_SETS, P_MELDS, P_WINS, R_SEAT_LOST, R_SEAT_POINTS, R_WINS, SCRATCH,
                                          P_GAIN, P_GREEDY, P_GREEDY_DOWN, P_HAND, P_NCALLS, P_NKINDS, P_NTAKES,
                                          P_PLAYERS, P_TSUMO_AFTER, P_TSUMO_ANY, P_TSUMO_POINTS, P_TSUMO_WHEN, P_TURNS,
                                          POL_PRIORITY, POL_RANDOM, R_CALL, R_CLAIMS, P_NCLAIMS, CL_DOWN, CL_RIVER,
                                          CL_TO, CL_GREEDY, CL_WHEN, R_DOWN, R_END, R_FIRST, R_LOSER,
                                          R_POINTS, R_TAKES, R_TURN, R_WALL, R_WINNER, SIDEWAYS, TAKEN, UP)


#: The whole numbers one compiled function passes to another are int64 values, never bare
#: constants: numba types a constant argument (``ev(p, s, c, -1, -1, -1, …)``), or a variable that
#: starts as one (``cur = 0``), as ``Literal[int](-1)`` and compiles the function it calls once
#: more for each combination of such arguments (69 compiled versions of the 30 functions here,
#: model_game.py and rng.py, 8 of them of :func:`run`; tests/insight/test_model.py checks
#: there is one of each).
NO, ZERO = np.int64(-1), np.int64(0)  # −1: no card, kind, seat or pattern (a take scan: the best one)
OWN_TURN, CALLED = np.int64(1), np.int64(2)  # how a win ends the round (``R_END``)
COIN = np.int64(2)  # ``below(state, COIN)``: a coin toss

@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def run(p, code, spans, attr, seat, card, held, disc, ctx, S, pts, stack):
    """Evaluate program ``p`` for ``seat``: ``card``, ``held``, ``disc`` are card indexes (−1:
    none; ``disc`` ≥ 0 also joins the hand for ``in_hand``); ``ctx`` = (turn, wall, players, down,
    take gain, cards not in the river); ``pts``: the best pattern the hand holds
    (:func:`pattern_best`, −1 none) for ``wins()`` and ``pattern_points()``. No loop but the
    program's own in here: numba compiled this function ten times slower with the pattern search
    written inside it (527 against 43 ns a run), so :func:`ev` works such values out first."""
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
            elif a == 9:
                v = S[seat, 4]
            elif a == 4:
                v = ctx[0]
            elif a == 5:
                v = ctx[2]
            elif a == 6:
                v = ctx[1]
            elif a == 7:
                v = seat
            else:
                v = ctx[3]
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
        elif op == TAKE_GAIN or op == NOT_IN_RIVER or op == MELDS or op == NEAR or op == MELDS_PAIR:
            stack[sp] = ctx[4] if op == TAKE_GAIN else (ctx[5] if op == NOT_IN_RIVER else (
                ctx[6] if op == MELDS else (ctx[7] if op == NEAR else ctx[8])))
            sp += 1
        elif op == GVAR:  # a game expression: S is the game's per-player state G
            stack[sp] = S[seat, a]
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


#: The functions a round calls are compiled without numba's reference counting (``_nrt=False``:
#: they allocate nothing; the workspace is made once per block): a call of a function with nine
#: array arguments cost 194 ns of reference counts, 0.8 ns without (measured), and the interpreter
#: makes some twenty calls a turn.
@njit(cache=True, _nrt=False)
def _take_scan(s, disc, pick, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack):
    """The takes open to seat ``s`` after playing ``disc`` (``ctx[3]``: face down), over the
    face-up cards of the other rivers in seat and river order, each card once (the first take
    whose condition holds). ``pick`` = −1: the best (highest value, then the owner's highest
    river sum; the first found among equals) as (take, seat, river index, count); ``pick`` = 0:
    (−1, −1, −1, count); ``pick`` ≥ 1: the pick-th option."""
    bt, bq, bk, bkey, count = -1, -1, -1, -(1 << 62), 0
    for q in range(prm[P_PLAYERS]):
        if q == s:
            continue
        for k in range(rn[q]):
            if rs[q, k] != UP:
                continue
            t = rc[q, k]
            for ti in range(takes.shape[0]):
                when = takes[ti, 0]
                pts = pattern_best(S, s, T, NO) if uses[when] & USES_PATTERN else -1
                if run(when, code, spans, attr, s, disc, t, NO, ctx, S, pts, stack) != 0:
                    count += 1
                    key = attr[t, 1] * (1 << 32) + S[q, 0]
                    if pick == count or (pick < 0 and key > bkey):
                        bt, bq, bk, bkey = ti, q, k, key
                    break
            if pick > 0 and count >= pick:
                return bt, bq, bk, count
    return bt, bq, bk, count


@njit(cache=True, _nrt=False)
def melds_ok(S, s, extra, prm, stack):
    """1 when seat ``s``'s hand (plus kind ``extra`` ≥ 0) splits into ``prm[P_MELD_SETS]`` sets
    (three of a kind, or three consecutive numbers of one suit: ``prm[N_PARAMS + kind]`` is the
    next kind) and one pair, else 0. The lowest kind left is in a triplet or starts runs: taking
    the triplet first is never wrong (three equal runs are three triplets), so one pass decides."""
    nk = prm[P_NKINDS]
    total = 0
    for k in range(nk):
        total += S[s, HC + k] + (1 if k == extra else 0)
    if total != 3 * prm[P_MELD_SETS] + 2:
        return 0
    for k in range(nk):  # a single card with no neighbour in its suit can be in no set: most hands end here
        c = S[s, HC + k] + (1 if k == extra else 0)
        if c == 1 and near(S, s, k, prm) == 0 and (extra < 0 or not _beside(k, extra, prm)):
            return 0
    for pk in range(nk):
        if S[s, HC + pk] + (1 if pk == extra else 0) >= 2 and _sets_after_pair(S, s, extra, pk, prm, stack) != 0:
            return 1
    return 0


@njit(cache=True, _nrt=False)
def melds_pair(S, s, extra, prm, stack):
    """1 when seat ``s``'s hand plus kind ``extra`` splits into sets and a pair of ``extra``'s
    kind (the added card completes the pair, 馬将's 将), else 0."""
    nk = prm[P_NKINDS]
    total = 0
    for k in range(nk):
        total += S[s, HC + k] + (1 if k == extra else 0)
    if extra < 0 or total != 3 * prm[P_MELD_SETS] + 2:
        return 0
    return _sets_after_pair(S, s, extra, extra, prm, stack)


@njit(cache=True, _nrt=False, inline="always")  # inlined into melds_ok's loop over pairs, as it was written before
def _sets_after_pair(S, s, extra, pk, prm, stack):
    """1 when the hand (plus kind ``extra``) less a pair of kind ``pk`` is all sets (the lowest
    kind left is in a triplet or starts runs: taking the triplet first is never wrong, since
    three equal runs are three triplets, so one pass decides), else 0."""
    nk = prm[P_NKINDS]
    if S[s, HC + pk] + (1 if pk == extra else 0) < 2:
        return 0
    for k in range(nk):
        stack[SCRATCH + k] = S[s, HC + k] + (1 if k == extra else 0) - (2 if k == pk else 0)
    for k in range(nk):
        c = stack[SCRATCH + k]
        if c >= 3:
            c -= 3
        if c > 0:
            j = prm[N_PARAMS + k]
            m = prm[N_PARAMS + j] if j >= 0 else -1
            if m < 0 or stack[SCRATCH + j] < c or stack[SCRATCH + m] < c:
                return 0
            stack[SCRATCH + j] -= c
            stack[SCRATCH + m] -= c
        stack[SCRATCH + k] = 0
    return 1


@njit(cache=True, _nrt=False)
def _beside(k, j, prm):
    """Kind ``j`` is one or two numbers from kind ``k`` in its suit."""
    nk = prm[P_NKINDS]
    a, b = prm[N_PARAMS + k], prm[N_PARAMS + nk + k]
    return j == a or j == b or (a >= 0 and j == prm[N_PARAMS + a]) or (b >= 0 and j == prm[N_PARAMS + nk + b])


@njit(cache=True, _nrt=False)
def near(S, s, k, prm):
    """Cards of seat ``s``'s hand one or two numbers from kind ``k`` in its suit."""
    nk = prm[P_NKINDS]
    out = 0
    j = prm[N_PARAMS + k]
    if j >= 0:
        out += S[s, HC + j]
        if prm[N_PARAMS + j] >= 0:
            out += S[s, HC + prm[N_PARAMS + j]]
    j = prm[N_PARAMS + nk + k]
    if j >= 0:
        out += S[s, HC + j]
        if prm[N_PARAMS + nk + j] >= 0:
            out += S[s, HC + prm[N_PARAMS + nk + j]]
    return out


@njit(cache=True, _nrt=False)
def ev(p, s, card, held, disc, extra, attr, T, code, spans, uses, prm, S, ctx, stack):
    """Program ``p`` for seat ``s`` with what it reads worked out first (the best pattern with
    kind ``extra`` added, the hand's cards not in the river; the take gain: :func:`_take_gain`)."""
    u = uses[p]
    pts = pattern_best(S, s, T, extra) if u & USES_PATTERN else -1
    if u & USES_FRESH:
        nk = prm[P_NKINDS]
        f = 0
        for k in range(nk):
            if S[s, HC + nk + k] == 0:
                f += S[s, HC + k]
        ctx[5] = f
    if u & USES_MPAIR:
        ctx[8] = melds_pair(S, s, extra, prm, stack)
    if u & USES_NEAR:
        ctx[7] = near(S, s, attr[card, 0], prm) if card >= 0 else 0
    if u & USES_MELDS:
        ctx[6] = melds_ok(S, s, extra, prm, stack)
    return run(p, code, spans, attr, s, card, held, disc, ctx, S, pts, stack)


@njit(cache=True, _nrt=False)
def _take_gain(p, s, card, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack):
    """When program ``p`` reads ``take_gain()``: ``ctx[4]`` = the value of the best card seat
    ``s`` could take after playing ``card`` face up."""
    if uses[p] & USES_TAKE == 0:
        return
    down = ctx[3]
    ctx[3] = 0
    gain = ev(prm[P_GAIN], s, card, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
    S[s, 3] += gain
    bt, bq, bk, _ = _take_scan(s, card, NO, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack)
    S[s, 3] -= gain
    ctx[3] = down
    ctx[4] = attr[rc[bq, bk], 1] if bt >= 0 else 0


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _argmax(p, s, pol, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs, rn, ctx, stack):
    """Index in seat ``s``'s hand of the card with the highest value of program ``p`` (−1: the
    default: the nearest pattern, else the highest value), after the priority list for
    ``priority``; the first among equals."""
    nk = T.shape[1] - 1
    best, pick = -(1 << 62), 0
    for i in range(hsize[s]):
        c = hand[s, i]
        score = -prio[attr[c, 0]] * (1 << 32) if pol[s] == POL_PRIORITY else 0
        if p >= 0:
            _take_gain(p, s, c, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack)
            score += ev(p, s, c, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
        elif prm[P_MELDS] != 0:  # keep what pairs or runs: play the least connected card
            score -= 3 * S[s, HC + attr[c, 0]] + near(S, s, attr[c, 0], prm)
        elif T.shape[0] > 0:
            score += _closeness(S, s, T, nk, attr[c, 0])
        else:
            score += attr[c, 1]
        if score > best:
            best, pick = score, i
    return pick


@njit(cache=True, _nrt=False)
def _wins_now(s, attr, T, code, spans, uses, prm, hand, hsize, S, ctx, stack):
    """With ``tsumo.after: play``: the hand index of a play that wins now, −1 none."""
    for i in range(hsize[s]):
        c = hand[s, i]
        g = ev(prm[P_GAIN], s, c, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
        S[s, 3] += g
        ok = ev(prm[P_TSUMO_WHEN], s, c, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
        S[s, 3] -= g
        if ok != 0:
            return i
    return -1


@njit(cache=True, _nrt=False)
def _rightmost(q, attr, rc, rs, rn):
    """The value of the rightmost card of ``q``'s river (face down 0; 0 when none is left)."""
    for k in range(rn[q] - 1, -1, -1):
        if rs[q, k] != TAKEN:
            return 0 if rs[q, k] == DOWN else attr[rc[q, k], 1]
    return 0


@njit(cache=True, _nrt=False)
def _lay(q, p, state, v, RK, attr, rc, rs, rn, S):
    """Card ``p`` laid at the end of the river of ``q`` in ``state`` (UP, SIDEWAYS or DOWN), counting
    for ``v`` (0 face down): the river's sum, count, last value and, face up, its kinds in ``S``
    follow (``RK``: where ``S`` counts them); :func:`_unplay` takes it back."""
    rc[q, rn[q]] = p
    rs[q, rn[q]] = state
    rn[q] += 1
    S[q, 0] += v
    S[q, 1] += 1
    S[q, 2] = v
    if state != DOWN:
        S[q, RK + attr[p, 0]] += 1


@njit(cache=True, _nrt=False)
def _unplay(s, p, v, down, RK, attr, rc, rs, rn, S):
    """The discard ``p`` (value ``v``, ``down``: played face down) leaves the river of ``s`` again,
    taken by a winner who plays on or by a claim (it still counts for ``discarded()``); ``RK`` is
    where ``S`` counts the river's kinds."""
    rn[s] -= 1
    S[s, 0] -= v
    S[s, 1] -= 1
    if down == 0:
        S[s, RK + attr[p, 0]] -= 1
    S[s, 2] = _rightmost(s, attr, rc, rs, rn)


@njit(cache=True, _nrt=False)
def _own_turn_pick(s, pol, state, attr, T, code, spans, uses, prm, hand, hsize, S, ctx, stack):
    """With ``tsumo.any_card``: the hand index of the card seat ``s`` wins with, −1 none (greedy:
    the most points, the first among equals; random: a uniformly random one)."""
    pick, best, seen = -1, -(1 << 62), 0
    for j in range(hsize[s]):
        w = hand[s, j]
        if ev(prm[P_TSUMO_WHEN], s, w, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack) != 0:
            if pol[s] == POL_RANDOM:
                seen += 1
                if below(state, seen) == 0:
                    pick = j
            else:
                pts = ev(prm[P_TSUMO_POINTS], s, w, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
                if pts > best:
                    pick, best = j, pts
    return pick


@njit(cache=True, _nrt=False)
def _win(row, S, s, loser, kind, call, first, points):
    """Record a win of seat ``s`` (kind 1 own turn, 2 call); the first win names the round's end."""
    if row[R_WINS] == 0:
        row[R_END], row[R_WINNER], row[R_LOSER], row[R_CALL], row[R_FIRST] = kind, s, loser, call, first
    row[R_WINS] += 1
    row[R_POINTS] += points
    if s < MAX_SEATS:
        row[R_SEAT_POINTS + s] += points
    if 0 <= loser < MAX_SEATS:
        row[R_SEAT_LOST + loser] += points
    S[s, 4] += 1


@njit(cache=True, _nrt=False)
def _play_down(s, pol, state, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs, rn, ctx, stack, row):
    """After a win that does not end the round: the winner plays a card face down (random: any;
    else the ``greedy_down`` card, or the ``greedy`` one)."""
    nk = T.shape[1] - 1
    ctx[3] = 1
    if pol[s] == POL_RANDOM:
        i = below(state, hsize[s])
    else:
        g = prm[P_GREEDY_DOWN] if prm[P_GREEDY_DOWN] >= 0 else prm[P_GREEDY]
        i = _argmax(g, s, pol, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs, rn, ctx, stack)
    p = hand[s, i]
    hsize[s] -= 1
    hand[s, i] = hand[s, hsize[s]]
    hand[s, hsize[s]] = -1
    S[s, HC + attr[p, 0]] -= 1
    rc[s, rn[s]] = p
    rs[s, rn[s]] = DOWN
    rn[s] += 1
    S[s, 1] += 1
    S[s, 2] = 0
    S[s, HC + 2 * nk + attr[p, 0]] += 1
    row[R_DOWN] += 1


@njit(cache=True, _nrt=False)
def _claim_scan(s, p, pol, state, attr, T, code, spans, uses, claims, prm, hsize, S, ctx, stack):
    """Who claims seat ``s``'s discard ``p`` (``ctx[3]``: face down): the claims in their order,
    each for every other seat from the next on; the first whose ``when`` holds and who will (random:
    even odds; else the claim's ``greedy``) claims. → (seat, claim), (−1, −1) none."""
    players = prm[P_PLAYERS]
    for ci in range(prm[P_NCLAIMS]):
        if ctx[3] != 0 and claims[ci, CL_DOWN] == 0:
            continue
        for k in range(1, players):
            o = (s + k) % players
            if hsize[o] + 1 >= MAX_HAND or (claims[ci, CL_TO] == CL_RIVER and hsize[o] == 0):
                continue  # no room in the hand, or no card to play after laying the claim out
            if ev(claims[ci, CL_WHEN], o, p, NO, p, attr[p, 0], attr, T, code, spans, uses, prm, S, ctx, stack) == 0:
                continue
            if pol[o] == POL_RANDOM:
                if below(state, COIN) == 1:
                    return o, ci
            elif ev(claims[ci, CL_GREEDY], o, p, NO, p, attr[p, 0], attr, T, code, spans, uses, prm, S, ctx,
                    stack) != 0:
                return o, ci
    return -1, -1


@njit(cache=True, _nrt=False)
def play_round(order, M, W, pol, state, row, chips0):
    """Play one round with the deck in ``order`` (top first) in workspace ``W``; fills ``row``.
    ``chips0[seat]``: the chips each seat starts with (what a game carried over; 0 otherwise)."""
    attr, T, code, spans, uses, calls, takes, prio, prm, claims = M
    hand, hsize, S, rc, rs, rn, ctx, stack = W
    players, n = prm[P_PLAYERS], order.shape[0]
    nk = T.shape[1] - 1
    RK, DK = HC + nk, HC + 2 * nk
    hsize[:] = 0
    rn[:] = 0
    S[:, :] = 0
    ctx[:] = 0
    ctx[2] = players
    for s in range(players):
        S[s, 3] = chips0[s]
    pos = 0
    for s in range(players):
        for _ in range(prm[P_HAND]):
            c = order[pos]
            pos += 1
            hand[s, hsize[s]] = c
            hsize[s] += 1
            S[s, HC + attr[c, 0]] += 1
    pos += prm[P_DEAD]
    # without a turn limit the wall ends the round (a claimed turn draws nothing: at most n + 1 of them)
    total = prm[P_TURNS] * players if prm[P_TURNS] > 0 else 2 * (n + 1)
    row[:] = 0
    row[R_WINNER], row[R_LOSER], row[R_CALL] = -1, -1, -1
    t = 0
    cur = ZERO
    claimed = 0  # 1: seat cur claimed the last discard and plays without drawing
    while (pos < n or claimed != 0) and t < total and hsize[cur] < MAX_HAND and row[R_WINS] < prm[P_WINS]:
        s = cur
        cur = (cur + 1) % players
        drew = 1 - claimed
        claimed = 0
        c = -1
        if drew != 0:
            c = order[pos]
            pos += 1
        t += 1
        ctx[0], ctx[1], ctx[3] = (t - 1) // players + 1, n - pos, 0
        if drew != 0:
            hand[s, hsize[s]] = c
            hsize[s] += 1
            S[s, HC + attr[c, 0]] += 1
        if prm[P_TSUMO_AFTER] == 1 and drew != 0:
            w = c
            if prm[P_TSUMO_ANY] != 0:
                j = _own_turn_pick(s, pol, state, attr, T, code, spans, uses, prm, hand, hsize, S, ctx, stack)
                w = hand[s, j] if j >= 0 else -1
            if w >= 0 and (prm[P_TSUMO_ANY] != 0
                           or ev(prm[P_TSUMO_WHEN], s, w, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack) != 0):
                _win(row, S, s, NO, OWN_TURN, NO, 1 if t == 1 else 0,
                     ev(prm[P_TSUMO_POINTS], s, w, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack))
                if row[R_WINS] < prm[P_WINS]:
                    _play_down(s, pol, state, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs, rn,
                               ctx, stack, row)
                continue
        if pol[s] == POL_RANDOM:
            i = below(state, hsize[s])
        else:
            i = _wins_now(s, attr, T, code, spans, uses, prm, hand, hsize, S, ctx, stack) \
                if prm[P_TSUMO_AFTER] == 2 else -1
            if i < 0:
                i = _argmax(prm[P_GREEDY], s, pol, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs,
                            rn, ctx, stack)
        p = hand[s, i]
        if prm[P_CHOOSE_FACE] != 0 and pol[s] == POL_RANDOM:
            down = below(state, COIN)
        else:
            _take_gain(prm[P_FACEDOWN], s, p, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack)
            down = 1 if ev(prm[P_FACEDOWN], s, p, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack) != 0 else 0
            if prm[P_CHOOSE_FACE] != 0 and down != 0 and prm[P_GREEDY_DOWN] >= 0:
                ctx[3] = 1
                i = _argmax(prm[P_GREEDY_DOWN], s, pol, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S,
                            rc, rs, rn, ctx, stack)
                p = hand[s, i]
        ctx[3] = down
        S[s, 3] += ev(prm[P_GAIN], s, p, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
        hsize[s] -= 1
        hand[s, i] = hand[s, hsize[s]]
        hand[s, hsize[s]] = -1
        S[s, HC + attr[p, 0]] -= 1
        if prm[P_TSUMO_AFTER] == 2 and ev(prm[P_TSUMO_WHEN], s, p, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx,
                                          stack) != 0:
            _win(row, S, s, NO, OWN_TURN, NO, 1 if t == 1 else 0,
                 ev(prm[P_TSUMO_POINTS], s, p, NO, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack))
            if row[R_WINS] < prm[P_WINS]:
                _play_down(s, pol, state, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs, rn,
                           ctx, stack, row)
            continue
        v = 0 if down != 0 else attr[p, 1]
        _lay(s, p, np.int64(DOWN if down != 0 else UP), v, RK, attr, rc, rs, rn, S)
        if down != 0:
            row[R_DOWN] += 1
        S[s, DK + attr[p, 0]] += 1
        won, wci = -1, -1
        for ci in range(prm[P_NCALLS]):
            if down != 0 and calls[ci, 3] == 0:
                continue
            when, pay = calls[ci, 1], calls[ci, 2]
            for k in range(1, players):
                o = (s + k) % players
                if calls[ci, 0] >= 0:
                    for j in range(hsize[o]):
                        h = hand[o, j]
                        if attr[h, calls[ci, 0]] > 0 and ev(when, o, p, h, p, attr[p, 0], attr, T, code, spans, uses, prm,
                                                            S, ctx, stack) != 0:
                            _win(row, S, o, s, CALLED, ci, ZERO,
                                 ev(pay, o, p, h, p, attr[p, 0], attr, T, code, spans, uses, prm, S, ctx, stack))
                            won, wci = o, ci
                            break
                elif ev(when, o, p, NO, p, attr[p, 0], attr, T, code, spans, uses, prm, S, ctx, stack) != 0:
                    _win(row, S, o, s, CALLED, ci, ZERO, ev(pay, o, p, NO, p, attr[p, 0], attr, T, code, spans, uses, prm, S, ctx,
                                                    stack))
                    won, wci = o, ci
                if won >= 0:
                    break
            if won >= 0:
                break
        if won >= 0:
            if row[R_WINS] < prm[P_WINS] and pos < n and ev(calls[wci, 4], won, p, NO, p, attr[p, 0], attr, T, code, spans,
                                                            uses, prm, S, ctx, stack) != 0:
                c = order[pos]  # wall_down: the discard stays; the wall's top card goes face down to the winner's river
                pos += 1
                rc[won, rn[won]] = c
                rs[won, rn[won]] = DOWN
                rn[won] += 1
                S[won, 1] += 1
                S[won, 2] = 0
                S[won, DK + attr[c, 0]] += 1
                row[R_DOWN] += 1
                cur = (won + 1) % players
            elif row[R_WINS] < prm[P_WINS]:  # the winner takes the discard and plays on
                _unplay(s, p, v, down, RK, attr, rc, rs, rn, S)
                hand[won, hsize[won]] = p
                hsize[won] += 1
                S[won, HC + attr[p, 0]] += 1
                _play_down(won, pol, state, attr, T, code, spans, uses, takes, prio, prm, hand, hsize, S, rc, rs, rn,
                           ctx, stack, row)
                cur = (won + 1) % players
            continue
        if prm[P_NCLAIMS] > 0:
            o, ci = _claim_scan(s, p, pol, state, attr, T, code, spans, uses, claims, prm, hsize, S, ctx, stack)
            if o >= 0:
                _unplay(s, p, v, down, RK, attr, rc, rs, rn, S)  # the discard leaves the river
                if claims[ci, CL_TO] == CL_RIVER:  # laid sideways (face down stays face down) in the caller's river
                    _lay(o, p, np.int64(DOWN if down != 0 else SIDEWAYS), v, RK, attr, rc, rs, rn, S)
                else:
                    hand[o, hsize[o]] = p
                    hsize[o] += 1
                    S[o, HC + attr[p, 0]] += 1
                row[R_CLAIMS + ci] += 1
                cur = o
                claimed = 1
                continue
        if prm[P_NTAKES] > 0:
            if pol[s] == POL_RANDOM:
                bt, bq, bk, count = _take_scan(s, p, ZERO, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack)
                if count > 0:
                    pick = below(state, count + 1)  # no take, or one of the options
                    bt, bq, bk, count = _take_scan(s, p, pick, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx,
                                                   stack) if pick > 0 else (-1, -1, -1, 0)
            else:
                bt, bq, bk, count = _take_scan(s, p, NO, attr, T, code, spans, uses, takes, prm, S, rc, rs, rn, ctx, stack)
            if bt >= 0:
                tc = rc[bq, bk]
                S[s, 3] -= ev(takes[bt, 1], s, p, tc, NO, NO, attr, T, code, spans, uses, prm, S, ctx, stack)
                tv, tkind = attr[tc, 1], attr[tc, 0]
                rs[bq, bk] = TAKEN
                S[bq, 0] -= tv
                S[bq, 1] -= 1
                S[bq, RK + tkind] -= 1
                S[bq, 2] = _rightmost(bq, attr, rc, rs, rn)
                rc[s, rn[s]] = tc
                rs[s, rn[s]] = SIDEWAYS
                rn[s] += 1
                S[s, 0] += tv
                S[s, 1] += 1
                S[s, 2] = tv
                if takes[bt, 2] != 0:
                    S[s, RK + tkind] += 1
                row[R_TAKES] += 1
    row[R_TURN] = t
    row[R_WALL] = n - pos


@njit(cache=True)
def workspace(players, size, nk):
    """A round's state arrays (:func:`play_round`'s ``W``) for ``players`` and a ``size``-card deck."""
    return (np.full((players, MAX_HAND), -1, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros((players, HC + 3 * nk), dtype=np.int64), np.zeros((players, size + 1), dtype=np.int64),
            np.zeros((players, size + 1), dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(10, dtype=np.int64), np.empty(SCRATCH + 64, dtype=np.int64))


@njit(cache=True, parallel=True)
def play_many(seed, first, res, size, M, pol):
    """Rounds ``first … first + len(res) − 1`` into ``res`` (one row each), in :data:`BLOCKS`
    parallel blocks, each with one workspace."""
    prm = M[8]
    rounds = res.shape[0]
    per = (rounds + BLOCKS - 1) // BLOCKS
    for b in prange(BLOCKS):
        W = workspace(prm[P_PLAYERS], size, prm[P_NKINDS])
        order = np.empty(size, dtype=np.int64)
        chips0 = np.zeros(prm[P_PLAYERS], dtype=np.int64)
        state = round_state(seed, ZERO)
        for i in range(b * per, min(rounds, (b + 1) * per)):
            seed_state(state, seed, first + i)
            for k in range(size):
                order[k] = k
            shuffle(order, state)
            play_round(order, M, W, pol, state, res[i], chips0)
