"""Counter-free splitmix64 RNG whose whole state lives in the game state's header.

Keeping the RNG inside the state array is what makes a game a pure function of its seed
and actions: cloning, serialising or batching a game carries its randomness along, and a
batch of games gives the same results whatever the batch size or thread count. The 64-bit
RNG state spans ``RNG_SLOTS`` narrow slots (:mod:`presages_env.core.header`); the helpers
here are the only code that reads or writes them.
"""

import numba as nb
import numpy as np

from presages_env.core.header import (
    HDR_RNG,
    HDR_TERMINAL,
    RNG_SLOTS,
    load_wide,
    set_step,
    store_wide,
    write_seed,
)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def derive_seed(seed: int, index: int) -> int:
    """A well-mixed 63-bit seed for sub-game ``index`` of a run seeded with ``seed``."""
    z = _mix(np.uint64(seed) + _GOLDEN * np.uint64(index + 1))
    return np.int64(z >> np.uint64(1))


@nb.njit(cache=True, inline="always")
def rng_get(state):
    """The state's RNG state, as the int64 with its bits (to save and restore it)."""
    return np.int64(load_wide(state, HDR_RNG, RNG_SLOTS))


@nb.njit(cache=True, inline="always")
def rng_set(state, rng_state):
    """Restore an RNG state saved by :func:`rng_get`."""
    store_wide(state, HDR_RNG, RNG_SLOTS, rng_state)


@nb.njit(cache=True)
def rng_seed(state, seed):
    rng_set(state, _mix(np.uint64(seed) ^ _GOLDEN) >> np.uint64(1))


@nb.njit(cache=True, inline="always")
def begin_game(state, seed):
    """The header of a fresh deal, the same in every game: the RNG seeded from ``seed``, the
    seed recorded (replay = seed + actions), no decision applied yet, the game not over."""
    rng_seed(state, seed)
    write_seed(state, seed)
    set_step(state, 0)
    state[HDR_TERMINAL] = 0


@nb.njit(cache=True, inline="always")
def splitmix_next(rng_state):
    """Advance a splitmix64 state held in an int64: returns (new state, 64 random bits)."""
    s = np.uint64(rng_state) + _GOLDEN
    return np.int64(s), _mix(s)


@nb.njit(cache=True)
def rng_next(state):
    """Next 64 random bits (as uint64); advances the state's RNG."""
    s, bits = splitmix_next(rng_get(state))
    rng_set(state, s)
    return bits


@nb.njit(cache=True)
def rng_below(state, n):
    """Uniform integer in ``[0, n)`` (n < 2**31; bias below 2**-32)."""
    return np.int64((rng_next(state) >> np.uint64(32)) % np.uint64(n))


@nb.njit(cache=True)
def rng_shuffle(state, values, n):
    """Fisher-Yates shuffle of ``values[:n]`` in place (the same draws as ``rng_below``).

    ``values`` may be a view of ``state`` outside the header. The RNG is read once and
    written back once.
    """
    s = rng_get(state)
    for i in range(n - 1, 0, -1):
        s, bits = splitmix_next(s)
        j = np.int64((bits >> np.uint64(32)) % np.uint64(i + 1))
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
    rng_set(state, s)


@nb.njit(cache=True)
def choose_legal(mask, bits):
    """The legal action of ``mask`` picked uniformly by 64 random ``bits`` (-1 if none)."""
    n_legal = 0
    for a in range(mask.shape[0]):
        n_legal += mask[a]
    if n_legal == 0:
        return -1
    pick = np.int64((bits >> np.uint64(33)) % np.uint64(n_legal))
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1
