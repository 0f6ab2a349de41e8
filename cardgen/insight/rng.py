"""Counter-based random numbers for the simulator (numba): one independent stream per round.

Round ``r`` of a run with seed ``s`` draws from a SplitMix64 stream started at
``mix(s, r)``, so a round's deal and its random choices depend only on ``(s, r)`` — never on
which thread or process plays it, nor on how many there are. SplitMix64: Steele, Lea & Flood,
"Fast splittable pseudorandom number generators" (OOPSLA 2014); constants as published.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counts per call
def next_u64(state):
    """Advance ``state`` (a uint64 array of length 1) and return the next 64-bit output."""
    state[0] += _GAMMA
    z = state[0]
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counts per call
def below(state, n):
    """A uniform whole number in ``[0, n)`` (n ≥ 1; bias below 2⁻⁴⁰ for n < 2¹³)."""
    return np.int64((next_u64(state) >> _S11) % np.uint64(n))


@njit(cache=True)
def round_state(seed, r):
    """The stream of round ``r`` under ``seed`` (both whole numbers ≥ 0)."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed) * _M2 + np.uint64(r) * _GAMMA
    next_u64(state)
    return state


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counts per call
def shuffle(order, state):
    """Fisher–Yates shuffle of ``order`` in place with ``state``."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = below(state, i + 1)
        order[i], order[j] = order[j], order[i]


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counts per call
def seed_state(state, seed, r):
    """Set ``state`` to the stream of round ``r`` under ``seed`` (as :func:`round_state`, in place)."""
    state[0] = np.uint64(seed) * _M2 + np.uint64(r) * _GAMMA
    next_u64(state)
