"""Aciliande rules kernel: the only place where the rules of Aciliande are written.

The layouts (state, actions, events) are in ``layout.py`` and the belief sampler
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
from presages_env.core.layout import SlotLayout
from presages_env.core.rng import begin_game, rng_below, rng_shuffle
from presages_env.games.aciliande import beliefs as beliefs_module
from presages_env.games.aciliande import cards as cards_module
from presages_env.games.aciliande import layout as layout_module
from presages_env.games.aciliande.beliefs import sample_world as sample_world
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.layout import *  # noqa: F403 (re-exported, see above)
from presages_env.games.aciliande.layout import (
    ACT_BID,
    ACT_CARD,
    ACT_HAND_SIZE,
    ACT_LEAVE,
    ACT_TAKE,
    ALIVE,
    BIDS,
    CARD_OWNER,
    CARD_TRICK,
    COINS,
    DEALER,
    DECL_LEAVE,
    DECL_NONE,
    DECL_TAKE,
    DRAW,
    DUEL,
    DUEL_MANCHES,
    END_ALL_ELIMINATED,
    END_DUEL_MORE_LIVES,
    END_DUEL_SHARE,
    END_LAST_SURVIVOR,
    END_REASON,
    END_TEAM_SURVIVES,
    END_THIRD_GODDESS,
    EV_BID,
    EV_COINS,
    EV_DEAL,
    EV_DEALT,
    EV_DECLARE,
    EV_DUEL_START,
    EV_ELIMINATED,
    EV_GAME_END,
    EV_GODDESS_FACE_DOWN,
    EV_LEFTOVER_DRAW,
    EV_MANCHE_SCORED,
    EV_MANCHE_START,
    EV_PLAY,
    EV_TRICK_WON,
    FACE_UP,
    HAND_SIZE,
    IN_MANCHE,
    LEADER,
    LIVES,
    LOST_LAST,
    MANCHE,
    MAX_PLAYERS,
    MAX_TRICKS,
    NODE,
    NODE_BID,
    NODE_DECLARE,
    NODE_GAME_OVER,
    NODE_HAND_SIZE,
    NODE_PLAY,
    NUM_GODDESSES,
    NUM_NODES,
    OPT_FIXED_HAND,
    OPT_GODDESSES,
    OPT_LIVES,
    OPT_STAKE,
    OPT_TEAMS,
    OPT_TIEBREAK,
    PAST_DECL,
    PAST_WINNER,
    POT,
    STATE_DTYPE,
    STATE_SIZE,
    TIEBREAK_LIVES,
    TRICK_CARDS,
    TRICK_DECL,
    TRICK_GODDESSES,
    TRICK_INDEX,
    TRICK_LEN,
    TRICK_SEATS,
    TRICKS,
    is_goddess,
)

# the modules these kernels call: their sources name the batched copies' cache entries
KERNEL_MODULES = (layout_module, cards_module, beliefs_module)


# ---- small queries ------------------------------------------------------------------------
@nb.njit(cache=True)
def alive_count(state):
    count = 0
    for seat in range(state[HDR_NUM_PLAYERS]):
        count += state[ALIVE + seat]
    return count


@nb.njit(cache=True)
def next_alive(state, seat):
    """The first seat clockwise after ``seat`` that is still in the game (-1 if none)."""
    n = state[HDR_NUM_PLAYERS]
    for offset in range(1, n + 1):
        candidate = (seat + offset) % n
        if state[ALIVE + candidate]:
            return candidate
    return -1


@nb.njit(cache=True)
def max_hand_size(state):
    return min(NUM_CARDS // alive_count(state), MAX_TRICKS)


@nb.njit(cache=True)
def forbidden_dealer_bid(state):
    """The bid that would make the total equal the hand size, or -1 if none would."""
    total = 0
    for seat in range(state[HDR_NUM_PLAYERS]):
        if seat != state[DEALER] and state[BIDS + seat] >= 0:
            total += state[BIDS + seat]
    forbidden = state[HAND_SIZE] - total
    return forbidden if forbidden >= 0 else -1


# ---- dealing ------------------------------------------------------------------------------
@nb.njit(cache=True)
def deal(state, hand_size, events):
    """Shuffle the deck (without the Goddesses in a duel) and deal one card at a time."""
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    size = 0
    for card in range(NUM_CARDS):
        if not (state[DUEL] and is_goddess(state, card)):
            deck[size] = card
            size += 1
    rng_shuffle(state, deck, size)
    players = alive_count(state)
    seat = state[DEALER]
    emit(events, EV_DEAL, seat, PUBLIC, hand_size, players, 0, 0, 0)
    for i in range(hand_size * players):
        seat = next_alive(state, seat)
        state[CARD_OWNER + deck[i]] = seat
        emit(events, EV_DEALT, -1, seat_bit(seat), seat, deck[i], 0, 0, 0)
    state[HAND_SIZE] = hand_size
    state[NODE] = NODE_BID
    state[HDR_CURRENT] = next_alive(state, state[DEALER])


@nb.njit(cache=True)
def clear_trick(state):
    state[TRICK_LEN] = 0
    state[TRICK_DECL] = DECL_NONE
    state[TRICK_GODDESSES] = 0
    for i in range(MAX_PLAYERS):
        state[TRICK_CARDS + i] = -1
        state[TRICK_SEATS + i] = -1


@nb.njit(cache=True)
def start_manche(state):
    """``start_manche_logged`` without events (position set-up)."""
    start_manche_logged(state, None)


@nb.njit(cache=True)
def start_manche_logged(state, events):
    """Clear the manche's slots, then deal or ask the dealer for the hand size."""
    state[MANCHE] += 1
    for seat in range(MAX_PLAYERS):
        state[IN_MANCHE + seat] = state[ALIVE + seat]
        state[BIDS + seat] = -1
        state[TRICKS + seat] = 0
    for card in range(NUM_CARDS):
        state[CARD_OWNER + card] = -1
        state[CARD_TRICK + card] = -1
    for i in range(MAX_TRICKS):
        state[PAST_WINNER + i] = -1
        state[PAST_DECL + i] = DECL_NONE
    clear_trick(state)
    state[TRICK_INDEX] = 0
    state[LEADER] = next_alive(state, state[DEALER])
    emit(
        events,
        EV_MANCHE_START,
        -1,
        PUBLIC,
        state[MANCHE],
        state[DEALER],
        state[LEADER],
        state[FACE_UP],
        0,
    )
    if state[DUEL]:
        deal(state, state[FACE_UP], events)
    elif state[OPT_FIXED_HAND] > 0:
        deal(state, state[OPT_FIXED_HAND], events)
    else:
        state[HAND_SIZE] = 0
        state[NODE] = NODE_HAND_SIZE
        state[HDR_CURRENT] = state[DEALER]


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """``reset``, writing its events (the first manche's start, and its deal when the
    hand size is fixed) to ``events``."""
    begin_game(state, seed)
    n = state[HDR_NUM_PLAYERS]
    state[NODE:STATE_SIZE] = 0
    for seat in range(MAX_PLAYERS):
        in_game = seat < n
        state[LIVES + seat] = state[OPT_LIVES + seat] if in_game else 0
        state[ALIVE + seat] = 1 if in_game else 0
        state[DRAW + seat] = -1
    state[POT] = n * state[OPT_STAKE]
    state[DEALER] = rng_below(state, n)
    start_manche_logged(state, events)


# ---- legality -----------------------------------------------------------------------------
@nb.njit(cache=True)
def legal_mask(state, mask):
    if clear_mask(state, mask):
        return
    node = state[NODE]
    seat = state[HDR_CURRENT]
    if node == NODE_HAND_SIZE:
        for k in range(1, max_hand_size(state) + 1):
            mask[ACT_HAND_SIZE + k - 1] = 1
    elif node == NODE_BID:
        for bid in range(state[HAND_SIZE] + 1):
            mask[ACT_BID + bid] = 1
        if seat == state[DEALER]:
            forbidden = forbidden_dealer_bid(state)
            if forbidden >= 0:
                mask[ACT_BID + forbidden] = 0
    elif node == NODE_PLAY:
        for card in range(NUM_CARDS):
            if state[CARD_OWNER + card] == seat and state[CARD_TRICK + card] < 0:
                mask[ACT_CARD + card] = 1
    elif node == NODE_DECLARE:
        mask[ACT_TAKE] = 1
        mask[ACT_LEAVE] = 1


# ---- the end of the game ------------------------------------------------------------------
@nb.njit(cache=True)
def leftover_draw(state, receives, leftover, events):
    """Each receiver draws a non-Goddess card; the highest ``leftover`` take a coin each."""
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    size = 0
    for card in range(NUM_CARDS):
        if not is_goddess(state, card):
            deck[size] = card
            size += 1
    rng_shuffle(state, deck, size)
    drawn = 0
    for seat in range(state[HDR_NUM_PLAYERS]):
        if receives[seat]:
            state[DRAW + seat] = deck[drawn]
            emit(events, EV_LEFTOVER_DRAW, seat, PUBLIC, seat, deck[drawn], 0, 0, 0)
            drawn += 1
    for _ in range(leftover):
        best = -1
        for seat in range(state[HDR_NUM_PLAYERS]):
            if receives[seat] and (best < 0 or state[DRAW + seat] > state[DRAW + best]):
                best = seat
        state[COINS + best] += 1
        receives[best] = 0


@nb.njit(cache=True)
def finish_game(state, receives, reason, rewards, events):
    """Share the pot among the seats flagged in ``receives`` (their teams in the variant)."""
    n = state[HDR_NUM_PLAYERS]
    if state[OPT_TEAMS]:
        team_receives = np.zeros(2, dtype=np.int64)
        for seat in range(n):
            if receives[seat]:
                team_receives[seat % 2] = 1
        for seat in range(n):
            receives[seat] = team_receives[seat % 2]
    count = 0
    for seat in range(n):
        count += receives[seat]
    share = state[POT] // count
    for seat in range(n):
        state[COINS + seat] = share if receives[seat] else 0
    leftover = state[POT] - share * count
    if leftover > 0:
        leftover_draw(state, receives, leftover, events)
    state[END_REASON] = reason
    state[NODE] = NODE_GAME_OVER
    state[HDR_TERMINAL] = 1
    state[HDR_CURRENT] = -1
    for seat in range(n):
        rewards[seat] = state[COINS + seat] - state[OPT_STAKE]
        emit(
            events,
            EV_COINS,
            -1,
            PUBLIC,
            seat,
            state[COINS + seat],
            state[COINS + seat] - state[OPT_STAKE],
            0,
            0,
        )
    emit(events, EV_GAME_END, -1, PUBLIC, reason, state[POT], 0, 0, 0)


@nb.njit(cache=True)
def win_alone(state, seat, reason, rewards, events):
    receives = np.zeros(MAX_PLAYERS, dtype=np.int64)
    receives[seat] = 1
    finish_game(state, receives, reason, rewards, events)


@nb.njit(cache=True)
def share_among(state, flags_offset, reason, rewards, events):
    """End the game, sharing the pot among the seats whose flag at ``flags_offset`` is set."""
    receives = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for seat in range(state[HDR_NUM_PLAYERS]):
        receives[seat] = state[flags_offset + seat]
    finish_game(state, receives, reason, rewards, events)


@nb.njit(cache=True)
def end_duel(state, rewards, events):
    """Both duellists survived the third duel manche: apply the tiebreak option."""
    first = next_alive(state, -1)
    second = next_alive(state, first)
    lives_first = state[LIVES + first]
    lives_second = state[LIVES + second]
    if state[OPT_TIEBREAK] == TIEBREAK_LIVES and lives_first != lives_second:
        winner = first if lives_first > lives_second else second
        win_alone(state, winner, np.int64(END_DUEL_MORE_LIVES), rewards, events)
    else:
        share_among(state, np.int64(ALIVE), np.int64(END_DUEL_SHARE), rewards, events)


@nb.njit(cache=True)
def one_team_left(state):
    """Team variant: the team of every player still in, or -1 if both teams are in."""
    team = -1
    for seat in range(state[HDR_NUM_PLAYERS]):
        if state[ALIVE + seat]:
            if team >= 0 and seat % 2 != team:
                return -1
            team = seat % 2
    return team


# ---- scoring and the next manche ----------------------------------------------------------
@nb.njit(cache=True)
def lose_lives(state, seat, count, events):
    lost = min(count, state[LIVES + seat])
    state[LIVES + seat] -= lost
    state[LOST_LAST + seat] = lost
    emit(
        events,
        EV_MANCHE_SCORED,
        -1,
        PUBLIC,
        seat,
        state[BIDS + seat],
        state[TRICKS + seat],
        lost,
        state[LIVES + seat],
    )
    if state[LIVES + seat] == 0:
        state[ALIVE + seat] = 0
        emit(events, EV_ELIMINATED, -1, PUBLIC, seat, 0, 0, 0, 0)


@nb.njit(cache=True)
def score_manche(state, events):
    """Every missed contract (a player's, or a team's in the variant) costs life cards."""
    n = state[HDR_NUM_PLAYERS]
    for seat in range(n):
        state[LOST_LAST + seat] = 0
    if state[OPT_TEAMS]:
        for team in range(2):
            difference = 0
            for seat in range(team, n, 2):
                if state[IN_MANCHE + seat]:
                    difference += state[TRICKS + seat] - state[BIDS + seat]
            for seat in range(team, n, 2):
                if state[ALIVE + seat]:
                    lose_lives(state, seat, abs(difference), events)
    else:
        for seat in range(n):
            if state[ALIVE + seat]:
                lose_lives(state, seat, abs(state[TRICKS + seat] - state[BIDS + seat]), events)


@nb.njit(cache=True)
def end_manche(state, rewards, events):
    score_manche(state, events)
    left = alive_count(state)
    if state[OPT_TEAMS] and left >= 2 and one_team_left(state) >= 0:
        win_alone(state, next_alive(state, -1), np.int64(END_TEAM_SURVIVES), rewards, events)
        return
    if left == 1:
        win_alone(state, next_alive(state, -1), np.int64(END_LAST_SURVIVOR), rewards, events)
        return
    if left == 0:
        share_among(state, np.int64(IN_MANCHE), np.int64(END_ALL_ELIMINATED), rewards, events)
        return
    if left == 2:
        if state[DUEL]:
            state[FACE_UP] -= 1  # one Goddess is turned face down after each duel manche
            emit(events, EV_GODDESS_FACE_DOWN, -1, PUBLIC, state[FACE_UP], 0, 0, 0, 0)
            if state[FACE_UP] == 0:
                end_duel(state, rewards, events)
                return
        else:
            state[DUEL] = 1
            state[FACE_UP] = DUEL_MANCHES
            emit(
                events,
                EV_DUEL_START,
                -1,
                PUBLIC,
                state[OPT_GODDESSES],
                state[OPT_GODDESSES + 1],
                state[OPT_GODDESSES + 2],
                0,
                0,
            )
    state[DEALER] = next_alive(state, state[DEALER])
    start_manche_logged(state, events)


# ---- tricks -------------------------------------------------------------------------------
@nb.njit(cache=True)
def trick_winner(state):
    """The taking Goddess if there is one, else the strongest non-Goddess card."""
    declaration = state[TRICK_DECL]
    goddesses_seen = 0
    best_seat = -1
    best_card = -1
    for k in range(state[TRICK_LEN]):
        card = state[TRICK_CARDS + k]
        seat = state[TRICK_SEATS + k]
        if is_goddess(state, card):
            goddesses_seen += 1
            # the first Goddess does what was declared, the second the other option
            first_takes = goddesses_seen == 1 and declaration == DECL_TAKE
            second_takes = goddesses_seen == 2 and declaration == DECL_LEAVE
            if first_takes or second_takes:
                return seat
        elif card > best_card:
            best_card = card
            best_seat = seat
    return best_seat


@nb.njit(cache=True)
def resolve_trick(state, rewards, events):
    winner = trick_winner(state)
    index = state[TRICK_INDEX]
    state[TRICKS + winner] += 1
    if events is not None:
        card = -1
        for k in range(state[TRICK_LEN]):
            if state[TRICK_SEATS + k] == winner:
                card = state[TRICK_CARDS + k]
        emit(
            events,
            EV_TRICK_WON,
            -1,
            PUBLIC,
            winner,
            card,
            index,
            state[TRICK_DECL],
            state[TRICKS + winner],
        )
    state[PAST_WINNER + index] = winner
    state[PAST_DECL + index] = state[TRICK_DECL]
    state[TRICK_INDEX] = index + 1
    clear_trick(state)
    if index + 1 == state[HAND_SIZE]:
        end_manche(state, rewards, events)
    else:
        state[LEADER] = winner
        state[HDR_CURRENT] = winner


@nb.njit(cache=True)
def continue_trick(state, rewards, events):
    """After a card (and its declaration): next player, or the trick is complete."""
    if state[TRICK_LEN] == alive_count(state):
        resolve_trick(state, rewards, events)
    else:
        state[HDR_CURRENT] = next_alive(state, state[HDR_CURRENT])


@nb.njit(cache=True)
def play_card(state, card, rewards, events):
    seat = state[HDR_CURRENT]
    length = state[TRICK_LEN]
    state[CARD_TRICK + card] = state[TRICK_INDEX]
    state[TRICK_CARDS + length] = card
    state[TRICK_SEATS + length] = seat
    state[TRICK_LEN] = length + 1
    if is_goddess(state, card):
        state[TRICK_GODDESSES] += 1
        emit(events, EV_PLAY, seat, PUBLIC, card, state[TRICK_INDEX], state[TRICK_GODDESSES], 0, 0)
        if state[TRICK_GODDESSES] == 3:
            win_alone(state, seat, np.int64(END_THIRD_GODDESS), rewards, events)
            return
        if state[TRICK_GODDESSES] == 1:
            state[NODE] = NODE_DECLARE  # same seat declares take or leave
            return
    else:
        emit(events, EV_PLAY, seat, PUBLIC, card, state[TRICK_INDEX], 0, 0, 0)
    continue_trick(state, rewards, events)


@nb.njit(cache=True)
def place_bid(state, bid, events):
    seat = state[HDR_CURRENT]
    state[BIDS + seat] = bid
    emit(events, EV_BID, seat, PUBLIC, bid, 0, 0, 0, 0)
    if seat == state[DEALER]:
        state[NODE] = NODE_PLAY
        state[HDR_CURRENT] = state[LEADER]
    else:
        state[HDR_CURRENT] = next_alive(state, seat)


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """``step``, writing its events to ``events`` (core/events.py)."""
    for seat in range(state[HDR_NUM_PLAYERS]):
        rewards[seat] = 0.0
    count_step(state)
    node = state[NODE]
    if node == NODE_HAND_SIZE:
        deal(state, action - ACT_HAND_SIZE + 1, events)
    elif node == NODE_BID:
        place_bid(state, action - ACT_BID, events)
    elif node == NODE_PLAY:
        play_card(state, action - ACT_CARD, rewards, events)
    else:
        state[TRICK_DECL] = DECL_TAKE if action == ACT_TAKE else DECL_LEAVE
        emit(events, EV_DECLARE, state[HDR_CURRENT], PUBLIC, state[TRICK_DECL], 0, 0, 0, 0)
        state[NODE] = NODE_PLAY
        continue_trick(state, rewards, events)


# the plain kernels: ``reset_logged``/``step_logged`` without events (core/batched.py)
reset, step = plain_kernels(sys.modules[__name__])


# ---- observation --------------------------------------------------------------------------
# Seats are relative to the observer: slot k describes seat (observer + k) % n. A "seat+1"
# entry is 0 for nobody. Blocks in order (n = players):
obs_slots = SlotLayout()  # its table in docs/aciliande.md is generated from it
OBS_NODE = obs_slots.add("NODE", NUM_NODES, "one-hot decision node")
OBS_CURRENT = obs_slots.add(
    "CURRENT", MAX_PLAYERS, "one-hot seat to act (relative), none once over"
)
OBS_DEALER = obs_slots.add("DEALER", MAX_PLAYERS, "one-hot dealer (relative)")
OBS_HAND = obs_slots.add("HAND", NUM_CARDS, "1 for each card in the observer's hand")
OBS_GODDESS = obs_slots.add("GODDESS", NUM_CARDS, "1 for the three Goddess cards (a public rule)")
OBS_PLAYED_BY = obs_slots.add("PLAYED_BY", NUM_CARDS, "relative seat+1 that played the card")
OBS_PLAYED_IN = obs_slots.add("PLAYED_IN", NUM_CARDS, "trick+1 the card was played in")
OBS_TRICK_CARDS = obs_slots.add("TRICK_CARDS", MAX_PLAYERS, "current trick: card+1 in play order")
OBS_TRICK_SEATS = obs_slots.add("TRICK_SEATS", MAX_PLAYERS, "current trick: relative seat+1")
OBS_TRICK_DECL = obs_slots.add("TRICK_DECL", 1, "current trick's declaration")
OBS_PAST_WINNER = obs_slots.add(
    "PAST_WINNER", MAX_TRICKS, "relative seat+1 of each completed trick's winner"
)
OBS_PAST_DECL = obs_slots.add("PAST_DECL", MAX_TRICKS, "declaration of each completed trick")
OBS_BIDS = obs_slots.add("BIDS", MAX_PLAYERS, "bid+1 (0 before bidding / out of the manche)")
OBS_TRICKS = obs_slots.add("TRICKS", MAX_PLAYERS, "tricks won this manche")
OBS_LIVES = obs_slots.add("LIVES", MAX_PLAYERS, "life cards left")
OBS_ELIMINATED = obs_slots.add("ELIMINATED", MAX_PLAYERS, "1 once eliminated")
OBS_HAND_SIZE = obs_slots.add("HAND_SIZE", 1, "hand size (0 while the dealer chooses)")
OBS_TRICK_INDEX = obs_slots.add("TRICK_INDEX", 1, "tricks completed this manche")
OBS_DUEL = obs_slots.add("DUEL", 1, "1 during the duel")
OBS_FACE_UP = obs_slots.add("FACE_UP", 1, "Goddesses face up in the duel")
OBS_POT = obs_slots.add("POT", 1, "coins in the pot")
OBS_TEAMS = obs_slots.add("TEAMS", 1, "1 in the team variant")
OBS_SIZE = obs_slots.size


@nb.njit(cache=True)
def relative(seat, player, n):
    """``(seat - player) % n`` for seats in 0..n-1, without a division."""
    offset = seat - player
    return offset + n if offset < 0 else offset


@nb.njit(cache=True)
def observe(state, player, obs):
    n = state[HDR_NUM_PLAYERS]
    obs[:] = 0
    obs[OBS_NODE + state[NODE]] = 1
    if not state[HDR_TERMINAL]:
        obs[OBS_CURRENT + relative(state[HDR_CURRENT], player, n)] = 1
    obs[OBS_DEALER + relative(state[DEALER], player, n)] = 1
    for g in range(NUM_GODDESSES):
        obs[OBS_GODDESS + state[OPT_GODDESSES + g]] = 1
    for card in range(NUM_CARDS):
        owner = state[CARD_OWNER + card]
        trick = state[CARD_TRICK + card]
        if trick >= 0:
            obs[OBS_PLAYED_BY + card] = relative(owner, player, n) + 1
            obs[OBS_PLAYED_IN + card] = trick + 1
        elif owner == player:
            obs[OBS_HAND + card] = 1
    for i in range(state[TRICK_LEN]):
        obs[OBS_TRICK_CARDS + i] = state[TRICK_CARDS + i] + 1
        obs[OBS_TRICK_SEATS + i] = relative(state[TRICK_SEATS + i], player, n) + 1
    obs[OBS_TRICK_DECL] = state[TRICK_DECL]
    for i in range(state[TRICK_INDEX]):
        obs[OBS_PAST_WINNER + i] = relative(state[PAST_WINNER + i], player, n) + 1
        obs[OBS_PAST_DECL + i] = state[PAST_DECL + i]
    for i in range(n):
        seat = player + i - n if player + i >= n else player + i
        obs[OBS_BIDS + i] = state[BIDS + seat] + 1
        obs[OBS_TRICKS + i] = state[TRICKS + seat]
        obs[OBS_LIVES + i] = state[LIVES + seat]
        obs[OBS_ELIMINATED + i] = 1 - state[ALIVE + seat]
    obs[OBS_HAND_SIZE] = state[HAND_SIZE]
    obs[OBS_TRICK_INDEX] = state[TRICK_INDEX]
    obs[OBS_DUEL] = state[DUEL]
    obs[OBS_FACE_UP] = state[FACE_UP]
    obs[OBS_POT] = state[POT]
    obs[OBS_TEAMS] = state[OPT_TEAMS]


# ---- global state (a referee's view, for centralised critics; docs/research.md) ----------
# Every seat's observation, then the state's slots up to GLOBAL_SLOTS_END minus the RNG and
# seed (core/global_state.py): every hand (CARD_OWNER with CARD_TRICK), bids,
# lives and coins.
GLOBAL_DTYPE = STATE_DTYPE  # the observation's dtype too
GLOBAL_SEATS = MAX_PLAYERS
GLOBAL_SLOTS_END = STATE_SIZE
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int16)
