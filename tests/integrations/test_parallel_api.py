"""The envs are turn-based, not parallelizable; PettingZoo's turn-based adapter gives code
that needs the Parallel API the same games (README, "No Parallel API")."""

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

import presages_env


def test_president_says_it_is_not_parallelizable():
    env = presages_env.make("president")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def aec_game(seed: int) -> tuple[list[str], dict[str, float]]:
    """The seats in the order they acted, and each seat's total reward."""
    env = presages_env.make("president")
    env.reset(seed=seed)
    order, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        order.append(agent)
        env.step(first_legal(obs["action_mask"]))
    return order, totals


def test_the_turn_based_adapter_plays_president_as_the_aec_env_does():
    env = turn_based_aec_to_parallel(presages_env.make("president"))
    obs, _infos = env.reset(seed=5)
    order, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        (acting,) = [a for a, o in obs.items() if o["action_mask"].any()]  # one seat acts
        order.append(acting)
        others = {a: 0 for a in obs if a != acting}  # ignored: only the seat to act plays
        obs, rewards, _terminations, _truncations, _infos = env.step(
            {acting: first_legal(obs[acting]["action_mask"]), **others}
        )
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert (order, totals) == aec_game(seed=5)


def test_the_turn_based_adapter_passes_pettingzoos_parallel_api_test_on_president():
    env = presages_env.make("president", illegal_action="terminate")  # it samples actions
    parallel_api_test(turn_based_aec_to_parallel(env), num_cycles=300)
