"""PPO over action features (``BatchedPPOConfig(policy="action_features")``): the actor is an
action scorer whose scores are the logits, with a critic of its own; a short run per game
writes a checkpoint the checked scorer loader takes; the log-probabilities the update
recomputes are those the rollout sampled with; and it learns."""

from __future__ import annotations

import numpy as np
import pytest
from extras import require

require("train")

from test_batched_ppo import win_rates_around_updates  # noqa: E402

from presages_env.agents import RandomAgent  # noqa: E402
from presages_env.agents.specs import make_agent  # noqa: E402
from presages_env.evaluation.tournament import head_to_head  # noqa: E402
from presages_env.games import GAME_CLASSES  # noqa: E402
from presages_env.training.batched_ppo import (  # noqa: E402
    MASKED_LOGIT,
    BatchedPPO,
    check_config,
    checked_run,
    collect,
    game_config,
    make_rollouts,
    train_batched,
)

pytestmark = pytest.mark.xdist_group("batched_ppo")


def tiny(game: str, **overrides):
    settings = {
        "policy": "action_features",
        "num_envs": 16,
        "rollout_steps": 8,
        "minibatch_size": 64,
        "n_epochs": 1,
        "net_arch": (32,),
        "action_net_arch": (8,),
        "head_net_arch": (16,),
        "device": "cpu",
        "precision": "float32",
        "eval_games": 8,
        "eval_opponents": ("random",),
    }
    return game_config(game, **{**settings, **overrides})


@pytest.mark.parametrize("game", sorted(GAME_CLASSES))
@pytest.mark.parametrize("critic", ["local", "global"])
def test_a_short_run_writes_a_scorer_the_checked_loader_takes(game, critic, tmp_path):
    config = tiny(
        game,
        critic=critic,
        total_timesteps=300,
        time_budget_s=None,
        snapshot_every=1,  # snapshots of the scorer join the pool
        out_dir=str(tmp_path),
    )
    learner, curve = train_batched(config)
    assert curve[-1]["timesteps"] >= 300
    label, agent = make_agent(f"dmc:{tmp_path / 'policy.pt'}", game)
    result = head_to_head(game, agent, RandomAgent(1), 4, seed=3)
    assert result.num_games == 4


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
@pytest.mark.parametrize("game", ["presages", "res_arcana"])
def test_the_update_recomputes_the_log_probabilities_the_rollout_sampled_with(game, precision):
    """Before any update the ratio is 1: the legal pairs' scores land on their own actions
    (the update's logits, with gradients, against the sampling's), illegal ones masked."""
    import torch

    learner = BatchedPPO(
        checked_run(tiny(game, num_envs=12, rollout_steps=12, precision=precision))
    )
    rollout = collect(learner, make_rollouts(learner, [RandomAgent(2)]))
    size = rollout.size
    x = torch.as_tensor(rollout.features[:size])
    masks = torch.as_tensor(rollout.masks[:size])
    with learner._autocast():
        logits = learner._logits(x, None, rollout.masks[:size])
    assert logits.requires_grad and logits.dtype == torch.float32
    log_p = torch.log_softmax(logits, dim=-1)
    chosen = log_p.gather(1, torch.as_tensor(rollout.actions[:size])[:, None]).squeeze(1)
    np.testing.assert_allclose(chosen.detach().numpy(), rollout.log_probs[:size], atol=1e-5)
    assert (logits[~masks] == MASKED_LOGIT).all()
    obs = rollout.features[:size].astype(learner.obs_dtype)
    scores = learner.scorer.legal_scores(obs, rollout.masks[:size])
    legal = rollout.masks[:size]
    if precision == "float32":
        np.testing.assert_allclose(
            logits.detach().numpy()[legal], scores[legal], rtol=1e-5, atol=1e-6
        )


def test_a_snapshot_stays_as_it_was_while_the_learner_moves():
    import torch

    learner = BatchedPPO(checked_run(tiny("president", learning_rate=1e-2)))
    snapshot = learner.snapshot("s")
    frozen = {k: v.clone() for k, v in snapshot.scorer.network.state_dict().items()}
    before = {k: v.clone() for k, v in learner.policy.state_dict().items()}
    learner.update(collect(learner, make_rollouts(learner, [RandomAgent(1)])))
    after = snapshot.scorer.network.state_dict()
    assert all(torch.equal(frozen[k], after[k]) for k in frozen)
    moved = learner.policy.state_dict()
    assert any(not torch.equal(before[k], moved[k]) for k in before)
    assert not snapshot.scorer.network.training
    assert learner.snapshot("t")._rng.random() != snapshot._rng.random()  # streams of their own


def test_the_critic_alone_learns_first_and_the_policy_stays():
    import torch

    learner = BatchedPPO(checked_run(tiny("president", learning_rate=1e-2)))
    before = {k: v.clone() for k, v in learner.policy.state_dict().items()}
    stats = learner.update(collect(learner, make_rollouts(learner, [])), value_only=True)
    assert stats["policy_loss"] == 0.0 and stats["value_loss"] > 0.0
    moved = learner.policy.state_dict()
    assert all(torch.equal(before[k], moved[k]) for k in before)


def test_the_first_policy_is_close_to_uniform():
    learner = BatchedPPO(checked_run(tiny("presages")))
    rollout = collect(learner, make_rollouts(learner, []))
    legal = rollout.masks[: rollout.size].sum(axis=1)
    np.testing.assert_allclose(rollout.log_probs[: rollout.size], -np.log(legal), atol=0.05)


@pytest.mark.parametrize(
    ("setting", "value"),
    [("features", "heuristic_hints"), ("init_policy", "shipped"), ("policy", "logits")],
)
def test_settings_the_scorer_cannot_take_are_refused_up_front(setting, value, tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=f"{setting}.*{value}"):
        check_config(tiny("presages", **{setting: value}, out_dir=str(out)))
    assert not out.exists()


def test_forty_small_updates_lift_president_against_a_random_table():
    config = tiny(
        "president",
        num_envs=64,
        rollout_steps=32,
        minibatch_size=512,
        n_epochs=2,
        net_arch=(64,),
        action_net_arch=(16,),
        head_net_arch=(64,),
        learning_rate=1e-3,
        pool_share=0.5,
        baseline_opponents=("random",),
        snapshot_every=0,
    )
    before, after = win_rates_around_updates(config, 40)
    assert after > before + 0.1, (before, after)
