"""Res Arcana belief sampling: worlds a seat cannot tell from the real state (search, no-leak).

``sample_world`` re-deals what a seat cannot see, each card into a place of its class
(docs/res_arcana.md, "What a seat knows"); the kernel re-exports it.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, write_seed
from presages_env.core.rng import rng_below, rng_seed, rng_shuffle
from presages_env.games.res_arcana.cards import (
    FIRST_MAGE,
    FIRST_MONUMENT,
    NUM_ARTIFACTS,
    NUM_MAGES,
    NUM_MONUMENTS,
)
from presages_env.games.res_arcana.layout import (
    DECK,
    DECK_CAP,
    DECK_SIZE,
    KNOWN_TOP,
    LOC,
    LOC_BOX,
    LOC_DECK,
    LOC_HAND,
    LOC_MAGE_OPTION,
    LOOK_DECK,
    LOOK_OWN,
    MAGE_PICK,
    MAX_PLAYERS,
    MON_DECK,
    MON_DECK_SIZE,
    MON_GROUP,
    MON_GROUP_MASK,
    MON_KNOWN,
    NODE,
    NODE_REORDER,
    OWNER,
    PHASE,
    PHASE_SETUP_MAGES,
    SEEN,
    SEEN_BY_ALL,
    SEEN_BY_OWNER,
)


@nb.njit(cache=True)
def _hidden_to(state, player, card):
    """An artifact whose place ``player`` cannot see: a rival's hand or deck, out of the game,
    or an unseen card of its own deck (starter sets)."""
    loc = state[LOC + card]
    owner = state[OWNER + card]
    if loc == LOC_BOX:
        return True
    if loc == LOC_HAND:
        return owner != player
    if loc == LOC_DECK:
        return owner != player or state[SEEN + card] == 0
    return False


@nb.njit(cache=True)
def _class_of(state, player, card):
    """What ``player`` knows of an artifact: -1 seen where it is; 1 + r for a card it cannot
    see but knows is in rival r's hand or deck (it went there from r's face-up discard pile);
    0 for the rest (dealt unseen, or out of the game: any of them could be any)."""
    if not _hidden_to(state, player, card):
        return -1
    if state[SEEN + card] == SEEN_BY_ALL and state[LOC + card] != LOC_BOX:
        return 1 + state[OWNER + card]
    return 0


@nb.njit(cache=True)
def _redeal_artifacts(world, state, player, n):
    """Re-deal every hidden artifact into a place of its class (``_class_of``): each class's
    cards are shuffled and dealt to the places holding that class (a rival's hand keeps how
    many of each class it holds, its deck which positions); the unknown cards also fill the
    unseen positions of the player's own deck and the box. Within the top cards a rival looked
    at (and may have reordered), which positions hold which class is shuffled too. Then the
    player's own deck is shuffled below the top cards it knows."""
    classes = MAX_PLAYERS + 1
    cards = np.empty((classes, NUM_ARTIFACTS), dtype=np.int64)
    count = np.zeros(classes, dtype=np.int64)
    for c in range(NUM_ARTIFACTS):
        k = _class_of(state, player, c)
        if k >= 0:
            cards[k, count[k]] = c
            count[k] += 1
    for k in range(classes):
        rng_shuffle(world, cards[k], count[k])
    used = np.zeros(classes, dtype=np.int64)
    for c in range(NUM_ARTIFACTS):
        k = _class_of(state, player, c)
        if k >= 0 and state[LOC + c] == LOC_HAND:
            card = cards[k, used[k]]
            used[k] += 1
            world[LOC + card] = LOC_HAND
            world[OWNER + card] = state[OWNER + c]
            world[SEEN + card] = state[SEEN + c]
    position_class = np.empty(DECK_CAP, dtype=np.int64)
    for s in range(n):
        base = DECK + s * DECK_CAP
        size = state[DECK_SIZE + s]
        for i in range(size):
            position_class[i] = _class_of(state, player, state[base + i])
        reordering = state[NODE] == NODE_REORDER and state[LOOK_DECK] == LOOK_OWN
        if s != player and not (reordering and state[HDR_CURRENT] == s):
            top = state[KNOWN_TOP + s]  # it looked at them and may have reordered them
            rng_shuffle(world, position_class[size - top : size], top)
        for i in range(size):
            k = position_class[i]
            if k < 0:
                continue
            card = cards[k, used[k]]
            used[k] += 1
            world[base + i] = card
            world[LOC + card] = LOC_DECK
            world[OWNER + card] = s
            # a reshuffled card is public; any other keeps what the owner saw there
            seen = min(state[SEEN + state[base + i]], SEEN_BY_OWNER)
            world[SEEN + card] = SEEN_BY_ALL if k > 0 else seen
    for i in range(used[0], count[0]):
        card = cards[0, i]
        world[LOC + card] = LOC_BOX
        world[OWNER + card] = -1
        world[SEEN + card] = 0
    below = state[DECK_SIZE + player] - state[KNOWN_TOP + player]
    base = DECK + player * DECK_CAP
    rng_shuffle(world, world[base : base + below], below)


@nb.njit(cache=True)
def _redeal_monuments(world, state, player):
    """The monument deck below the top ``player`` knows in order; or, if it lost that order
    to a rival's look, its group on top holds the monuments it knows are there plus unknown
    ones, in any order, and the rest lies below."""
    size = state[MON_DECK_SIZE]
    group = state[MON_GROUP + player]
    mask = state[MON_GROUP_MASK + player]
    if group == 0:
        below = size - state[MON_KNOWN + player]
        rng_shuffle(world, world[MON_DECK : MON_DECK + below], below)
        return
    unknown = np.empty(NUM_MONUMENTS, dtype=np.int64)
    u = 0
    for i in range(size):
        m = state[MON_DECK + i]
        if not (mask >> (m - FIRST_MONUMENT)) & 1:
            unknown[u] = m
            u += 1
    rng_shuffle(world, unknown, u)
    k = 0
    top = size - group
    for i in range(top):
        world[MON_DECK + i] = unknown[k]
        k += 1
    j = top
    for i in range(size):
        m = state[MON_DECK + i]
        if (mask >> (m - FIRST_MONUMENT)) & 1:
            world[MON_DECK + j] = m
            j += 1
    for i in range(j, size):
        world[MON_DECK + i] = unknown[k]
        k += 1
    rng_shuffle(world, world[MON_DECK + top : MON_DECK + size], group)


@nb.njit(cache=True)
def _redeal_mages(world, state, player, n):
    """Before the reveal, rivals' dealt mages (and their hidden picks) are re-dealt."""
    pool = np.empty(NUM_MAGES, dtype=np.int64)
    count = 0
    for c in range(FIRST_MAGE, FIRST_MAGE + NUM_MAGES):
        if not (state[LOC + c] == LOC_MAGE_OPTION and state[OWNER + c] == player):
            pool[count] = c
            count += 1
            world[LOC + c] = LOC_BOX
            world[OWNER + c] = -1
    rng_shuffle(world, pool, count)
    k = 0
    for s in range(n):
        if s == player:
            continue
        for _ in range(2):
            world[LOC + pool[k]] = LOC_MAGE_OPTION
            world[OWNER + pool[k]] = s
            k += 1
        if state[MAGE_PICK + s] >= 0:
            world[MAGE_PICK + s] = pool[k - 2 + rng_below(world, 2)]


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state drawn uniformly among those ``player`` cannot tell
    apart from ``state`` (docs/res_arcana.md, "What a seat knows").

    Re-dealt: the artifacts hidden from ``player`` (rivals' hands and decks, unseen cards of
    its own deck, the box), each into a place of its class: cards known to have gone from a
    rival's face-up discard pile into its deck stay in that rival's hand or deck where they
    can be; the order of its own deck below the top it knows; the monument deck below the top
    it knows (or around the monuments it knows are in a top group a rival reordered); before
    the mages are revealed, the rivals' dealt mages and picks.
    """
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    _redeal_artifacts(world, state, player, n)
    if state[PHASE] == PHASE_SETUP_MAGES:
        _redeal_mages(world, state, player, n)
    _redeal_monuments(world, state, player)
