"""Kuhn poker rules kernel: the only place where the rules of Kuhn poker are written.

Every seat antes 1 chip and is dealt one card of the ``n + 1`` lowest of J, Q, K, A; one
card is set aside. In turn from seat 0, each seat checks or bets; once a seat bets, each
other seat answers it once, in turn, by calling or folding. The hand ends when everyone
checked or everyone answered the bet: the highest card among the seats that did not fold
takes the pot. The layouts, and the reads of the state the rules share with the belief
sampler, are in ``layout.py``; the sampler (``sample_world``) is in ``beliefs.py``, re-exported
here.
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
from presages_env.core.rng import begin_game, rng_shuffle
from presages_env.games.kuhn_poker import beliefs as beliefs_module
from presages_env.games.kuhn_poker import cards as cards_module
from presages_env.games.kuhn_poker import layout as layout_module
from presages_env.games.kuhn_poker.beliefs import sample_world as sample_world
from presages_env.games.kuhn_poker.layout import (
    BET,
    CALL,
    CHECK,
    DECK,
    FOLD,
    MAX_CARDS,
    MAX_MOVES,
    MAX_PLAYERS,
    MOVE_BET,
    MOVES,
    NUM_ACTIONS,
    NUM_MOVES,
    OBS_CARD,
    OBS_MOVES,
    OBS_MY_TURN,
    OBS_SEAT,
    OBS_SEATED,
    OBS_SIZE,
    OPT_BET,
    STATE_DTYPE,
    STATE_SIZE,
    bettor,
    in_pot,
    winner,
)

__all__ = ["NUM_ACTIONS", "OBS_SIZE", "STATE_DTYPE", "STATE_SIZE"]  # read by the Game

# the modules these kernels call: their sources name the batched copies' cache entries
KERNEL_MODULES = (layout_module, cards_module, beliefs_module)

# Events (core/events.py): kind -> (name, argument names). The antes open the hand (the
# replay page's one round); a dealt card is seen by its holder alone; the showdown shows the
# winner's card to everyone.
EV_ANTES = 7
EV_DEALT = 1
EV_CHECK = 2
EV_BET = 3
EV_CALL = 4
EV_FOLD = 5
EV_SHOWDOWN = 6
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
# In a world sample_world dealt, the hidden cards differ: so may the showdown's winner.
WORLD_DIVERGING_EVENTS = ("showdown",)


@nb.njit(cache=True)
def seat_to_act(state):
    """Who acts after the moves so far, -1 once the hand is over. Move i is always seat
    i % n's: the first round goes in seat order, and the answers to a bet go on from the
    bettor; the hand ends after n checks, or n - 1 answers to the bet."""
    n = state[HDR_NUM_PLAYERS]
    moves = state[NUM_MOVES]
    first = bettor(state)
    over = moves == n if first < 0 else moves == first + n
    return -1 if over else moves % n


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """Shuffle and deal one card to each seat; seat 0 acts first."""
    begin_game(state, seed)
    n = state[HDR_NUM_PLAYERS]
    for c in range(MAX_CARDS):
        state[DECK + c] = c if c <= n else -1
    rng_shuffle(state, state[DECK : DECK + n + 1], n + 1)
    for i in range(MAX_MOVES):
        state[MOVES + i] = -1
    state[NUM_MOVES] = 0
    state[HDR_CURRENT] = 0
    emit(events, EV_ANTES, -1, PUBLIC, n, 0, 0, 0, 0)
    for p in range(n):
        emit(events, EV_DEALT, -1, seat_bit(p), p, state[DECK + p], 0, 0, 0)


@nb.njit(cache=True)
def legal_mask(state, mask):
    if clear_mask(state, mask):
        return
    if bettor(state) < 0:
        mask[CHECK] = 1
        mask[BET] = 1
    else:
        mask[FOLD] = 1
        mask[CALL] = 1


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """Record the move; at the end of the hand, pay the pot to the best card still in."""
    n = state[HDR_NUM_PLAYERS]
    for p in range(n):
        rewards[p] = 0.0
    count_step(state)
    player = state[HDR_CURRENT]
    state[MOVES + state[NUM_MOVES]] = action % 2  # MOVE_PASS or MOVE_BET
    state[NUM_MOVES] += 1
    chips = state[OPT_BET] if action % 2 == MOVE_BET else 0
    kind = (EV_CHECK, EV_BET, EV_FOLD, EV_CALL)[action]
    emit(events, kind, player, PUBLIC, chips, 0, 0, 0, 0)
    state[HDR_CURRENT] = seat_to_act(state)
    if state[HDR_CURRENT] < 0:
        _showdown(state, rewards, events)


# the plain kernels: ``reset_logged``/``step_logged`` without events (core/batched.py)
reset, step = plain_kernels(sys.modules[__name__])


@nb.njit(cache=True)
def _showdown(state, rewards, events):
    """The winner takes every chip put in; everyone else loses theirs."""
    n = state[HDR_NUM_PLAYERS]
    best = winner(state)
    pot = 0
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
    for p in range(state[HDR_NUM_PLAYERS]):
        obs[OBS_SEATED + p] = 1
    for i in range(state[NUM_MOVES]):
        obs[OBS_MOVES + 2 * i + state[MOVES + i]] = 1
    obs[OBS_MY_TURN] = 1 if state[HDR_CURRENT] == player else 0


# ---- global state (a referee's view, for centralised critics; docs/research.md) ----------
GLOBAL_DTYPE = STATE_DTYPE
GLOBAL_SEATS = MAX_PLAYERS
GLOBAL_SLOTS_END = STATE_SIZE
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int8)
