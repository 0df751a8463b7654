"""Random games through the kernels, with invariants checked after every step.

The legality rule is restated here independently (``reference_mask``) and compared with
the kernel's mask: in plain Python on a few hundred games, and compiled by numba inside a
loop that plays more than 10,000 games. The numba functions here are not cached on disk:
numba's cache would not notice a change in ``kernel.py`` and could test stale rules.
"""

import numba as nb
import numpy as np
import pytest

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL, read_step
from presages_env.core.state_io import replay
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.game import AciliandeGame

GAME = AciliandeGame()
MAX_STEPS = 20_000  # far above the longest game (lives are lost every manche)

OK = 0
BAD_MASK = 1
NO_LEGAL_ACTION = 2
CARDS_NOT_CONSERVED = 3
COINS_NOT_CONSERVED = 4
NEVER_ENDS = 5
LIVES_GREW = 6
WRONG_SEAT_TO_ACT = 7


def reference_mask(state, out):
    """Legal actions as the rules page states them, without the kernel's helpers."""
    out[:] = 0
    if state[HDR_TERMINAL]:
        return
    n = state[HDR_NUM_PLAYERS]
    seat = state[HDR_CURRENT]
    node = state[k.NODE]
    if node == k.NODE_HAND_SIZE:
        players = 0
        for s in range(n):
            if state[k.LIVES + s] > 0:
                players += 1
        for size in range(1, 22 // players + 1):
            out[k.ACT_HAND_SIZE + size - 1] = 1
    elif node == k.NODE_BID:
        size = state[k.HAND_SIZE]
        for bid in range(size + 1):
            out[k.ACT_BID + bid] = 1
        if seat == state[k.DEALER]:
            others = 0
            for s in range(n):
                if s != seat and state[k.LIVES + s] > 0:
                    others += state[k.BIDS + s]
            if 0 <= size - others <= size:
                out[k.ACT_BID + size - others] = 0
    elif node == k.NODE_PLAY:
        for card in range(22):
            if state[k.CARD_OWNER + card] == seat and state[k.CARD_TRICK + card] == -1:
                out[k.ACT_CARD + card] = 1
    else:
        out[k.ACT_TAKE] = 1
        out[k.ACT_LEAVE] = 1


reference_mask_nb = nb.njit(reference_mask)


@nb.njit
def cards_conserved(state):
    """Each of the 22 cards is in exactly one place, and the places add up."""
    n = state[HDR_NUM_PLAYERS]
    players = 0
    for s in range(n):
        players += state[k.IN_MANCHE + s]
    held = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=np.int64)
    undealt = 0
    for card in range(22):
        owner = state[k.CARD_OWNER + card]
        if owner < 0:
            if state[k.CARD_TRICK + card] != -1:
                return False
            undealt += 1
        elif state[k.CARD_TRICK + card] < 0:
            held[owner] += 1
        else:
            played[owner] += 1
        if state[k.DUEL] and owner >= 0 and k.is_goddess(state, card):
            return False
    size = state[k.HAND_SIZE]
    if undealt + held.sum() + played.sum() != 22 or undealt != 22 - players * size:
        return False
    if played.sum() != state[k.TRICK_INDEX] * players + state[k.TRICK_LEN]:
        return False
    for s in range(n):
        expected = size if state[k.IN_MANCHE + s] else 0
        if held[s] + played[s] != expected:
            return False
    for i in range(state[k.TRICK_LEN]):
        card = state[k.TRICK_CARDS + i]
        if state[k.CARD_TRICK + card] != state[k.TRICK_INDEX]:
            return False
        if state[k.CARD_OWNER + card] != state[k.TRICK_SEATS + i]:
            return False
    return True


@nb.njit
def coins_conserved(state, total_rewards):
    n = state[HDR_NUM_PLAYERS]
    received = 0
    for s in range(n):
        received += state[k.COINS + s]
        if total_rewards[s] != state[k.COINS + s] - state[k.OPT_STAKE]:
            return False
    return received == state[k.POT] == n * state[k.OPT_STAKE]


@nb.njit
def check_step(state, mask, expected, lives_before):
    if state[HDR_TERMINAL]:
        return OK
    k.legal_mask(state, mask)
    reference_mask_nb(state, expected)
    for a in range(k.NUM_ACTIONS):
        if mask[a] != expected[a]:
            return BAD_MASK
    if mask.sum() == 0:
        return NO_LEGAL_ACTION
    if not state[k.ALIVE + state[HDR_CURRENT]]:
        return WRONG_SEAT_TO_ACT
    if not cards_conserved(state):
        return CARDS_NOT_CONSERVED
    for s in range(state[HDR_NUM_PLAYERS]):
        if state[k.LIVES + s] > lives_before[s] or state[k.LIVES + s] < 0:
            return LIVES_GREW
    return OK


@nb.njit
def play_random_games(template, num_games, seed, outcome):
    """Play ``num_games`` random games; ``outcome[g]`` gets an error code (0 = fine).

    Returns a checksum of every final state (to compare runs for determinism).
    """
    np.random.seed(seed)
    n = template[HDR_NUM_PLAYERS]
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    expected = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    total = np.zeros(n, dtype=np.float64)
    lives_before = np.zeros(n, dtype=np.int64)
    checksum = 0
    for g in range(num_games):
        state = template.copy()
        k.reset(state, seed * 1_000_003 + g)
        total[:] = 0
        code = OK
        for s in range(n):
            lives_before[s] = state[k.LIVES + s]
        for _ in range(MAX_STEPS):
            code = check_step(state, mask, expected, lives_before)
            if code != OK or state[HDR_TERMINAL]:
                break
            for s in range(n):
                lives_before[s] = state[k.LIVES + s]
            legal = np.flatnonzero(mask)
            k.step(state, legal[np.random.randint(legal.size)], rewards)
            total += rewards
        if code == OK and not state[HDR_TERMINAL]:
            code = NEVER_ENDS
        if code == OK and not coins_conserved(state, total):
            code = COINS_NOT_CONSERVED
        if code == OK and read_step(state) < 1:
            code = NEVER_ENDS
        outcome[g] = code
        checksum = (checksum * 31 + state.sum()) % 1_000_000_007
    return checksum


CONFIGS = [
    {},
    {"fixed_hand_size": 3},
    {"lives": 2, "duel_tiebreak": "share"},
    {"lives": 5, "stake": 3},
    {"goddesses": (0, 10, 21)},
]
PER_CONFIG = 360  # 6 player counts x (5 configs + teams where allowed) x 360 > 10,000 games


def template(num_players, **options):
    return GAME.blank_state(num_players, GAME.make_options(num_players, **options))


def configs_for(num_players):
    extra = [{"teams": True}] if num_players in (4, 6) else []
    uneven = [{"lives": tuple(1 + (s % 4) for s in range(num_players))}]
    return CONFIGS + extra + uneven


def test_more_than_ten_thousand_random_games_keep_every_invariant():
    games = 0
    for num_players in range(2, 8):
        for index, options in enumerate(configs_for(num_players)):
            outcome = np.full(PER_CONFIG, -1, dtype=np.int64)
            play_random_games(template(num_players, **options), PER_CONFIG, index, outcome)
            failed = np.flatnonzero(outcome)
            assert failed.size == 0, (
                f"{num_players} players, options {options}: game {failed[0]} broke "
                f"invariant code {outcome[failed[0]]}"
            )
            games += PER_CONFIG
    assert games >= 10_000


@pytest.mark.parametrize("num_players", range(2, 8))
def test_kernel_mask_matches_python_reference_rule(num_players):
    rng = np.random.default_rng(num_players)
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    expected = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(num_players, dtype=np.float32)
    nodes_seen = set()
    for seed in range(40):
        options = {"teams": True} if num_players in (4, 6) and seed % 2 else {}
        state = GAME.new_state(num_players, seed, **options)
        while not state[HDR_TERMINAL]:
            GAME.legal_mask(state, mask)
            reference_mask(state, expected)
            assert np.array_equal(mask, expected), GAME.render(state)
            nodes_seen.add(int(state[k.NODE]))
            GAME.step(state, rng.choice(np.flatnonzero(mask)), rewards)
    assert nodes_seen == {k.NODE_HAND_SIZE, k.NODE_BID, k.NODE_PLAY, k.NODE_DECLARE}


def test_random_games_are_deterministic():
    first = np.zeros(200, dtype=np.int64)
    second = np.zeros(200, dtype=np.int64)
    state = template(4)
    assert play_random_games(state, 200, 5, first) == play_random_games(state, 200, 5, second)
    assert play_random_games(state, 200, 5, first) != play_random_games(state, 200, 6, second)


def test_same_seed_and_actions_give_the_same_game():
    rng = np.random.default_rng(1)
    state = GAME.new_state(5, 1234)
    assert np.array_equal(state, GAME.new_state(5, 1234))
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(5, dtype=np.float32)
    actions = []
    while not state[HDR_TERMINAL]:
        GAME.legal_mask(state, mask)
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        GAME.step(state, actions[-1], rewards)
    assert np.array_equal(replay(GAME, 5, 1234, actions), state)
    assert not np.array_equal(GAME.new_state(5, 1235), GAME.new_state(5, 1234))
