"""Aciliande's belief sampler: a world a seat cannot tell from the real game (for search)."""

import numba as nb
import numpy as np

from presages_env.core.header import write_seed
from presages_env.core.rng import rng_seed, rng_shuffle
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.layout import CARD_OWNER, CARD_TRICK, DUEL, is_goddess


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state drawn uniformly among those ``player`` cannot tell
    apart from ``state`` (exact beliefs; docs/aciliande.md, "What a seat knows").

    Kept: ``player``'s hand and everything public (bids, tricks, who played which card,
    lives, the pot, the face-up Goddesses of a duel). The rules force no revelation: any
    card in hand may be played (``legal_mask``), bids and the hand size are not about
    cards, so no play proves a void or "nothing higher", and the deals consistent with
    what ``player`` saw are exactly those giving each played card to its player. The cards
    ``player`` cannot see — the rest of the other hands and the undealt cards; in a duel
    not the face-up Goddesses, which are nobody's — are therefore uniform over their slots:
    shuffled together (a uniform permutation) and dealt back into the same slots, every
    hand size kept. The world's RNG is re-seeded from ``seed`` so later deals are unknown.
    Strategic guesses (a player who left a trick may hold no low card) are not beliefs the
    rules give, so they are not applied.
    """
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    hidden = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    for card in range(NUM_CARDS):
        owner = state[CARD_OWNER + card]
        if state[CARD_TRICK + card] >= 0 or owner == player:
            continue
        if owner < 0 and state[DUEL] and is_goddess(state, card):
            continue
        hidden[count] = card
        count += 1
    rng_shuffle(world, hidden, count)
    # re-deal in the order the hidden slots were found: each seat keeps its hand size
    index = 0
    for card in range(NUM_CARDS):
        owner = state[CARD_OWNER + card]
        if state[CARD_TRICK + card] >= 0 or owner == player:
            continue
        if owner < 0 and state[DUEL] and is_goddess(state, card):
            continue
        world[CARD_OWNER + hidden[index]] = owner
        index += 1
