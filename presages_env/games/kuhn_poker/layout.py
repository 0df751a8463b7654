"""Kuhn poker's state, action and observation layouts (every named offset, in one place), and
the reads of the state the rules and the belief sampler share (``kernel.py``, ``beliefs.py``).

State (``int8``, ``STATE_DTYPE``, after the shared header of :mod:`presages_env.core.header`).
Arrays are sized for ``MAX_PLAYERS`` whatever the player count. Every slot and what it holds
is declared below with :class:`~presages_env.core.layout.SlotLayout` (``slots``);
docs/kuhn_poker.md shows them as a table generated from that list.

Everything else (the bettor, who acts, the pot) follows from ``MOVES``: the first round goes
seat 0, 1, ... until someone bets; each other seat then answers the bet once, in turn.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_NUM_PLAYERS, HEADER_SIZE
from presages_env.core.layout import SlotLayout
from presages_env.games.kuhn_poker.cards import CARD_NAMES

STATE_DTYPE = np.int8
MAX_PLAYERS = 3
MAX_CARDS = len(CARD_NAMES)  # n players play the n + 1 lowest
MAX_MOVES = 2 * MAX_PLAYERS - 1  # everyone passes but the last, who bets; all answer

slots = SlotLayout(start=HEADER_SIZE)
OPT_BET = slots.add("OPT_BET", 1, "option: chips a bet or a call adds (each seat antes 1)")
DECK = slots.add(
    "DECK",
    MAX_CARDS,
    "the shuffled deck: seat p holds DECK[p], DECK[n] is set aside; cards "
    "0 (J) .. n (the highest); -1 beyond the n + 1 cards",
)
MOVES = slots.add(
    "MOVES",
    MAX_MOVES,
    "each decision so far: MOVE_PASS (check, fold) or MOVE_BET (bet, call); -1: not yet",
)
NUM_MOVES = slots.add("NUM_MOVES", 1, "decisions so far")
STATE_SIZE = slots.size

# Actions: check or bet while no one has bet, then fold or call. OpenSpiel's kuhn_poker has
# two (pass, bet), read by whether a bet is on the table: its action is ours modulo 2, and
# what the moves record.
CHECK = 0
BET = 1
FOLD = 2
CALL = 3
NUM_ACTIONS = 4
ACTION_NAMES = ("check", "bet", "fold", "call")
MOVE_PASS = 0  # a check or a fold
MOVE_BET = 1  # a bet or a call

# Observation (``int8``): the seat's own card and seat, the seats at the table (1 each),
# each move so far, whether the seat is to act.
OBS_CARD = 0
OBS_SEAT = OBS_CARD + MAX_CARDS
OBS_SEATED = OBS_SEAT + MAX_PLAYERS
OBS_MOVES = OBS_SEATED + MAX_PLAYERS  # MAX_MOVES pairs: (passed, bet)
OBS_MY_TURN = OBS_MOVES + 2 * MAX_MOVES
OBS_SIZE = OBS_MY_TURN + 1


# ---- reads of the state (the rules and the belief sampler) --------------------------------
@nb.njit(cache=True)
def bettor(state):
    """The seat that bet (the first round goes in seat order), -1 while no one has."""
    for i in range(state[NUM_MOVES]):
        if state[MOVES + i] == MOVE_BET:
            return i
    return -1


@nb.njit(cache=True)
def in_pot(state, seat):
    """Chips ``seat`` put in: the ante, plus the bet if it bet or called."""
    first = bettor(state)
    if first < 0:
        return 1
    if seat == first:
        return 1 + state[OPT_BET]
    answer = first + 1 + (seat - first - 1) % state[HDR_NUM_PLAYERS]  # its answer's move
    if answer < state[NUM_MOVES] and state[MOVES + answer] == MOVE_BET:
        return 1 + state[OPT_BET]
    return 1


@nb.njit(cache=True)
def winner(state):
    """The seat with the highest card among those that did not fold."""
    full = 1 + state[OPT_BET]
    best = -1
    for p in range(state[HDR_NUM_PLAYERS]):
        still_in = bettor(state) < 0 or in_pot(state, p) == full
        if still_in and (best < 0 or state[DECK + p] > state[DECK + best]):
            best = p
    return best
