"""Kuhn poker's belief sampler: a world a seat cannot tell from the real game (for search)."""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_NUM_PLAYERS, HDR_TERMINAL, write_seed
from presages_env.core.rng import rng_seed, rng_shuffle
from presages_env.games.kuhn_poker.layout import DECK, winner


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a state drawn uniformly among those ``player`` cannot tell from
    ``state``: its own card and every move kept, the other cards (the set-aside one
    included) shuffled again, the RNG re-seeded from ``seed``. Moves reveal nothing the
    kernel could weigh: a seat may bet or pass with any card. Once the hand is over, the
    showdown showed the winner's card: deals with another winner are drawn again."""
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    shown = winner(state) if state[HDR_TERMINAL] else -1
    hidden = np.empty(n, dtype=world.dtype)
    while True:  # the real deal is one of the draws: each try succeeds with odds >= 1/6
        count = 0
        for c in range(n + 1):
            if c != player:
                hidden[count] = state[DECK + c]
                count += 1
        rng_shuffle(world, hidden, count)
        count = 0
        for c in range(n + 1):
            if c != player:
                world[DECK + c] = hidden[count]
                count += 1
        if shown < 0 or (winner(world) == shown and world[DECK + shown] == state[DECK + shown]):
            return
