"""MAPPO-style centralised critic: what each head reads, the exported actor, a tiny run."""

import numpy as np
import pytest
import torch

from presages_env.agents import RandomAgent
from presages_env.agents.ppo import PPOAgent
from presages_env.training.central_critic import CentralCriticPolicy, actor_policy
from presages_env.training.populations import from_scratch_config
from presages_env.training.self_play import TrainConfig, train
from presages_env.training.vec_env import SelfPlayVecEnv


def presages_envs(critic_state: bool) -> SelfPlayVecEnv:
    return SelfPlayVecEnv(
        "presages",
        6,
        [RandomAgent(1)],
        num_players=4,
        team_play=True,
        seed=7,
        critic_state=critic_state,
    )


def test_the_critic_input_is_the_features_then_the_global_state_then_the_acting_seat():
    plain, central = presages_envs(False), presages_envs(True)
    obs_plain, obs_central = plain.reset(), central.reset()
    for _ in range(20):
        size = plain.observation_space.shape[0]
        game = central.game
        assert central.batch.actor_size == size
        np.testing.assert_array_equal(obs_central[:, :size], obs_plain)
        world = central.vec.global_states().astype(np.float32)
        np.testing.assert_array_equal(obs_central[:, size:-4], world)
        np.testing.assert_array_equal(obs_central[:, -4:].argmax(axis=1), central.vec.current)
        assert obs_central.shape[1] == size + game.global_size(4) + 4
        assert central.observation_space.contains(obs_central[0])
        actions = RandomAgent(3).act_batch(plain.batch.masks, plain.batch.masks)
        plain.step_async(actions)
        central.step_async(actions)
        obs_plain, obs_central = plain.step_wait()[0], central.step_wait()[0]


def central_policy(env: SelfPlayVecEnv) -> CentralCriticPolicy:
    return CentralCriticPolicy(
        env.observation_space,
        env.action_space,
        lambda _: 1e-3,
        net_arch=[32, 32],
        actor_size=env.batch.actor_size,
    )


def test_the_actor_reads_only_the_seat_s_features_and_exports_to_a_plain_policy():
    env = presages_envs(True)
    obs = torch.as_tensor(env.reset())
    policy = central_policy(env)
    size = env.batch.actor_size
    scrambled = obs.clone()
    scrambled[:, size:] = torch.randn_like(scrambled[:, size:]) * 50
    with torch.no_grad():
        logits = policy.get_distribution(obs).distribution.logits
        assert torch.equal(logits, policy.get_distribution(scrambled).distribution.logits)
        assert not torch.equal(policy.predict_values(obs), policy.predict_values(scrambled))
        plain = actor_policy(policy)
        exported = plain.get_distribution(obs[:, :size]).distribution.logits
    assert plain.observation_space.shape == (size,)
    torch.testing.assert_close(exported, logits)


def test_cloning_is_refused_with_a_central_critic(tmp_path):
    with pytest.raises(ValueError, match="warm_start=None"):
        train(TrainConfig(game="presages", critic="global", out_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="critic must be one of"):
        train(TrainConfig(game="presages", critic="shared", out_dir=str(tmp_path)))
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_a_tiny_mappo_run_saves_an_actor_that_plays(tmp_path):
    config = from_scratch_config("presages", 0, tmp_path, 4, steps=512, critic="global")
    config.num_envs, config.rollout_steps, config.minibatch_size, config.eval_games = 8, 32, 64, 4
    model, curve = train(config)
    assert isinstance(model.policy, CentralCriticPolicy)
    assert len(curve) == 2  # the untrained point and the last
    agent = PPOAgent.load(tmp_path / "policy.pt")
    masks = np.zeros((1, model.action_space.n), dtype=np.int8)
    masks[0, 3] = 1
    obs = np.zeros((1, model.policy.actor_size), dtype=np.float32)
    assert agent.act_batch(obs, masks).tolist() == [3]
