"""Présages deals: dealing the hands and starting rounds and bouts.

§2 of ``shared/rules/presages.md``: the face-up Absolus and the teams they form in round 1
(§2.1-2.2), the deal of a later round from every card in use (§2.4), and the per-round and
per-bout records cleared at each start.
"""

import numba as nb

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.rng import rng_shuffle
from presages_env.games.presages.cards import FIRST_ABSOLUTE, LAST_ABSOLUTE, NUM_CARDS
from presages_env.games.presages.layout import (
    ABS_ACTOR,
    ABS_GIVEN,
    ABS_TARGET,
    BLOCKED,
    BOUT,
    BOUT_STARTER,
    CARD_SLOTS,
    DECK,
    DIR_NONE,
    DISCARD_COUNT,
    DISCARD_LIST,
    DREAM_PLAYER,
    EFFECT,
    EV_DEALT,
    EV_FACE_UP,
    FRONT,
    GIVE_LAW_DIR,
    HAND_COUNT,
    LAST_BOUT_WINNER,
    LAST_HAND_BOUT,
    LAST_HAND_SEAT,
    LAW_DIR,
    LOC,
    LOC_ASIDE,
    LOC_BOX,
    LOG,
    LOG_CAP,
    LOG_FIELDS,
    LOG_LEN,
    LUCK_HOLDER,
    MAX_SEATS,
    NEXT_STARTER,
    NODE_PLACE,
    NUM_TEAMS,
    PREV_LOG,
    PREV_LOG_LEN,
    PRIDE_LEFT,
    ROUND_RECORDS,
    ROUND_RECORDS_END,
    SECRET_HOLDER,
    SECRET_MODE,
    SECRET_PARTNER,
    START_ABSOLU,
    TAKEN,
    TEAM,
    VICTIM,
)
from presages_env.games.presages.table import all_know_at, ask, hand_size_for, team_size_of


@nb.njit(cache=True)
def clear_pending(state):
    state[EFFECT] = 0
    state[GIVE_LAW_DIR] = DIR_NONE
    state[BLOCKED] = 0
    state[VICTIM] = -1
    state[TAKEN] = 0
    state[DREAM_PLAYER] = -1
    state[SECRET_HOLDER] = -1
    state[SECRET_MODE] = 0
    state[SECRET_PARTNER] = -1
    state[ABS_ACTOR] = -1
    state[ABS_TARGET] = -1
    state[ABS_GIVEN] = 0
    state[LUCK_HOLDER] = -1


@nb.njit(cache=True)
def start_bout(state, starter):
    """Clear the table records of the last bout (kept as the previous-bout log)."""
    state[PREV_LOG_LEN] = state[LOG_LEN]
    for i in range(LOG_CAP * LOG_FIELDS):
        state[PREV_LOG + i] = state[LOG + i]
        state[LOG + i] = 0
    state[LOG_LEN] = 0
    state[LAW_DIR] = DIR_NONE
    clear_pending(state)
    state[BOUT_STARTER] = starter
    ask(state, NODE_PLACE, starter)


@nb.njit(cache=True)
def begin_round(state):
    """Clear the per-round records and count hands; LOC already holds the new deal."""
    for i in range(ROUND_RECORDS, ROUND_RECORDS_END):
        state[i] = 0
    for s in range(MAX_SEATS):
        state[FRONT + s] = 0
        state[HAND_COUNT + s] = 0
    for c in range(1, CARD_SLOTS):
        loc = state[LOC + c]
        if loc < MAX_SEATS:
            state[HAND_COUNT + loc] += 1
    state[DISCARD_COUNT] = 0
    for i in range(NUM_CARDS):
        state[DISCARD_LIST + i] = 0
    state[BOUT] = 1
    state[LAST_BOUT_WINNER] = -1
    state[NEXT_STARTER] = -1
    state[PRIDE_LEFT] = -1


@nb.njit(cache=True)
def _deal_hands(state, deck_size, first_round, events):
    """Deal DECK[:deck_size] (already shuffled) seat by seat; the rest is set aside."""
    n = state[HDR_NUM_PLAYERS]
    pos = 0
    for s in range(n):
        want = hand_size_for(n, team_size_of(state, state[TEAM + s]))
        if first_round:
            want -= 1  # the face-up Absolu is already in hand
        for _ in range(want):
            if pos < deck_size:
                state[LOC + state[DECK + pos]] = s
                emit(events, EV_DEALT, -1, seat_bit(s), s, state[DECK + pos], 0, 0, 0)
                pos += 1
    for i in range(pos, deck_size):
        state[LOC + state[DECK + i]] = LOC_ASIDE


@nb.njit(cache=True)
def form_teams(state):
    """Teams from the face-up Absolus (§2.1): team 0 holds the highest Absolu."""
    n = state[HDR_NUM_PLAYERS]
    if n == 6:
        state[NUM_TEAMS] = 3
        for s in range(n):
            v = state[START_ABSOLU + s]
            state[TEAM + s] = min(v - FIRST_ABSOLUTE, LAST_ABSOLUTE - v)
        return
    state[NUM_TEAMS] = 2
    high = 0
    low = 0
    for s in range(n):
        state[TEAM + s] = 1
        if state[START_ABSOLU + s] > state[START_ABSOLU + high]:
            high = s
        if state[START_ABSOLU + s] < state[START_ABSOLU + low]:
            low = s
    state[TEAM + high] = 0
    state[TEAM + low] = 0


@nb.njit(cache=True)
def deal_first_round(state, events):
    """§2.1-2.2: one face-up Absolu each, teams, then the rest of the hand from 1..29."""
    n = state[HDR_NUM_PLAYERS]
    for i in range(6):
        state[DECK + i] = FIRST_ABSOLUTE + i
    rng_shuffle(state, state[DECK : DECK + 6], 6)
    starter = 0
    for i in range(6):
        card = state[DECK + i]
        if i < n:
            state[LOC + card] = i
            state[START_ABSOLU + i] = card
            if card > state[START_ABSOLU + starter]:
                starter = i
        else:
            state[LOC + card] = LOC_BOX
    form_teams(state)
    for s in range(n):
        card = state[START_ABSOLU + s]
        emit(events, EV_FACE_UP, -1, PUBLIC, s, card, state[TEAM + s], 0, 0)
    for i in range(FIRST_ABSOLUTE - 1):
        state[DECK + i] = i + 1
    rng_shuffle(state, state[DECK : DECK + FIRST_ABSOLUTE - 1], FIRST_ABSOLUTE - 1)
    _deal_hands(state, FIRST_ABSOLUTE - 1, True, events)
    begin_round(state)
    record_face_up_absolus(state)
    return starter


@nb.njit(cache=True)
def record_face_up_absolus(state):
    """The round-1 Absolus were dealt face up: their entry into hands is public."""
    for s in range(state[HDR_NUM_PLAYERS]):
        card = state[START_ABSOLU + s]
        if card > 0 and state[LOC + card] == s:
            state[LAST_HAND_SEAT + card] = s + 1
            state[LAST_HAND_BOUT + card] = 0
            all_know_at(state, card, s)


@nb.njit(cache=True)
def _deal_later_round(state, events):
    """§2.4: every card in use (not the box) is shuffled and dealt without a guaranteed Absolu."""
    size = 0
    for c in range(1, CARD_SLOTS):
        if state[LOC + c] != LOC_BOX:
            state[DECK + size] = c
            size += 1
    rng_shuffle(state, state[DECK : DECK + NUM_CARDS], size)
    _deal_hands(state, size, False, events)
    begin_round(state)
