"""Présages table: who holds what, what each seat knows of the hidden cards, card moves.

The helpers every other rules module reads (a card's holder, Law's binding direction, the
bout log), the upkeep of ``EXCLUDED`` (what each seat knows of where a hidden card is not;
read by :func:`~presages_env.games.presages.beliefs.sample_world`), and the three ways a card
moves: from a hand into play, from play back into a hand, onto the discard pile. Spec:
``shared/rules/presages.md``; the layout is :mod:`presages_env.games.presages.layout`.
"""

import numba as nb

from presages_env.core.events import PUBLIC, emit
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.games.presages.cards import LAW
from presages_env.games.presages.layout import (
    ASIDE_BIT,
    BOUT,
    CARD_SLOTS,
    DIR_BELOW,
    DIR_NONE,
    DISC_BOUT,
    DISC_KIND,
    DISC_ORDER,
    DISC_SEAT,
    DISCARD_COUNT,
    DISCARD_LIST,
    EV_PLACE,
    EXCLUDED,
    FRONT,
    GIVE_LAW_DIR,
    HAND_COUNT,
    KNOWERS,
    LAST_HAND_BOUT,
    LAST_HAND_SEAT,
    LAW_DIR,
    LOC,
    LOC_ASIDE,
    LOC_DISCARD,
    LOC_FRONT,
    LOG,
    LOG_CAP,
    LOG_FIELDS,
    LOG_LEN,
    MAX_SEATS,
    NODE,
    NODE_BETRAYAL_GIVE,
    OPT_BETRAYAL_LAW_FIRST,
    PLACER,
    PUBLIC_KNOWER,
    TEAM,
)


@nb.njit(cache=True)
def hand_size_for(num_players, team_size):
    """Cards dealt to a seat (Absolu included in round 1): 5 at 4p, 4 at 6p, 5/4 at 5p."""
    if num_players == 4:
        return 5
    if num_players == 6:
        return 4
    return 5 if team_size == 3 else 4


@nb.njit(cache=True)
def team_size_of(state, team):
    size = 0
    for s in range(state[HDR_NUM_PLAYERS]):
        if state[TEAM + s] == team:
            size += 1
    return size


@nb.njit(cache=True)
def holder_of(state, card):
    """Seat the card in play lies in front of."""
    return state[LOC + card] - LOC_FRONT


@nb.njit(cache=True)
def in_play(state, card):
    loc = state[LOC + card]
    return LOC_FRONT <= loc < LOC_FRONT + MAX_SEATS


@nb.njit(cache=True)
def binding_direction(state):
    """Law's direction while Law lies in play; none once it has left play."""
    if in_play(state, LAW):
        return state[LAW_DIR]
    return DIR_NONE


@nb.njit(cache=True)
def placement_direction(state):
    """Law's direction binding the placement now asked (§3.4); Betrayal's gift may be judged
    before the take by option (G3)."""
    if state[NODE] == NODE_BETRAYAL_GIVE and state[OPT_BETRAYAL_LAW_FIRST]:
        return state[GIVE_LAW_DIR]
    return binding_direction(state)


@nb.njit(cache=True)
def empty_seats(state):
    count = 0
    for s in range(state[HDR_NUM_PLAYERS]):
        if state[FRONT + s] == 0:
            count += 1
    return count


@nb.njit(cache=True)
def log_bout(state, kind, a, b, card):
    """Append a public event to the bout log (a bout never needs more than LOG_CAP)."""
    k = state[LOG_LEN]
    if k < LOG_CAP:
        base = LOG + k * LOG_FIELDS
        state[base] = kind
        state[base + 1] = a
        state[base + 2] = b
        state[base + 3] = card
        state[LOG_LEN] = k + 1


@nb.njit(cache=True)
def ask(state, node, seat):
    state[NODE] = node
    state[HDR_CURRENT] = seat


@nb.njit(cache=True)
def hidden_places(state):
    """Bits of every place a hidden card may be at this table (the hands, set aside)."""
    return ((1 << state[HDR_NUM_PLAYERS]) - 1) | ASIDE_BIT


@nb.njit(cache=True)
def is_hidden(state, card):
    """The card is in a hand or set aside."""
    loc = state[LOC + card]
    return loc < state[HDR_NUM_PLAYERS] or loc == LOC_ASIDE


@nb.njit(cache=True)
def is_knower(state, knower):
    return knower < state[HDR_NUM_PLAYERS] or knower == PUBLIC_KNOWER


@nb.njit(cache=True)
def know_at(state, knower, card, seat):
    """``knower`` learns that ``card`` is in ``seat``'s hand."""
    state[EXCLUDED + knower * CARD_SLOTS + card] = hidden_places(state) & ~(1 << seat)


@nb.njit(cache=True)
def all_know_at(state, card, seat):
    """Everyone learns that ``card`` is in ``seat``'s hand (a public move or reveal)."""
    for knower in range(KNOWERS):
        if is_knower(state, knower):
            know_at(state, knower, card, seat)


@nb.njit(cache=True)
def _all_forget(state, card):
    """The card is face up now: what anyone knew of where it was hidden is void."""
    for knower in range(KNOWERS):
        state[EXCLUDED + knower * CARD_SLOTS + card] = 0


@nb.njit(cache=True)
def all_know_not_at(state, card, seat):
    """Everyone but ``seat`` learns that the hidden ``card`` is not in ``seat``'s hand."""
    for knower in range(KNOWERS):
        if knower != seat and is_knower(state, knower):
            state[EXCLUDED + knower * CARD_SLOTS + card] |= 1 << seat


@nb.njit(cache=True)
def blur_exchange(state, actor, target):
    """For everyone but the two parties, a hidden card that may have been in either hand may
    now be in either (one card went each way, unseen)."""
    pair = (1 << actor) | (1 << target)
    for knower in range(KNOWERS):
        if knower in (actor, target) or not is_knower(state, knower):
            continue
        for c in range(1, CARD_SLOTS):
            i = EXCLUDED + knower * CARD_SLOTS + c
            if is_hidden(state, c) and (state[i] & pair) != pair:
                state[i] &= ~pair


@nb.njit(cache=True)
def note_law(state, seat, card, excluded, direction):
    """A placement against Law's ``direction`` shows that ``seat`` held no card obeying it
    (but ``excluded``, the card Wrath returned or Betrayal took, §3.4)."""
    if direction == DIR_NONE or obeys(card, direction):
        return
    for c in range(1, CARD_SLOTS):
        if c != excluded and obeys(c, direction) and is_hidden(state, c):
            all_know_not_at(state, c, seat)


@nb.njit(cache=True)
def place_from_hand(state, card, placer, seat, events):
    """``placer`` puts ``card`` from their hand face up in front of ``seat``."""
    state[HAND_COUNT + placer] -= 1
    state[LOC + card] = LOC_FRONT + seat
    state[FRONT + seat] = card
    state[PLACER + card] = placer + 1
    state[LAST_HAND_SEAT + card] = 0
    state[LAST_HAND_BOUT + card] = 0
    _all_forget(state, card)
    log_bout(state, EV_PLACE, placer + 1, seat + 1, card)
    emit(events, EV_PLACE, placer, PUBLIC, seat, card, 0, 0, 0)


@nb.njit(cache=True)
def lift_into_hand(state, card, seat):
    """A card in play goes (publicly) into ``seat``'s hand; Law leaving play ends its rule."""
    state[FRONT + holder_of(state, card)] = 0
    state[LOC + card] = seat
    state[HAND_COUNT + seat] += 1
    state[PLACER + card] = 0
    state[LAST_HAND_SEAT + card] = seat + 1
    state[LAST_HAND_BOUT + card] = state[BOUT]
    all_know_at(state, card, seat)
    if card == LAW:
        state[LAW_DIR] = DIR_NONE


@nb.njit(cache=True)
def discard(state, card, seat, kind):
    """Put ``card`` (in front of ``seat`` or in its hand) on the discard pile."""
    if in_play(state, card):
        state[FRONT + seat] = 0
        state[PLACER + card] = 0
    else:
        state[HAND_COUNT + seat] -= 1
    state[LOC + card] = LOC_DISCARD
    count = state[DISCARD_COUNT]
    state[DISCARD_LIST + count] = card
    state[DISCARD_COUNT] = count + 1
    state[DISC_ORDER + card] = count + 1
    state[DISC_BOUT + card] = state[BOUT]
    state[DISC_SEAT + card] = seat + 1
    state[DISC_KIND + card] = kind
    state[LAST_HAND_SEAT + card] = 0
    state[LAST_HAND_BOUT + card] = 0
    _all_forget(state, card)


@nb.njit(cache=True)
def obeys(card, direction):
    return direction == DIR_NONE or (direction == DIR_BELOW) == (card < LAW)
