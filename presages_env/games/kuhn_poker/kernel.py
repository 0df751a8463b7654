"""Kuhn poker's rules: every seat antes 1 and is dealt one of the n + 1 lowest of J Q K A. In
turn from seat 0, each checks or bets; once one bets, each other answers once, in turn, by
calling or folding. The highest card among the seats that did not fold takes the pot."""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    HEADER_SIZE,
    clear_mask,
    count_step,
    write_seed,
)
from presages_env.core.layout import SlotLayout
from presages_env.core.options import add_option_slots
from presages_env.core.rng import begin_game, rng_seed, rng_shuffle
from presages_env.games.kuhn_poker import option_space

STATE_DTYPE = np.int8
MAX_PLAYERS = 3
CARD_NAMES = ("J", "Q", "K", "A")  # weakest first; n players play the n + 1 lowest
MAX_CARDS = len(CARD_NAMES)
MAX_MOVES = 2 * MAX_PLAYERS - 1  # everyone passes but the last, who bets; all answer

# The state after the shared header (core/header.py), slot by slot (docs/kuhn_poker.md).
slots = SlotLayout(start=HEADER_SIZE)
(OPT_BET,) = add_option_slots(slots, option_space)
DECK = slots.add("DECK", MAX_CARDS, "seat p holds DECK[p], DECK[n] is set aside; -1 beyond")
MOVES = slots.add("MOVES", MAX_MOVES, "each decision: MOVE_PASS (check, fold) or MOVE_BET")
NUM_MOVES = slots.add("NUM_MOVES", 1, "decisions so far")
STATE_SIZE = slots.size

# Check or bet while no one has bet, then fold or call; OpenSpiel's pass/bet is ours % 2.
ACTION_NAMES = ("check", "bet", "fold", "call")
CHECK, BET, FOLD, CALL = range(4)
NUM_ACTIONS = len(ACTION_NAMES)
MOVE_PASS, MOVE_BET = 0, 1

# The observation, piece by piece: every entry is a flag.
obs_slots = SlotLayout()
OBS_CARD = obs_slots.add("CARD", MAX_CARDS, "the seat's card, one-hot", high=1)
OBS_SEAT = obs_slots.add("SEAT", MAX_PLAYERS, "the seat, one-hot", high=1)
OBS_SEATED = obs_slots.add("SEATED", MAX_PLAYERS, "1 for each seat at the table", high=1)
OBS_MOVES = obs_slots.add("MOVES", (MAX_MOVES, 2), "each move so far: (passed, bet)", high=1)
OBS_MY_TURN = obs_slots.add("MY_TURN", 1, "1 when the seat is to act", high=1)
OBS_SIZE = obs_slots.size

# Events (core/events.py): kind -> (name, argument names).
EV_DEALT, EV_CHECK, EV_BET, EV_CALL, EV_FOLD, EV_SHOWDOWN, EV_ANTES = range(1, 8)
EVENT_KINDS = {
    EV_ANTES: ("antes", ("pot",)),
    EV_DEALT: ("dealt", ("player", "card")),
    EV_CHECK: ("check", ()),
    EV_BET: ("bet", ("chips",)),
    EV_FOLD: ("fold", ()),
    EV_CALL: ("call", ("chips",)),
    EV_SHOWDOWN: ("showdown", ("winner", "card", "pot")),
}
MAX_STEP_EVENTS = 1 + MAX_PLAYERS  # a reset: the antes, a card per seat; a step: at most 2
WORLD_DIVERGING_EVENTS = ("showdown",)  # in a sampled world the winner may differ


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
    answer = first + 1 + (seat - first - 1) % state[HDR_NUM_PLAYERS]  # its answer's move
    called = answer < state[NUM_MOVES] and state[MOVES + answer] == MOVE_BET
    return 1 + state[OPT_BET] if first >= 0 and (seat == first or called) else 1


@nb.njit(cache=True)
def winner(state):
    """The seat with the highest card among those that did not fold."""
    best = -1
    for p in range(state[HDR_NUM_PLAYERS]):
        still_in = bettor(state) < 0 or in_pot(state, p) == 1 + state[OPT_BET]
        if still_in and (best < 0 or state[DECK + p] > state[DECK + best]):
            best = p
    return best


@nb.njit(cache=True)
def seat_to_act(state):
    """Who acts, -1 once over. Move i is seat i % n's: the first round goes in seat order,
    the answers to a bet go on from the bettor; n checks, or n - 1 answers, end the hand."""
    n, moves, first = state[HDR_NUM_PLAYERS], state[NUM_MOVES], bettor(state)
    return -1 if moves == (n if first < 0 else first + n) else moves % n


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """Shuffle and deal one card to each seat; seat 0 acts first."""
    begin_game(state, seed)
    n = state[HDR_NUM_PLAYERS]
    for c in range(MAX_CARDS):
        state[DECK + c] = c if c <= n else -1
    rng_shuffle(state, state[DECK : DECK + n + 1], n + 1)
    state[MOVES : MOVES + MAX_MOVES] = -1
    state[NUM_MOVES] = 0
    state[HDR_CURRENT] = 0
    emit(events, EV_ANTES, -1, PUBLIC, n, 0, 0, 0, 0)
    for p in range(n):
        emit(events, EV_DEALT, -1, seat_bit(p), p, state[DECK + p], 0, 0, 0)


@nb.njit(cache=True)
def legal_mask(state, mask):
    if not clear_mask(state, mask):
        first = CHECK if bettor(state) < 0 else FOLD
        mask[first] = mask[first + 1] = 1


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """Record the move; at the end of the hand, pay the pot to the best card still in."""
    n = state[HDR_NUM_PLAYERS]
    rewards[:n] = 0.0
    count_step(state)
    state[MOVES + state[NUM_MOVES]] = action % 2  # MOVE_PASS or MOVE_BET
    state[NUM_MOVES] += 1
    chips = state[OPT_BET] if action % 2 == MOVE_BET else 0
    kind = (EV_CHECK, EV_BET, EV_FOLD, EV_CALL)[action]
    emit(events, kind, state[HDR_CURRENT], PUBLIC, chips, 0, 0, 0, 0)
    state[HDR_CURRENT] = seat_to_act(state)
    if state[HDR_CURRENT] >= 0:
        return
    best, pot = winner(state), 0  # the showdown: the winner takes every chip put in
    for p in range(n):
        pot += in_pot(state, p)
    for p in range(n):
        rewards[p] = np.float32((pot if p == best else 0) - in_pot(state, p))
    state[HDR_TERMINAL] = 1
    emit(events, EV_SHOWDOWN, best, PUBLIC, best, state[DECK + best], pot, 0, 0)


@nb.njit(cache=True)
def observe(state, player, obs):
    """What ``player`` may know: its card and seat, the table, every move, its turn."""
    obs[:] = 0
    obs[OBS_CARD + state[DECK + player]] = 1
    obs[OBS_SEAT + player] = 1
    obs[OBS_SEATED : OBS_SEATED + state[HDR_NUM_PLAYERS]] = 1
    for i in range(state[NUM_MOVES]):
        obs[OBS_MOVES + 2 * i + state[MOVES + i]] = 1
    obs[OBS_MY_TURN] = 1 if state[HDR_CURRENT] == player else 0


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """A state drawn uniformly among those ``player`` cannot tell from ``state``: its card
    and the moves kept (they reveal nothing: any card may bet or pass), the other cards
    shuffled again; once over, deals with another winner than the one shown are redrawn."""
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    shown = winner(state) if state[HDR_TERMINAL] else -1
    others = np.array([c for c in range(n + 1) if c != player])
    while True:  # the real deal is one of the draws: each try succeeds with odds >= 1/6
        hidden = state[DECK + others]
        rng_shuffle(world, hidden, len(hidden))
        world[DECK + others] = hidden
        if shown < 0 or (winner(world) == shown and world[DECK + shown] == state[DECK + shown]):
            return


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    """Bet with the highest card in play; facing a bet, call with any card but the lowest;
    check otherwise. It never bluffs: its exploitability is in the tests."""
    for i in range(masks.shape[0]):
        card = np.argmax(obs[i, OBS_CARD : OBS_CARD + MAX_CARDS])
        highest = np.sum(obs[i, OBS_SEATED : OBS_SEATED + MAX_PLAYERS] != 0)  # n: card n
        facing = np.any(obs[i, OBS_MOVES + MOVE_BET : OBS_MY_TURN : 2] != 0)
        if facing:
            actions[i] = CALL if card > 0 else FOLD
        else:
            actions[i] = BET if card == highest else CHECK
