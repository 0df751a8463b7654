"""The global-state kernel, written once for every game (docs/research.md).

``out[p * OBS_SIZE : (p + 1) * OBS_SIZE]`` is ``observe(state, p)`` for each seated p (zeros
for seats beyond the player count), then from ``GLOBAL_SLOTS`` the state's slots minus the
header's RNG and seed (:func:`~presages_env.core.header.store_global_slots`) up to the game's
``GLOBAL_SLOTS_END``. A game's kernel module binds it to its own ``observe`` with
:func:`bind_global_state`, as the batched loops are bound (numba caches each copy per game).
"""

from __future__ import annotations

import sys

import numpy as np

from presages_env.core import header as core_header
from presages_env.core.batched import bind_kernels, source_digest
from presages_env.core.header import HDR_NUM_PLAYERS, global_slot_count, store_global_slots

# Names the template uses; bound per game by `bind_global_state`.
observe = OBS_SIZE = OBS_DTYPE = GLOBAL_SLOTS = GLOBAL_SLOTS_END = None


def _global_state(state, out):
    """Fill ``out`` (``GLOBAL_DTYPE[GLOBAL_SIZE]``) with the whole game but its RNG."""
    out[:] = 0
    obs = np.empty(OBS_SIZE, dtype=OBS_DTYPE)
    for p in range(state[HDR_NUM_PLAYERS]):
        observe(state, p, obs)
        out[p * OBS_SIZE : (p + 1) * OBS_SIZE] = obs
    store_global_slots(state, out, GLOBAL_SLOTS, GLOBAL_SLOTS_END)


def bind_global_state(kernel_name: str, obs_dtype: type):
    """``(GLOBAL_SLOTS, GLOBAL_SIZE, global_state)`` for the kernel module ``kernel_name``
    (being imported), which declares ``observe``, ``OBS_SIZE``, ``GLOBAL_SEATS`` (its largest
    table) and ``GLOBAL_SLOTS_END`` (where its kept slots end) before calling this."""
    kernel = sys.modules[kernel_name]
    slots = int(kernel.GLOBAL_SEATS) * int(kernel.OBS_SIZE)
    namespace = dict(
        _global_state.__globals__,
        observe=kernel.observe,
        OBS_SIZE=int(kernel.OBS_SIZE),
        OBS_DTYPE=obs_dtype,
        GLOBAL_SLOTS=slots,
        GLOBAL_SLOTS_END=int(kernel.GLOBAL_SLOTS_END),
    )
    # an edit of the game's kernels (or of the header) must invalidate the cached copy
    digest = source_digest(kernel, core_header)
    game = kernel_name.split(".")[-2]
    compiled = bind_kernels(_global_state, namespace, f"global_state_{game}_{digest}")
    return slots, slots + global_slot_count(int(kernel.GLOBAL_SLOTS_END)), compiled
