"""Liar's dice's rules, one die each (OpenSpiel's ``liars_dice`` with ``numdice=1``).

Every seat rolls one die in secret. In turn from seat 0, each seat bids a higher claim
``count x face`` (at least ``count`` dice of the table show ``face``; a higher count, or the
same count and a higher face) or, once someone bid, calls "liar" on the last bid. The dice
are then shown; the highest face is wild (it counts as any face). A true bid makes the
caller lose, a false one the bidder: the loser gets -1, every other seat +1 / (n - 1).
"""

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
from presages_env.core.rng import begin_game, rng_below, rng_seed
from presages_env.games.liars_dice import option_space

STATE_DTYPE = np.int8
MAX_PLAYERS = 3
MAX_FACES = 6
MAX_BIDS = MAX_PLAYERS * MAX_FACES  # bid (count, face) is action (count - 1) * 6 + face - 1

slots = SlotLayout(start=HEADER_SIZE)
(OPT_FACES,) = add_option_slots(slots, option_space)
DICE = slots.add("DICE", MAX_PLAYERS, "each seat's die: its face - 1; -1 beyond the seats")
BIDS = slots.add("BIDS", MAX_BIDS, "1 for each bid made (bids rise: the last is the highest)")
CALLED = slots.add("CALLED", 1, "1 once the last bid was called a lie")
STATE_SIZE = slots.size

LIAR = MAX_BIDS
NUM_ACTIONS = MAX_BIDS + 1
ACTION_NAMES = tuple(f"bid {c}x{f}" for c in range(1, 4) for f in range(1, 7)) + ("liar",)

obs_slots = SlotLayout()  # every entry is a flag
OBS_DIE = obs_slots.add("DIE", MAX_FACES, "the seat's die, one-hot", high=1)
OBS_SEAT = obs_slots.add("SEAT", MAX_PLAYERS, "the seat, one-hot", high=1)
OBS_SEATED = obs_slots.add("SEATED", MAX_PLAYERS, "1 for each seat at the table", high=1)
OBS_BIDS = obs_slots.add("BIDS", (MAX_PLAYERS, MAX_FACES), "each bid made: count, face", high=1)
OBS_CALLED = obs_slots.add("CALLED", 1, "1 once the last bid was called a lie", high=1)
OBS_MY_TURN = obs_slots.add("MY_TURN", 1, "1 when the seat is to act", high=1)
OBS_SIZE = obs_slots.size

EV_ROLLED, EV_BID, EV_LIAR, EV_SHOWN, EV_ROLL = range(1, 6)
EVENT_KINDS = {
    EV_ROLL: ("roll", ("dice",)),  # public: opens the game's one round
    EV_ROLLED: ("rolled", ("player", "face")),
    EV_BID: ("bid", ("count", "face")),
    EV_LIAR: ("liar", ("loser", "count")),
    EV_SHOWN: ("shown", ("player", "face")),
}
MAX_STEP_EVENTS = 1 + MAX_PLAYERS  # a reset: the roll, a die per seat; a call: the call, dice
WORLD_DIVERGING_EVENTS = ("liar", "shown")  # in a sampled world the other dice differ


@nb.njit(cache=True)
def last_bid(state):
    """The highest (last) bid made, -1 while none."""
    for a in range(MAX_BIDS - 1, -1, -1):
        if state[BIDS + a]:
            return a
    return -1


@nb.njit(cache=True)
def num_bids(state):
    return np.sum(state[BIDS : BIDS + MAX_BIDS] != 0)


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """Roll a die for each seat; seat 0 bids first."""
    begin_game(state, seed)
    n = state[HDR_NUM_PLAYERS]
    state[DICE : DICE + MAX_PLAYERS] = -1
    emit(events, EV_ROLL, -1, PUBLIC, n, 0, 0, 0, 0)
    for p in range(n):
        state[DICE + p] = rng_below(state, state[OPT_FACES])
        emit(events, EV_ROLLED, -1, seat_bit(p), p, state[DICE + p] + 1, 0, 0, 0)
    state[BIDS : BIDS + MAX_BIDS] = 0
    state[CALLED] = 0
    state[HDR_CURRENT] = 0


@nb.njit(cache=True)
def legal_mask(state, mask):
    """Every bid above the last with a count up to the dice in play, and "liar" after one."""
    if clear_mask(state, mask):
        return
    last = last_bid(state)
    for count in range(state[HDR_NUM_PLAYERS]):
        for face in range(state[OPT_FACES]):
            a = count * MAX_FACES + face
            mask[a] = 1 if a > last else 0
    mask[LIAR] = 1 if last >= 0 else 0


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """Record the bid and pass the turn on, or settle the call."""
    n = state[HDR_NUM_PLAYERS]
    rewards[:n] = 0.0
    count_step(state)
    caller = state[HDR_CURRENT]
    if action != LIAR:
        state[BIDS + action] = 1
        emit(
            events, EV_BID, caller, PUBLIC, action // MAX_FACES + 1, action % MAX_FACES + 1, 0, 0, 0
        )
        state[HDR_CURRENT] = (caller + 1) % n
        return
    bid, wild = last_bid(state), state[OPT_FACES] - 1
    count = 0
    for p in range(n):
        if state[DICE + p] == bid % MAX_FACES or state[DICE + p] == wild:
            count += 1
    loser = caller if count >= bid // MAX_FACES + 1 else (caller + n - 1) % n
    for p in range(n):
        rewards[p] = -1.0 if p == loser else np.float32(1.0 / (n - 1))
    state[CALLED] = 1
    state[HDR_TERMINAL] = 1
    state[HDR_CURRENT] = -1
    emit(events, EV_LIAR, caller, PUBLIC, loser, count, 0, 0, 0)
    for p in range(n):
        emit(events, EV_SHOWN, -1, PUBLIC, p, state[DICE + p] + 1, 0, 0, 0)


@nb.njit(cache=True)
def observe(state, player, obs):
    """What ``player`` may know: its die and seat, the table, every bid, the call, its turn."""
    obs[:] = 0
    obs[OBS_DIE + state[DICE + player]] = 1
    obs[OBS_SEAT + player] = 1
    obs[OBS_SEATED : OBS_SEATED + state[HDR_NUM_PLAYERS]] = 1
    obs[OBS_BIDS : OBS_BIDS + MAX_BIDS] = state[BIDS : BIDS + MAX_BIDS]
    obs[OBS_CALLED] = state[CALLED]
    obs[OBS_MY_TURN] = 1 if state[HDR_CURRENT] == player else 0


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """The other seats' dice rolled again (bids say nothing a rule could weigh: any bid is
    legal with any die); once the dice were shown, the state itself, re-seeded."""
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    if state[HDR_TERMINAL] == 0:
        for p in range(state[HDR_NUM_PLAYERS]):
            if p != player:
                world[DICE + p] = rng_below(world, state[OPT_FACES])


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    """Bid the seat's own face at the lowest legal count while that many are likely (its own
    die, and one in two of the others': each shows the face or the wild one about one time in
    three); otherwise call liar, or bid the lowest bid where none was made."""
    for i in range(masks.shape[0]):
        face = np.argmax(obs[i, OBS_DIE : OBS_DIE + MAX_FACES])
        others = np.sum(obs[i, OBS_SEATED : OBS_SEATED + MAX_PLAYERS] != 0) - 1
        actions[i] = LIAR if masks[i, LIAR] else np.argmax(masks[i])
        for count in range(1 + others // 2, 0, -1):
            if masks[i, (count - 1) * MAX_FACES + face]:
                actions[i] = (count - 1) * MAX_FACES + face
