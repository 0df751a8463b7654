"""Président rules kernel: the only place where the rules of Président are written.

State layout (``int8``, ``STATE_DTYPE``; slots after the shared header of
:mod:`presages_env.core.header`). Every slot fits a signed byte: counts of a rank are at most
4, seats and places at most 5, ranks at most 12, the manche at most 60 (the option's limit)
and a seed score at most 2 per manche, 120.
Players keep their identity (``player_0``...) for the whole match; the seating, i.e. the turn
order, is re-arranged after each manche, so "seat" below means a position at the table and
"player" an identity. Arrays are sized for ``MAX_PLAYERS`` whatever the player count.

======================  =====  ===========================================================
slot                    size   meaning
======================  =====  ===========================================================
OPT_NUM_MANCHES         1      option: manches in the match
OPT_REWARD_SCHEME       1      option: 0 places, 1 match, 2 points (see ``REWARD_*``)
HAND                    6x13   cards held by player p of each rank (3 = rank 0 ... 2 = 12)
GONE                    13     cards of each rank played this manche (public)
PLAYER_AT_SEAT          6      player sitting at seat s (turn order is seat order)
SEAT_OF                 6      seat of player p
PHASE                   1      PHASE_PLAY or PHASE_GIVE_BACK
TOP_RANK, TOP_COUNT     2      the play to beat; TOP_RANK = -1 when the current player leads
TOP_PLAYER              1      player who made the last play of the trick (-1 before any)
PASSES                  1      passes in a row since the last play
PASSED                  6      player p passed since the last play (public)
PLACE                   6      finishing place of p this manche, -1 while p holds cards
NUM_OUT                 1      players out this manche
LAST_PLACE              6      place of p in the previous manche, -1 in the first manche
SCORE                   6      seed points of p so far (2 for 1st, 1 for 2nd each manche)
MANCHE                  1      index of the current manche (0-based)
EXCH_FROM, EXCH_TO      2      last and first players of the previous manche (-1: none)
EXCH_RECEIVED           1      rank the Président received (-1: no exchange)
EXCH_GIVEN              1      rank the Président gave back (-1: not yet)
DEALER                  1      player who dealt this manche
DECK (PLAYED_BY)        52     scratch for shuffling during a deal; afterwards the play
                               record: slot 4 * rank + j holds the player who played the
                               j-th card of that rank gone this manche (public), -1 for a
                               card no one played (set aside by a set-up) or not yet gone
======================  =====  ===========================================================
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
from presages_env.games.president.cards import NUM_CARDS, NUM_RANKS, SUITS

STATE_DTYPE = np.int8
MAX_PLAYERS = 6
MAX_SET = 4  # single, pair, triple, quad

REWARD_PLACES = 0
REWARD_MATCH = 1
REWARD_POINTS = 2

PHASE_PLAY = 0
PHASE_GIVE_BACK = 1

OPT_NUM_MANCHES = HEADER_SIZE
OPT_REWARD_SCHEME = OPT_NUM_MANCHES + 1
HAND = OPT_REWARD_SCHEME + 1
GONE = HAND + MAX_PLAYERS * NUM_RANKS
PLAYER_AT_SEAT = GONE + NUM_RANKS
SEAT_OF = PLAYER_AT_SEAT + MAX_PLAYERS
PHASE = SEAT_OF + MAX_PLAYERS
TOP_RANK = PHASE + 1
TOP_COUNT = TOP_RANK + 1
TOP_PLAYER = TOP_COUNT + 1
PASSES = TOP_PLAYER + 1
PASSED = PASSES + 1
PLACE = PASSED + MAX_PLAYERS
NUM_OUT = PLACE + MAX_PLAYERS
LAST_PLACE = NUM_OUT + 1
SCORE = LAST_PLACE + MAX_PLAYERS
MANCHE = SCORE + MAX_PLAYERS
EXCH_FROM = MANCHE + 1
EXCH_TO = EXCH_FROM + 1
EXCH_RECEIVED = EXCH_TO + 1
EXCH_GIVEN = EXCH_RECEIVED + 1
DEALER = EXCH_GIVEN + 1
DECK = DEALER + 1
PLAYED_BY = DECK  # the same slots, once the deal is done
STATE_SIZE = DECK + NUM_CARDS

# Actions: 0 passes; 1 + 4 * rank + (count - 1) plays `count` cards of `rank`. During the
# give-back the Président names the rank of the card to return with count 1.
ACTION_PASS = 0
NUM_ACTIONS = 1 + NUM_RANKS * MAX_SET

# Observation, seen from the observer: "slot" k is the k-th player clockwise from the
# observer in the current seating (slot 0 is the observer). Documented in docs/president.md.
OBS_HAND = 0
OBS_GONE = OBS_HAND + NUM_RANKS
OBS_HAND_SIZE = OBS_GONE + NUM_RANKS
OBS_IN_PLAY = OBS_HAND_SIZE + MAX_PLAYERS
OBS_PASSED = OBS_IN_PLAY + MAX_PLAYERS
OBS_PLACE = OBS_PASSED + MAX_PLAYERS
OBS_LAST_PLACE = OBS_PLACE + MAX_PLAYERS
OBS_SCORE = OBS_LAST_PLACE + MAX_PLAYERS
OBS_TOP_RANK = OBS_SCORE + MAX_PLAYERS
OBS_TOP_COUNT = OBS_TOP_RANK + NUM_RANKS
OBS_TOP_PLAYER = OBS_TOP_COUNT + MAX_SET
OBS_PHASE = OBS_TOP_PLAYER + MAX_PLAYERS
OBS_RECEIVED = OBS_PHASE + 2
OBS_GIVEN = OBS_RECEIVED + NUM_RANKS
OBS_MY_TURN = OBS_GIVEN + NUM_RANKS
OBS_MANCHES_LEFT = OBS_MY_TURN + 1
OBS_SIZE = OBS_MANCHES_LEFT + 1


# Events (core/events.py): kind -> (name, argument names). The exchanged ranks are seen by
# the two parties only; everyone sees that a card changed hands.
EV_DEALT = 1
EV_MANCHE_START = 2
EV_EXCHANGE = 3
EV_EXCHANGE_CARD = 4
EV_PLAY = 5
EV_PASS = 6
EV_TRICK_WON = 7
EV_OUT = 8
EV_MANCHE_SCORED = 9
EV_MATCH_END = 10
EVENT_KINDS = {
    EV_DEALT: ("dealt", ("player", "rank")),
    EV_MANCHE_START: ("manche_start", ("manche", "dealer", "leader")),
    EV_EXCHANGE: ("exchange", ("giver", "receiver")),
    EV_EXCHANGE_CARD: ("exchange_card", ("giver", "receiver", "rank")),
    EV_PLAY: ("play", ("rank", "count")),
    EV_PASS: ("pass", ()),
    EV_TRICK_WON: ("trick_won", ("player", "rank", "count", "leader")),
    EV_OUT: ("out", ("place",)),
    EV_MANCHE_SCORED: ("manche_scored", ("player", "place", "points", "score")),
    EV_MATCH_END: ("match_end", ()),
}
# The most events one transition writes: the manche's last play, two players out, six
# scores, the next manche's start, 52 cards dealt and the exchange's two pairs of events.
MAX_STEP_EVENTS = 1 + 2 + MAX_PLAYERS + 1 + NUM_CARDS + 4
# Events after which a world sample_world dealt may differ from the game by design, beyond
# draws from the RNG (tests/core/test_events.py): none, every shuffle is the RNG's.
WORLD_DIVERGING_EVENTS = ()


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
def _hand_size(state, player):
    total = 0
    base = HAND + player * NUM_RANKS
    for r in range(NUM_RANKS):
        total += state[base + r]
    return total


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
def played_count(state, player, rank):
    """Cards of ``rank`` ``player`` has played this manche (from the public play record)."""
    total = 0
    for j in range(state[GONE + rank]):
        if state[PLAYED_BY + rank * SUITS + j] == player:
            total += 1
    return total


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
def reset(state, seed):
    """Deal the first manche: random dealer, seating in player order."""
    reset_logged(state, seed, None)


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """``reset``, writing its events (the deal) to ``events``."""
    rng_seed(state, seed)
    n = state[HDR_NUM_PLAYERS]
    write_seed(state, seed)
    set_step(state, 0)
    state[HDR_TERMINAL] = 0
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
    mask[:] = 0
    if state[HDR_TERMINAL]:
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
def step(state, action, rewards):
    step_logged(state, action, rewards, None)


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
    if _hand_size(state, player) == 0:
        state[PLACE + player] = state[NUM_OUT]
        emit(events, EV_OUT, player, PUBLIC, state[NUM_OUT], 0, 0, 0, 0)
        state[NUM_OUT] += 1
        if state[NUM_OUT] >= n - 1:
            _end_manche(state, rewards, events)
            return
    state[HDR_CURRENT] = _next_holding(state, player)


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
        obs[OBS_HAND_SIZE + k] = _hand_size(state, other)
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


# ---- determinisation for search ------------------------------------------------------------
# What a seat knows of the hidden hands, and how ``sample_world`` draws them (docs/president.md,
# "What a seat knows"). The seat sees its own hand, every play (who played which ranks: the
# play record), hand sizes, and, if it took part in this manche's exchange, both exchanged
# ranks. Passing is always legal, so a pass reveals nothing. A deal of distinct cards is
# uniform; a player with several cards of a rank plays (or gives) any of them alike, so, per
# rank, the deals consistent with what the seat saw are weighted by the number of distinct
# deals behind them. With D[p][r] the cards of rank r hidden player p was dealt (what p holds
# now, plus what p played, plus the exchange undone), that weight is the product over p and r
# of 1 / D[p][r]!. The exchange adds bounds: the Président knows the last player was dealt
# nothing above the card received (and at least that card); the rest follows from D >= 0.
# A seat outside the exchange draws the exchange as well, the give-back taken as a uniformly
# chosen card of the Président's (every deal and every give-back card equally likely).
_WEIGHT_STEPS = 1 << 30  # resolution of the weighted draws below
_MAX_TRIES = 1 << 12  # rejection draws before the exact dynamic-programming fallback


@nb.njit(cache=True)
def _factorial(k):
    result = 1.0
    for i in range(2, k + 1):
        result *= i
    return result


@nb.njit(cache=True)
def _uniform(world):
    """A draw in [0, 1) with the resolution of ``_WEIGHT_STEPS``."""
    return rng_below(world, _WEIGHT_STEPS) / _WEIGHT_STEPS


@nb.njit(cache=True)
def _deal_unseen(world, unseen, allowed, player, count):
    """Give ``player`` ``count`` cards drawn without replacement from the unseen cards.

    Only ranks with ``allowed[rank] == 1`` are drawn; ``unseen`` counts the cards per rank
    the observer has not located yet and is updated. Returns False if too few are allowed.
    """
    available = 0
    for r in range(NUM_RANKS):
        available += unseen[r] * allowed[r]
    if available < count:
        return False
    base = HAND + player * NUM_RANKS
    for _ in range(count):
        pick = rng_below(world, available)
        rank = -1
        while pick >= 0:
            rank += 1
            pick -= unseen[rank] * allowed[rank]
        unseen[rank] -= 1
        world[base + rank] += 1
        available -= 1
    return True


@nb.njit(cache=True)
def _knowledge(state, player, hidden, count, unseen, sizes, offset, low, high):
    """What ``player`` knows of the hidden hands, per hidden player i and rank r.

    ``offset[i, r]``: cards of rank r player ``hidden[i]`` was dealt beyond what it holds
    now (played this manche, and the exchange undone when ``player`` took part in it), so
    that holding h gives the weight 1 / (h + offset)!; ``low``/``high``: bounds on h (dealt
    counts are never negative; the last player was dealt nothing above the card received,
    and at least one of its rank). Returns the index of the hidden player whose hand is
    bounded from above (the last player, for the Président), or -1.
    """
    received = state[EXCH_RECEIVED]
    given = state[EXCH_GIVEN]
    bounded = -1
    for i in range(count):
        p = hidden[i]
        for r in range(NUM_RANKS):
            offset[i, r] = played_count(state, p, r)
        if received >= 0 and player == state[EXCH_TO] and p == state[EXCH_FROM]:
            bounded = i
            offset[i, received] += 1
            if given >= 0:
                offset[i, given] -= 1
        if received >= 0 and player == state[EXCH_FROM] and p == state[EXCH_TO]:
            offset[i, received] -= 1
            if given >= 0:
                offset[i, given] += 1
        for r in range(NUM_RANKS):
            low[i, r] = max(0, -offset[i, r])
            high[i, r] = min(SUITS, unseen[r], sizes[i])
            if i == bounded:
                if r > received:  # dealt none: h = -offset, impossible if offset > 0
                    high[i, r] = min(high[i, r], -offset[i, r])
                elif r == received:
                    low[i, r] = max(low[i, r], 1 - offset[i, r])
    return bounded


@nb.njit(cache=True)
def _ratio_bound(offset, low, high, count):
    """The largest value of the product over hidden players and ranks of h! / (h + offset)!
    (the target's weight over the proposal's) allowed by the bounds."""
    bound = 1.0
    for i in range(count):
        for r in range(NUM_RANKS):
            if high[i, r] < low[i, r]:
                continue
            if offset[i, r] >= 0:
                bound *= _factorial(low[i, r]) / _factorial(low[i, r] + offset[i, r])
            else:  # offset -1: h! / (h - 1)! = h, largest at the upper bound
                bound *= high[i, r]
    return bound


@nb.njit(cache=True)
def _rejection_draw(world, unseen, hidden, count, sizes, offset, low, high, bounded, hands):
    """One proposal (uniform over distinct cards, the bounded hand dealt first within its
    allowed ranks), accepted with probability target / (proposal * bound). Writes ``hands``
    and returns True when accepted."""
    left = unseen.copy()
    for i in range(count):
        for r in range(NUM_RANKS):
            hands[i, r] = 0
    allowed = np.ones(NUM_RANKS, dtype=np.int64)
    order = np.arange(count)
    if bounded >= 0:
        order[0], order[bounded] = bounded, 0
    for j in range(count):
        i = order[j]
        for r in range(NUM_RANKS):
            allowed[r] = 1 if (j > 0 or bounded < 0 or high[i, r] > 0) else 0
        base = HAND + hidden[i] * NUM_RANKS
        for r in range(NUM_RANKS):
            world[base + r] = 0
        if not _deal_unseen(world, left, allowed, hidden[i], sizes[i]):
            return False
        for r in range(NUM_RANKS):
            hands[i, r] = world[base + r]
    ratio = 1.0
    for i in range(count):
        for r in range(NUM_RANKS):
            h = hands[i, r]
            if h < low[i, r] or h > high[i, r]:
                return False
            ratio *= _factorial(h) / _factorial(h + offset[i, r])
    return _uniform(world) * _ratio_bound(offset, low, high, count) < ratio


@nb.njit(cache=True)
def _compositions(unseen_r, r, count, low, high):
    """Every way (h_0..h_count-1) to split ``unseen_r`` cards of rank r within the bounds."""
    total = 1
    for _ in range(count):
        total *= SUITS + 1
    out = np.zeros((total, max(count, 1)), dtype=np.int64)
    found = 0
    h = np.zeros(max(count, 1), dtype=np.int64)
    for code in range(total):
        rest = code
        ok = True
        s = 0
        for i in range(count):
            h[i] = rest % (SUITS + 1)
            rest //= SUITS + 1
            s += h[i]
            if h[i] < low[i, r] or h[i] > high[i, r]:
                ok = False
        if ok and s == unseen_r:
            out[found, :] = h
            found += 1
    return out[:found]


@nb.njit(cache=True)
def _weight(h, offset, extra):
    """A hidden hand's factor for one rank: 1 / (h + offset)!, times (h + offset + extra)
    when ``extra`` >= 0 (the outsider's give-back factor), 0 when negative."""
    dealt = h + offset
    if dealt < 0:
        return 0.0
    weight = 1.0 / _factorial(dealt)
    if extra >= 0:
        weight *= dealt + extra
    return weight


@nb.njit(cache=True)
def _exact_draw(world, unseen, count, sizes, offset, low, high, hands, extra, sample):
    """Dynamic programming over ranks, the state being the cards each hidden player still
    has to receive: returns the total weight of the consistent deals and, if ``sample``,
    draws one into ``hands`` exactly. ``extra[i, r] >= 0`` multiplies a factor by
    (dealt + extra) (see :func:`_weight`)."""
    stride = np.ones(max(count, 1), dtype=np.int64)
    states = 1
    for i in range(count):
        stride[i] = states
        states *= sizes[i] + 1
    table = np.zeros((NUM_RANKS + 1, states))
    table[NUM_RANKS, 0] = 1.0
    capacity = np.zeros(max(count, 1), dtype=np.int64)
    for r in range(NUM_RANKS - 1, -1, -1):
        comps = _compositions(unseen[r], r, count, low, high)
        weights = np.ones(comps.shape[0])
        for c in range(comps.shape[0]):
            for i in range(count):
                weights[c] *= _weight(comps[c, i], offset[i, r], extra[i, r])
        for index in range(states):
            rest = index
            for i in range(count):
                capacity[i] = rest % (sizes[i] + 1)
                rest //= sizes[i] + 1
            total = 0.0
            for c in range(comps.shape[0]):
                fits = True
                shift = 0
                for i in range(count):
                    if comps[c, i] > capacity[i]:
                        fits = False
                    shift += comps[c, i] * stride[i]
                if fits:
                    total += weights[c] * table[r + 1, index - shift]
            table[r, index] = total
    index = 0
    for i in range(count):
        index += sizes[i] * stride[i]
    total = table[0, index]
    if total <= 0.0 or not sample:
        return total
    for r in range(NUM_RANKS):
        comps = _compositions(unseen[r], r, count, low, high)
        rest = index
        for i in range(count):
            capacity[i] = rest % (sizes[i] + 1)
            rest //= sizes[i] + 1
        target = _uniform(world) * table[r, index]
        chosen = -1
        for c in range(comps.shape[0]):
            fits = True
            shift = 0
            weight = 1.0
            for i in range(count):
                if comps[c, i] > capacity[i]:
                    fits = False
                shift += comps[c, i] * stride[i]
                weight *= _weight(comps[c, i], offset[i, r], extra[i, r])
            if fits and weight * table[r + 1, index - shift] > 0.0:
                chosen = c
                target -= weight * table[r + 1, index - shift]
                if target < 0.0:
                    break
        for i in range(count):
            hands[i, r] = comps[chosen, i]
            index -= comps[chosen, i] * stride[i]
    return total


@nb.njit(cache=True)
def _exchange_weights(hands, offset, ia, il, pending, weights):
    """For a seat outside the exchange: the weight of each exchange (received R, given G)
    with the hidden hands ``hands``, over their weight with no exchange (the plays alone).

    With y = what the last player holds + played and z the same for the Président, undoing
    the exchange changes four factors 1 / D!, and a uniformly chosen give-back weighs the
    Président's cards of rank G after receiving. For G != R this is z_R * y_G / (y_R + 1),
    for G == R it is z_R + 1; the last player must have been dealt nothing above R and at
    least one R. ``pending``: the give-back is still to come (only R, weight z_R / (y_R + 1)).
    Returns the total; ``weights[R, G]`` (column 0 when pending) holds each term.
    """
    total = 0.0
    weights[:, :] = 0.0
    top = -1
    second = -1
    for r in range(NUM_RANKS):
        if hands[il, r] + offset[il, r] > 0:
            second = top
            top = r
    for big in range(NUM_RANKS):
        z = hands[ia, big] + offset[ia, big]
        y = hands[il, big] + offset[il, big]
        if pending:
            if z >= 1 and big >= top:
                weights[big, 0] = z / (y + 1.0)
                total += weights[big, 0]
            continue
        for g in range(NUM_RANKS):
            yg = hands[il, g] + offset[il, g]
            if g == big:
                # dealt = now + played; at least one R, nothing above
                if y >= 1 and big >= top:
                    weights[big, g] = z + 1.0
            elif z >= 1 and yg >= 1:
                # nothing above R once the card given back is taken out
                highest = top
                if g == top and yg == 1:
                    highest = second
                if big >= highest:
                    weights[big, g] = z * yg / (y + 1.0)
            total += weights[big, g]
    return total


@nb.njit(cache=True)
def _outsider_exact(world, unseen, count, sizes, offset, low, high, hands, ia, il, pending):
    """The exact draw for a seat outside the exchange: every exchange (R, G) weighed by the
    dynamic programming with the exchange undone, one chosen, then the hands drawn for it.
    Returns (R, G)."""
    off = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    lo = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    extra = np.full((MAX_PLAYERS, NUM_RANKS), -1, dtype=np.int64)
    totals = np.zeros((NUM_RANKS, NUM_RANKS))
    grand = 0.0
    last_big = -1
    last_g = -1
    for stage in range(3):
        target = _uniform(world) * grand
        for big in range(NUM_RANKS):
            for g in range(NUM_RANKS if not pending else 1):
                if stage > 0 and totals[big, g] <= 0.0:
                    continue
                if stage == 2 and (big != last_big or g != last_g):
                    continue
                off[:, :] = offset
                lo[:, :] = low
                hi = high.copy()
                extra[:, :] = -1
                off[il, big] += 1
                off[ia, big] -= 1
                if not pending:
                    off[il, g] -= 1
                    off[ia, g] += 1
                    extra[ia, g] = 1 if g == big else 0
                for r in range(NUM_RANKS):
                    lo[ia, r] = max(lo[ia, r], -off[ia, r])
                    lo[il, r] = max(lo[il, r], -off[il, r])
                    if r > big:  # dealt none: h = -offset, impossible if offset > 0
                        hi[il, r] = min(hi[il, r], -off[il, r])
                    elif r == big:
                        lo[il, r] = max(lo[il, r], 1 - off[il, r])
                if stage == 0:
                    totals[big, g] = _exact_draw(
                        world, unseen, count, sizes, off, lo, hi, hands, extra, False
                    )
                    grand += totals[big, g]
                    continue
                last_big = big
                last_g = g
                target -= totals[big, g]
                if target < 0.0 or stage == 2:  # stage 2: rounding left the last one
                    _exact_draw(world, unseen, count, sizes, off, lo, hi, hands, extra, True)
                    return big, (-1 if pending else g)
        if grand <= 0.0:
            break
    return -1, -1


@nb.njit(cache=True)
def draw_world(state, player, seed, world, tries):
    """``sample_world`` with the number of rejection draws to try before the exact fallback
    (0: the dynamic programming only; tests check both paths)."""
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    unseen = np.empty(NUM_RANKS, dtype=np.int64)
    for r in range(NUM_RANKS):
        unseen[r] = SUITS - state[GONE + r] - state[HAND + player * NUM_RANKS + r]
    hidden = np.zeros(MAX_PLAYERS, dtype=np.int64)
    sizes = np.zeros(MAX_PLAYERS, dtype=np.int64)
    count = 0
    ia = -1
    il = -1
    for p in range(n):
        if p != player:
            if p == state[EXCH_TO]:
                ia = count
            if p == state[EXCH_FROM]:
                il = count
            hidden[count] = p
            sizes[count] = _hand_size(state, p)
            count += 1
    # A seat outside an exchange that took place draws the exchange too.
    outsider = state[EXCH_RECEIVED] >= 0 and ia >= 0 and il >= 0
    pending = state[PHASE] == PHASE_GIVE_BACK
    offset = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    low = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    high = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    bounded = _knowledge(state, player, hidden, count, unseen, sizes, offset, low, high)
    hands = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    no_extra = np.full((MAX_PLAYERS, NUM_RANKS), -1, dtype=np.int64)
    exchange = np.zeros((NUM_RANKS, NUM_RANKS))
    big = -1
    small = -1
    accepted = False
    bound = 0.0
    if outsider:
        # bound on the exchange weights: z_R <= m_A, y_G <= m_L summed (see _exchange_weights)
        m_a = 0
        m_l = 0
        for r in range(NUM_RANKS):
            m_a += offset[ia, r]
            m_l += offset[il, r]
        m_a += sizes[ia]
        m_l += sizes[il]
        bound = 1.0 * (m_a if pending else m_a * m_l + m_a + NUM_RANKS)
    for _ in range(tries):
        if not _rejection_draw(
            world, unseen, hidden, count, sizes, offset, low, high, bounded, hands
        ):
            continue
        if not outsider:
            accepted = True
            break
        total = _exchange_weights(hands, offset, ia, il, pending, exchange)
        if _uniform(world) * bound < total:
            target = _uniform(world) * total
            for r in range(NUM_RANKS):
                for g in range(NUM_RANKS):
                    if exchange[r, g] > 0.0 and target >= 0.0:
                        target -= exchange[r, g]
                        big = r  # the last positive one stands if rounding leaves target >= 0
                        small = -1 if pending else g
            accepted = True
            break
    if not accepted:
        if outsider:
            big, small = _outsider_exact(
                world, unseen, count, sizes, offset, low, high, hands, ia, il, pending
            )
            accepted = big >= 0
        else:
            accepted = (
                _exact_draw(world, unseen, count, sizes, offset, low, high, hands, no_extra, True)
                > 0.0
            )
    if outsider and accepted:
        world[EXCH_RECEIVED] = big
        world[EXCH_GIVEN] = small
    for i in range(count):
        base = HAND + hidden[i] * NUM_RANKS
        for r in range(NUM_RANKS):
            world[base + r] = hands[i, r] if accepted else state[base + r]


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state drawn uniformly among those ``player`` cannot tell
    apart from ``state`` (docs/president.md, "What a seat knows (sample_world)").

    Kept: ``player``'s hand and everything public (cards played and by whom, hand sizes,
    places, seating, the trick, scores), and the exchanged ranks if ``player`` took part in
    this manche's exchange. The other hands are drawn with the weight of the distinct-card
    deals behind them (see the comment above), by rejection from a uniform re-deal of the
    unseen cards, with an exact dynamic-programming fallback after ``_MAX_TRIES`` draws, so
    the draw is exact either way. A seat outside the exchange draws the exchange too (the
    rank received and, with the give-back taken as a uniformly chosen card of the
    Président's, the rank given back), which the world's exchange slots then hold. The
    world's RNG is re-seeded from ``seed`` so later deals are unknown.
    """
    draw_world(state, player, seed, world, _MAX_TRIES)
