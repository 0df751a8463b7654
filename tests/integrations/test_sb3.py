"""Stable-Baselines3: check_env, shipped checkpoints as MaskablePPO zips, truncation info."""

import warnings

import gymnasium
import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env

import presages_env
from presages_env.agents import RandomAgent
from presages_env.agents.ppo import PPOAgent, shipped_checkpoint
from presages_env.games import GAME_CLASSES
from presages_env.training import SelfPlayVecEnv, SingleAgentEnv
from presages_env.training.registration import env_id

CONSTANT_ENTRIES = "A Box observation space maximum and minimum values are equal"


@pytest.mark.parametrize("game", list(GAME_CLASSES))
def test_the_registered_view_passes_sb3_check_env_with_its_defaults(game):
    env = gymnasium.make(env_id(game))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3 warns of what it would not train well
        warnings.filterwarnings("ignore", f".*{CONSTANT_ENTRIES}")  # see test_gymnasium.py
        check_env(env)


def test_sb3_check_env_passes_with_heuristic_opponents():
    check_env(SingleAgentEnv("president", "heuristic"))


@pytest.mark.parametrize("game", ["president", "presages"])
def test_a_shipped_checkpoint_exports_to_a_zip_maskableppo_opens(game, tmp_path):
    agent = PPOAgent.load(shipped_checkpoint(game))
    path = agent.to_sb3(tmp_path / "model.zip")
    model = MaskablePPO.load(path, device="cpu")
    assert model.presages_env == {"game": game, "features": agent.features.name}
    vec = presages_env.make_vec(game, 64, seed=3)
    predicted, _ = model.predict(
        agent.features(vec.obs, vec.masks), deterministic=True, action_masks=vec.masks > 0
    )
    np.testing.assert_array_equal(predicted, agent.act_batch(vec.obs, vec.masks))
    with pytest.raises(ValueError, match="trusted=True"):
        PPOAgent.load(path)
    back = PPOAgent.load(path, trusted=True)
    assert back.features.name == agent.features.name
    np.testing.assert_array_equal(back.act_batch(vec.obs, vec.masks), predicted)


def test_shipped_checkpoint_refuses_unknown_games():
    with pytest.raises(ValueError, match="known games"):
        shipped_checkpoint("chess")


def play(env: SelfPlayVecEnv, steps: int):
    env.reset()
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks"))
        env.step_async(np.argmax(masks, axis=1))
        yield env.step_wait()


def test_truncation_is_reported_the_sb3_way():
    env = SelfPlayVecEnv("president", 16, [RandomAgent(1)], seed=0, max_steps=10)
    truncations = 0
    for _obs, _rewards, dones, infos in play(env, 40):
        for i, info in enumerate(infos):
            if info.get("TimeLimit.truncated"):
                truncations += 1
                assert dones[i] and "episode" in info
                final = info["terminal_observation"]
                assert final.shape == env.observation_space.shape
                assert env.observation_space.contains(final)
            else:
                assert "terminal_observation" not in info
    assert truncations > 0


def test_without_a_cap_games_end_only_by_the_rules():
    env = SelfPlayVecEnv("president", 16, [RandomAgent(1)], seed=0)
    for _obs, _rewards, _dones, infos in play(env, 120):
        assert not any("TimeLimit.truncated" in info for info in infos)
