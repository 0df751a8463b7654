"""Thousands of random Président games through the vector env, with invariants at every step.

The legal mask is compared with a reference written here from the rules and the documented
state slots, independently of the kernel's code.
"""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_CURRENT, step_of
from presages_env.games.president import kernel as k
from presages_env.games.president.game import PresidentGame

NUM_RANKS = 13
BATCH = 1024  # few, wide steps: each vector step is one parallel launch
# (players, manches, games to finish): 10,000 games in all.
CONFIGS = [(3, 1, 2500), (4, 1, 2500), (5, 1, 2000), (6, 1, 2000), (4, 3, 500), (6, 3, 500)]


def hands_of(states: np.ndarray) -> np.ndarray:
    """[B, MAX_PLAYERS, 13] cards of each rank held by each player."""
    block = states[:, k.HAND : k.HAND + k.MAX_PLAYERS * NUM_RANKS]
    return block.reshape(len(states), k.MAX_PLAYERS, NUM_RANKS)


def reference_masks(states: np.ndarray) -> np.ndarray:
    """Legal actions from the rules: lead any set of one rank; follow with the same count of
    a strictly higher rank, or pass; the Président's give-back names one held rank."""
    batch = len(states)
    hand = hands_of(states)[np.arange(batch), states[:, HDR_CURRENT]]
    counts = np.arange(1, k.MAX_SET + 1)[None, None, :]
    ranks = np.arange(NUM_RANKS)[None, :, None]
    top_rank = states[:, k.TOP_RANK][:, None, None]
    top_count = states[:, k.TOP_COUNT][:, None, None]
    giving_back = states[:, k.PHASE][:, None, None] == k.PHASE_GIVE_BACK
    leading = top_rank < 0
    held = hand[:, :, None] >= counts
    allowed = np.where(
        giving_back, counts == 1, leading | ((ranks > top_rank) & (counts == top_count))
    )
    masks = np.zeros((batch, k.NUM_ACTIONS), dtype=np.int8)
    masks[:, k.ACTION_PASS] = ~(giving_back | leading)[:, 0, 0]
    masks[:, 1:] = (held & allowed).reshape(batch, NUM_RANKS * k.MAX_SET)
    return masks


def place_rewards(num_players: int) -> np.ndarray:
    """The "places" reward of each place, best first."""
    return 1 - 2 * np.arange(num_players) / (num_players - 1)


def places_from_rewards(rewards: np.ndarray, num_players: int) -> np.ndarray:
    return np.rint((1 - rewards) * (num_players - 1) / 2).astype(np.int64)


def check_state_invariants(env, num_players: int, manche_bound: int) -> None:
    states = env.states.astype(np.int64)  # int8 slots: compute on wider copies
    batch = np.arange(len(states))
    hands = hands_of(states)
    gone = states[:, k.GONE : k.GONE + NUM_RANKS]
    assert (hands[:, num_players:] == 0).all()
    assert (hands.sum(axis=1) + gone == 4).all(), "52 cards are not conserved"
    current = states[:, HDR_CURRENT]
    assert ((current >= 0) & (current < num_players)).all()
    assert (states[batch, k.PLACE + current] == -1).all(), "a player out of the manche acts"
    assert (hands[batch, current].sum(axis=1) > 0).all()
    np.testing.assert_array_equal(env.masks, reference_masks(states))
    np.testing.assert_array_equal(
        env.obs[:, k.OBS_HAND : k.OBS_HAND + NUM_RANKS], hands[batch, current]
    )
    assert (env.obs >= 0).all() and (env.obs <= PresidentGame().obs_high(num_players)).all()
    num_manches = int(states[0, k.OPT_NUM_MANCHES])
    longest = max(step_of(state) for state in states)
    assert longest <= num_manches * manche_bound, "a game does not end"


def check_manche_ends(env, num_players: int, ended: np.ndarray) -> None:
    """Rows in ``ended`` just finished a manche: rewards and places agree and are permutations."""
    rewards = env.rewards[ended]
    np.testing.assert_allclose(
        np.sort(rewards, axis=1)[:, ::-1],
        np.broadcast_to(place_rewards(num_players), rewards.shape),
        atol=1e-6,
    )
    continuing = ended & ~env.done
    if continuing.any():
        states = env.states[continuing]
        last_places = states[:, k.LAST_PLACE : k.LAST_PLACE + num_players]
        np.testing.assert_array_equal(
            last_places, places_from_rewards(env.rewards[continuing], num_players)
        )
        seating = states[:, k.PLAYER_AT_SEAT : k.PLAYER_AT_SEAT + num_players]
        np.testing.assert_array_equal(seating, np.argsort(last_places, axis=1))
        assert (states[:, k.PHASE] == k.PHASE_GIVE_BACK).all()
        assert (states[:, HDR_CURRENT] == seating[:, 0]).all(), "the Président gives back"


@pytest.mark.parametrize(("num_players", "num_manches", "games"), CONFIGS)
def test_random_games_keep_the_invariants(num_players, num_manches, games):
    env = presages_env.make_vec(
        "president",
        BATCH,
        num_players=num_players,
        seed=1000 + num_players,
        num_manches=num_manches,
    )
    rng_states = np.arange(BATCH, dtype=np.int64) * 7919 + num_players
    manche_bound = 52 * num_players + 1  # each play sheds a card; at most n-1 passes between
    manches_ended = np.zeros(BATCH, dtype=np.int64)
    finished = 0
    check_state_invariants(env, num_players, manche_bound)
    for _ in range(games * num_manches * manche_bound // BATCH + manche_bound):
        env.step(env.random_actions(rng_states))
        assert not env.truncated.any()
        ended = (env.rewards != 0).any(axis=1)
        check_manche_ends(env, num_players, ended)
        manches_ended += ended
        assert (manches_ended[env.done] == num_manches).all()
        assert (manches_ended[~env.done] < num_manches).all()
        manches_ended[env.done] = 0
        finished += int(env.done.sum())
        check_state_invariants(env, num_players, manche_bound)
        if finished >= games:
            break
    assert finished >= games


def test_the_configurations_play_ten_thousand_games():
    assert sum(games for _, _, games in CONFIGS) >= 10_000
    assert {n for n, _, _ in CONFIGS} == {3, 4, 5, 6}
