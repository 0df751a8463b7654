"""The batched self-play trainer: rollout bookkeeping, GAE along each seat's chain, the
recorded hyper-parameters, and a short run per game that writes a loadable policy."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from extras import require

require("train")

from presages_env.agents import HeuristicAgent, RandomAgent  # noqa: E402
from presages_env.agents.ppo import PPOAgent, shipped_checkpoint  # noqa: E402
from presages_env.evaluation.tournament import head_to_head  # noqa: E402
from presages_env.training.batched_ppo import (  # noqa: E402
    UPDATE_STATS,
    BatchedPPO,
    check_config,
    checked_run,
    collect,
    game_config,
    make_rollouts,
    native_bfloat16,
    train_batched,
)
from presages_env.training.command_line import parse_setting  # noqa: E402
from presages_env.training.rollout import LEARNER, SelfPlayRollouts  # noqa: E402

GAMES = ("president", "presages", "aciliande", "res_arcana")
pytestmark = pytest.mark.xdist_group("batched_ppo")


def tiny(game: str, **overrides):
    settings = {
        "num_envs": 16,
        "rollout_steps": 8,
        "minibatch_size": 64,
        "n_epochs": 1,
        "net_arch": (32, 32),
        "device": "cpu",
        "eval_games": 8,
        "eval_opponents": ("random",),
    }
    return game_config(game, **{**settings, **overrides})


def uniform_policy(seed: int = 0):
    """A stand-in learner: uniform over legal actions, value 0."""
    rng = np.random.default_rng(seed)

    def act(features, masks, critic_input):
        scores = np.where(masks, rng.random(masks.shape), -1.0)
        actions = scores.argmax(axis=1)
        log_probs = -np.log(masks.sum(axis=1)).astype(np.float32)
        return actions, log_probs, np.zeros(len(actions), np.float32)

    return act, lambda inputs: np.zeros(len(inputs), np.float32)


@pytest.mark.parametrize("game", GAMES)
def test_each_decision_is_chained_to_the_same_seats_next_one(game):
    from presages_env.agents.features import make_features
    from presages_env.games.run_spec import resolve_run

    spec = resolve_run(game)
    features = make_features("raw", spec.game, spec.num_actions)
    rollouts = SelfPlayRollouts(
        spec, 24, 40, features, opponents=[RandomAgent(3)], pool_share=0.5, seed=1
    )
    act, value = uniform_policy()
    rollout = rollouts.collect(act, value)
    size = rollout.size
    assert size > 0
    nxt = rollouts.next_index[:size]
    chained = np.flatnonzero(nxt >= 0)
    assert (nxt[chained] > chained).all()
    assert (rollout.envs[nxt[chained]] == rollout.envs[chained]).all()
    assert (rollout.seats[nxt[chained]] == rollout.seats[chained]).all()
    # a decision either continues, ended its game, or is the seat's open one at the stop
    open_at_stop = set(rollouts._last[rollouts._last >= 0].tolist())
    ends = np.flatnonzero(nxt < 0)
    for i in ends:
        assert rollouts.terminal[i] or i in open_at_stop
    assert not rollouts.terminal[chained].any()
    assert rollout.masks[np.arange(size), rollout.actions[:size]].all()


@pytest.mark.parametrize("game", GAMES)
def test_pool_seats_are_never_recorded_as_the_learners(game):
    config = tiny(game, pool_share=1.0, num_envs=32, rollout_steps=30)
    learner = BatchedPPO(checked_run(config))
    rollouts = make_rollouts(learner, [RandomAgent(5)])
    recorded = []

    def act(features, masks, critic_input):
        envs = np.flatnonzero(rollouts.controller[rollouts._rows, rollouts.vec.current] == LEARNER)
        recorded.append(rollouts.controller[envs, rollouts.vec.current[envs]])
        return learner.act(features, masks, critic_input)

    rollouts.collect(act, learner.value)
    assert all((controllers == LEARNER).all() for controllers in recorded)
    n = rollouts.num_players
    learner_seats = (rollouts.controller == LEARNER).sum(axis=1)
    assert (learner_seats >= 1).all() and (learner_seats < n).all()  # every deal has both


def reference_gae(rollouts: SelfPlayRollouts, gamma: float, lam: float) -> np.ndarray:
    """GAE by the textbook recursion, one seat's chain at a time (slow, obviously right)."""
    rollout = rollouts._buffers
    size = rollout.size
    nxt = rollouts.next_index[:size]
    heads = set(range(size)) - set(nxt[nxt >= 0].tolist())
    advantages = np.zeros(size)
    for head in heads:
        chain = [head]
        while nxt[chain[-1]] >= 0:
            chain.append(int(nxt[chain[-1]]))
        following = 0.0
        for k in reversed(range(len(chain))):
            i = chain[k]
            if rollouts.terminal[i]:
                next_value, following = 0.0, 0.0
            elif k + 1 < len(chain):
                next_value = rollout.values[chain[k + 1]]
            else:
                next_value, following = rollouts.bootstrap[i], 0.0
            delta = rollouts.rewards[i] + gamma * next_value - rollout.values[i]
            following = delta + gamma * lam * following
            advantages[i] = following
    return advantages


@pytest.mark.parametrize("game", ["president", "aciliande"])
def test_advantages_follow_each_seats_chain(game):
    learner = BatchedPPO(checked_run(tiny(game, num_envs=32, rollout_steps=150)))
    rollouts = make_rollouts(learner, [])
    rollout = collect(learner, rollouts)
    expected = reference_gae(rollouts, learner.config.gamma, learner.config.gae_lambda)
    np.testing.assert_allclose(rollout.advantages[: rollout.size], expected, atol=1e-4)
    assert rollouts.rewards[: rollout.size].any()  # the games gave rewards to check


def test_every_game_has_recorded_hyperparameters_and_bad_settings_are_refused():
    for game in GAMES:
        assert game_config(game).game == game
    with pytest.raises(ValueError, match="unknown settings"):
        game_config("presages", learning_rat=1e-3)
    with pytest.raises(ValueError, match="critic"):
        check_config(dataclasses.replace(game_config("presages"), critic="central"))
    with pytest.raises(ValueError, match="precision"):
        check_config(dataclasses.replace(game_config("presages"), precision="float16"))
    with pytest.raises(ValueError, match="pool_share"):
        check_config(dataclasses.replace(game_config("presages"), pool_share=1.5))
    for name, value, error in [
        ("critic_warmup_updates", -1, ValueError),
        ("critic_warmup_updates", 2.5, TypeError),
        ("keep_checkpoints", "yes", TypeError),
        ("init_policy", 7, TypeError),
    ]:
        with pytest.raises(error, match=name):
            check_config(dataclasses.replace(game_config("presages"), **{name: value}))


def test_auto_precision_takes_bfloat16_only_where_the_hardware_has_it():
    """Emulated bfloat16 is about 12x slower than float32 on an AVX2-only CPU: the recorded
    "auto" must fall back to float32 there, and a forced setting must be obeyed."""
    from types import SimpleNamespace

    import torch

    cpu = torch.device("cpu")
    bare = SimpleNamespace(cpu=SimpleNamespace())
    assert not native_bfloat16(bare, cpu)
    with_bf16 = SimpleNamespace(cpu=SimpleNamespace(_is_avx512_bf16_supported=lambda: True))
    assert native_bfloat16(with_bf16, cpu)
    assert game_config("presages").precision == "auto"
    assert BatchedPPO(checked_run(tiny("president", precision="auto"))).bfloat16 == native_bfloat16(
        torch, cpu
    )
    assert BatchedPPO(checked_run(tiny("president", precision="bfloat16"))).bfloat16
    assert not BatchedPPO(checked_run(tiny("president", precision="float32"))).bfloat16


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("critic", "precision"), [("local", "float32"), ("global", "bfloat16")])
def test_a_short_run_writes_a_policy_every_loader_takes(game, critic, precision, tmp_path):
    config = tiny(
        game,
        critic=critic,
        precision=precision,
        total_timesteps=300,
        time_budget_s=None,
        snapshot_every=1,
        eval_every=100,
        out_dir=str(tmp_path),
    )
    learner, curve = train_batched(config)
    assert len(curve) == 2 and curve[-1]["timesteps"] >= 300
    agent = PPOAgent.load(tmp_path / "policy.pt", game=game)
    result = head_to_head(game, agent, HeuristicAgent(game), 4, seed=3)
    assert result.num_games == 4
    assert (tmp_path / "config.json").is_file() and (tmp_path / "learning_curve.csv").is_file()


def test_self_play_learns_against_random_in_president():
    """A few hundred updates' worth is too slow for the suite; 40 small updates must already
    lift Président's win rate against a random table well above the untrained policy's."""
    config = tiny(
        "president",
        precision="float32",
        num_envs=64,
        rollout_steps=32,
        minibatch_size=512,
        n_epochs=2,
        net_arch=(64, 64),
        learning_rate=1e-3,
        pool_share=0.5,
        baseline_opponents=("random",),
        snapshot_every=0,
    )
    before, after = win_rates_around_updates(config, 40)
    assert after > before + 0.1, (before, after)


def win_rates_around_updates(config, updates: int) -> tuple[float, float]:
    """The learner of ``config`` against a random Président table (400 games), before and
    after ``updates`` updates on rollouts half against random play."""
    learner = BatchedPPO(checked_run(config))
    rollouts = make_rollouts(learner, [RandomAgent(9)])

    def win_rate() -> float:
        return head_to_head("president", learner.agent(), RandomAgent(4), 400, seed=11).win_rate

    before = win_rate()
    for _ in range(updates):
        learner.update(collect(learner, rollouts))
    return before, win_rate()


def test_a_run_starts_from_a_saved_policy_and_keeps_a_checkpoint_per_evaluation(tmp_path):
    import torch

    first = tiny("president", total_timesteps=100, time_budget_s=None, out_dir=str(tmp_path / "a"))
    trained, _ = train_batched(first)
    saved = tmp_path / "a" / "policy.pt"
    config = dataclasses.replace(
        first,
        init_policy=str(saved),
        keep_checkpoints=True,
        eval_every=1,
        out_dir=str(tmp_path / "b"),
    )
    started = BatchedPPO(checked_run(config))
    for name, weights in trained.policy.state_dict().items():
        assert torch.equal(started.policy.state_dict()[name], weights), name
    _, curve = train_batched(config)
    points = [row["timesteps"] for row in curve]
    assert points == sorted(set(points)) and len(points) > 2  # each point measured once
    kept = sorted(path.name for path in (tmp_path / "b").glob("policy_*.pt"))
    assert kept == sorted(f"policy_{row['timesteps']}.pt" for row in curve)
    assert "from " + str(saved) in curve.method


def test_the_shipped_policy_is_a_starting_point(tmp_path):
    import torch

    shipped = PPOAgent.load(shipped_checkpoint("res_arcana", 2), game="res_arcana")
    learner = BatchedPPO(
        checked_run(tiny("res_arcana", num_players=2, net_arch=(256, 256), init_policy="shipped"))
    )
    for name, weights in shipped.policy.state_dict().items():
        assert torch.equal(learner.policy.state_dict()[name], weights), name


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"features": "heuristic_hints"}, "reads 'raw' features"),
        ({"net_arch": (64, 64)}, "has the network"),
        ({"init_policy": "GARBAGE"}, "not a readable torch checkpoint"),
    ],
)
def test_a_starting_policy_that_does_not_fit_is_refused_before_anything_is_written(
    settings, message, tmp_path
):
    saved = tmp_path / "policy.pt"
    train_batched(tiny("president", total_timesteps=50, time_budget_s=None, out_dir=str(tmp_path)))
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"not a checkpoint")
    init = str(garbage) if settings.get("init_policy") == "GARBAGE" else str(saved)
    out = tmp_path / "refused"
    config = tiny("president", **{**settings, "init_policy": init, "out_dir": str(out)})
    with pytest.raises(ValueError, match=message):
        train_batched(config)
    assert not out.exists()


def test_a_value_only_update_trains_the_critic_and_leaves_the_policy_alone():
    import torch

    learner = BatchedPPO(checked_run(tiny("president", precision="float32")))
    rollouts = make_rollouts(learner, [RandomAgent(1)])
    before = {name: w.clone() for name, w in learner.policy.state_dict().items()}
    learner.update(collect(learner, rollouts), value_only=True)
    after = learner.policy.state_dict()
    changed = {name for name in before if not torch.equal(before[name], after[name])}
    assert changed and all("value" in name for name in changed), sorted(changed)
    learner.update(collect(learner, rollouts))
    assert not torch.equal(
        before["action_net.weight"], learner.policy.state_dict()["action_net.weight"]
    )


def test_command_line_settings_read_json_values_and_refuse_anything_else():
    import argparse

    assert parse_setting("n_epochs=2") == ("n_epochs", 2)
    assert parse_setting("net_arch=[64,64]") == ("net_arch", [64, 64])
    assert parse_setting("init_policy=shipped") == ("init_policy", "shipped")
    for bad in ("n_epochs", "=2", "not a name=1", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="expected name=value"):
            parse_setting(bad)


def test_a_rollout_one_row_past_a_whole_minibatch_updates_to_finite_weights():
    """Minibatches split the rollout evenly: no one-row remainder, whose advantages have no
    standard deviation (NaN weights before) and whose noise would take a full step."""
    import torch

    learner = BatchedPPO(checked_run(tiny("president", precision="float32")))
    rollout = collect(learner, make_rollouts(learner, [RandomAgent(1)]))
    learner.config = dataclasses.replace(learner.config, minibatch_size=rollout.size - 1)
    learner.update(rollout)
    assert all(torch.isfinite(w).all() for w in learner.policy.state_dict().values())


def test_the_seat_to_move_is_bootstrapped_from_the_features_it_would_act_on():
    """Hint features read the legal moves: the seat to move is valued on its own, as when it
    acts, not on an empty mask."""
    from presages_env.agents.features import make_features
    from presages_env.games.run_spec import resolve_run

    spec = resolve_run("president", 4)
    features = make_features("heuristic_hints", spec.game, spec.num_actions)
    rollouts = SelfPlayRollouts(spec, 8, 5, features, seed=0)
    seen = []
    act, _ = uniform_policy()
    rollouts.collect(act, lambda inputs: seen.append(inputs) or np.zeros(len(inputs), np.float32))
    vec = rollouts.vec
    envs, seats = np.nonzero(rollouts._last >= 0)
    to_move = seats == vec.current[envs]
    assert to_move.any() and (~to_move).any()
    movers = envs[to_move]
    np.testing.assert_array_equal(seen[-1][to_move], features(vec.obs[movers], vec.masks[movers]))


def test_a_run_names_its_folder_and_logs_its_update_statistics_to_tensorboard(tmp_path, capsys):
    """The batched trainer logged three losses and no progress: no TensorBoard, no KL, clip
    fraction or explained variance, and it never said where it wrote."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    config = tiny("president", total_timesteps=300, time_budget_s=None, out_dir=str(tmp_path))
    train_batched(config)
    said = capsys.readouterr().out
    assert f"writing to {tmp_path}/" in said and f"wrote {tmp_path}/" in said
    assert "(chance 25%)" in said  # the last win rates beside an equally strong learner's
    events = EventAccumulator(str(tmp_path / "logs"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    for name in UPDATE_STATS + ("explained_variance", "decisions_per_s"):
        assert f"train/{name}" in tags, (name, tags)
    assert {"win_rate/vs_random", "win_rate/chance"} <= tags
    assert all(np.isfinite(e.value) for e in events.Scalars("train/approx_kl"))


def test_the_command_line_help_lists_every_setting_with_its_default():
    """``--help`` showed neither the defaults nor the settings ``--set`` accepts."""
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    from presages_env.training.command_line import FLAGS
    from presages_env.training.dmc import dmc_config
    from presages_env.training.settings import config_json

    root = Path(__file__).parents[2]
    for script, config in (
        ("train_batched.py", game_config("presages")),
        ("train_dmc.py", dmc_config()),
    ):
        text = subprocess.run(
            [sys.executable, str(root / "baselines" / script), "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "settings (--set NAME=VALUE; default):" in text
        defaults = json.loads(config_json(config))
        for name in set(defaults) - set(FLAGS):  # each setting with its default
            assert re.search(rf"\n  {name} +{re.escape(json.dumps(defaults[name]))}\n", text), name
        assert "100000000  (or --timesteps)" in text  # the value a run of the script gets
