"""Self-play MaskablePPO training over the native vector env, with an opponent pool.

The learner plays one seat (or a whole team, partners sharing the policy and the reward);
the other seats are played by opponents drawn per deal from a pool that starts with the
configured baseline agents and grows with frozen snapshots of the learner. What the run
reports (progress bar, learning curve, TensorBoard) is ``run_log.py``'s, as for every
trainer; the plots are ``evaluation/learning_curve.py``'s.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from presages_env.agents.features import RawFeatures
from presages_env.agents.ppo import PPOAgent, frozen_copy
from presages_env.evaluation.learning_curve import LearningCurve
from presages_env.training.config import PPOConfig, TrainingRun
from presages_env.training.opponents import BASELINE_OPPONENTS, baseline_agent, opponent_agents
from presages_env.training.run_log import RunLog
from presages_env.training.settings import (
    MAX_EPOCHS,
    MAX_MINIBATCH,
    MAX_ROLLOUT_STEPS,
    MAX_TEACHER_SAMPLES,
    Choice,
    Count,
    OrNone,
    Rule,
    Text,
    check_game_settings,
    check_policy_size,
    check_rollout_memory,
    checked_settings,
    feature_size,
    learner_input_size,
    trainer_rules,
    write_config,
)


@dataclasses.dataclass
class TrainConfig(PPOConfig):
    """The SB3 trainer's settings: the shared ones (``config.py``) and its own. It steps
    each game's learner seat as a Python object, so its defaults are a smaller run: fewer
    games, longer rollouts (``rollout_steps``: decisions per game), fewer decisions."""

    team_play: bool = False  # learner plays every seat of its team (team games)
    total_timesteps: int = 1_000_000
    num_envs: int = 64
    rollout_steps: int = 128
    minibatch_size: int = 2048
    n_epochs: int = 4
    baseline_opponents: tuple[str, ...] = ("random", "heuristic")
    snapshot_every: int = 5
    eval_every: int = 5
    out_dir: str = "runs/ppo"
    warm_start: str | None = "heuristic"  # clone this agent before PPO (None: from scratch)
    warm_start_samples: int = 200_000  # teacher decisions to clone
    warm_start_epochs: int = 4
    init_policy: str | None = None  # a policy.pt to continue from instead of cloning


# Each setting's type and range (settings.py); MaskablePPO normalises advantages over each
# rollout and minibatch, so both hold at least two decisions.
SETTINGS: dict[str, Rule] = trainer_rules(
    TrainConfig,
    {
        "rollout_steps": Count(2, MAX_ROLLOUT_STEPS),
        "minibatch_size": Count(2, MAX_MINIBATCH),
        "warm_start": OrNone(Choice(BASELINE_OPPONENTS)),
        "warm_start_samples": Count(1, MAX_TEACHER_SAMPLES),
        "warm_start_epochs": Count(1, MAX_EPOCHS),
        "init_policy": OrNone(Text()),
    },
)
# Bytes of one decision in MaskablePPO's rollout buffer besides its float32 observation and
# mask: the action (int64) and six float32 (reward, return, episode start, value,
# log-probability, advantage).
SB3_ROW_BYTES = 8 + 6 * 4


def checked_train_run(config: TrainConfig) -> TrainingRun[TrainConfig]:
    """``config`` with every setting checked (once, here) and made a plain value, and its
    game resolved (once, here); raises ``TypeError``/``ValueError`` naming the setting
    before anything is written or built."""
    config = checked_settings(config, SETTINGS)
    if config.critic == "global" and (config.warm_start or config.init_policy):
        raise ValueError("cloning fits a critic on the observation: use warm_start=None")
    if config.warm_start and config.init_policy:
        raise ValueError("give warm_start or init_policy, not both")
    run = TrainingRun(config, check_game_settings(config))
    check_policy_size(config, run.spec)
    inputs = learner_input_size(run.spec.game, run.spec.num_players, config.features, config.critic)
    row_bytes = 4 * (inputs + run.spec.num_actions) + SB3_ROW_BYTES
    rows = config.rollout_steps * config.num_envs
    check_rollout_memory("rollout_steps x num_envs", rows, row_bytes)
    if config.init_policy:
        initial_agent(run)
    return run


def check_train_config(config: TrainConfig) -> TrainConfig:
    """``config`` with every setting checked and made a plain value (:func:`checked_train_run`)."""
    return checked_train_run(config).config


def method_label(config: TrainConfig) -> str:
    """How ``config`` trains, in words: the algorithm, then what it starts from and reads."""
    if config.critic == "global":
        words = ["MAPPO-style self-play (MaskablePPO, centralised critic)"]
    else:
        words = ["MaskablePPO self-play"]
    if config.warm_start:
        words.append(f"{config.warm_start} cloned first")
    if config.init_policy:
        words.append("continued from a checkpoint")
    if config.features != "raw":
        words.append(f"{config.features} features")
    return ", ".join(words)


class _Training:
    """Callback state: pool snapshots, evaluations, time budget, the run's log."""

    def __init__(self, config: TrainConfig, env, log: RunLog) -> None:
        self.config = config
        self.env = env
        self.rollouts = 0
        self.log = log
        self.baselines = list(env.opponents)

    def make_callback(self):
        from stable_baselines3.common.callbacks import BaseCallback

        training = self

        class Callback(BaseCallback):
            def _on_step(self) -> bool:
                elapsed = training.log.elapsed
                training.log.bar.update(self.num_timesteps, elapsed)
                budget = training.config.time_budget_s
                return budget is None or elapsed < budget

            def _on_rollout_end(self) -> None:
                training.on_rollout_end(self.model)

        return Callback()

    def on_rollout_end(self, model) -> None:
        self.rollouts += 1
        config = self.config
        self.log.progress(model.num_timesteps, {})  # SB3 logs its own losses
        if (
            config.max_snapshots
            and config.snapshot_every
            and self.rollouts % config.snapshot_every == 0
        ):
            snapshots = [a for a in self.env.opponents if a not in self.baselines]
            name = f"snapshot_{model.num_timesteps}"
            snapshots.append(frozen_copy(playing_policy(model), name, self.env.features))
            self.env.set_opponents(self.baselines + snapshots[-config.max_snapshots :])
        if self.rollouts % config.eval_every == 0:
            self.evaluate(model)

    def evaluate(self, model) -> None:
        self.log.evaluate(learner_agent(model), model.num_timesteps)


def warm_up(model, env) -> None:
    """Start-up before the clock: a few steps of the throwaway ``env`` (numba compiles the
    game's kernels, or loads them), then one forward and backward pass of the policy on
    its observations, the weights left as they were."""
    import torch

    obs = env.reset()
    for _ in range(3):
        obs, *_ = env.step(env.action_masks().argmax(axis=1))
    masks = env.action_masks()
    values, log_p, _ = model.policy.evaluate_actions(
        torch.as_tensor(obs, device=model.device),
        torch.as_tensor(masks.argmax(axis=1), device=model.device),
        action_masks=masks,
    )
    (values.sum() + log_p.sum()).backward()
    model.policy.optimizer.zero_grad(set_to_none=True)


def learner_agent(model, name: str = "ppo") -> PPOAgent:
    """The policy being trained as an agent, reading the features its env gives it."""
    return PPOAgent(playing_policy(model), name, features=model.get_env().features)


def playing_policy(model):
    """The policy that acts: the model's own, or with a centralised critic a plain copy of
    its actor (which reads the seat's features only)."""
    from presages_env.training.central_critic import CentralCriticPolicy, actor_policy

    policy = model.policy
    return actor_policy(policy) if isinstance(policy, CentralCriticPolicy) else policy


def warm_start(model, config: TrainConfig, features) -> None:
    """Clone the teacher agent into the policy and value head before self-play."""
    from presages_env.training.imitation import imitate, teacher_games

    teacher = baseline_agent(config.warm_start, config.game, config.seed)
    print(f"warm start: cloning {config.warm_start} on {config.warm_start_samples:,} decisions")
    data = teacher_games(
        config.game,
        teacher,
        config.warm_start_samples,
        config.num_players,
        config.seed,
        **config.game_options,
    )
    losses = imitate(
        model.policy, data, epochs=config.warm_start_epochs, seed=config.seed, features=features
    )
    print("warm start: " + ", ".join(f"{k} {v:.3f}" for k, v in losses.items()))


def initial_agent(run: TrainingRun[TrainConfig]) -> PPOAgent:
    """The checkpoint ``config.init_policy`` names (a longer run in several legs), loaded
    through the checked loader and refused unless it was trained on this game with these
    features and sizes: checked with the settings, before anything is written."""
    config, spec = run.config, run.spec
    path = config.init_policy
    try:
        agent = PPOAgent.load(path)
    except OSError as error:
        raise ValueError(f"init_policy {path!r} cannot be read: {error}") from None
    saved = agent.features or RawFeatures(None, 0)
    if (saved.game, saved.name) != (config.game, config.features):
        raise ValueError(
            f"init_policy {path} was trained on {saved.game!r} with features {saved.name!r}; "
            f"this run is {config.game!r} with {config.features!r}"
        )
    size = (feature_size(spec.game, spec.num_players, config.features),)
    if agent.policy.observation_space.shape != size:
        raise ValueError(
            f"init_policy {path} reads {agent.policy.observation_space.shape} features; this "
            f"run's {size} (another player count?)"
        )
    return agent


def continue_from(model, run: TrainingRun[TrainConfig]) -> None:
    """Start from the saved checkpoint's actor and critic (checked by :func:`initial_agent`)."""
    model.policy.load_state_dict(initial_agent(run).policy.state_dict())
    print(f"continuing from {run.config.init_policy}")


def train(config: TrainConfig) -> tuple[Any, LearningCurve]:
    """Train, checkpoint and log under ``config.out_dir``: ``model.zip`` (MaskablePPO, with
    the optimiser, to resume) and ``policy.pt`` (the policy alone, safe to load and share).
    Returns the MaskablePPO model and the :class:`LearningCurve`."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    from presages_env.training.vec_env import SelfPlayVecEnv

    run = checked_train_run(config)  # before anything is written
    config = run.config
    out = write_config(config)
    log = RunLog(run, out, method_label(config), "MaskablePPO self-play")

    def make_env(num_envs: int) -> SelfPlayVecEnv:
        spec = run.spec
        opponents = opponent_agents(config.baseline_opponents, spec.game, config.seed)
        return SelfPlayVecEnv(
            spec.game,
            num_envs,
            opponents,
            num_players=spec.num_players,
            team_play=config.team_play,
            seed=config.seed,
            features=config.features,
            critic_state=config.critic == "global",
            **spec.options,
        )

    env = make_env(config.num_envs)
    policy_kwargs: dict = {"net_arch": list(config.net_arch)}
    policy = "MlpPolicy"
    if config.critic == "global":
        from presages_env.training.central_critic import CentralCriticPolicy

        policy = CentralCriticPolicy
        policy_kwargs["actor_size"] = env.batch.actor_size
    model = MaskablePPO(
        policy,
        env,
        n_steps=config.rollout_steps,
        batch_size=config.minibatch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        ent_coef=config.ent_coef,
        policy_kwargs=policy_kwargs,
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    model.set_logger(configure(str(out / "logs"), ["csv", "tensorboard"]))
    if config.warm_start:
        warm_start(model, config, env.features)
    elif config.init_policy:
        continue_from(model, run)
    training = _Training(config, env, log)  # the time budget is PPO's, after any cloning
    # the curve's first point: where PPO starts
    log.start(lambda: warm_up(model, make_env(2)), lambda: training.evaluate(model))
    model.learn(config.total_timesteps, callback=training.make_callback())
    training.evaluate(model)
    model.save(out / "model.zip")
    learner_agent(model).save(out / "policy.pt")
    training.log.close()
    return model, training.log.curve
