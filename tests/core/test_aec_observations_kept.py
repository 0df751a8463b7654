"""What the AEC env hands out stays the caller's: its fast paths reuse buffers inside, never
in what observe()/last() return."""

import numpy as np
import pytest

import presages_env
from presages_env.games import benchmarked_games


@pytest.mark.parametrize("name", benchmarked_games())
def test_kept_observations_and_masks_never_change(name):
    env = presages_env.make(name)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = []
    for _agent in env.agent_iter(max_iter=60):
        seen, _reward, terminated, truncated, _info = env.last()
        again = env.observe(env.agent_selection)
        for key in ("observation", "action_mask"):
            assert not np.shares_memory(seen[key], again[key])
        kept.append((seen, {key: value.copy() for key, value in seen.items()}))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    for seen, copy in kept:
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(seen[key], copy[key])


@pytest.mark.parametrize("name", benchmarked_games())
def test_rewards_are_floats_again_after_a_finished_game(name):
    """The dead steps that end a game clear the rewards to int 0 (PettingZoo's way); the
    next game's rewards are the kernel's floats again, paid or not."""
    env = presages_env.make(name, max_steps=3)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        seen, _reward, terminated, truncated, _info = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(seen["action_mask"])[0]))
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert all(type(reward) is float for reward in env.rewards.values())
