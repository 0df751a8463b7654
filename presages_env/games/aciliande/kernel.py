"""Aciliande rules as numba kernels over a flat ``int16`` state (``STATE_DTYPE``).

State layout (offsets after the shared header; seats 0..n-1, unused seat slots stay 0).
``int16`` because the stake (up to 1000), the pot and the coins received (up to 7 x 1000)
need more than a byte; every other slot fits one (lives at most 99, cards 21, tricks 11).

Options (written by ``AciliandeGame.write_options``, never touched by ``reset``)
    OPT_GODDESSES[3]   card numbers of the three Goddesses
    OPT_LIVES[7]       starting life cards of each seat
    OPT_STAKE          coins each player puts in the pot
    OPT_FIXED_HAND     hand size for every ordinary manche; 0 = the dealer chooses
    OPT_TEAMS          1 = team variant (partners: even seats against odd seats)
    OPT_TIEBREAK       end of a duel with both players still in: TIEBREAK_LIVES or _SHARE

Game (rewritten by ``reset``)
    NODE               decision awaited: NODE_HAND_SIZE, NODE_BID, NODE_PLAY, NODE_DECLARE,
                       NODE_GAME_OVER (the seat deciding is the header's HDR_CURRENT)
    DEALER             dealer of the current manche
    HAND_SIZE          cards dealt to each player this manche (0 before the dealer chose)
    LEADER             seat that led the current trick
    TRICK_INDEX        tricks completed in this manche
    TRICK_LEN          cards in the current trick
    TRICK_DECL         the current trick's first Goddess: DECL_NONE, DECL_TAKE, DECL_LEAVE
    TRICK_GODDESSES    Goddesses played in the current trick
    DUEL               1 once two players are left and the duel has begun
    FACE_UP            Goddesses still face up in the duel (3, 2, 1); 0 outside the duel
    MANCHE             manches begun since the deal of the game
    END_REASON         END_* code once the game is over, END_NONE before
    POT                coins in the pot (players x stake)
    LIVES[7]           life cards left
    ALIVE[7]           1 while the seat is still in the game
    IN_MANCHE[7]       1 if the seat was dealt into the current (or last) manche
    BIDS[7]            bid of this manche, -1 before the seat bid
    TRICKS[7]          tricks won this manche
    LOST_LAST[7]       life cards lost when the last manche was scored
    COINS[7]           coins received from the pot (set when the game ends)
    DRAW[7]            card drawn for the leftover coins, -1 if the seat did not draw
    CARD_OWNER[22]     seat the card was dealt to this manche, -1 if undealt
    CARD_TRICK[22]     trick (0-based) the card was played in this manche, -1 if not played
    TRICK_CARDS[7]     cards of the current trick in play order, -1 in empty slots
    TRICK_SEATS[7]     who played them, -1 in empty slots
    PAST_WINNER[11]    winner of each completed trick of this manche, -1 otherwise
    PAST_DECL[11]      declaration made in each completed trick of this manche

A card is in a hand when CARD_OWNER >= 0 and CARD_TRICK == -1. Seats are clockwise in
increasing order: the player "to the left" of seat s is the next seat still in the game.
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.global_state import bind_global_state
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    HEADER_SIZE,
    count_step,
    set_step,
    write_seed,
)
from presages_env.core.rng import rng_below, rng_seed, rng_shuffle
from presages_env.games.aciliande.cards import NUM_CARDS

STATE_DTYPE = np.int16
MAX_PLAYERS = 7
MAX_TRICKS = NUM_CARDS // 2  # two players, eleven cards each
NUM_GODDESSES = 3
DUEL_MANCHES = 3

# ---- state layout -------------------------------------------------------------------------
OPT_GODDESSES = HEADER_SIZE
OPT_LIVES = OPT_GODDESSES + NUM_GODDESSES
OPT_STAKE = OPT_LIVES + MAX_PLAYERS
OPT_FIXED_HAND = OPT_STAKE + 1
OPT_TEAMS = OPT_FIXED_HAND + 1
OPT_TIEBREAK = OPT_TEAMS + 1
NODE = OPT_TIEBREAK + 1
DEALER = NODE + 1
HAND_SIZE = DEALER + 1
LEADER = HAND_SIZE + 1
TRICK_INDEX = LEADER + 1
TRICK_LEN = TRICK_INDEX + 1
TRICK_DECL = TRICK_LEN + 1
TRICK_GODDESSES = TRICK_DECL + 1
DUEL = TRICK_GODDESSES + 1
FACE_UP = DUEL + 1
MANCHE = FACE_UP + 1
END_REASON = MANCHE + 1
POT = END_REASON + 1
LIVES = POT + 1
ALIVE = LIVES + MAX_PLAYERS
IN_MANCHE = ALIVE + MAX_PLAYERS
BIDS = IN_MANCHE + MAX_PLAYERS
TRICKS = BIDS + MAX_PLAYERS
LOST_LAST = TRICKS + MAX_PLAYERS
COINS = LOST_LAST + MAX_PLAYERS
DRAW = COINS + MAX_PLAYERS
CARD_OWNER = DRAW + MAX_PLAYERS
CARD_TRICK = CARD_OWNER + NUM_CARDS
TRICK_CARDS = CARD_TRICK + NUM_CARDS
TRICK_SEATS = TRICK_CARDS + MAX_PLAYERS
PAST_WINNER = TRICK_SEATS + MAX_PLAYERS
PAST_DECL = PAST_WINNER + MAX_TRICKS
STATE_SIZE = PAST_DECL + MAX_TRICKS

# ---- decision nodes ---------------------------------------------------------------------
NODE_HAND_SIZE = 0
NODE_BID = 1
NODE_PLAY = 2
NODE_DECLARE = 3
NODE_GAME_OVER = 4
NUM_NODES = 5

DECL_NONE = 0
DECL_TAKE = 1
DECL_LEAVE = 2

TIEBREAK_LIVES = 0
TIEBREAK_SHARE = 1

# Passed to win_alone/share_among as np.int64(END_...): numba compiles a function once per
# literal constant it is called with, and the game's end is a large function.
END_NONE = 0
END_THIRD_GODDESS = 1  # a third Goddess in one trick: its player wins at once
END_LAST_SURVIVOR = 2  # one player left after a manche
END_ALL_ELIMINATED = 3  # nobody left: the players of the last manche share
END_DUEL_MORE_LIVES = 4  # both duellists still in after three duel manches, unequal lives
END_DUEL_SHARE = 5  # both duellists still in after three duel manches, sharing
END_TEAM_SURVIVES = 6  # team variant: everybody left is on one team

# ---- actions ------------------------------------------------------------------------------
ACT_HAND_SIZE = 0  # ACT_HAND_SIZE + k - 1: deal k cards each (k = 1..11)
ACT_BID = ACT_HAND_SIZE + MAX_TRICKS  # ACT_BID + b: bid b tricks (b = 0..11)
ACT_CARD = ACT_BID + MAX_TRICKS + 1  # ACT_CARD + c: play card c (c = 0..21)
ACT_TAKE = ACT_CARD + NUM_CARDS  # the first Goddess of the trick takes it
ACT_LEAVE = ACT_TAKE + 1  # the first Goddess of the trick leaves it
NUM_ACTIONS = ACT_LEAVE + 1

# ---- events (core/events.py): kind -> (name, argument names) -------------------------------
# Only the cards dealt to a seat are private (to that seat); undealt cards are in no event.
# Everything else is public: the rules make bids, cards played, declarations, lives, the
# duel's Goddesses and the leftover draw seen by everyone.
EV_MANCHE_START = 1
EV_DEAL = 2
EV_DEALT = 3
EV_BID = 4
EV_PLAY = 5
EV_DECLARE = 6
EV_TRICK_WON = 7
EV_MANCHE_SCORED = 8
EV_ELIMINATED = 9
EV_DUEL_START = 10
EV_GODDESS_FACE_DOWN = 11
EV_LEFTOVER_DRAW = 12
EV_COINS = 13
EV_GAME_END = 14
EVENT_KINDS = {
    EV_MANCHE_START: ("manche_start", ("manche", "dealer", "leader", "face_up")),
    EV_DEAL: ("deal", ("hand_size", "players")),
    EV_DEALT: ("dealt", ("player", "card")),
    EV_BID: ("bid", ("bid",)),
    EV_PLAY: ("play", ("card", "trick", "goddess")),
    EV_DECLARE: ("declare", ("declaration",)),
    EV_TRICK_WON: ("trick_won", ("player", "card", "trick", "declaration", "tricks")),
    EV_MANCHE_SCORED: ("manche_scored", ("player", "bid", "tricks", "lost", "lives")),
    EV_ELIMINATED: ("eliminated", ("player",)),
    EV_DUEL_START: ("duel_start", ("goddess_a", "goddess_b", "goddess_c")),
    EV_GODDESS_FACE_DOWN: ("goddess_face_down", ("face_up",)),
    EV_LEFTOVER_DRAW: ("leftover_draw", ("player", "card")),
    EV_COINS: ("coins", ("player", "coins", "reward")),
    EV_GAME_END: ("game_end", ("reason", "pot")),
}
# The most events one transition writes. The longest is the card (or the declaration) that
# completes a manche's last trick: that play or declaration and the trick won (2), a score
# and at most an elimination per seat (2 x 7), then the larger of
#   - the next manche: the duel's start or a Goddess turned face down, its start, the deal
#     and at most 22 cards dealt (3 + 22 = 25), and
#   - the end of the game: a Goddess turned face down, at most 7 leftover draws, the coins
#     of each seat and the end (1 + 7 + 7 + 1 = 16).
# The others are shorter: reset (start, deal, 22 cards), the dealer's hand size (deal, 22
# cards), a bid (1), a third Goddess (play, 7 draws, 7 coins, end).
MAX_STEP_EVENTS = 2 + 2 * MAX_PLAYERS + max(3 + NUM_CARDS, 2 * MAX_PLAYERS + 2)
# Events after which a world sample_world dealt may differ from the game by design, beyond
# draws from the RNG (tests/core/test_events.py): none, every shuffle is the RNG's.
WORLD_DIVERGING_EVENTS = ()


# ---- small queries ------------------------------------------------------------------------
@nb.njit(cache=True)
def is_goddess(state, card):
    return (
        card == state[OPT_GODDESSES]
        or card == state[OPT_GODDESSES + 1]
        or card == state[OPT_GODDESSES + 2]
    )


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
def reset(state, seed):
    reset_logged(state, seed, None)


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """``reset``, writing its events (the first manche's start, and its deal when the
    hand size is fixed) to ``events``."""
    rng_seed(state, seed)
    write_seed(state, seed)
    set_step(state, 0)
    state[HDR_TERMINAL] = 0
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
    mask[:] = 0
    if state[HDR_TERMINAL]:
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
def step(state, action, rewards):
    step_logged(state, action, rewards, None)


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


# ---- observation --------------------------------------------------------------------------
# Seats are relative to the observer: slot k describes seat (observer + k) % n. A "seat+1"
# entry is 0 for nobody. Blocks in order (n = players):
OBS_NODE = 0  # [5] one-hot decision node
OBS_CURRENT = OBS_NODE + NUM_NODES  # [7] one-hot seat to act (relative), none once over
OBS_DEALER = OBS_CURRENT + MAX_PLAYERS  # [7] one-hot dealer (relative)
OBS_HAND = OBS_DEALER + MAX_PLAYERS  # [22] 1 for each card in the observer's hand
OBS_GODDESS = OBS_HAND + NUM_CARDS  # [22] 1 for the three Goddess cards (a public rule)
OBS_PLAYED_BY = OBS_GODDESS + NUM_CARDS  # [22] relative seat+1 that played the card
OBS_PLAYED_IN = OBS_PLAYED_BY + NUM_CARDS  # [22] trick+1 the card was played in
OBS_TRICK_CARDS = OBS_PLAYED_IN + NUM_CARDS  # [7] current trick: card+1 in play order
OBS_TRICK_SEATS = OBS_TRICK_CARDS + MAX_PLAYERS  # [7] current trick: relative seat+1
OBS_TRICK_DECL = OBS_TRICK_SEATS + MAX_PLAYERS  # [1] current trick's declaration
OBS_PAST_WINNER = OBS_TRICK_DECL + 1  # [11] relative seat+1 of each completed trick's winner
OBS_PAST_DECL = OBS_PAST_WINNER + MAX_TRICKS  # [11] declaration of each completed trick
OBS_BIDS = OBS_PAST_DECL + MAX_TRICKS  # [7] bid+1 (0 before bidding / out of the manche)
OBS_TRICKS = OBS_BIDS + MAX_PLAYERS  # [7] tricks won this manche
OBS_LIVES = OBS_TRICKS + MAX_PLAYERS  # [7] life cards left
OBS_ELIMINATED = OBS_LIVES + MAX_PLAYERS  # [7] 1 once eliminated
OBS_HAND_SIZE = OBS_ELIMINATED + MAX_PLAYERS  # [1] hand size (0 while the dealer chooses)
OBS_TRICK_INDEX = OBS_HAND_SIZE + 1  # [1] tricks completed this manche
OBS_DUEL = OBS_TRICK_INDEX + 1  # [1] 1 during the duel
OBS_FACE_UP = OBS_DUEL + 1  # [1] Goddesses face up in the duel
OBS_POT = OBS_FACE_UP + 1  # [1] coins in the pot
OBS_TEAMS = OBS_POT + 1  # [1] 1 in the team variant
OBS_SIZE = OBS_TEAMS + 1


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


# ---- determinisation for search ------------------------------------------------------------
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
