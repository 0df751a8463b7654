"""The observation space's bounds hold in play, and bad observations are refused."""

import numpy as np

import presages_env
from presages_env.agents import HeuristicAgent
from presages_env.games.res_arcana.game import observation_high


def test_observations_of_random_play_stay_within_the_declared_bounds():
    for n in (2, 3, 4):
        vec = presages_env.make_vec("res_arcana", 32, num_players=n, seed=n)
        high = observation_high(n)
        rng = np.arange(32, dtype=np.int64)
        for _ in range(600):
            vec.step(vec.random_actions(rng))
            assert (vec.obs >= 0).all()
            over = vec.obs > high
            assert not over.any(), np.argwhere(over)[:5]


def test_the_heuristic_refuses_observations_outside_the_bounds():
    vec = presages_env.make_vec("res_arcana", 2, seed=0)
    agent = HeuristicAgent("res_arcana")
    bad = vec.obs.copy()
    bad[0, 0] = 100  # seat + 1 beyond the players
    try:
        agent.act_batch(bad, vec.masks)
    except ValueError as error:
        assert "obs[0, 0]" in str(error)
    else:
        raise AssertionError("an out-of-bounds observation was accepted")
