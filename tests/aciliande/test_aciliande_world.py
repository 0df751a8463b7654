"""Aciliande's determinisation for search: worlds the player cannot tell from the real game."""

import numpy as np
import pytest

from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.game import AciliandeGame

GAME = AciliandeGame()


def random_midgame(num_players: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    state = GAME.new_state(num_players, seed)
    mask = np.zeros(GAME.num_actions(num_players), np.int8)
    rewards = np.zeros(num_players, np.float32)
    for _ in range(int(rng.integers(3, 30))):
        GAME.legal_mask(state, mask)
        GAME.step(state, int(rng.choice(np.flatnonzero(mask))), rewards)
        if GAME.is_over(state):
            return random_midgame(num_players, seed + 1000)
    return state


def observation(state: np.ndarray, player: int) -> np.ndarray:
    obs = np.zeros(GAME.obs_size(GAME.num_players_of(state)), GAME.obs_dtype)
    GAME.observe(state, player, obs)
    return obs


def hands(state: np.ndarray) -> np.ndarray:
    owners = state[k.CARD_OWNER : k.CARD_OWNER + 22].copy()
    owners[state[k.CARD_TRICK : k.CARD_TRICK + 22] >= 0] = -2  # played: public
    return owners


@pytest.mark.parametrize("num_players", [2, 4, 7])
def test_sampled_worlds_look_the_same_to_the_player_and_vary_elsewhere(num_players):
    varied = 0
    for seed in range(20):
        state = random_midgame(num_players, seed)
        for player in range(num_players):
            world = np.zeros_like(state)
            k.sample_world(state, player, 7 + seed, world)
            np.testing.assert_array_equal(observation(world, player), observation(state, player))
            before, after = hands(state), hands(world)
            assert ((before == player) == (after == player)).all()
            assert ((before == -2) == (after == -2)).all()
            for seat in range(num_players):
                assert (before == seat).sum() == (after == seat).sum()
            varied += not np.array_equal(before, after)
    assert varied > 0
