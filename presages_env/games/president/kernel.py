"""Président rules kernel: the only place where the rules of Président are written.

The layouts (state, actions, observation, events) are in ``layout.py`` and the belief sampler
(``sample_world``) in ``beliefs.py``; both are re-exported here, so the game's other modules
read them as ``kernel.X``. ``reset``/``legal_mask``/``step``/``observe`` follow
:mod:`presages_env.core.game`.
"""

import sys

import numba as nb
import numpy as np

from presages_env.core.batched import plain_kernels
from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.global_state import bind_global_state
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    clear_mask,
    count_step,
)
from presages_env.core.rng import begin_game, rng_below, rng_shuffle
from presages_env.games.president import beliefs as beliefs_module
from presages_env.games.president import cards as cards_module
from presages_env.games.president import layout as layout_module
from presages_env.games.president.beliefs import draw_world as draw_world
from presages_env.games.president.beliefs import sample_world as sample_world
from presages_env.games.president.cards import NUM_CARDS, NUM_RANKS, SUITS
from presages_env.games.president.layout import *  # noqa: F403 (re-exported, see above)
from presages_env.games.president.layout import (
    ACTION_PASS,
    DEALER,
    DECK,
    EV_DEALT,
    EV_EXCHANGE,
    EV_EXCHANGE_CARD,
    EV_MANCHE_SCORED,
    EV_MANCHE_START,
    EV_MATCH_END,
    EV_OUT,
    EV_PASS,
    EV_PLAY,
    EV_TRICK_WON,
    EXCH_FROM,
    EXCH_GIVEN,
    EXCH_RECEIVED,
    EXCH_TO,
    GONE,
    HAND,
    LAST_PLACE,
    MANCHE,
    MAX_PLAYERS,
    MAX_SET,
    NUM_OUT,
    OBS_GIVEN,
    OBS_GONE,
    OBS_HAND,
    OBS_HAND_SIZE,
    OBS_IN_PLAY,
    OBS_LAST_PLACE,
    OBS_MANCHES_LEFT,
    OBS_MY_TURN,
    OBS_PASSED,
    OBS_PHASE,
    OBS_PLACE,
    OBS_RECEIVED,
    OBS_SCORE,
    OBS_TOP_COUNT,
    OBS_TOP_PLAYER,
    OBS_TOP_RANK,
    OPT_NUM_MANCHES,
    OPT_REWARD_SCHEME,
    PASSED,
    PASSES,
    PHASE,
    PHASE_GIVE_BACK,
    PHASE_PLAY,
    PLACE,
    PLAYED_BY,
    PLAYER_AT_SEAT,
    REWARD_MATCH,
    REWARD_PLACES,
    REWARD_POINTS,
    SCORE,
    SEAT_OF,
    STATE_DTYPE,
    TOP_COUNT,
    TOP_PLAYER,
    TOP_RANK,
    hand_size,
)

# the modules these kernels call: their sources name the batched copies' cache entries
KERNEL_MODULES = (layout_module, cards_module, beliefs_module)


@nb.njit(cache=True, inline="always")
def _exchange(state, giver, receiver, rank, events):
    """Move one card of ``rank``; the two parties see which, the others that one moved."""
    state[HAND + giver * NUM_RANKS + rank] -= 1
    state[HAND + receiver * NUM_RANKS + rank] += 1
    emit(events, EV_EXCHANGE, giver, PUBLIC, giver, receiver, 0, 0, 0)
    both = seat_bit(giver) | seat_bit(receiver)
    emit(events, EV_EXCHANGE_CARD, giver, both, giver, receiver, rank, 0, 0)


@nb.njit(cache=True, inline="always")
def play_action(rank, count):
    return 1 + rank * MAX_SET + count - 1


@nb.njit(cache=True)
def _next_holding(state, player):
    """Next player clockwise (in the current seating) who still holds cards."""
    n = state[HDR_NUM_PLAYERS]
    seat = state[SEAT_OF + player]
    for k in range(1, n + 1):
        other = state[PLAYER_AT_SEAT + (seat + k) % n]
        if state[PLACE + other] < 0:
            return other
    return -1


@nb.njit(cache=True)
def _deal(state, first_player, events):
    """Shuffle and deal 52 cards one at a time clockwise, starting with ``first_player``."""
    n = state[HDR_NUM_PLAYERS]
    for i in range(NUM_CARDS):
        state[DECK + i] = i // SUITS
    rng_shuffle(state, state[DECK : DECK + NUM_CARDS], NUM_CARDS)
    for p in range(MAX_PLAYERS * NUM_RANKS):
        state[HAND + p] = 0
    seat = state[SEAT_OF + first_player]
    for i in range(NUM_CARDS):
        player = state[PLAYER_AT_SEAT + (seat + i) % n]
        state[HAND + player * NUM_RANKS + state[DECK + i]] += 1
        emit(events, EV_DEALT, -1, seat_bit(player), player, state[DECK + i], 0, 0, 0)
    # The scratch becomes this manche's play record (nothing played yet).
    for i in range(NUM_CARDS):
        state[PLAYED_BY + i] = -1


@nb.njit(cache=True)
def _start_manche(state, leader, events):
    """Clear the table and per-manche records; ``leader`` acts first."""
    emit(events, EV_MANCHE_START, -1, PUBLIC, state[MANCHE], state[DEALER], leader, 0, 0)
    n = state[HDR_NUM_PLAYERS]
    for r in range(NUM_RANKS):
        state[GONE + r] = 0
    for p in range(MAX_PLAYERS):
        state[PASSED + p] = 0
        state[PLACE + p] = -1 if p < n else 0
    state[NUM_OUT] = 0
    state[TOP_RANK] = -1
    state[TOP_COUNT] = 0
    state[TOP_PLAYER] = -1
    state[PASSES] = 0
    state[HDR_CURRENT] = leader


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """Deal the first manche: random dealer, seating in player order; the deal's events go
    to ``events`` (``reset`` is this without events)."""
    begin_game(state, seed)
    n = state[HDR_NUM_PLAYERS]
    for p in range(MAX_PLAYERS):
        state[PLAYER_AT_SEAT + p] = p
        state[SEAT_OF + p] = p
        state[LAST_PLACE + p] = -1
        state[SCORE + p] = 0
    state[MANCHE] = 0
    state[PHASE] = PHASE_PLAY
    state[EXCH_FROM] = -1
    state[EXCH_TO] = -1
    state[EXCH_RECEIVED] = -1
    state[EXCH_GIVEN] = -1
    dealer = rng_below(state, n)
    state[DEALER] = dealer
    first = (dealer + 1) % n
    _start_manche(state, first, events)
    _deal(state, first, events)


@nb.njit(cache=True)
def legal_mask(state, mask):
    if clear_mask(state, mask):
        return
    base = HAND + state[HDR_CURRENT] * NUM_RANKS
    if state[PHASE] == PHASE_GIVE_BACK:
        for r in range(NUM_RANKS):
            if state[base + r] > 0:
                mask[play_action(r, 1)] = 1
        return
    top = state[TOP_RANK]
    if top < 0:
        for r in range(NUM_RANKS):
            for c in range(1, min(state[base + r], MAX_SET) + 1):
                mask[play_action(r, c)] = 1
        return
    mask[ACTION_PASS] = 1
    count = state[TOP_COUNT]
    for r in range(top + 1, NUM_RANKS):
        if state[base + r] >= count:
            mask[play_action(r, count)] = 1


@nb.njit(cache=True)
def _place_rewards(state, rewards):
    """Zero-sum reward of one manche: +1 for the Président down to -1 for the last."""
    n = state[HDR_NUM_PLAYERS]
    for p in range(n):
        rewards[p] = np.float32((n - 1 - 2 * state[PLACE + p]) / (n - 1))


@nb.njit(cache=True)
def _match_rewards(state, rewards):
    """Zero-sum end-of-match reward: the best seed score wins, ties share the win."""
    n = state[HDR_NUM_PLAYERS]
    best = -1
    winners = 0
    for p in range(n):
        if state[SCORE + p] > best:
            best = state[SCORE + p]
            winners = 0
        if state[SCORE + p] == best:
            winners += 1
    for p in range(n):
        share = 1.0 / winners if state[SCORE + p] == best else 0.0
        rewards[p] = np.float32((share - 1.0 / n) * n / (n - 1))


@nb.njit(cache=True)
def _end_manche(state, rewards, events):
    """Rank the last holder, score, then start the next manche or end the match."""
    n = state[HDR_NUM_PLAYERS]
    for p in range(n):
        if state[PLACE + p] < 0:
            state[PLACE + p] = n - 1
            emit(events, EV_OUT, p, PUBLIC, n - 1, 0, 0, 0, 0)
    state[NUM_OUT] = n
    for p in range(n):
        place = state[PLACE + p]
        gained = 2 if place == 0 else (1 if place == 1 else 0)
        state[SCORE + p] += gained
        if state[OPT_REWARD_SCHEME] == REWARD_POINTS:
            rewards[p] = np.float32(gained)
        state[LAST_PLACE + p] = place
        emit(events, EV_MANCHE_SCORED, -1, PUBLIC, p, place, gained, state[SCORE + p], 0)
    if state[OPT_REWARD_SCHEME] == REWARD_PLACES:
        _place_rewards(state, rewards)
    state[MANCHE] += 1
    if state[MANCHE] >= state[OPT_NUM_MANCHES]:
        if state[OPT_REWARD_SCHEME] == REWARD_MATCH:
            _match_rewards(state, rewards)
        state[HDR_TERMINAL] = 1
        state[HDR_CURRENT] = -1
        emit(events, EV_MATCH_END, -1, PUBLIC, 0, 0, 0, 0, 0)
        return
    # Re-seat in finishing order; the last player deals, so the Président is dealt first.
    for p in range(n):
        seat = state[PLACE + p]
        state[PLAYER_AT_SEAT + seat] = p
        state[SEAT_OF + p] = seat
    president = state[PLAYER_AT_SEAT]
    last = state[PLAYER_AT_SEAT + n - 1]
    state[DEALER] = last
    _start_manche(state, president, events)
    _deal(state, president, events)
    start_exchange(state, events)


@nb.njit(cache=True)
def start_exchange(state, events):
    """The last player's strongest card goes to the Président, who then gives one back."""
    n = state[HDR_NUM_PLAYERS]
    president = state[PLAYER_AT_SEAT]
    last = state[PLAYER_AT_SEAT + n - 1]
    strongest = NUM_RANKS - 1
    while state[HAND + last * NUM_RANKS + strongest] == 0:
        strongest -= 1
    _exchange(state, last, president, strongest, events)
    state[EXCH_FROM] = last
    state[EXCH_TO] = president
    state[EXCH_RECEIVED] = strongest
    state[EXCH_GIVEN] = -1
    state[PHASE] = PHASE_GIVE_BACK


@nb.njit(cache=True)
def _give_back(state, rank, events):
    _exchange(state, state[EXCH_TO], state[EXCH_FROM], rank, events)
    state[EXCH_GIVEN] = rank
    state[PHASE] = PHASE_PLAY


@nb.njit(cache=True)
def _end_trick(state, events):
    """Everyone else passed: clear the table; the last player (or the next holder) leads."""
    last = state[TOP_PLAYER]
    leader = last if state[PLACE + last] < 0 else _next_holding(state, last)
    top_rank, top_count = state[TOP_RANK], state[TOP_COUNT]
    emit(events, EV_TRICK_WON, -1, PUBLIC, last, top_rank, top_count, leader, 0)
    for p in range(MAX_PLAYERS):
        state[PASSED + p] = 0
    state[TOP_RANK] = -1
    state[TOP_COUNT] = 0
    state[PASSES] = 0
    state[HDR_CURRENT] = leader


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """``step``, writing its events to ``events`` (core/events.py)."""
    n = state[HDR_NUM_PLAYERS]
    for p in range(n):
        rewards[p] = 0.0
    count_step(state)
    player = state[HDR_CURRENT]
    if state[PHASE] == PHASE_GIVE_BACK:
        _give_back(state, (action - 1) // MAX_SET, events)
        return
    if action == ACTION_PASS:
        emit(events, EV_PASS, player, PUBLIC, 0, 0, 0, 0, 0)
        state[PASSED + player] = 1
        state[PASSES] += 1
        holders = n - state[NUM_OUT]
        last = state[TOP_PLAYER]
        others = holders - 1 if state[PLACE + last] < 0 else holders
        if state[PASSES] >= others:
            _end_trick(state, events)
        else:
            state[HDR_CURRENT] = _next_holding(state, player)
        return
    rank = (action - 1) // MAX_SET
    count = (action - 1) % MAX_SET + 1
    emit(events, EV_PLAY, player, PUBLIC, rank, count, 0, 0, 0)
    state[HAND + player * NUM_RANKS + rank] -= count
    for j in range(count):
        state[PLAYED_BY + rank * SUITS + state[GONE + rank] + j] = player
    state[GONE + rank] += count
    state[TOP_RANK] = rank
    state[TOP_COUNT] = count
    state[TOP_PLAYER] = player
    state[PASSES] = 0
    for p in range(MAX_PLAYERS):
        state[PASSED + p] = 0
    if hand_size(state, player) == 0:
        state[PLACE + player] = state[NUM_OUT]
        emit(events, EV_OUT, player, PUBLIC, state[NUM_OUT], 0, 0, 0, 0)
        state[NUM_OUT] += 1
        if state[NUM_OUT] >= n - 1:
            _end_manche(state, rewards, events)
            return
    state[HDR_CURRENT] = _next_holding(state, player)


# the plain kernels: ``reset_logged``/``step_logged`` without events (core/batched.py)
reset, step = plain_kernels(sys.modules[__name__])


@nb.njit(cache=True)
def observe(state, player, obs):
    obs[:] = 0
    n = state[HDR_NUM_PLAYERS]
    base = HAND + player * NUM_RANKS
    for r in range(NUM_RANKS):
        obs[OBS_HAND + r] = state[base + r]
        obs[OBS_GONE + r] = state[GONE + r]
    seat = state[SEAT_OF + player]
    top_player = state[TOP_PLAYER]
    for k in range(n):
        other = state[PLAYER_AT_SEAT + (seat + k) % n]
        obs[OBS_HAND_SIZE + k] = hand_size(state, other)
        obs[OBS_IN_PLAY + k] = 1 if state[PLACE + other] < 0 else 0
        obs[OBS_PASSED + k] = state[PASSED + other]
        obs[OBS_PLACE + k] = state[PLACE + other] + 1
        obs[OBS_LAST_PLACE + k] = state[LAST_PLACE + other] + 1
        obs[OBS_SCORE + k] = state[SCORE + other]
        if other == top_player and state[TOP_RANK] >= 0:
            obs[OBS_TOP_PLAYER + k] = 1
    if state[TOP_RANK] >= 0:
        obs[OBS_TOP_RANK + state[TOP_RANK]] = 1
        obs[OBS_TOP_COUNT + state[TOP_COUNT] - 1] = 1
    if not state[HDR_TERMINAL]:
        obs[OBS_PHASE + state[PHASE]] = 1
    if player == state[EXCH_FROM] or player == state[EXCH_TO]:
        if state[EXCH_RECEIVED] >= 0:
            obs[OBS_RECEIVED + state[EXCH_RECEIVED]] = 1
        if state[EXCH_GIVEN] >= 0:
            obs[OBS_GIVEN + state[EXCH_GIVEN]] = 1
    obs[OBS_MY_TURN] = 1 if state[HDR_CURRENT] == player else 0
    obs[OBS_MANCHES_LEFT] = state[OPT_NUM_MANCHES] - state[MANCHE]


# ---- global state (a referee's view, for centralised critics; docs/research.md) ----------
# Every seat's observation, then the state's slots up to GLOBAL_SLOTS_END minus the RNG and
# seed (core/global_state.py): every hand (HAND), the exchange, scores and
# seating; the shuffle scratch and play record (DECK) is left out.
GLOBAL_DTYPE = STATE_DTYPE  # the observation's dtype too
GLOBAL_SEATS = MAX_PLAYERS
GLOBAL_SLOTS_END = DECK
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int8)
