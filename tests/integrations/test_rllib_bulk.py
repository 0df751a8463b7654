"""The batched runner's bulk sampling gives the episodes RLlib's step-by-step loop gives."""

import numpy as np
import pytest
from ray_or_skip import FAIL_ON_DEPRECATIONS, import_rllib

import_rllib()
pytestmark = FAIL_ON_DEPRECATIONS

from presages_env.rllib import BatchedEnvRunner, ppo_config  # noqa: E402


class StepByStepRunner(BatchedEnvRunner):
    bulk = False


def runner(runner_class, env_config: dict, num_envs: int = 8):
    config = (
        ppo_config(env_config, hiddens=(16,), num_envs=num_envs)
        .env_runners(num_env_runners=0)
        .debugging(seed=5)
    )
    return runner_class(config=config)


def by_deal(episodes) -> dict:
    """Episodes keyed by their first decision (deals are seeded alike in both runners)."""
    keyed = {}
    for episode in episodes:
        first = min(
            episode.agent_episodes.values(),
            key=lambda e: episode.env_t_to_agent_t[e.agent_id].data.index(0),
        )
        keyed[(first.agent_id, first.get_observations(0)["observations"].tobytes())] = episode
    return keyed


def agent_data(episode) -> dict:
    return {
        agent: (
            np.asarray(e.get_observations()["observations"]).tolist(),
            np.asarray(e.get_actions()).tolist(),
            np.round(np.asarray(e.get_rewards(), dtype=float), 6).tolist(),
            e.is_terminated,
            e.is_truncated,
            e.module_id,
        )
        for agent, e in episode.agent_episodes.items()
    }


@pytest.mark.parametrize(
    "env_config",
    [
        {"game": "president"},
        {"game": "presages", "agent_ids": "team", "max_steps": 30},  # some games are cut
        {"game": "presages", "round_reward": 0.5},  # rewards during the game
    ],
)
def test_bulk_episodes_equal_step_by_step_ones(env_config):
    bulk, reference = runner(BatchedEnvRunner, env_config), runner(StepByStepRunner, env_config)
    reference.module.set_state(bulk.module.get_state())
    try:
        ours = by_deal(bulk.sample(num_episodes=24, explore=False))
        theirs = by_deal(reference.sample(num_episodes=24, explore=False))
    finally:
        bulk.stop()
        reference.stop()
    shared = ours.keys() & theirs.keys()
    assert len(shared) >= 8  # at least the first deal of every game
    for deal in shared:
        assert len(ours[deal]) == len(theirs[deal])
        assert agent_data(ours[deal]) == agent_data(theirs[deal])
        assert ours[deal].get_return() == pytest.approx(theirs[deal].get_return())
    if "max_steps" in env_config:
        assert any(e.is_truncated for e in ours.values())


def test_bulk_sampling_returns_whole_episodes_and_counts_them():
    bulk = runner(BatchedEnvRunner, {"game": "president"})
    try:
        episodes = bulk.sample(num_timesteps=600, explore=True)
        random = bulk.sample(num_timesteps=200, random_actions=True)
        metrics = bulk.get_metrics()
    finally:
        bulk.stop()
    assert sum(len(e) for e in episodes) >= 600
    assert all(e.is_done for e in episodes + random)
    for episode in episodes + random:
        for e in episode.agent_episodes.values():
            masks = np.asarray(e.get_observations()["action_mask"])[:-1]
            actions = np.asarray(e.get_actions())
            assert (masks[np.arange(len(actions)), actions] == 1).all()  # legal
            outputs = e.get_extra_model_outputs("action_logp")
            assert np.all(np.asarray(outputs) <= 0)
    assert metrics["num_env_steps_sampled_lifetime"] == sum(len(e) for e in episodes + random)
    assert metrics["num_episodes_lifetime"] == len(episodes) + len(random)


def test_advance_refuses_bad_actions_and_changes_nothing():
    from presages_env.rllib import BatchedMultiAgentEnv

    env = BatchedMultiAgentEnv({"game": "president"}, 4, 0)
    env.reset(seed=0)
    before = env.vec.states.copy()
    for bad in ([0, 0, 0], [0.5] * 4, [0, 0, 0, 10_000], [0, -2, 0, 0]):
        with pytest.raises((TypeError, ValueError)):
            env.advance(np.array(bad))
    np.testing.assert_array_equal(env.vec.states, before)
