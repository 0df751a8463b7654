"""Training settings are checked, each against its declared type and range, before a run
writes ``config.json`` or builds anything: a bad one is a ``TypeError``/``ValueError`` naming
it (issue 39, defect 5), and the fuzz of hostile settings finds no other outcome."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from extras import require

require("train")

import presages_env  # noqa: E402
from presages_env.agents.ppo import shipped_checkpoint  # noqa: E402
from presages_env.fuzzing.training_settings import (  # noqa: E402
    HAS_TRAIN,
    TRAINERS,
    LyingFloat,
    LyingInt,
    fuzz_training_settings,
)
from presages_env.training import batched_ppo, dmc, dmc_ray, self_play, settings  # noqa: E402
from presages_env.training.batched_ppo import (  # noqa: E402
    BatchedPPOConfig,
    check_config,
    game_config,
    train_batched,
)
from presages_env.training.dmc import DMCConfig  # noqa: E402
from presages_env.training.dmc_ray import DistributedDMCConfig  # noqa: E402
from presages_env.training.self_play import TrainConfig, check_train_config, train  # noqa: E402
from presages_env.training.settings import config_json, seconds_argument  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NAN, INF = math.nan, math.inf


def batched(out: Path, **overrides) -> BatchedPPOConfig:
    small = {"num_envs": 2, "rollout_steps": 4, "minibatch_size": 8, "net_arch": (16,)}
    return game_config("president", **{**small, "device": "cpu", "out_dir": str(out), **overrides})


def sb3(out: Path, **overrides) -> TrainConfig:
    small = {
        "num_envs": 2,
        "rollout_steps": 8,
        "minibatch_size": 16,
        "net_arch": (16,),
        "warm_start": None,
    }
    return TrainConfig(game="president", **{**small, "out_dir": str(out), **overrides})


def refuse(trainer, config, name: str, error=ValueError) -> str:
    """The trainer refuses ``config`` naming ``name``, and nothing is written."""
    with pytest.raises(error, match=name) as refusal:
        trainer(config)
    assert not Path(config.out_dir).exists(), "a refused run wrote its directory"
    return str(refusal.value)


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("time_budget_s", NAN, ValueError),
        ("time_budget_s", -1.0, ValueError),
        ("learning_rate", INF, ValueError),
        ("gamma", NAN, ValueError),
        ("gae_lambda", NAN, ValueError),
        ("ent_coef", NAN, ValueError),
        ("vf_coef", NAN, ValueError),
        ("max_grad_norm", NAN, ValueError),
        ("eval_every", 0, ValueError),
        ("gamma", "x", TypeError),
        ("gamma", 2.0, ValueError),
        ("clip_range", -1, ValueError),
        ("max_grad_norm", -1, ValueError),
        ("team_play", "yes", TypeError),
        ("keep_checkpoints", 1, TypeError),
        ("total_timesteps", -1, ValueError),
        ("num_envs", True, TypeError),
        ("n_epochs", 2.0, TypeError),
        ("net_arch", [64, True], TypeError),
        ("baseline_opponents", ["nobody"], ValueError),
        ("eval_opponents", ["nobody"], ValueError),
        ("eval_games", 0, ValueError),
        ("game_options", {"num_manches": 0}, ValueError),
        ("game_options", {"no_such_option": 1}, TypeError),
        ("game_options", {"num_manches": NAN}, ValueError),
        ("device", "tpu", ValueError),
        ("precision", "float16", ValueError),
    ],
)
def test_the_batched_trainer_refuses_a_bad_setting_before_writing(name, value, error, tmp_path):
    refuse(train_batched, batched(tmp_path / "run", **{name: value}), name, error)


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("time_budget_s", NAN, ValueError),
        ("learning_rate", INF, ValueError),
        ("gamma", NAN, ValueError),
        ("ent_coef", NAN, ValueError),
        ("eval_every", 0, ValueError),
        ("snapshot_every", -1, ValueError),  # 0: no snapshots, as for the batched trainer
        ("gamma", "x", TypeError),
        ("team_play", "yes", TypeError),
        ("total_timesteps", -1, ValueError),
        ("minibatch_size", 1, ValueError),
        ("baseline_opponents", ("nobody",), ValueError),
        ("eval_opponents", ("nobody",), ValueError),
        ("warm_start", "nobody", ValueError),
        ("eval_games", 1, ValueError),
        ("game_options", {"num_manches": "3"}, ValueError),
    ],
)
def test_the_maskable_ppo_trainer_refuses_a_bad_setting_before_writing(
    name, value, error, tmp_path
):
    refuse(train, sb3(tmp_path / "run", **{name: value}), name, error)


def test_the_maskable_ppo_trainer_checks_init_policy_before_writing(tmp_path):
    """It was loaded only after config.json and logs/ were written (a missing path was a
    FileNotFoundError, another game's checkpoint a ValueError, both after the writes)."""
    refuse(train, sb3(tmp_path / "run", init_policy=str(tmp_path / "missing.pt")), "init_policy")
    another_game = shipped_checkpoint("presages")
    refuse(train, sb3(tmp_path / "run", init_policy=str(another_game)), "init_policy")


def test_game_options_take_numpy_and_subclassed_ints_as_their_true_values(tmp_path):
    class LyingInt(int):
        def __index__(self) -> int:
            return 10**6

    config = check_config(
        batched(tmp_path / "run", game_options={"num_manches": np.int64(2)}, device="cpu")
    )
    assert config.game_options == {"num_manches": 2}
    config = check_config(batched(tmp_path / "run", game_options={"num_manches": LyingInt(3)}))
    assert type(config.game_options["num_manches"]) is int
    assert config.game_options["num_manches"] == 3


def test_a_device_index_is_written_in_ascii_digits(tmp_path):
    refuse(train_batched, batched(tmp_path / "run", device="cuda:\u0663"), "device")


def test_a_run_directory_is_a_string(tmp_path):
    """A Path was written as far as ``json.dumps``, which refused it after ``mkdir``."""
    refuse(train, sb3(tmp_path / "run", out_dir=tmp_path / "run"), "out_dir", TypeError)


def test_a_rollout_too_large_for_memory_is_refused_with_its_estimate(tmp_path):
    """2**16 envs of 2**16 steps asked numpy for 1.8 TiB (a MemoryError after config.json)."""
    huge = batched(tmp_path / "run", num_envs=2**16, rollout_steps=2**16)
    message = refuse(train_batched, huge, "num_envs x rollout_steps")
    assert "4,294,967,296 rollout rows" in message and "GiB" in message and "memory" in message
    message = refuse(
        train, sb3(tmp_path / "run", num_envs=2**16, rollout_steps=2**16), "rollout_steps"
    )
    assert "GiB" in message


def test_cuda_is_refused_clearly_where_torch_sees_none(monkeypatch, tmp_path):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    message = refuse(train_batched, batched(tmp_path / "run", device="cuda"), "device")
    assert "torch.cuda.is_available() is False" in message


def test_a_network_the_checkpoint_loader_would_refuse_is_refused_first(tmp_path):
    refuse(train_batched, batched(tmp_path / "run", net_arch=[4096] * 8), "net_arch")
    refuse(train_batched, batched(tmp_path / "run", net_arch=[8192]), "net_arch")


def test_the_command_lines_refuse_a_time_budget_that_never_runs_out():
    for text in ("nan", "inf", "-5", "0", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds_argument(text)
    assert seconds_argument("1.5") == 1.5
    script = ROOT / "baselines" / "train_batched.py"
    command = [sys.executable, str(script), "--time-budget", "nan", "--out", "/nonexistent/x"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 2 and "finite number" in result.stderr, result.stderr


def test_accepted_settings_become_plain_values_and_strict_json(tmp_path):
    config = check_config(
        batched(
            tmp_path,
            num_envs=np.int64(3),
            n_epochs=LyingInt(2),
            gamma=np.float32(0.5),
            gae_lambda=LyingFloat(0.9),
            net_arch=[32, np.int16(8)],
            baseline_opponents=["random"],
            team_play=np.bool_(False),
            eval_opponents=(),  # a best response's run measures no curve
            learning_rate=0,  # a frozen leg
        )
    )
    assert (config.num_envs, config.n_epochs, config.net_arch) == (3, 2, (32, 8))
    assert type(config.num_envs) is int and type(config.n_epochs) is int
    assert (config.gamma, config.gae_lambda, config.team_play) == (0.5, 0.9, False)
    assert type(config.gae_lambda) is float and type(config.team_play) is bool
    assert config.baseline_opponents == ("random",)
    assert json.loads(config_json(config))["net_arch"] == [32, 8]
    assert check_train_config(sb3(tmp_path, learning_rate=0.0)).learning_rate == 0.0


def test_config_json_never_holds_a_bare_nan():
    broken = dataclasses.replace(TrainConfig(), time_budget_s=NAN)  # not checked
    with pytest.raises(ValueError, match="JSON"):
        config_json(broken)


def test_every_setting_of_both_configs_has_a_rule():
    for module, config in ((self_play, TrainConfig), (batched_ppo, BatchedPPOConfig)):
        assert set(module.SETTINGS) == {field.name for field in dataclasses.fields(config)}
        module_check = check_train_config if config is TrainConfig else check_config
        module_check(config())  # the defaults pass their own rules


def test_the_fuzz_covers_every_trainers_config(tmp_path):
    """Deep Monte-Carlo's settings were left out: its hostile values were never fuzzed."""
    configs = {type(trainer.base("president", str(tmp_path))) for trainer in TRAINERS}
    assert configs == {TrainConfig, BatchedPPOConfig, DMCConfig, DistributedDMCConfig}
    dmc_trainer = next(trainer for trainer in TRAINERS if trainer.name == "DMCConfig")
    assert (dmc_trainer.check, dmc_trainer.entry) == (dmc.check_config, dmc.train_dmc)


def test_the_fuzz_runs_the_trainers_where_the_train_extra_is_installed():
    """Where the train extra is missing the fuzz only checks the settings; this module
    requires the extra, so the trainers' entry points must run on the refused cases."""
    assert HAS_TRAIN


@pytest.mark.parametrize("game", presages_env.list_games())
def test_the_training_settings_fuzz_finds_nothing(game):
    report = fuzz_training_settings(game, 200, seed=5)
    assert report.cases == 200 and not report.failures, "\n".join(report.failures)
    assert report.outcomes["refused"] and report.outcomes["accepted"], report.line()


def test_a_minibatch_larger_than_the_rollout_is_one_minibatch_of_the_rollout(monkeypatch):
    """The action-feature policy's step was estimated for ``minibatch_size`` rows even where
    the rollout holds fewer (the update then takes the whole rollout as one minibatch), and
    a legal 65,537 was refused for memory, naming num_envs x rollout_steps."""
    config = game_config("president", policy="action_features", minibatch_size=65537)
    assert config.num_envs * config.rollout_steps < 65537
    monkeypatch.setattr(settings, "memory_limit", lambda: (8 * 2**30, "a test limit"))
    assert check_config(config).minibatch_size == 65537


def test_a_step_too_large_for_memory_is_refused_naming_minibatch_size(monkeypatch):
    config = game_config("president", policy="action_features", minibatch_size=16384)
    monkeypatch.setattr(settings, "memory_limit", lambda: (2 * 2**30, "a test limit"))
    with pytest.raises(ValueError, match="minibatch_size") as refusal:
        check_config(config)
    assert "rollout rows" not in str(refusal.value) and "a test limit" in str(refusal.value)


def out_of_range(rule) -> list:
    """Values a setting's rule refuses (past each bound of a range, values of no setting's
    type or choices), and a range's own bounds, which other checks may refuse."""
    values = [-1, 2**63, NAN, INF, "no_such_value", [-1], ["nobody"], object(), b"x"]
    if isinstance(rule, settings.Count):
        values += [rule.low - 1, rule.low, rule.high, rule.high + 1]
    if isinstance(rule, settings.Real):
        values += [rule.low - 1] + ([rule.high * 2 + 1] if rule.high is not None else [])
    return values


@pytest.mark.parametrize("trainer", TRAINERS, ids=lambda trainer: trainer.name)
def test_every_settings_refusal_names_the_setting_given(trainer, tmp_path):
    """Each setting of each trainer's config, set out of its range: whatever refuses it (its
    rule, the game, the network or memory bounds) names it."""
    base = trainer.base("president", str(tmp_path / "run"))
    rules = {**self_play.SETTINGS, **batched_ppo.SETTINGS, **dmc.SETTINGS, **dmc_ray.RULES}
    unnamed = []
    for field in dataclasses.fields(base):
        for value in out_of_range(rules[field.name]):
            try:
                trainer.check(trainer.build(base, {field.name: value}))
            except (TypeError, ValueError) as error:
                if field.name not in str(error):
                    unnamed.append(f"{field.name}={value!r:.40}: {error}")
    assert not unnamed, "\n".join(unnamed)


def test_a_decision_budget_alone_is_never_cut_by_a_default_time_budget(tmp_path, monkeypatch):
    """``train_dmc.py --timesteps N`` stopped at the default 600 s all the same."""
    from presages_env.training.command_line import TIME_BUDGET_S, budgets, train_from_command_line

    assert budgets(None, 5000) == (None, 5000)
    assert budgets(30.0, None)[0] == 30.0 and budgets(30.0, 5000) == (30.0, 5000)
    assert budgets(None, None)[0] == TIME_BUDGET_S  # neither given: the command's default
    for config in (DMCConfig(), TrainConfig(), batched_ppo.game_config("president")):
        assert config.time_budget_s is None  # a config's time budget is only one given
    runs = []

    def train_only(config):
        runs.append(config)
        raise SystemExit(0)

    for argv, wanted in ((["--timesteps", "5000"], None), ([], TIME_BUDGET_S)):
        monkeypatch.setattr(sys, "argv", ["train_dmc.py", *argv, "--out", str(tmp_path)])
        with pytest.raises(SystemExit):
            train_from_command_line(
                "doc",
                lambda s: dmc.dmc_config(**s),
                dmc.checked_run,
                train_only,
                game="president",
                out=str(tmp_path),
            )
        assert runs[-1].config.time_budget_s == wanted
    assert runs[0].config.total_timesteps == 5000
