"""The header every game state starts with, and the helpers for fields wider than a slot.

A game state is one flat array of narrow signed integers: each game declares the smallest
dtype that holds every one of its slots (``Game.state_dtype``, ``int8`` or ``int16``). Its
first ``HEADER_SIZE`` slots have the same meaning in every game, so the shared core (AEC
adapter, vector env, serialisation) can read who acts and whether the game is over without
calling into the game. The rest of the array is the game's own layout, documented at the top
of its ``kernel.py``.

Fields wider than 8 bits that must fit every dtype — the step counter, the RNG, the deal's
seed — span several slots: one byte per slot, least significant first, each byte stored as
a signed value in ``[-128, 127]`` (two's complement), so an ``int8`` state holds exactly the
field's little-endian bytes and a wider dtype holds the same values. The state stays one
array: copying it still clones the game, RNG included. Read and write such fields only
through the helpers below (numba kernels and Python alike); a game may use them for its own
wide slots too.

========================  =====  =========================================================
slot                      slots  meaning
========================  =====  =========================================================
HDR_NUM_PLAYERS           1      seats in this game
HDR_CURRENT               1      seat whose decision it is; -1 once the game is over
HDR_TERMINAL              1      1 once the game is over; TRUNCATED if cut at its own cap
HDR_GAME_ID               1      which game wrote this state (guards deserialisation)
HDR_STEP                  4      decisions applied since the deal (32-bit, < 2**31)
HDR_RNG                   8      splitmix64 state of the game's own RNG (64-bit)
HDR_SEED                  8      seed the game was dealt from (replay = seed + actions)
========================  =====  =========================================================
"""

import numba as nb
import numpy as np

HDR_NUM_PLAYERS = 0
HDR_CURRENT = 1
HDR_TERMINAL = 2
HDR_GAME_ID = 3
HDR_STEP = 4
STEP_SLOTS = 4
HDR_RNG = HDR_STEP + STEP_SLOTS
RNG_SLOTS = 8
HDR_SEED = HDR_RNG + RNG_SLOTS
SEED_SLOTS = 8
HEADER_SIZE = HDR_SEED + SEED_SLOTS

# HDR_TERMINAL of a game its own rules cut short (a step cap): over, no winner, zero rewards;
# the envs report it as a truncation, not a termination.
TRUNCATED = 2

# Bits per slot of a wide field: a byte, so that the narrowest dtype (int8) can hold it.
WIDE_BITS = 8
WIDE_LOW = -128  # a wide field's slot holds its byte as a signed value in [WIDE_LOW, WIDE_HIGH]
WIDE_HIGH = 127


# ---- numba helpers (also callable from Python, at a dispatch cost) --------------------------
@nb.njit(cache=True, inline="always")
def load_wide(state, offset, slots):
    """The unsigned value (``uint64``) of the wide field ``state[offset:offset + slots]``."""
    value = np.uint64(0)
    for i in range(slots):
        byte = np.uint64(np.int64(state[offset + i]) & 0xFF)
        value |= byte << np.uint64(WIDE_BITS * i)
    return value


@nb.njit(cache=True, inline="always")
def store_wide(state, offset, slots, value):
    """Write the low ``8 * slots`` bits of ``value`` (any integer) into the wide field."""
    bits = np.uint64(value)
    for i in range(slots):
        byte = np.int64((bits >> np.uint64(WIDE_BITS * i)) & np.uint64(0xFF))
        state[offset + i] = byte - 256 if byte > WIDE_HIGH else byte


@nb.njit(cache=True, inline="always")
def read_step(state):
    """Decisions applied since the deal."""
    return np.int64(load_wide(state, HDR_STEP, STEP_SLOTS))


@nb.njit(cache=True, inline="always")
def set_step(state, value):
    store_wide(state, HDR_STEP, STEP_SLOTS, value)


@nb.njit(cache=True, inline="always")
def count_step(state):
    """One more decision applied (the counter's bytes carry into each other)."""
    for i in range(STEP_SLOTS):
        byte = (np.int64(state[HDR_STEP + i]) + 1) & 0xFF
        state[HDR_STEP + i] = byte - 256 if byte > WIDE_HIGH else byte
        if byte != 0:
            return


@nb.njit(cache=True, inline="always")
def clear_mask(state, mask):
    """Zero a ``legal_mask`` output; True once the game is over (then nothing is legal)."""
    mask[:] = 0
    return state[HDR_TERMINAL] != 0


@nb.njit(cache=True, inline="always")
def read_seed(state):
    return np.int64(load_wide(state, HDR_SEED, SEED_SLOTS))


@nb.njit(cache=True, inline="always")
def write_seed(state, seed):
    store_wide(state, HDR_SEED, SEED_SLOTS, seed)


# ---- global states (a referee's view, for centralised critics) -----------------------------
# A game's ``global_state(state, out)`` kernel (see docs/research.md) ends with the state's own
# slots minus the RNG and the seed: the header's first ``GLOBAL_HEADER_SLOTS`` (seat count, seat
# to act, terminal flag, game id, the step counter's bytes), then the game's layout.
GLOBAL_HEADER_SLOTS = HDR_RNG


@nb.njit(cache=True, inline="always")
def store_global_slots(state, out, at, end):
    """Copy ``state[:GLOBAL_HEADER_SLOTS]`` then ``state[HEADER_SIZE:end]`` into ``out`` from
    index ``at``: every slot but the RNG and the seed (and a game's scratch beyond ``end``)."""
    for i in range(GLOBAL_HEADER_SLOTS):
        out[at + i] = state[i]
    at += GLOBAL_HEADER_SLOTS
    for i in range(HEADER_SIZE, end):
        out[at + i - HEADER_SIZE] = state[i]


def global_slot_count(end: int) -> int:
    """Entries :func:`store_global_slots` writes for a layout whose kept slots end at ``end``."""
    return GLOBAL_HEADER_SLOTS + end - HEADER_SIZE


# ---- pure-Python readers (cheap on NumPy arrays, no numba dispatch) -------------------------
def wide_value(state, offset: int, slots: int, signed: bool = False) -> int:
    """The value of a wide field of a NumPy state, as a Python int."""
    data = bytes(int(x) & 0xFF for x in state[offset : offset + slots].tolist())
    return int.from_bytes(data, "little", signed=signed)


def wide_slots(value: int, slots: int) -> list[int]:
    """The slot values that hold ``value`` (an int of at most ``8 * slots`` bits)."""
    data = int(value).to_bytes(slots, "little", signed=value < 0)
    return [b - 256 if b > WIDE_HIGH else b for b in data]


def step_of(state) -> int:
    """Decisions applied since the deal of a NumPy state."""
    return wide_value(state, HDR_STEP, STEP_SLOTS)


def seed_of(state) -> int:
    """The seed a NumPy state was dealt from."""
    return wide_value(state, HDR_SEED, SEED_SLOTS)


def rng_of(state) -> int:
    """The RNG state of a NumPy state (unsigned 64-bit)."""
    return wide_value(state, HDR_RNG, RNG_SLOTS)
