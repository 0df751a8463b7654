"""Policy features: the heuristic's hints are right, bounded, and travel with a checkpoint."""

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.agents.features import VALUE_CLIP, make_features
from presages_env.agents.ppo import PPOAgent
from presages_env.games.presages.heuristic import heuristic_values
from presages_env.training.vec_env import SelfPlayVecEnv


def positions(game: str, steps: int = 40, num_envs: int = 64):
    """Observations and masks from random play (many decision kinds)."""
    vec = presages_env.make_vec(game, num_envs, seed=4)
    agent, obs, masks = RandomAgent(3), [], []
    for _ in range(steps):
        obs.append(vec.obs.copy())
        masks.append(vec.masks.copy())
        vec.step(agent.act_batch(vec.obs, vec.masks))
    return np.concatenate(obs), np.concatenate(masks)


@pytest.mark.parametrize("game", ["president", "presages", "aciliande"])
def test_hints_one_hot_the_heuristic_action_and_stay_in_bounds(game):
    obs, masks = positions(game)
    features = make_features("heuristic_hints", game, masks.shape[1])
    x = features(obs, masks)
    d, a = obs.shape[1], masks.shape[1]
    np.testing.assert_array_equal(x[:, :d], obs)
    hint = x[:, d : d + a]
    assert (hint.sum(axis=1) == 1).all()
    np.testing.assert_array_equal(hint.argmax(axis=1), HeuristicAgent(game).act_batch(obs, masks))
    env = SelfPlayVecEnv(game, 4, [RandomAgent(1)], features="heuristic_hints")
    assert env.observation_space.contains(x[0])
    assert env.reset().shape == (4, x.shape[1])


def test_presages_hint_values_rank_the_heuristic_choice_first():
    obs, masks = positions("presages")
    actions = np.empty(len(obs), dtype=np.int64)
    values = np.empty(masks.shape)
    heuristic_values(obs, masks, actions, values)
    scored = np.abs(values).sum(axis=1) > 0
    assert scored.mean() > 0.5  # placements and ⚡ choices are most decisions
    assert (values[~masks.astype(bool)] == 0).all()  # illegal options carry nothing
    legal_values = np.where(masks > 0, values, -np.inf)
    best = legal_values[scored].max(axis=1)
    chosen = values[scored, actions[scored]]
    np.testing.assert_allclose(chosen, best)
    x = make_features("heuristic_hints", "presages", masks.shape[1])(obs, masks)
    assert np.abs(x[:, obs.shape[1] :]).max() <= VALUE_CLIP


def test_unknown_features_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="heuristic_hints"):
        make_features("pixels", "presages", 45)


def test_a_saved_policy_keeps_its_features(tmp_path):
    env = SelfPlayVecEnv("president", 4, [RandomAgent(1)], features="heuristic_hints")
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, seed=0)
    agent = PPOAgent(model.policy, features=env.features)
    agent.save(tmp_path / "p.pt")
    loaded = PPOAgent.load(tmp_path / "p.pt")
    assert loaded.features.name == "heuristic_hints"
    obs, masks = positions("president", steps=5)
    np.testing.assert_array_equal(loaded.act_batch(obs, masks), agent.act_batch(obs, masks))
