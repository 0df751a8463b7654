"""Batched self-play PPO: rollouts from the batched kernels, the policy in large batches.

Where :func:`presages_env.training.self_play.train` drives sb3-contrib's MaskablePPO through a
Stable-Baselines3 ``VecEnv`` (one learner seat per game, Python objects per step), this trainer
acts for every seat the learner plays in all B games with one forward pass per vector step and
updates on the whole rollout in large minibatches: the Python cost per step is a handful of
numpy and torch calls whatever B is. Team play shares one policy between partners (and every
seat in self-play); ``critic="global"`` gives the value function the game's global state
(MAPPO-style: the actor still reads only its seat's features). Opponent pools: a share of the
deals puts the learner against a baseline agent or a frozen snapshot of itself.

The policy (``policy``) is either ``"flat"``, an sb3-contrib ``MaskableActorCriticPolicy`` with
one logit per action id, so what this trainer writes is the same ``policy.pt`` as every other
trainer (``PPOAgent.load``, ``to_sb3``, the tournaments); or ``"action_features"``, an
:class:`~presages_env.agents.action_scorer.ActionScorer` whose score of each legal action,
from the observation and what the action is, is its logit (DanZero+'s PPO), with its own
critic MLP; it saves as an action-scorer checkpoint (``ActionScorerAgent.load``, ``dmc:PATH``).
Hyper-parameters per game: ``hyperparameters.json`` beside this module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

import numpy as np

from presages_env.agents.action_scorer import (
    SCORING_WORKSPACE_BYTES,
    ActionScorer,
    ActionScorerAgent,
)
from presages_env.agents.base import Agent, ErringAgent
from presages_env.agents.features import make_features
from presages_env.agents.ppo import PPOAgent, frozen_copy, policy_metadata, shipped_checkpoint
from presages_env.core.files import read_json
from presages_env.core.validation import offset_seed
from presages_env.evaluation.learning_curve import LearningCurve
from presages_env.games.run_spec import RunSpec
from presages_env.training.config import PPOConfig, ScorerConfig, TrainingRun
from presages_env.training.critic_input import critic_state_size
from presages_env.training.opponents import EpsilonCurriculum, graded, opponent_agents
from presages_env.training.rollout import SelfPlayRollouts
from presages_env.training.run_log import RunLog
from presages_env.training.settings import (
    COMMON_RULES,
    LOSS_WEIGHT,
    MAX_COUNT,
    PROBABILITY,
    Choice,
    Count,
    Flag,
    OrNone,
    Real,
    Rule,
    Text,
    check_game_settings,
    check_policy_size,
    check_rollout_memory,
    checked_settings,
    config_of,
    learner_input_size,
    trainer_rules,
    write_config,
)

PRECISIONS = ("float32", "bfloat16", "auto")
POLICIES = ("flat", "action_features")  # one logit per action id; or scored from its features
MASKED_LOGIT = -1e8  # an illegal action's logit, as sb3-contrib masks it
# what each update reports (means over its minibatches), besides the explained variance
UPDATE_STATS = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")


@dataclasses.dataclass
class BatchedPPOConfig(ScorerConfig, PPOConfig):
    """The batched trainer's settings: the shared ones (``config.py``) and its own."""

    # "action_features": the actor is an action scorer (net_arch, action_net_arch and
    # head_net_arch its three MLPs) reading the raw observation, from scratch
    policy: str = "flat"
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    # a policy.pt to start from (checked on load), "shipped" for the game's shipped checkpoint,
    # or None: from scratch. Its features and network must match the settings above.
    init_policy: str | None = None
    pool_share: float = 0.25  # share of deals against the opponent pool (the rest: self-play)
    # the heuristic of the pool errs (a uniformly random legal move) with this probability;
    # with epsilon_curriculum, that probability follows the learner's results against it
    # (training/opponents.py, EpsilonCurriculum) so the learner wins about curriculum_target
    heuristic_epsilon: float = 0.0
    epsilon_curriculum: bool = False
    curriculum_target: float = 0.5
    # updates that train the value function alone at the start, so that a policy loaded with
    # init_policy is not pushed around by a critic fitted to another reward or table size
    critic_warmup_updates: int = 0
    keep_checkpoints: bool = False  # also save policy_<decisions>.pt at every evaluation
    device: str = "auto"  # "auto": CUDA when torch sees one, else CPU
    # "bfloat16": matrix products autocast (weights stay float32); "auto": bfloat16 where the
    # device computes it natively, float32 elsewhere (see native_bfloat16)
    precision: str = "float32"
    out_dir: str = "runs/batched_ppo"


# Each setting's type and range (settings.py).
SETTINGS: dict[str, Rule] = trainer_rules(
    BatchedPPOConfig,
    {
        "gae_lambda": PROBABILITY,
        "clip_range": Real(0.0, 1.0, low_open=True),
        "vf_coef": LOSS_WEIGHT,
        "max_grad_norm": Real(0.0, 1e6, low_open=True),
        "init_policy": OrNone(Text()),  # a path or "shipped", loaded (and checked) first
        "heuristic_epsilon": PROBABILITY,
        "epsilon_curriculum": Flag(),
        "curriculum_target": PROBABILITY,
        "critic_warmup_updates": Count(0, MAX_COUNT),
        "keep_checkpoints": Flag(),
        "precision": Choice(PRECISIONS),
        "policy": Choice(POLICIES),
    },
)
# Bytes of one decision in the rollout (rollout.py) besides its float32 inputs and bool mask:
# four int64 (action, env, seat, next decision), six float32 (log-probability, value,
# advantage, return, reward, bootstrap) and the terminal flag.
ROLLOUT_ROW_BYTES = 4 * 8 + 6 * 4 + 1
MAX_TABLE_BYTES = 2**20  # hyperparameters.json (under 1 KB)


def game_config(game: str, **overrides: Any) -> BatchedPPOConfig:
    """The recorded hyper-parameters of ``game`` (``hyperparameters.json``), with overrides."""
    with as_file(files(__package__).joinpath("hyperparameters.json")) as path:
        table = read_json(path, "the hyper-parameter table", MAX_TABLE_BYTES, 4)
    name = COMMON_RULES["game"](game, "game")  # a known game's name (resolved by the check)
    recorded = {**table.get("default", {}), **table.get(name, {})}
    settings = {**recorded, **overrides, "game": name}
    return config_of(BatchedPPOConfig, settings)  # lists stay lists until checked_run


def checked_run(config: BatchedPPOConfig) -> TrainingRun[BatchedPPOConfig]:
    """``config`` with every setting checked (once, here) and made a plain value, and its
    game resolved (once, here); raises ``TypeError``/``ValueError`` naming the setting
    before anything is built or written."""
    config = checked_settings(config, SETTINGS)
    spec = check_game_settings(config)
    check_policy_size(config, spec)
    game, n = spec.game, spec.num_players
    rows = config.num_envs * config.rollout_steps
    workspace, step_sizes = 0, ""
    if config.policy == "action_features":
        check_action_feature_policy(config, spec)
        workspace = SCORING_WORKSPACE_BYTES + scorer_minibatch_bytes(config, game, n, rows)
        step_sizes = STEP_SIZES
    inputs = learner_input_size(game, n, config.features, config.critic)
    row_bytes = 4 * inputs + spec.num_actions + ROLLOUT_ROW_BYTES
    check_rollout_memory("num_envs x rollout_steps", rows, row_bytes, workspace, step_sizes)
    return TrainingRun(config, spec)


def check_config(config: BatchedPPOConfig) -> BatchedPPOConfig:
    """``config`` with every setting checked and made a plain value (:func:`checked_run`)."""
    return checked_run(config).config


def check_action_feature_policy(config: BatchedPPOConfig, spec: RunSpec) -> None:
    """The settings the action-feature policy allows: the raw observation, no initial
    policy, and a scorer the checkpoint format holds."""
    if config.features != "raw":
        raise ValueError(
            f"features {config.features!r}: policy 'action_features' reads the raw "
            "observation; set features='raw'"
        )
    if config.init_policy is not None:
        raise ValueError(
            f"init_policy {config.init_policy!r}: policy 'action_features' starts from "
            "scratch; set init_policy=None"
        )
    config.check_scorer_arch(spec)


# The settings a step of the action-feature policy's update grows with.
STEP_SIZES = "minibatch_size, net_arch, action_net_arch and head_net_arch"


def scorer_minibatch_bytes(config: BatchedPPOConfig, game, num_players: int, rows: int) -> int:
    """A bound on what a minibatch's update through an action scorer holds at once besides
    the rollout of ``rows`` decisions (a minibatch holds at most those): every action's
    features and each layer's activations over them (kept for the backward pass), with room
    for their gradients."""
    per_action = game.action_features.ACTION_FEATURES + sum(config.action_net_arch)
    per_action += sum(config.head_net_arch)
    per_row = game.num_actions(num_players) * per_action + sum(config.net_arch)
    return 3 * 4 * min(config.minibatch_size, rows) * per_row


def explained_variance(rollout, size: int) -> float:
    """How much of the returns' variance the rollout's values explained (1: all, 0: no
    better than their mean; NaN when the returns do not vary)."""
    returns, values = rollout.returns[:size], rollout.values[:size]
    spread = float(np.var(returns))
    return float(1 - np.var(returns - values) / spread) if spread > 0 else float("nan")


def native_bfloat16(torch: Any, device: Any) -> bool:
    """Whether ``device`` multiplies bfloat16 in hardware. Emulated, bfloat16 is far slower
    than float32: 12x for a 256x256 update on an AVX2-only CPU (docs/agents.md)."""
    if device.type == "cuda":
        return bool(torch.cuda.is_bf16_supported())
    probes = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")  # torch.cpu, private
    return device.type == "cpu" and any(
        getattr(torch.cpu, name, lambda: False)() for name in probes
    )


class BatchedPPO:
    """The learner: its policy (an SB3 maskable policy, or an action scorer with a critic of
    its own), its optimiser and (optionally) a global critic."""

    def __init__(self, run: TrainingRun[BatchedPPOConfig]) -> None:
        import torch
        from gymnasium import spaces
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        self.config = config = run.config
        self.spec = spec = run.spec
        self.torch = torch
        self.device = torch.device(
            ("cuda" if torch.cuda.is_available() else "cpu")
            if config.device == "auto"
            else config.device
        )
        self.bfloat16 = config.precision == "bfloat16" or (
            config.precision == "auto" and native_bfloat16(torch, self.device)
        )
        torch.manual_seed(config.seed)
        game, n = spec.game, spec.num_players
        self.features = make_features(config.features, game, spec.num_actions)
        self.obs_dtype = game.obs_dtype
        low, high = self.features.low_high(game.obs_low(n), game.obs_high(n))
        self.scorer = None
        self._snapshots = 0
        if config.policy == "action_features":
            self.scorer = scorer_policy(run, self.device)
            self.policy = self.scorer.network
        elif config.init_policy is None:
            self.policy = MaskableActorCriticPolicy(
                spaces.Box(low, high),
                spaces.Discrete(spec.num_actions),
                lambda _: config.learning_rate,
                net_arch=list(config.net_arch),
            )
        else:
            self.policy = initial_policy(run)
        self.policy.to(self.device)
        self.critic = None
        parameters = list(self.policy.parameters())
        if config.critic == "global":
            self.critic = self._critic_mlp(critic_state_size(game, n)).to(self.device)
        elif self.scorer is not None:  # the scorer is an actor only
            self.critic = self._critic_mlp(len(low)).to(self.device)
        if self.critic is not None:
            parameters += list(self.critic.parameters())
        self.optimiser = torch.optim.Adam(parameters, lr=config.learning_rate, eps=1e-5)

    def _critic_mlp(self, size: int):
        """A value function of its own on ``size`` inputs (the critic state, or the features
        where the actor is a scorer): the centralised critic's MLP, a value."""
        from torch import nn

        from presages_env.training.central_critic import mlp

        hidden = list(self.config.net_arch)
        return nn.Sequential(
            *mlp(size, hidden, nn.Tanh), nn.Linear(hidden[-1] if hidden else size, 1)
        )

    # ---- the network ------------------------------------------------------------------
    def _logits(self, x, masks, legal: np.ndarray | None = None):
        """Every action's logit, ``MASKED_LOGIT`` where ``masks`` (bool) says it is illegal.
        A scorer reads the rows on the CPU, as the game's integers (``x`` is the raw
        observation, exact in float32) and ``legal`` (``masks`` as numpy): its action
        features come from the game's kernel."""
        if self.scorer is not None:
            obs = x.numpy().astype(self.obs_dtype)
            return self.scorer.legal_logits(obs, legal, MASKED_LOGIT)
        policy = self.policy
        logits = policy.action_net(policy.mlp_extractor.forward_actor(x))
        return logits.float().masked_fill(~masks, MASKED_LOGIT)

    def _values(self, x):
        if self.critic is not None:
            return self.critic(x).squeeze(-1)
        policy = self.policy
        return policy.value_net(policy.mlp_extractor.forward_critic(x)).squeeze(-1)

    def _autocast(self):
        """bfloat16 matrix products where asked (about 2x on CPUs with AVX-512 BF16)."""
        return self.torch.autocast(
            self.device.type, dtype=self.torch.bfloat16, enabled=self.bfloat16
        )

    def _tensor(self, array: np.ndarray):
        return self.torch.as_tensor(array, device=self.device)

    def act(self, features: np.ndarray, masks: np.ndarray, critic_input=None):
        """Sampled actions, their log-probabilities and the values, for a batch of rows."""
        torch = self.torch
        with torch.no_grad(), self._autocast():
            x = self._tensor(features)
            if self.scorer is None:
                logits = self._logits(x, self._tensor(masks))
            else:
                logits = self._logits(torch.as_tensor(features), None, masks)
            log_p = torch.log_softmax(logits, dim=-1)
            noise = -torch.log(-torch.log(torch.rand_like(log_p).clamp_(1e-20, 1.0)))
            actions = torch.argmax(log_p + noise, dim=-1)  # Gumbel-max: a sample of p
            chosen = log_p.gather(1, actions[:, None]).squeeze(1)
            values = self._values(x if critic_input is None else self._tensor(critic_input))
        return actions.cpu().numpy(), chosen.cpu().numpy(), values.float().cpu().numpy()

    def value(self, inputs: np.ndarray) -> np.ndarray:
        with self.torch.no_grad(), self._autocast():
            return self._values(self._tensor(inputs)).float().cpu().numpy()

    # ---- learning ----------------------------------------------------------------------
    def update(self, rollout, value_only: bool = False) -> dict[str, float]:
        """PPO's clipped update over the rollout, ``n_epochs`` passes of shuffled minibatches
        (``value_only``: the value loss alone, the policy left as it is)."""
        torch, config = self.torch, self.config
        size = rollout.size
        if size == 0:  # the learner's seats all waited (say, out of cards while others play)
            return {}
        data = self._rollout_tensors(rollout)
        stats: dict[str, list] = {name: [] for name in UPDATE_STATS}  # tensors: read once
        # minibatches of equal size (within one row): a short remainder would take a full
        # optimiser step on a few rows' noise (a single row's advantages cannot be normalised)
        minibatches = -(-size // config.minibatch_size)
        for _ in range(config.n_epochs):
            order = torch.randperm(size)  # on the CPU: a scorer's rows are read there
            for rows in torch.tensor_split(order, minibatches):
                losses = self._minibatch_losses(data, rows, rollout, value_only)
                loss = config.vf_coef * losses["value_loss"]
                if not value_only:
                    loss = loss + losses["policy_loss"] - config.ent_coef * losses["entropy"]
                self.optimiser.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(
                    [p for group in self.optimiser.param_groups for p in group["params"]],
                    config.max_grad_norm,
                )
                self.optimiser.step()
                for name in stats:
                    stats[name].append(losses[name].detach().float())
        # one device sync per update, not five per minibatch; the same float64 means as before
        read = torch.stack([torch.stack(values) for values in stats.values()]).cpu().numpy()
        means = {
            name: float(np.mean(row.astype(np.float64)))
            for name, row in zip(stats, read, strict=True)
        }
        return {**means, "explained_variance": explained_variance(rollout, size)}

    def rehearse(self, rollout) -> None:
        """One forward and backward pass over ``rollout`` (start-up: torch's first pass),
        the weights and the optimiser's moments left as they were."""
        if rollout.size:
            rows = self.torch.arange(rollout.size)
            losses = self._minibatch_losses(self._rollout_tensors(rollout), rows, rollout)
            sum(losses[name] for name in ("value_loss", "policy_loss", "entropy")).backward()
            self.optimiser.zero_grad(set_to_none=True)

    def _rollout_tensors(self, rollout) -> dict:
        """The rollout's rows an update reads, as tensors on the learner's device."""
        size = rollout.size
        data = {
            "x": self._tensor(rollout.features[:size]),
            "masks": self._tensor(rollout.masks[:size]),
            "actions": self._tensor(rollout.actions[:size]),
            "old_log_p": self._tensor(rollout.log_probs[:size]),
            "advantages": self._tensor(rollout.advantages[:size]),
            "returns": self._tensor(rollout.returns[:size]),
        }
        if rollout.critic_input is not None:
            data["critic_x"] = self._tensor(rollout.critic_input[:size])
        return data

    def _minibatch_losses(self, data: dict, rows, rollout, value_only: bool = False) -> dict:
        """The losses of the minibatch ``rows`` (CPU indices) of the rollout."""
        batch = {name: values[rows.to(self.device)] for name, values in data.items()}
        if self.scorer is not None:
            picked = rows.numpy()
            batch["obs"] = self.torch.as_tensor(rollout.features[picked])
            batch["legal"] = rollout.masks[picked]
        with self._autocast():
            return self._losses(batch, value_only)

    def _losses(self, batch: dict, value_only: bool = False) -> dict:
        torch, config = self.torch, self.config
        values = self._values(batch.get("critic_x", batch["x"])).float()
        value_loss = torch.nn.functional.mse_loss(values, batch["returns"])
        if value_only:  # the policy's terms are not computed (a scorer's cost most of them)
            zero = torch.zeros((), device=self.device)
            return {name: value_loss if name == "value_loss" else zero for name in UPDATE_STATS}
        if self.scorer is None:
            logits = self._logits(batch["x"], batch["masks"])
        else:
            logits = self._logits(batch["obs"], None, batch["legal"])
        log_p = torch.log_softmax(logits, dim=-1)
        new_log_p = log_p.gather(1, batch["actions"][:, None]).squeeze(1)
        entropy = -(log_p.exp() * log_p).masked_fill(~batch["masks"], 0.0).sum(-1).mean()
        advantages = batch["advantages"]
        if advantages.numel() > 1:
            advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        ratio = torch.exp(new_log_p - batch["old_log_p"])
        clipped = torch.clamp(ratio, 1 - config.clip_range, 1 + config.clip_range)
        policy_loss = -torch.min(ratio * advantages, clipped * advantages).mean()
        with torch.no_grad():  # how far the update moved the policy (SB3's estimates)
            log_ratio = new_log_p - batch["old_log_p"]
            approx_kl = ((ratio - 1) - log_ratio).mean()
            clip_fraction = ((ratio - 1).abs() > config.clip_range).float().mean()
        return {
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "approx_kl": approx_kl,
            "clip_fraction": clip_fraction,
        }

    def agent(self, name: str = "ppo", deterministic: bool = True) -> Agent:
        """The policy as it stands, as an agent (not a copy: it changes as training goes);
        its ``save`` writes the policy's checkpoint."""
        if self.scorer is not None:
            return ActionScorerAgent(self.scorer, name, deterministic, seed=self.config.seed)
        return PPOAgent(self.policy, name, deterministic, features=self.features)

    def snapshot(self, name: str) -> Agent:
        """A frozen copy of the policy as it stands, sampling its actions (for the pool; a
        scorer's snapshots each from a stream of their own)."""
        if self.scorer is None:
            return frozen_copy(self.policy, name, self.features)
        self._snapshots += 1
        seed = offset_seed(self.config.seed, self._snapshots)
        return ActionScorerAgent(self.scorer.frozen_copy(), name, deterministic=False, seed=seed)


def scorer_policy(run: TrainingRun[BatchedPPOConfig], device) -> ActionScorer:
    """A fresh action scorer as PPO's actor, its last layer scaled down (as SB3 does with its
    action net) so that the first policy is close to uniform over the legal actions."""
    import torch

    scorer = ActionScorer.for_game(run.spec.game, run.config.scorer_arch(), device)
    last = scorer.network["head"][-1]
    with torch.no_grad():
        last.weight.mul_(0.01)
        last.bias.zero_()
    return scorer


def initial_policy(run: TrainingRun[BatchedPPOConfig]):
    """The policy of ``config.init_policy``, loaded through the checked loader, refused unless
    its features and network are the config's (the run records what it trained)."""
    config, game, num_players = run.config, run.spec.game.name, run.spec.num_players
    path = config.init_policy
    if path == "shipped":
        path = shipped_checkpoint(run.spec.game, num_players)
    loaded = PPOAgent.load(path, game=game, num_players=num_players)
    features = "raw" if loaded.features is None else loaded.features.name
    if features != config.features:
        raise ValueError(
            f"init_policy {path} reads {features!r} features but config.features is "
            f"{config.features!r}: set features={features!r}"
        )
    arch = policy_metadata(loaded.policy, game, loaded.features)["net_arch"]
    if arch["pi"] != list(config.net_arch) or arch["vf"] != list(config.net_arch):
        raise ValueError(
            f"init_policy {path} has the network {arch} but config.net_arch is "
            f"{list(config.net_arch)}: set net_arch={arch['pi']}"
        )
    return loaded.policy


def make_rollouts(learner: BatchedPPO, opponents, num_envs: int | None = None) -> SelfPlayRollouts:
    """The run's games (``num_envs`` of them, default the config's), against ``opponents``."""
    config = learner.config
    return SelfPlayRollouts(
        learner.spec,
        num_envs or config.num_envs,
        config.rollout_steps,
        learner.features,
        opponents=opponents,
        pool_share=config.pool_share,
        team_play=config.team_play,
        central_critic=config.critic == "global",
        seed=config.seed,
    )


def collect(learner: BatchedPPO, rollouts: SelfPlayRollouts):
    """One rollout with the learner's current policy, advantages filled in."""
    rollouts.collect(learner.act, learner.value)
    return rollouts.advantages(learner.config.gamma, learner.config.gae_lambda)


def train_batched(
    config: BatchedPPOConfig,
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
) -> tuple[BatchedPPO, LearningCurve]:
    """Train under ``config.out_dir``: ``policy.pt`` (the policy, safe to load and share),
    ``config.json``, ``learning_curve.csv`` and TensorBoard scalars in ``logs/``. Returns
    the learner and its curve. ``opponents`` (default: ``config.baseline_opponents`` by name)
    start the pool; frozen snapshots of the learner join it as it trains.
    ``curve_opponents`` (default: ``config.eval_opponents`` by name) are the learning
    curve's. The config is checked and its game resolved first (:func:`checked_run`)."""
    return train_batched_run(checked_run(config), opponents, curve_opponents=curve_opponents)


def train_batched_run(
    run: TrainingRun[BatchedPPOConfig],
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
) -> tuple[BatchedPPO, LearningCurve]:
    """:func:`train_batched` of a run :func:`checked_run` made (a command line's)."""
    learner = BatchedPPO(run)  # loads and checks init_policy before anything is written
    config, spec = run.config, run.spec
    out = write_config(config)
    if opponents is None:
        opponents = opponent_agents(config.baseline_opponents, spec.game, config.seed)
    baselines = [
        graded(agent, config.heuristic_epsilon, config.epsilon_curriculum, config.seed)
        for agent in opponents
    ]
    curricula = [
        EpsilonCurriculum(agent, config.curriculum_target)
        for agent in baselines
        if config.epsilon_curriculum and isinstance(agent, ErringAgent)
    ]
    log = RunLog(run, out, method_label(config), "batched PPO self-play", curve_opponents)
    rollouts = make_rollouts(learner, baselines)
    log.start(
        lambda: learner.rehearse(collect(learner, make_rollouts(learner, baselines, 2))),
        lambda: evaluate(learner, log, 0, curricula),
    )
    decisions, updates, snapshots = 0, 0, []
    while decisions < config.total_timesteps:
        if config.time_budget_s is not None and log.elapsed >= config.time_budget_s:
            break
        rollout = collect(learner, rollouts)
        stats = learner.update(rollout, value_only=updates < config.critic_warmup_updates)
        decisions += rollout.size
        updates += 1
        for curriculum in curricula:
            curriculum.update(rollouts.opponents, rollouts.pool_outcomes)
        rollouts.pool_outcomes.clear()
        log.progress(decisions, stats)
        if config.snapshot_every and config.max_snapshots and updates % config.snapshot_every == 0:
            snapshots.append(learner.snapshot(f"snapshot_{decisions}"))
            rollouts.set_opponents(baselines + snapshots[-config.max_snapshots :])
        if updates % config.eval_every == 0:
            evaluate(learner, log, decisions, curricula)
    if log.curve[-1]["timesteps"] != decisions:  # not measured at this point yet
        evaluate(learner, log, decisions, curricula)
    learner.agent().save(out / "policy.pt")
    log.close()
    return learner, log.curve


def method_label(config: BatchedPPOConfig) -> str:
    critic = ", centralised critic" if config.critic == "global" else ""
    features = "" if config.features == "raw" else f", {config.features} features"
    if config.policy == "action_features":
        features += ", action-feature policy"
    start = "from scratch" if config.init_policy is None else f"from {config.init_policy}"
    erring = ""
    if config.epsilon_curriculum:
        erring = ", erring-heuristic curriculum"
    elif config.heuristic_epsilon > 0:
        erring = f", heuristic erring {config.heuristic_epsilon:g}"
    return f"batched PPO self-play{critic}{features}{erring}, {start}"


def evaluate(
    learner: BatchedPPO,
    log: RunLog,
    decisions: int,
    curricula: Sequence[EpsilonCurriculum] = (),
) -> None:
    """A point of the learning curve: win rate and reward against each evaluation opponent,
    and the epsilon each curriculum has reached."""
    extra = {f"epsilon_{c.agent.base.name}": c.agent.epsilon for c in curricula}
    log.evaluate(learner.agent(), decisions, extra)
    if learner.config.keep_checkpoints:
        learner.agent().save(Path(log.out) / f"policy_{decisions}.pt")
