"""Where cards are and what they are worth: decks, draws, destroying, placing, scoring.

Each seat's deck is ``DECK[seat]`` bottom first (the top card is ``DECK_SIZE - 1``); hands,
discard piles and tableaux are read from ``LOC``/``OWNER``. A destroyed artifact goes to its
owner's discard pile and its essences back to the supply (§3, seed "Défausser / Détruire").
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.rng import rng_shuffle
from presages_env.games.res_arcana.cards import (
    ARTIFACT_DISCOUNT,
    BEAST_SCORER,
    DISCOUNT_CIDS,
    DRAGON_DISCOUNT,
    FIRST_MONUMENT,
    IS_CREATURE,
    IS_DRAGON,
    NUM_ARTIFACTS,
    NUM_ESSENCES,
    SCORING_CIDS,
    VP,
    VP_PER,
    G,
    as_numpy_scalars,
)
from presages_env.games.res_arcana.event_kinds import (
    EV_DESTROY,
    EV_DRAW,
    EV_DREW,
    EV_MONUMENT_SHOWN,
    EV_SHUFFLE,
)
from presages_env.games.res_arcana.layout import (
    DECK,
    DECK_CAP,
    DECK_SIZE,
    DISPLAY,
    FIRST_PLAYER,
    KNOWN_TOP,
    LOC,
    LOC_DECK,
    LOC_DISCARD,
    LOC_DISPLAY,
    LOC_HAND,
    LOC_PLAY,
    MAX_PLAYERS,
    MON_DECK,
    MON_DECK_SIZE,
    MON_GROUP,
    MON_GROUP_MASK,
    MON_KNOWN,
    OWNER,
    POOL,
    SEEN,
    SEEN_BY_ALL,
    SEEN_BY_OWNER,
    STATUE_USER,
    STORED,
    TURNED,
)
from presages_env.games.res_arcana.payments import clear_stored

GOLDEN_STATUE_VP = 3
ONE_CARD = 1


@nb.njit(cache=True)
def owns_in_play(state, comp, seat):
    return state[LOC + comp] == LOC_PLAY and state[OWNER + comp] == seat


@nb.njit(cache=True)
def count_at(state, seat, loc):
    """Artifacts of ``seat`` at ``loc`` (hand, discard pile...)."""
    count = 0
    for c in range(NUM_ARTIFACTS):
        if state[LOC + c] == loc and state[OWNER + c] == seat:
            count += 1
    return count


@nb.njit(cache=True)
def passive_discounts(state, seat):
    """(discount on dragons, any part; discount on artifacts, non-Gold part) of ``seat``."""
    dragon = 0
    artifact = 0
    for i in range(DISCOUNT_CIDS.shape[0]):
        c = DISCOUNT_CIDS[i]
        if owns_in_play(state, c, seat):
            dragon += DRAGON_DISCOUNT[c]
            artifact += ARTIFACT_DISCOUNT[c]
    return dragon, artifact


# ---- decks ---------------------------------------------------------------------------------
@nb.njit(cache=True)
def _shuffle_discard_into_deck(state, seat, events):
    """Put ``seat``'s discard pile, shuffled, under its deck (its top cards stay on top)."""
    base = DECK + seat * DECK_CAP
    size = state[DECK_SIZE + seat]
    moved = 0
    for c in range(NUM_ARTIFACTS):
        if state[LOC + c] == LOC_DISCARD and state[OWNER + c] == seat:
            moved += 1
    if moved == 0:
        return
    emit(events, EV_SHUFFLE, seat, PUBLIC, seat, moved, 0, 0, 0)
    for i in range(size - 1, -1, -1):
        state[base + i + moved] = state[base + i]
    k = 0
    for c in range(NUM_ARTIFACTS):
        if state[LOC + c] == LOC_DISCARD and state[OWNER + c] == seat:
            state[base + k] = c
            state[LOC + c] = LOC_DECK
            state[SEEN + c] = SEEN_BY_ALL  # the pile was face up: everyone knows it is here
            k += 1
    rng_shuffle(state, state[base : base + moved], moved)
    state[DECK_SIZE + seat] = size + moved


@nb.njit(cache=True)
def refill_deck(state, seat, wanted, events):
    """Before drawing or looking at ``wanted`` cards: a deck with fewer gets the shuffled
    discard pile under it (decisions 12 and 13; a draw from an empty deck is the same)."""
    if state[DECK_SIZE + seat] < wanted:
        _shuffle_discard_into_deck(state, seat, events)


@nb.njit(cache=True)
def draw(state, seat, events):
    """Draw the top card (reshuffling the discard pile if the deck is empty); -1 if none.
    The seat sees which card, everyone that it drew."""
    refill_deck(state, seat, ONE_CARD, events)
    size = state[DECK_SIZE + seat]
    if size == 0:
        return -1
    slot = DECK + seat * DECK_CAP + size - 1
    card = state[slot]
    emit(events, EV_DREW, seat, PUBLIC, seat, 0, 0, 0, 0)
    emit(events, EV_DRAW, seat, seat_bit(seat), seat, card, 0, 0, 0)
    state[slot] = 0
    state[DECK_SIZE + seat] = size - 1
    state[LOC + card] = LOC_HAND
    state[SEEN + card] = max(state[SEEN + card], SEEN_BY_OWNER)
    if state[KNOWN_TOP + seat] > 0:
        state[KNOWN_TOP + seat] -= 1
    return card


@nb.njit(cache=True)
def deck_top(state, seat, depth):
    """The card ``depth`` below the top of ``seat``'s deck (0 = top)."""
    return state[DECK + seat * DECK_CAP + state[DECK_SIZE + seat] - 1 - depth]


@nb.njit(cache=True)
def monument_top(state, depth):
    return state[MON_DECK + state[MON_DECK_SIZE] - 1 - depth]


@nb.njit(cache=True)
def pop_monument(state):
    """Take the monument deck's top card (it is never refilled); -1 when empty."""
    size = state[MON_DECK_SIZE]
    if size == 0:
        return -1
    card = state[MON_DECK + size - 1]
    state[MON_DECK + size - 1] = 0
    state[MON_DECK_SIZE] = size - 1
    for s in range(MAX_PLAYERS):
        if state[MON_KNOWN + s] > 0:
            state[MON_KNOWN + s] -= 1
        if state[MON_GROUP + s] > 0:
            mask = state[MON_GROUP_MASK + s] & ~(1 << (card - FIRST_MONUMENT))
            state[MON_GROUP_MASK + s] = mask
            state[MON_GROUP + s] = state[MON_GROUP + s] - 1 if mask else 0
    return card


@nb.njit(cache=True)
def lose_monument_order(state, seat, count):
    """A rival looks at the top ``count`` (2 or 3) monuments and may reorder them: ``seat``
    keeps only which of them it knew (the top it had seen, or its earlier group)."""
    mask = np.int64(state[MON_GROUP_MASK + seat])
    for i in range(state[MON_KNOWN + seat]):
        mask |= 1 << (monument_top(state, i) - FIRST_MONUMENT)
    state[MON_KNOWN + seat] = 0
    state[MON_GROUP + seat] = count if mask else 0
    state[MON_GROUP_MASK + seat] = mask


@nb.njit(cache=True)
def refill_display(state, slot, events):
    card = pop_monument(state)
    state[DISPLAY + slot] = card
    if card >= 0:
        emit(events, EV_MONUMENT_SHOWN, -1, PUBLIC, slot, card, 0, 0, 0)
        state[LOC + card] = LOC_DISPLAY


@nb.njit(cache=True)
def reorder_top(state, base, size, count, order):
    """Reorder the top ``count`` (2 or 3) cards of the pile at ``base``: ``order`` indexes
    the permutations of (top, second, third) in lexicographic order, 0 = unchanged."""
    first = np.int64(0)
    second = np.int64(1)
    third = np.int64(2)
    if count == 2:
        if order == 1:
            first, second = 1, 0
    else:
        first = order // 2
        rest_a = 1 if first == 0 else 0
        rest_b = 2 if first != 2 else 1
        if order % 2 == 0:
            second, third = rest_a, rest_b
        else:
            second, third = rest_b, rest_a
    top = base + size - 1
    a = np.int64(state[top])
    b = np.int64(state[top - 1])
    c = np.int64(state[top - 2]) if count == 3 else np.int64(0)
    seen = (a, b, c)  # one element type, so numba can index the tuple
    state[top] = seen[first]
    state[top - 1] = seen[second]
    if count == 3:
        state[top - 2] = seen[third]


# ---- moving artifacts ------------------------------------------------------------------------
@nb.njit(cache=True)
def destroy(state, comp, events):
    """An artifact in play goes to its owner's discard pile, its essences to the supply."""
    owner = state[OWNER + comp]
    emit(events, EV_DESTROY, owner, PUBLIC, owner, comp, 0, 0, 0)
    clear_stored(state, owner, comp, events)
    state[LOC + comp] = LOC_DISCARD
    state[TURNED + comp] = 0


@nb.njit(cache=True)
def put_in_play(state, comp, seat):
    state[LOC + comp] = LOC_PLAY
    state[OWNER + comp] = seat
    state[TURNED + comp] = 0
    if comp < NUM_ARTIFACTS:
        state[SEEN + comp] = 1


# ---- victory points ----------------------------------------------------------------------
@nb.njit(cache=True)
def all_victory_points(state, points):
    """Every seat's VP into ``points``: printed VP of its artifacts, monuments and Places of
    Power, what their stored essences score, Sorcerer's Bestiary's beasts, the first-player
    token and a Golden Statue used at the check under way."""
    points[:] = 0
    for i in range(SCORING_CIDS.shape[0]):
        c = SCORING_CIDS[i]
        if state[LOC + c] == LOC_PLAY:
            seat = state[OWNER + c]
            points[seat] += VP[c]
            if VP_PER[c] >= 0:
                points[seat] += state[STORED + c * NUM_ESSENCES + VP_PER[c]]
    if state[LOC + BEAST_SCORER] == LOC_PLAY:
        seat = state[OWNER + BEAST_SCORER]
        for c in range(NUM_ARTIFACTS):
            if owns_in_play(state, c, seat):
                points[seat] += IS_CREATURE[c] + 2 * IS_DRAGON[c]
    points[state[FIRST_PLAYER]] += 1
    if state[STATUE_USER] > 0:
        points[state[STATUE_USER] - 1] += GOLDEN_STATUE_VP


@nb.njit(cache=True)
def victory_points(state, seat):
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    all_victory_points(state, points)
    return points[seat]


@nb.njit(cache=True)
def pool_tiebreak(state, seat):
    """Essences in the pool, Gold counting double (the tiebreak of the seed)."""
    total = 0
    for e in range(NUM_ESSENCES):
        total += state[POOL + seat * NUM_ESSENCES + e] * (2 if e == G else 1)
    return total


as_numpy_scalars(globals())  # see cards.as_numpy_scalars
