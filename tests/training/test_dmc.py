"""Deep Monte-Carlo (training/dmc.py): returns along each seat's decisions, the journal and
the buffer, the settings, and a short run per game that writes a policy the checked loader
takes and that plays legal moves."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from extras import require

require("train")

import presages_env  # noqa: E402
from presages_env.agents import action_scorer  # noqa: E402
from presages_env.agents.action_scorer import ActionScorerAgent  # noqa: E402
from presages_env.agents.specs import make_agent  # noqa: E402
from presages_env.games import get_game  # noqa: E402
from presages_env.training.batched_ppo import BatchedPPOConfig  # noqa: E402
from presages_env.training.dmc import (  # noqa: E402
    DMCActors,
    DMCConfig,
    DMCLearner,
    ReplayBuffer,
    check_config,
    checked_run,
    dmc_config,
    monte_carlo_returns,
    train_dmc,
)

GAMES = ("president", "presages", "aciliande", "res_arcana")
SHARED = (
    "game",
    "num_players",
    "team_play",
    "total_timesteps",
    "time_budget_s",
    "num_envs",
    "rollout_steps",
    "minibatch_size",
    "learning_rate",
    "net_arch",
    "eval_every",
    "eval_games",
    "eval_opponents",
    "baseline_opponents",
    "pool_share",
    "seed",
    "game_options",
    "device",
    "action_net_arch",
    "head_net_arch",
)


def tiny(game: str, tmp_path, **overrides) -> DMCConfig:
    settings = {
        "game": game,
        "num_envs": 8,
        "rollout_steps": 8,
        "minibatch_size": 64,
        "net_arch": (16,),
        "action_net_arch": (8,),
        "head_net_arch": (16,),
        "buffer_size": 2048,
        "decisions_per_game": 64,
        "time_budget_s": None,
        "total_timesteps": 400,
        "eval_every": 10,
        "eval_opponents": (),  # the curve records the decisions only: runs take seconds
        "device": "cpu",
        "out_dir": str(tmp_path / "run"),
    }
    return dmc_config(**{**settings, **overrides})


def uniform_choice(game: str):
    """A stand-in learner: uniform over the legal actions, with their features."""
    rng = np.random.default_rng(0)
    module = get_game(game).action_features

    def choose(obs, masks):
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        features = np.empty((*masks.shape, module.ACTION_FEATURES), np.float32)
        module.action_features(obs, features)
        return actions, features[np.arange(len(actions)), actions]

    return choose


def actors_for(config: DMCConfig, opponents=()) -> DMCActors:
    game = get_game(config.game)
    features = game.action_features.ACTION_FEATURES
    buffer = ReplayBuffer(config.buffer_size, game.obs_size(4), game.obs_dtype, features)
    return DMCActors(checked_run(config), list(opponents), buffer)


def test_each_decision_returns_its_seats_rewards_to_the_end():
    # one game, two seats alternating; rewards credited to seat 0's decisions 0 and 4, and
    # seat 1's decision 3
    counts = np.array([6])
    rewards = np.array([[1.0, 0.0, 0.0, 2.0, 4.0, 0.0]], np.float32)
    seats = np.array([[0, 1, 0, 1, 0, 1]])
    slots = np.empty(6, np.int64)
    targets = np.empty(6, np.float32)
    monte_carlo_returns(np.array([0]), counts, rewards, seats, 2, 0.5, slots, targets)
    by_slot = dict(zip(slots.tolist(), targets.tolist(), strict=True))
    # seat 0: decisions 0, 2, 4 -> 4; 0 + 0.5 * 4 = 2; 1 + 0.5 * 2 = 2
    assert [by_slot[p] for p in (4, 2, 0)] == [4.0, 2.0, 2.0]
    # seat 1: decisions 1, 3, 5 -> 0; 2 + 0 = 2; 0 + 0.5 * 2 = 1
    assert [by_slot[p] for p in (5, 3, 1)] == [0.0, 2.0, 1.0]


def test_a_journal_shorter_than_a_game_keeps_its_last_decisions():
    counts = np.array([5])
    rewards = np.array([[0.0, 0.0, 1.0]], np.float32)  # positions 3, 4, 2 in slots 0, 1, 2
    seats = np.zeros((1, 3), np.int64)
    slots = np.empty(3, np.int64)
    targets = np.empty(3, np.float32)
    monte_carlo_returns(np.array([0]), counts, rewards, seats, 1, 1.0, slots, targets)
    assert slots.tolist() == [1, 0, 2]  # positions 4, 3, 2
    assert targets.tolist() == [0.0, 0.0, 1.0]


def test_presages_decisions_learn_their_seats_result(tmp_path):
    """Présages rewards only the game's end (+1 the winning team, -1 the other): every
    decision's target is its seat's result, and a game's targets are both signs."""
    actors = actors_for(tiny("presages", tmp_path, num_envs=16, pool_share=0.0))
    made = actors.play(400, uniform_choice("presages"))
    buffer = actors.buffer
    assert made > buffer.size > 0 and actors.dropped > 0  # 64 of ~100 decisions are kept
    targets = buffer.targets[: buffer.size]
    assert set(np.unique(targets).tolist()) == {-1.0, 1.0}


def test_president_decisions_learn_their_places(tmp_path):
    actors = actors_for(tiny("president", tmp_path, decisions_per_game=256, pool_share=0.0))
    actors.play(300, uniform_choice("president"))
    assert actors.dropped == 0
    places = {1.0, 1 / 3, -1 / 3, -1.0}  # 4 players, from the Président to the last
    found = set(np.unique(actors.buffer.targets[: actors.buffer.size]).tolist())
    assert found and all(min(abs(t - p) for p in places) < 1e-6 for t in found)


def test_pool_deals_journal_only_the_learners_seats(tmp_path):
    from presages_env.agents import RandomAgent

    actors = actors_for(tiny("aciliande", tmp_path, pool_share=1.0), [RandomAgent(1)])
    made = actors.play(50, uniform_choice("aciliande"))
    assert made > 0
    journaled = actors.counts.sum() + actors.buffer.added + actors.dropped
    assert journaled == made


def test_epsilon_picks_legal_actions_uniformly_and_zero_is_greedy(tmp_path):
    vec = presages_env.make_vec("president", 64, seed=3)
    greedy = DMCLearner(checked_run(tiny("president", tmp_path, epsilon=0.0)))
    scores = greedy.scorer.legal_scores(vec.obs, vec.masks)
    actions, features = greedy.choose(vec.obs, vec.masks)
    np.testing.assert_array_equal(actions, scores.argmax(axis=1))
    explorer = DMCLearner(checked_run(tiny("president", tmp_path, epsilon=1.0)))
    picked = np.concatenate([explorer.choose(vec.obs, vec.masks)[0] for _ in range(20)])
    legal = np.tile(vec.masks, (20, 1))
    assert (legal[np.arange(len(picked)), picked] == 1).all()
    assert len(np.unique(picked)) > len(np.unique(actions))


def test_choices_are_the_same_a_chunk_of_rows_at_a_time(tmp_path, monkeypatch):
    vec = presages_env.make_vec("presages", 32, seed=3)
    whole = DMCLearner(checked_run(tiny("presages", tmp_path, epsilon=0.5))).choose(
        vec.obs, vec.masks
    )
    monkeypatch.setattr(action_scorer, "SCORING_CHUNK_BYTES", 1)  # a row at a time
    chunked = DMCLearner(checked_run(tiny("presages", tmp_path, epsilon=0.5))).choose(
        vec.obs, vec.masks
    )
    np.testing.assert_array_equal(chunked[0], whole[0])
    np.testing.assert_array_equal(chunked[1], whole[1])


def test_the_memory_check_counts_the_scoring_workspace(tmp_path, monkeypatch):
    """Scoring a step's decisions takes SCORING_WORKSPACE_BYTES besides the buffers (it
    took num_envs x 257 KB for Res Arcana's action features, left out: 2**16 envs with
    tiny buffers were accepted, then needed 15.7 GiB a step)."""
    from presages_env.training import settings

    workspace = action_scorer.SCORING_WORKSPACE_BYTES
    monkeypatch.setattr(settings, "memory_limit", lambda: (workspace, "a test limit"))
    small = tiny("res_arcana", tmp_path, num_envs=2, buffer_size=1, decisions_per_game=1)
    with pytest.raises(ValueError, match="num_envs.*a step's 0.25 GiB.*a test limit"):
        check_config(small)
    monkeypatch.setattr(settings, "memory_limit", lambda: (2 * workspace, "a test limit"))
    check_config(small)


def test_a_network_whose_initial_scores_pass_the_loaders_limit_is_refused_first(
    tmp_path, monkeypatch
):
    """check_config refuses a network the loader would refuse as initialised (no network
    within the settings' bounds is, under the loader's limit: here a lower one stands in)."""
    wide = tiny("presages", tmp_path, net_arch=(512,) * 4, head_net_arch=(512,) * 4)
    check_config(wide)
    monkeypatch.setattr(action_scorer, "SCORE_LIMIT", 1e7)
    with pytest.raises(ValueError, match="net_arch.*as initialised.*could reach"):
        train_dmc(wide)
    assert not (tmp_path / "run").exists()


def test_the_settings_shared_with_batched_ppo_keep_its_names_and_defaults():
    ppo = {f.name: f for f in dataclasses.fields(BatchedPPOConfig)}
    dmc = {f.name: f for f in dataclasses.fields(DMCConfig)}
    for name in SHARED:
        assert name in dmc and name in ppo, name
        if name != "game_options":
            assert dmc[name].default == ppo[name].default, name


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("epsilon", 1.5),
        ("epsilon", True),
        ("buffer_size", 0),
        ("buffer_size", 2**26),  # 64M Présages decisions: more than the machine's memory
        ("sample_reuse", 0.0),
        ("decisions_per_game", 0),
        ("gamma", float("nan")),
        ("net_arch", [0]),
        ("head_net_arch", "wide"),
        ("action_net_arch", [4096] * 8),  # a network beyond the checkpoint's bounds
        ("num_players", 3),  # Présages is played by 4 to 6
        ("game_options", {"no_such_option": 1}),
        ("device", "tpu"),
        ("eval_opponents", ("champion",)),
        ("minibatch_size", 1.5),
        ("init_policy", 5),
    ],
)
def test_bad_settings_are_refused_before_anything_is_written(tmp_path, setting, value):
    config = tiny("presages", tmp_path, **{setting: value})
    with pytest.raises((TypeError, ValueError), match=setting):
        train_dmc(config)
    assert not (tmp_path / "run").exists()


def test_unknown_settings_are_refused():
    with pytest.raises(ValueError, match="no_such_setting"):
        dmc_config(no_such_setting=1)


@pytest.mark.parametrize("game", GAMES)
def test_a_short_run_writes_a_policy_that_reloads_and_plays(game, tmp_path):
    learner, curve = train_dmc(tiny(game, tmp_path))
    out = tmp_path / "run"
    assert {"config.json", "policy.pt", "learning_curve.csv"} <= {p.name for p in out.iterdir()}
    assert json.loads((out / "config.json").read_text())["game"] == game
    assert curve[-1]["timesteps"] > 0
    agent = ActionScorerAgent.load(out / "policy.pt", game=game)
    label, by_spec = make_agent(f"dmc:{out / 'policy.pt'}", game)
    assert label == "dmc:policy"
    vec = presages_env.make_vec(game, 16, seed=5)
    for _ in range(30):  # an illegal action would raise (Agent.act_batch, VectorEnv.step)
        actions = agent.act_batch(vec.obs, vec.masks)
        np.testing.assert_array_equal(by_spec.act_batch(vec.obs, vec.masks), actions)
        np.testing.assert_array_equal(learner.agent().act_batch(vec.obs, vec.masks), actions)
        vec.step(actions)


def test_a_run_continues_from_the_checkpoint_it_names(tmp_path):
    first, _ = train_dmc(tiny("president", tmp_path / "first"))
    path = tmp_path / "first" / "run" / "policy.pt"
    later = DMCLearner(checked_run(tiny("president", tmp_path, seed=7, init_policy=str(path))))
    for name, weights in first.scorer.network.state_dict().items():
        np.testing.assert_array_equal(later.scorer.network.state_dict()[name], weights)
    vec = presages_env.make_vec("president", 16, seed=3)
    np.testing.assert_array_equal(
        later.agent().act_batch(vec.obs, vec.masks), first.agent().act_batch(vec.obs, vec.masks)
    )


@pytest.mark.parametrize("start", ["missing", "other_network", "other_game", "ensemble"])
def test_a_checkpoint_that_cannot_be_continued_is_refused_before_anything_is_written(
    tmp_path, start
):
    train_dmc(tiny("president", tmp_path / "first"))
    path = tmp_path / "first" / "run" / "policy.pt"
    game, overrides = "president", {}
    if start == "missing":
        path = tmp_path / "missing.pt"
    elif start == "other_network":
        overrides = {"net_arch": (32,)}
    elif start == "ensemble":  # a folder of checkpoints: one network is continued
        path = path.parent
    else:
        game = "presages"
    config = tiny(game, tmp_path, init_policy=str(path), **overrides)
    with pytest.raises((TypeError, ValueError), match="init_policy"):
        train_dmc(config)
    assert not (tmp_path / "run").exists()
