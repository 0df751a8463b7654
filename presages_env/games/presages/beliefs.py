"""Présages belief sampling: worlds a seat cannot tell from the real state (search, no-leak).

``sample_world`` re-deals the hidden cards within what ``EXCLUDED`` says each seat knows
(docs/presages.md, "What a seat knows"), by rejection, then exactly by counted completions.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_NUM_PLAYERS, write_seed
from presages_env.core.rng import rng_below, rng_next, rng_seed, rng_shuffle
from presages_env.games.presages.cards import NUM_CARDS
from presages_env.games.presages.layout import (
    ABS_ACTOR,
    ABS_GAVE,
    ABS_GIVEN,
    ABS_RECV,
    CARD_SLOTS,
    DECK,
    END_LOC,
    EXCLUDED,
    HAND_COUNT,
    LOC,
    LOC_ASIDE,
    MAX_SEATS,
    NODE,
    NODE_ABSOLUTE_RETURN,
    PUBLIC_KNOWER,
    SEEN_FROM,
    SHOWN_TO,
)
from presages_env.games.presages.table import hidden_places, is_knower

SAMPLE_TRIES = 64  # rejection rounds before the counted deal (both are exact)
PLACES = MAX_SEATS + 1  # the hands, then the set-aside cards


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state drawn uniformly among those ``player`` cannot tell
    apart from ``state`` (docs/presages.md, "What a seat knows").

    Kept: everything public and ``player``'s hand and memories. The other hidden cards (the
    other hands and the set-aside cards) are dealt again into the same hand sizes and
    set-aside count, each card only to a place ``player`` does not know it is not in
    (``EXCLUDED``: public moves into hands, cards a Secret showed ``player``, the two cards of
    each of its Absolu exchanges, what a placement against Law or the Luck discard showed,
    round-end reveals). The cards confined to one place go there; the rest are dealt by
    rejection (a uniform shuffle, kept if every card lies where it may; exact), and after
    ``SAMPLE_TRIES`` rejected shuffles by sequential dealing with counted completions (exact
    up to float64 rounding of the counts). A pending Absolu card ``player`` did not commit is
    drawn uniformly from the actor's new hand. The other seats' private memories that do not
    involve ``player`` (which ``player`` does not know) are cleared, and their knowledge rows
    are the public one, which every world satisfies. The RNG is re-seeded from ``seed``; the
    shuffle scratch and the last round's final hands are cleared.
    """
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    room = np.zeros(PLACES, dtype=np.int64)
    cards = np.zeros(NUM_CARDS, dtype=np.int64)
    allowed = np.zeros(NUM_CARDS, dtype=np.int64)
    free = 0
    places = hidden_places(state) & ~(1 << player)
    for c in range(1, CARD_SLOTS):
        world[END_LOC + c] = LOC_ASIDE
        loc = state[LOC + c]
        if not ((loc < n and loc != player) or loc == LOC_ASIDE):
            continue
        may = places & ~state[EXCLUDED + player * CARD_SLOTS + c]
        if may & (may - 1) == 0:  # one place (or none, if the state lies): keep it there
            continue
        cards[free] = c
        allowed[free] = may
        free += 1
        room[loc if loc < n else MAX_SEATS] += 1
    if free > 0 and not _deal_by_rejection(world, cards, allowed, room, free):
        _deal_by_counting(world, cards, allowed, room, free)
    for i in range(NUM_CARDS):
        world[DECK + i] = 0
    actor = state[ABS_ACTOR]
    if state[NODE] == NODE_ABSOLUTE_RETURN and actor != player:
        _redraw_committed_card(world, actor)
    _forget_others(world, player)


@nb.njit(cache=True)
def _place_of(place):
    return place if place < MAX_SEATS else LOC_ASIDE


@nb.njit(cache=True)
def _deal_by_rejection(world, cards, allowed, room, free):
    """Shuffle the free cards into the free places; keep the first shuffle where every card
    lies where it may (uniform among those). False after ``SAMPLE_TRIES`` failures."""
    for _ in range(SAMPLE_TRIES):
        for i in range(free):
            world[DECK + i] = cards[i]
        rng_shuffle(world, world[DECK : DECK + NUM_CARDS], free)
        pos = 0
        fits = True
        for place in range(PLACES):
            for _ in range(room[place]):
                c = world[DECK + pos]
                pos += 1
                for i in range(free):
                    if cards[i] == c and not allowed[i] & (1 << place):
                        fits = False
        if fits:
            pos = 0
            for place in range(PLACES):
                for _ in range(room[place]):
                    world[LOC + world[DECK + pos]] = _place_of(place)
                    pos += 1
            return True
    return False


@nb.njit(cache=True)
def _deal_by_counting(world, cards, allowed, room, free):
    """Deal the free cards one by one, each to a place with probability proportional to the
    number of ways to place the cards after it (counted backwards over the rooms left)."""
    stride = np.ones(PLACES + 1, dtype=np.int64)
    for place in range(PLACES):
        stride[place + 1] = stride[place] * (room[place] + 1)
    size = stride[PLACES]
    ways = np.zeros((free + 1, size), dtype=np.float64)
    ways[free, 0] = 1.0
    for i in range(free - 1, -1, -1):
        for index in range(size):
            total = 0.0
            for place in range(PLACES):
                left = (index // stride[place]) % (room[place] + 1)
                if left > 0 and allowed[i] & (1 << place):
                    total += ways[i + 1, index - stride[place]]
            ways[i, index] = total
    index = size - 1  # every room full
    for i in range(free):
        target = _rng_unit(world) * ways[i, index]
        chosen = -1
        for place in range(PLACES):
            left = (index // stride[place]) % (room[place] + 1)
            if left > 0 and allowed[i] & (1 << place):
                weight = ways[i + 1, index - stride[place]]
                if weight > 0.0:
                    chosen = place
                    if target < weight:
                        break
                    target -= weight
        if chosen < 0:  # no completion: the state's knowledge lies; keep the card
            continue
        world[LOC + cards[i]] = _place_of(chosen)
        index -= stride[chosen]


@nb.njit(cache=True)
def _rng_unit(world):
    """A float in [0, 1) from the world's RNG (53 random bits)."""
    return np.float64(rng_next(world) >> np.uint64(11)) / 9007199254740992.0


@nb.njit(cache=True)
def _forget_others(world, player):
    """Clear the other seats' memories ``player`` has no part in; their knowledge rows become
    the public one (``player``'s own row and the public row are kept)."""
    mine = player + 1
    for p in range(MAX_SEATS):
        if p == player:
            continue
        for c in range(CARD_SLOTS):
            for block in (SEEN_FROM, SHOWN_TO, ABS_RECV, ABS_GAVE):
                i = block + p * CARD_SLOTS + c
                if world[i] != mine:
                    world[i] = 0
            if is_knower(world, p):
                world[EXCLUDED + p * CARD_SLOTS + c] = world[
                    EXCLUDED + PUBLIC_KNOWER * CARD_SLOTS + c
                ]


@nb.njit(cache=True)
def _redraw_committed_card(world, actor):
    """A uniformly drawn card of the actor's hand replaces the committed Absolu card."""
    pick = rng_below(world, world[HAND_COUNT + actor])
    for c in range(1, CARD_SLOTS):
        if world[LOC + c] == actor:
            if pick == 0:
                world[ABS_GIVEN] = c
                return
            pick -= 1
