"""What a seat observes: its own hand and the public facts, never other hands or the stock."""

import numpy as np
import pytest

from presages_env.core.header import (
    HDR_NUM_PLAYERS,
    HDR_RNG,
    HDR_TERMINAL,
    RNG_SLOTS,
    rng_of,
    wide_slots,
)
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.game import (
    AciliandeGame,
    bid_action,
    card_action,
    hand,
    play,
    setup_position,
)

GAME = AciliandeGame()


def observation(state, seat):
    obs = np.zeros(k.OBS_SIZE, dtype=GAME.obs_dtype)
    GAME.observe(state, seat, obs)
    return obs


def random_positions(num_players, count, seed):
    """Mid-game states reached by random legal play (bidding, play or declaration)."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(num_players, dtype=np.float32)
    positions = []
    game_seed = 0
    while len(positions) < count:
        state = GAME.new_state(num_players, game_seed)
        game_seed += 1
        stop = rng.integers(1, 60)
        for _ in range(stop):
            if state[HDR_TERMINAL]:
                break
            GAME.legal_mask(state, mask)
            GAME.step(state, rng.choice(np.flatnonzero(mask)), rewards)
        if not state[HDR_TERMINAL] and state[k.NODE] != k.NODE_HAND_SIZE:
            positions.append(state)
    return positions


def swap_owner(state, card_a, card_b):
    moved = state.copy()
    owner_a = moved[k.CARD_OWNER + card_a]
    moved[k.CARD_OWNER + card_a] = moved[k.CARD_OWNER + card_b]
    moved[k.CARD_OWNER + card_b] = owner_a
    return moved


def undealt(state):
    """Cards nobody holds that could have been dealt (a duel's Goddesses lie face up)."""
    goddesses = set(state[k.OPT_GODDESSES : k.OPT_GODDESSES + k.NUM_GODDESSES].tolist())
    duel = bool(state[k.DUEL])
    return [c for c in range(22) if state[k.CARD_OWNER + c] < 0 and not (duel and c in goddesses)]


@pytest.mark.parametrize("num_players", [3, 4, 7])
def test_permuting_other_hands_and_undealt_cards_leaves_observation_unchanged(num_players):
    rng = np.random.default_rng(num_players)
    checked = 0
    for state in random_positions(num_players, 40, num_players):
        in_game = [s for s in range(num_players) if hand(state, s)]
        for viewer in range(num_players):
            others = [s for s in in_game if s != viewer]
            if len(others) < 2:
                continue
            q, r = rng.choice(others, size=2, replace=False)
            card_q, card_r = rng.choice(hand(state, q)), rng.choice(hand(state, r))
            moved = swap_owner(state, card_q, card_r)
            assert np.array_equal(observation(moved, viewer), observation(state, viewer))
            # the players concerned do see it: the test can fail
            assert not np.array_equal(observation(moved, q), observation(state, q))
            stock = undealt(state)
            if stock:
                moved = swap_owner(state, card_q, rng.choice(stock))
                assert np.array_equal(observation(moved, viewer), observation(state, viewer))
            moved = state.copy()
            # the future deals are nobody's knowledge
            moved[HDR_RNG : HDR_RNG + RNG_SLOTS] = wide_slots((rng_of(moved) + 12345) % 2**64, 8)
            assert np.array_equal(observation(moved, viewer), observation(state, viewer))
            checked += 1
    assert checked > 50


def test_observation_shows_own_hand_and_public_facts():
    state = setup_position(3, [[0, 21], [4, 5], [17, 7]], dealer=2, lives=[3, 2, 1])
    play(state, bid_action(1), bid_action(0))
    obs = observation(state, 1)
    hand_bits = obs[k.OBS_HAND : k.OBS_HAND + 22]
    assert np.flatnonzero(hand_bits).tolist() == [4, 5]
    # relative seats: slot 0 is the viewer (seat 1), slot 1 seat 2, slot 2 seat 0
    assert obs[k.OBS_BIDS : k.OBS_BIDS + 3].tolist() == [1, 0, 2]
    assert obs[k.OBS_LIVES : k.OBS_LIVES + 3].tolist() == [2, 1, 3]
    assert obs[k.OBS_DEALER + 1] == 1 and obs[k.OBS_CURRENT + 1] == 1
    assert obs[k.OBS_NODE + k.NODE_BID] == 1
    assert obs[k.OBS_HAND_SIZE] == 2 and obs[k.OBS_POT] == 3
    assert np.flatnonzero(obs[k.OBS_GODDESS : k.OBS_GODDESS + 22]).tolist() == [2, 3, 17]
    play(state, bid_action(0), card_action(21))
    obs = observation(state, 1)
    assert obs[k.OBS_PLAYED_BY + 21] == 3 and obs[k.OBS_PLAYED_IN + 21] == 1
    assert obs[k.OBS_TRICK_CARDS] == 22 and obs[k.OBS_TRICK_SEATS] == 3


def test_observation_stays_within_declared_bounds():
    low = GAME.obs_low(7)
    for num_players in (2, 7):
        high = GAME.obs_high(num_players)
        for state in random_positions(num_players, 30, 1):
            for seat in range(int(state[HDR_NUM_PLAYERS])):
                obs = observation(state, seat)
                assert np.all(obs >= low) and np.all(obs <= high)
