"""Président state, action, observation and event layouts, and the reads of the state the
rules and the belief sampler share (``kernel.py``, ``beliefs.py``).

State layout (``int8``, ``STATE_DTYPE``; slots after the shared header of
:mod:`presages_env.core.header`). Every slot fits a signed byte: counts of a rank are at most
4, seats and places at most 5, ranks at most 12, the manche at most 60 (the option's limit)
and a seed score at most 2 per manche, 120.
Players keep their identity (``player_0``...) for the whole match; the seating, i.e. the turn
order, is re-arranged after each manche, so "seat" below means a position at the table and
"player" an identity. Arrays are sized for ``MAX_PLAYERS`` whatever the player count.

Every slot and what it holds is declared below with :class:`~presages_env.core.layout.SlotLayout`
(``slots``); docs/president.md shows them as a table generated from that list.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HEADER_SIZE
from presages_env.core.layout import SlotLayout
from presages_env.core.options import add_option_slots
from presages_env.games.president.cards import NUM_CARDS, NUM_RANKS, SUITS
from presages_env.games.president.options import option_space

STATE_DTYPE = np.int8
MAX_PLAYERS = 6
MAX_SET = 4  # single, pair, triple, quad

REWARD_PLACES = 0
REWARD_MATCH = 1
REWARD_POINTS = 2

PHASE_PLAY = 0
PHASE_GIVE_BACK = 1

slots = SlotLayout(start=HEADER_SIZE)
# one slot per option, derived from the option space (reward_scheme: its index, REWARD_*)
OPT_NUM_MANCHES, OPT_REWARD_SCHEME = add_option_slots(slots, option_space)
HAND = slots.add(
    "HAND", (MAX_PLAYERS, NUM_RANKS), "cards held by player p of each rank (3 = rank 0 ... 2 = 12)"
)
GONE = slots.add("GONE", NUM_RANKS, "cards of each rank played this manche (public)")
PLAYER_AT_SEAT = slots.add(
    "PLAYER_AT_SEAT", MAX_PLAYERS, "player sitting at seat s (turn order is seat order)"
)
SEAT_OF = slots.add("SEAT_OF", MAX_PLAYERS, "seat of player p")
PHASE = slots.add("PHASE", 1, "PHASE_PLAY or PHASE_GIVE_BACK")
TOP_RANK = slots.add("TOP_RANK", 1, "rank of the play to beat; -1 when the current player leads")
TOP_COUNT = slots.add("TOP_COUNT", 1, "cards in the play to beat")
TOP_PLAYER = slots.add(
    "TOP_PLAYER", 1, "player who made the last play of the trick (-1 before any)"
)
PASSES = slots.add("PASSES", 1, "passes in a row since the last play")
PASSED = slots.add("PASSED", MAX_PLAYERS, "player p passed since the last play (public)")
PLACE = slots.add("PLACE", MAX_PLAYERS, "finishing place of p this manche, -1 while p holds cards")
NUM_OUT = slots.add("NUM_OUT", 1, "players out this manche")
LAST_PLACE = slots.add(
    "LAST_PLACE", MAX_PLAYERS, "place of p in the previous manche, -1 in the first manche"
)
SCORE = slots.add(
    "SCORE", MAX_PLAYERS, "seed points of p so far (2 for 1st, 1 for 2nd each manche)"
)
MANCHE = slots.add("MANCHE", 1, "index of the current manche (0-based)")
EXCH_FROM = slots.add("EXCH_FROM", 1, "last player of the previous manche (-1: none)")
EXCH_TO = slots.add("EXCH_TO", 1, "first player of the previous manche (-1: none)")
EXCH_RECEIVED = slots.add("EXCH_RECEIVED", 1, "rank the Président received (-1: no exchange)")
EXCH_GIVEN = slots.add("EXCH_GIVEN", 1, "rank the Président gave back (-1: not yet)")
DEALER = slots.add("DEALER", 1, "player who dealt this manche")
DECK = slots.add(
    "DECK",
    NUM_CARDS,
    "scratch for shuffling during a deal; afterwards the play record "
    "PLAYED_BY: slot 4 * rank + j holds the player who played the j-th card of that rank "
    "gone this manche (public), -1 for a card no one played (set aside by a set-up) or not "
    "yet gone",
)
PLAYED_BY = DECK  # the same slots, once the deal is done
STATE_SIZE = slots.size

# Actions: 0 passes; 1 + 4 * rank + (count - 1) plays `count` cards of `rank`. During the
# give-back the Président names the rank of the card to return with count 1.
ACTION_PASS = 0
NUM_ACTIONS = 1 + NUM_RANKS * MAX_SET

# Observation, seen from the observer: "slot" k is the k-th player clockwise from the
# observer in the current seating (slot 0 is the observer). Documented in docs/president.md.
obs_slots = SlotLayout()  # its table in docs/president.md is generated from it
OBS_HAND = obs_slots.add("HAND", NUM_RANKS, "own hand: cards per rank")
OBS_GONE = obs_slots.add("GONE", NUM_RANKS, "cards of each rank played this manche")
OBS_HAND_SIZE = obs_slots.add("HAND_SIZE", MAX_PLAYERS, "hand size per slot")
OBS_IN_PLAY = obs_slots.add("IN_PLAY", MAX_PLAYERS, "slot still holds cards")
OBS_PASSED = obs_slots.add("PASSED", MAX_PLAYERS, "slot passed since the last play")
OBS_PLACE = obs_slots.add(
    "PLACE", MAX_PLAYERS, "finishing place this manche + 1 per slot (0 = still in)"
)
OBS_LAST_PLACE = obs_slots.add(
    "LAST_PLACE", MAX_PLAYERS, "place in the previous manche + 1 per slot (0 = none)"
)
OBS_SCORE = obs_slots.add("SCORE", MAX_PLAYERS, "seed points per slot")
OBS_TOP_RANK = obs_slots.add(
    "TOP_RANK", NUM_RANKS, "rank to beat, one-hot (all 0: the current player leads)"
)
OBS_TOP_COUNT = obs_slots.add("TOP_COUNT", MAX_SET, "number of cards to beat, one-hot")
OBS_TOP_PLAYER = obs_slots.add("TOP_PLAYER", MAX_PLAYERS, "slot that made the play to beat")
OBS_PHASE = obs_slots.add(
    "PHASE", 2, "phase one-hot: play, give-back (both 0 once the match is over)"
)
OBS_RECEIVED = obs_slots.add(
    "RECEIVED", NUM_RANKS, "exchange: rank the Président received (seen by the two parties)"
)
OBS_GIVEN = obs_slots.add(
    "GIVEN", NUM_RANKS, "exchange: rank the Président gave back (seen by the two parties)"
)
OBS_MY_TURN = obs_slots.add("MY_TURN", 1, "it is the observer's turn")
OBS_MANCHES_LEFT = obs_slots.add("MANCHES_LEFT", 1, "manches left, this one included")
OBS_SIZE = obs_slots.size


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


@nb.njit(cache=True)
def hand_size(state, player):
    total = 0
    base = HAND + player * NUM_RANKS
    for r in range(NUM_RANKS):
        total += state[base + r]
    return total


@nb.njit(cache=True)
def played_count(state, player, rank):
    """Cards of ``rank`` ``player`` has played this manche (from the public play record)."""
    total = 0
    for j in range(state[GONE + rank]):
        if state[PLAYED_BY + rank * SUITS + j] == player:
            total += 1
    return total
