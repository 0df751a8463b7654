"""Présages scoring: the end of a bout, of a round and of the game.

§4.1 (the winning card, the discard set of ⏳ marks, the next starter, Luck's discard), §4.3
(the round's winner and the reveal of the last hands) and §4.4 (laurels, the game's end and
the rewards) of ``shared/rules/presages.md``.
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit
from presages_env.core.header import HDR_NUM_PLAYERS, HDR_TERMINAL, load_wide
from presages_env.games.presages.cards import (
    BLUE,
    COLOURS,
    ENIGMA,
    FEAR,
    FIRST_ABSOLUTE,
    GREEN,
    LUCK,
    MIRROR,
    NUM_CARDS,
    PRIDE,
    RED,
    SADNESS,
    YELLOW,
)
from presages_env.games.presages.deals import _deal_later_round, clear_pending, start_bout
from presages_env.games.presages.layout import (
    BOUT,
    BOUT_STARTER,
    CARD_SLOTS,
    DIR_NONE,
    DISCARD_COUNT,
    DISCARD_LIST,
    END_LOC,
    EV_BOUT_END,
    EV_BOUT_START,
    EV_DISCARDED,
    EV_GAME_WON,
    EV_RETURNED,
    EV_REVEALED,
    EV_ROUND_START,
    EV_ROUND_WON,
    FRONT,
    HAND_COUNT,
    KIND_MARKED,
    KIND_WINNER,
    LAST_BOUT_WINNER,
    LAST_DISCARD_COUNT,
    LAST_DISCARD_LIST,
    LAST_ROUND_WINNER,
    LAST_TABLE,
    LAW_DIR,
    LOC,
    LUCK_HOLDER,
    MAX_SEATS,
    NEXT_STARTER,
    NODE_GAME_OVER,
    NODE_LUCK_DISCARD,
    OPT_PRIDE_CARRIES,
    OPT_REVEAL_ALL,
    OPT_ROUND_REWARD_MILLI,
    OPT_WINNER_IS_PLACER,
    PLACER,
    PRIDE_LEFT,
    REVEAL,
    ROUND,
    ROUND_REWARD_SLOTS,
    ROUNDS_WON,
    TEAM,
    WINNING_TEAM,
)
from presages_env.games.presages.table import (
    all_know_at,
    all_know_not_at,
    ask,
    discard,
    holder_of,
    in_play,
    is_hidden,
    lift_into_hand,
    log_bout,
)


@nb.njit(cache=True)
def winning_card(state, has_mirror, has_sadness):
    """§4.1 step 1: lowest under Mirror, second-highest under Sadness, else highest."""
    n = state[HDR_NUM_PLAYERS]
    low = 99
    high = 0
    second = 0
    for s in range(n):
        c = state[FRONT + s]
        low = min(low, c)
        if c > high:
            second = high
            high = c
        elif c > second:
            second = c
    if has_mirror:
        return low
    if has_sadness:
        return second
    return high


@nb.njit(cache=True)
def discard_set(state, winner):
    """§4.1 step 3 as a bit set over card values: the winner plus every ⏳ mark but Fear.

    Every condition reads the complete table, so a card being discarded still marks.
    """
    n = state[HDR_NUM_PLAYERS]
    lowest = 99
    has_absolu = False
    greens, green_low, green_high = 0, 99, 0
    yellows, yellow_low, yellow_high = 0, 99, 0
    reds, red_low, red_high = 0, 99, 0
    blues = 0
    for s in range(n):
        c = state[FRONT + s]
        colour = COLOURS[c]
        lowest = min(lowest, c)
        has_absolu = has_absolu or c >= FIRST_ABSOLUTE
        if colour & GREEN:
            greens += 1
            green_low, green_high = min(green_low, c), max(green_high, c)
        if colour & YELLOW:
            yellows += 1
            yellow_low, yellow_high = min(yellow_low, c), max(yellow_high, c)
        if colour & RED:
            reds += 1
            red_low, red_high = min(red_low, c), max(red_high, c)
        if colour & BLUE:
            blues += 1
    marks = np.int64(0)
    for s in range(n):
        e = state[FRONT + s]
        target = 0
        if e == 1:  # Life: highest green
            target = green_high
        elif e == 2:  # Love: another green in play
            target = e if greens >= 2 else 0
        elif e == 3:  # Friendship: a yellow in play
            target = e if yellows >= 1 else 0
        elif e == 4:  # Calm: a red in play
            target = e if reds >= 1 else 0
        elif e == 5:  # Feast: a blue in play
            target = e if blues >= 1 else 0
        elif e == 6:  # Hope: lowest card in play
            target = e if lowest == e else 0
        elif e == 7:  # Spring: only green
            target = e if greens == 1 else 0
        elif e == 8:  # Death: lowest green
            target = green_low
        elif e == 9:  # Lie: highest yellow
            target = yellow_high
        elif e == ENIGMA:  # an Absolu in play
            target = e if has_absolu else 0
        elif e == 11:  # Summer: only yellow
            target = e if yellows == 1 else 0
        elif e == 16:  # Truth: lowest yellow
            target = yellow_low
        elif e == 18:  # Day: highest red
            target = red_high
        elif e == 19:  # Autumn: only red
            target = e if reds == 1 else 0
        elif e == 20:  # Harmony: lowest card
            target = lowest
        elif e == 25:  # Night: lowest red
            target = red_low
        elif e == 27:  # Winter: every yellow
            for t in range(n):
                c = state[FRONT + t]
                if COLOURS[c] & YELLOW:
                    marks |= np.int64(1) << c
        if target > 0:
            marks |= np.int64(1) << target
    marks &= ~(np.int64(1) << FEAR)
    return marks | (np.int64(1) << winner)


@nb.njit(cache=True)
def end_bout(state, rewards, events):
    """§4.1 exactly: winner, discard set, next starter, moves, Luck, round-end check."""
    n = state[HDR_NUM_PLAYERS]
    winner_card = winning_card(state, in_play(state, MIRROR), in_play(state, SADNESS))
    if state[OPT_WINNER_IS_PLACER]:
        winner = state[PLACER + winner_card] - 1
    else:
        winner = holder_of(state, winner_card)
    discards = discard_set(state, winner_card)
    next_starter = winner
    state[PRIDE_LEFT] = -1
    if in_play(state, PRIDE):
        next_starter = (holder_of(state, PRIDE) + 1) % n
        state[PRIDE_LEFT] = next_starter
    luck_holder = -1
    if discards & (np.int64(1) << LUCK):
        luck_holder = holder_of(state, LUCK)
    for s in range(MAX_SEATS):
        card = state[FRONT + s]
        state[LAST_TABLE + s] = -card if discards & (np.int64(1) << card) else card
    # the winning card goes first on the pile, then the others from the starter clockwise
    emit(events, EV_BOUT_END, -1, PUBLIC, winner, next_starter, winner_card, 0, 0)
    winner_seat = holder_of(state, winner_card)
    discard(state, winner_card, winner_seat, KIND_WINNER)
    emit(events, EV_DISCARDED, -1, PUBLIC, winner_seat, winner_card, KIND_WINNER, 0, 0)
    starter = state[BOUT_STARTER]
    for k in range(n):
        seat = (starter + k) % n
        card = state[FRONT + seat]
        if card == 0:
            continue
        if discards & (np.int64(1) << card):
            discard(state, card, seat, KIND_MARKED)
            emit(events, EV_DISCARDED, -1, PUBLIC, seat, card, KIND_MARKED, 0, 0)
        else:
            lift_into_hand(state, card, seat)
            emit(events, EV_RETURNED, -1, PUBLIC, seat, card, 0, 0, 0)
    state[LAW_DIR] = DIR_NONE
    state[LAST_BOUT_WINNER] = winner
    state[NEXT_STARTER] = next_starter
    log_bout(state, EV_BOUT_END, winner + 1, next_starter + 1, winner_card)
    clear_pending(state)
    if luck_holder >= 0:
        for c in range(1, CARD_SLOTS):
            if c != FEAR and state[LOC + c] == luck_holder:
                if state[HAND_COUNT + luck_holder] == 1 and is_hidden(state, FEAR):
                    all_know_not_at(state, FEAR, luck_holder)  # asked: the one card is not Fear
                state[LUCK_HOLDER] = luck_holder
                ask(state, NODE_LUCK_DISCARD, luck_holder)
                return
    after_bout(state, rewards, events)


@nb.njit(cache=True)
def _round_winner(state):
    """§4.3: a 0-card seat (lowest index) beats every 1-card seat; else the highest single."""
    n = state[HDR_NUM_PLAYERS]
    best = -1
    best_card = -1
    for s in range(n):
        if state[HAND_COUNT + s] == 0:
            return s
    for s in range(n):
        if state[HAND_COUNT + s] == 1:
            for c in range(1, CARD_SLOTS):
                if state[LOC + c] == s and c > best_card:
                    best_card = c
                    best = s
    return best


@nb.njit(cache=True)
def _reveal_round_end(state, events):
    """Keep the final card locations and show the ≤1-card hands (or all, by option)."""
    n = state[HDR_NUM_PLAYERS]
    for c in range(1, CARD_SLOTS):
        loc = state[LOC + c]
        state[END_LOC + c] = loc
        state[REVEAL + c] = 0
        if loc < n and (state[OPT_REVEAL_ALL] or state[HAND_COUNT + loc] <= 1):
            state[REVEAL + c] = loc + 1
            emit(events, EV_REVEALED, loc, PUBLIC, loc, c, 0, 0, 0)
            all_know_at(state, c, loc)
    state[LAST_DISCARD_COUNT] = state[DISCARD_COUNT]
    for i in range(NUM_CARDS):
        state[LAST_DISCARD_LIST + i] = state[DISCARD_LIST + i]


@nb.njit(cache=True)
def _team_rewards(state, team, amount, rewards):
    for s in range(state[HDR_NUM_PLAYERS]):
        rewards[s] += amount if state[TEAM + s] == team else -amount


@nb.njit(cache=True)
def after_bout(state, rewards, events):
    """§4.1 step 7: end the round if a hand holds ≤ 1 card, else start the next bout."""
    n = state[HDR_NUM_PLAYERS]
    round_over = False
    for s in range(n):
        if state[HAND_COUNT + s] <= 1:
            round_over = True
    if not round_over:
        state[BOUT] += 1
        emit(events, EV_BOUT_START, -1, PUBLIC, state[BOUT], state[NEXT_STARTER], 0, 0, 0)
        start_bout(state, state[NEXT_STARTER])
        return
    winner = _round_winner(state)
    team = state[TEAM + winner]
    state[LAST_ROUND_WINNER] = winner
    _reveal_round_end(state, events)
    shaping = np.int64(load_wide(state, OPT_ROUND_REWARD_MILLI, ROUND_REWARD_SLOTS))
    if shaping != 0:
        _team_rewards(state, team, np.float32(shaping / 1000.0), rewards)
    state[ROUNDS_WON + team] += 1
    emit(events, EV_ROUND_WON, winner, PUBLIC, winner, team, state[ROUNDS_WON + team], 0, 0)
    if state[ROUNDS_WON + team] >= 2:
        state[WINNING_TEAM] = team
        emit(events, EV_GAME_WON, -1, PUBLIC, team, 0, 0, 0, 0)
        state[HDR_TERMINAL] = 1
        clear_pending(state)
        ask(state, NODE_GAME_OVER, -1)
        _team_rewards(state, team, np.float32(1.0), rewards)
        return
    starter = winner
    if state[OPT_PRIDE_CARRIES] and state[PRIDE_LEFT] >= 0:
        starter = state[PRIDE_LEFT]
    state[ROUND] += 1
    emit(events, EV_ROUND_START, -1, PUBLIC, state[ROUND], 0, 0, 0, 0)
    _deal_later_round(state, events)
    emit(events, EV_BOUT_START, -1, PUBLIC, 1, starter, 0, 0, 0)
    start_bout(state, starter)  # the new round's logs were cleared by the deal
