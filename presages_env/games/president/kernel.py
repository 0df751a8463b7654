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
DECK                    52     scratch for shuffling
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
    # The last player's strongest card goes to the Président, who then gives one back.
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
# seating; the shuffle scratch (DECK) is left out.
GLOBAL_DTYPE = STATE_DTYPE  # the observation's dtype too
GLOBAL_SEATS = MAX_PLAYERS
GLOBAL_SLOTS_END = DECK
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int8)


# ---- determinisation for search ------------------------------------------------------------
_WEIGHT_STEPS = 1 << 30  # resolution of the weighted draws below


@nb.njit(cache=True)
def _binomial(n, k):
    """``n`` choose ``k`` as a float (0 when ``k`` is out of range)."""
    if k < 0 or k > n:
        return 0.0
    result = 1.0
    for i in range(k):
        result = result * (n - i) / (i + 1)
    return result


@nb.njit(cache=True)
def _deal_unseen(world, unseen, allowed, player, count):
    """Give ``player`` ``count`` cards drawn without replacement from the unseen cards.

    Only ranks with ``allowed[rank] == 1`` are drawn; ``unseen`` counts the cards per rank
    the observer has not located yet and is updated.
    """
    available = 0
    for r in range(NUM_RANKS):
        available += unseen[r] * allowed[r]
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


@nb.njit(cache=True)
def _exchange_knowledge(state, player):
    """What ``player`` knows of the other exchange party's hand from this manche's exchange.

    Returns ``(party, highest, known, fewest, most)``: the other party (-1 if ``player``
    took no part in an exchange), the highest rank it may hold freely, and a rank ``known``
    (-1: none) of which it holds between ``fewest`` and ``most`` cards. Cards only leave a
    hand during a manche, so what held after the exchange still bounds the hand now.
    """
    received = state[EXCH_RECEIVED]
    given = state[EXCH_GIVEN]
    if received < 0:
        return -1, NUM_RANKS - 1, -1, 0, 0
    if player == state[EXCH_TO]:
        # The last player gave their strongest card, so held nothing above it but the card
        # given back, which they keep until a card of its rank is played.
        if given < 0:
            return state[EXCH_FROM], received, -1, 0, 0
        fewest = 1 if state[GONE + given] == 0 else 0
        most = 1 if given > received else SUITS
        return state[EXCH_FROM], received, given, fewest, most
    if player == state[EXCH_FROM]:
        # The Président keeps the card received unless it was given straight back or a card
        # of its rank has been played since.
        fewest = 1 if state[GONE + received] == 0 and given != received else 0
        return state[EXCH_TO], NUM_RANKS - 1, received, fewest, SUITS
    return -1, NUM_RANKS - 1, -1, 0, 0


@nb.njit(cache=True)
def _deal_exchange_party(world, unseen, party, size, highest, known, fewest, most):
    """Deal ``party`` ``size`` cards uniformly among the hands allowed by the exchange.

    First the number of cards of rank ``known`` is drawn with the weight of the hands that
    hold that many (a product of binomials), then the rest come from the freely allowed
    ranks, which makes every allowed hand equally likely.
    """
    allowed = np.zeros(NUM_RANKS, dtype=np.int64)
    free = 0
    for r in range(highest + 1):
        if r != known:
            allowed[r] = 1
            free += unseen[r]
    count = 0
    if known >= 0:
        top = min(most, unseen[known], size)
        total = 0.0
        for c in range(fewest, top + 1):
            total += _binomial(unseen[known], c) * _binomial(free, size - c)
        target = rng_below(world, _WEIGHT_STEPS) / _WEIGHT_STEPS * total
        count = fewest
        target -= _binomial(unseen[known], count) * _binomial(free, size - count)
        while target >= 0.0 and count < top:
            count += 1
            target -= _binomial(unseen[known], count) * _binomial(free, size - count)
        world[HAND + party * NUM_RANKS + known] += count
        unseen[known] -= count
    _deal_unseen(world, unseen, allowed, party, size - count)


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state ``player`` cannot tell apart from ``state``.

    Kept: ``player``'s hand and everything public (cards played, hand sizes, places,
    seating, the trick, scores). The other players' hands are re-dealt uniformly from the
    cards ``player`` has not seen, with their sizes kept, among the deals consistent with
    this manche's exchange when ``player`` took part in it: the Président knows the last
    player held nothing above the card they gave (except the card given back, which they
    hold while no card of its rank has been played); the last player knows the Président
    holds the card received while no card of its rank has been played (unless it was given
    straight back). The world's RNG is re-seeded from ``seed`` so later deals are unknown,
    and the shuffle scratch and the true seed, which would reveal the deal, are cleared; a
    player outside the exchange gets a world with the exchanged ranks forgotten.

    Not enforced: inferences from the play history (who played which cards, who passed
    with a playable hand), which the state does not record, and the exchanges of earlier
    manches (the cards have been re-dealt since).
    """
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    world[DECK : DECK + NUM_CARDS] = 0
    n = state[HDR_NUM_PLAYERS]
    unseen = np.empty(NUM_RANKS, dtype=np.int64)
    for r in range(NUM_RANKS):
        unseen[r] = SUITS - state[GONE + r] - state[HAND + player * NUM_RANKS + r]
    sizes = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for p in range(n):
        if p != player:
            sizes[p] = _hand_size(state, p)
            world[HAND + p * NUM_RANKS : HAND + (p + 1) * NUM_RANKS] = 0
    party, highest, known, fewest, most = _exchange_knowledge(state, player)
    if party >= 0:
        _deal_exchange_party(world, unseen, party, sizes[party], highest, known, fewest, most)
        sizes[party] = 0
    else:
        world[EXCH_RECEIVED] = -1
        world[EXCH_GIVEN] = -1
    every_rank = np.ones(NUM_RANKS, dtype=np.int64)
    for p in range(n):
        _deal_unseen(world, unseen, every_rank, p, sizes[p])
