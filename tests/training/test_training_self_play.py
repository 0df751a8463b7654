"""Self-play training: the native SB3 VecEnv's bookkeeping and a tiny run that learns."""

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.agents.ppo import PPOAgent
from presages_env.evaluation import head_to_head
from presages_env.training.imitation import imitate, teacher_games
from presages_env.training.vec_env import SelfPlayVecEnv


def random_policy_episodes(env: SelfPlayVecEnv, steps: int):
    """Play the learner seat at random; return the finished episodes' returns and lengths."""
    agent = RandomAgent(5)
    env.reset()
    returns, lengths = [], []
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks")).astype(np.int8)
        env.step_async(agent.act_batch(masks, masks))
        _obs, _rewards, _done, infos = env.step_wait()
        for info in infos:
            if "episode" in info:
                returns.append(info["episode"]["r"])
                lengths.append(info["episode"]["l"])
    return np.array(returns), np.array(lengths)


def test_learner_always_faces_its_own_decision_with_a_legal_mask():
    env = SelfPlayVecEnv("president", 16, [RandomAgent(1)], num_players=4, seed=3)
    obs = env.reset()
    assert obs.shape == (16, env.observation_space.shape[0])
    for _ in range(50):
        assert env.is_learner[np.arange(16), env.vec.current].all()
        masks = env.action_masks()
        assert masks.any(axis=1).all()
        env.step_async(RandomAgent(2).act_batch(masks.astype(np.int8), masks.astype(np.int8)))
        env.step_wait()


def test_episode_returns_are_the_learner_places_reward():
    """With the 'places' reward a 4-player manche pays exactly one of +1, 1/3, -1/3, -1."""
    env = SelfPlayVecEnv("president", 32, [RandomAgent(1)], num_players=4, seed=0)
    returns, lengths = random_policy_episodes(env, 300)
    assert len(returns) > 50
    assert np.allclose(
        np.min(np.abs(returns[:, None] - [1, 1 / 3, -1 / 3, -1]), axis=1), 0, atol=1e-5
    )
    assert abs(returns.mean()) < 0.2  # random vs random: no edge
    assert (lengths > 0).all()


def test_learner_seats_rotate():
    env = SelfPlayVecEnv("president", 64, [RandomAgent(1)], num_players=4, seed=1)
    env.reset()
    assert set(env.learner_seat.tolist()) == {0, 1, 2, 3}


def test_team_play_gives_the_learner_every_seat_of_its_team():
    env = SelfPlayVecEnv("presages", 8, [RandomAgent(1)], num_players=4, team_play=True, seed=2)
    env.reset()
    for i in range(8):
        teams = env.game.teams(env.vec.states[i])
        np.testing.assert_array_equal(env.is_learner[i], teams == teams[env.learner_seat[i]])


def test_a_tiny_training_run_beats_random_in_president():
    env = SelfPlayVecEnv("president", 32, [RandomAgent(1)], num_players=4, seed=0)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=512,
        n_epochs=4,
        learning_rate=1e-3,
        policy_kwargs={"net_arch": [64, 64]},
        seed=0,
        device="cpu",
    )
    model.learn(12_288)
    result = head_to_head("president", PPOAgent(model.policy), RandomAgent(7), 600, seed=11)
    # random against random gets mean reward 0; the trained seat must be clearly above
    assert result.mean_reward_ci().low > 0.1, result.mean_reward_ci()


def test_teacher_games_record_legal_actions_and_the_seat_returns():
    obs, masks, actions, returns = teacher_games(
        "president", HeuristicAgent("president"), 2000, 4, 0
    )
    assert len(obs) == len(masks) == len(actions) == len(returns) >= 2000
    assert masks[np.arange(len(actions)), actions].all()
    # one manche, "places" reward: a decision's return-to-go is its seat's final reward
    assert np.allclose(np.min(np.abs(returns[:, None] - [1, 1 / 3, -1 / 3, -1]), axis=1), 0)


def test_cloning_the_heuristic_makes_the_policy_agree_with_it():
    env = SelfPlayVecEnv("president", 8, [RandomAgent(1)], num_players=4, seed=0)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, seed=0)
    data = teacher_games("president", HeuristicAgent("president"), 20_000, 4, 1)
    before = imitate(model.policy, data, epochs=0)["agreement"]
    after = imitate(model.policy, data, epochs=3)["agreement"]
    assert after > max(before + 0.15, 0.75), (before, after)


def test_a_run_continues_from_a_saved_policy_and_refuses_a_mismatched_one(tmp_path):
    from presages_env.training.self_play import TrainConfig, train

    tiny = dict(
        game="president", total_timesteps=64, num_envs=4, rollout_steps=16, minibatch_size=64,
        n_epochs=1, net_arch=(8,), eval_games=4, warm_start=None, max_snapshots=0,
    )  # fmt: skip
    _model, curve = train(TrainConfig(**tiny, out_dir=str(tmp_path / "first")))
    # the curve records what its points measured, for its plot to say
    assert (curve.game, curve.num_players, curve.games_per_point) == ("president", 4, 4)
    assert (curve.method, curve.chance) == ("MaskablePPO self-play", 0.25)
    first = tmp_path / "first" / "policy.pt"
    frozen = dict(tiny, learning_rate=0.0, init_policy=str(first))
    train(TrainConfig(**frozen, out_dir=str(tmp_path / "second")))
    before = PPOAgent.load(first).policy.state_dict()
    after = PPOAgent.load(tmp_path / "second" / "policy.pt").policy.state_dict()
    for name, tensor in before.items():
        np.testing.assert_array_equal(tensor.numpy(), after[name].numpy())
    with pytest.raises(ValueError, match="heuristic_hints"):
        train(TrainConfig(**dict(frozen, features="heuristic_hints"), out_dir=str(tmp_path / "x")))
    with pytest.raises(ValueError, match="not both"):
        train(TrainConfig(**dict(frozen, warm_start="heuristic"), out_dir=str(tmp_path / "y")))


def test_the_learning_curve_plot_names_its_setting_bands_and_chance(tmp_path):
    from presages_env.evaluation.learning_curve import (
        LearningCurve,
        learning_curve_figure,
        plot_learning_curve,
    )

    rows = [
        {"timesteps": t, "win_rate_vs_random": r, "win_rate_vs_heuristic": h}
        for t, r, h in [(0, 0.5, 0.2), (1000, 0.7, 0.3), (2000, 0.8, 0.45)]
    ]
    setting = dict(game="presages", num_players=4, games_per_point=400, chance=0.5)
    curve = LearningCurve(rows, method="MaskablePPO self-play, heuristic cloned first", **setting)
    axes = learning_curve_figure(curve).axes[0]
    title = " ".join(axes.get_title().split())  # wrapped lines joined
    assert "Présages, 4 players: MaskablePPO self-play, heuristic cloned first" in title
    assert "bands: 95% Wilson interval over 400 games per point" in title
    assert len(axes.collections) == 2  # one band per opponent
    chance = [line for line in axes.lines if line.get_label().startswith("chance")]
    assert len(chance) == 1 and chance[0].get_ydata() == pytest.approx([50, 50])
    legend = [text.get_text() for lg in axes.figure.legends for text in lg.get_texts()]
    assert chance[0].get_label() in legend  # the legend is the figure's, beside the plot

    runs = {"from scratch": curve, "warm-started": LearningCurve(rows, **setting)}
    title = " ".join(learning_curve_figure(runs, method="two runs").axes[0].get_title().split())
    assert "Présages, 4 players: two runs" in title

    plain = learning_curve_figure(rows).axes[0]  # rows alone: nothing recorded, no band
    assert "game not recorded" in plain.get_title() and "no bands" in plain.get_title()
    assert not plain.collections
    assert plot_learning_curve(curve, tmp_path / "curve.png").exists()
