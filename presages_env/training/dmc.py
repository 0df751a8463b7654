"""Deep Monte-Carlo (DouZero-style): Q(s, a) over action features, regressed on the returns.

The learner is an :class:`~presages_env.agents.action_scorer.ActionScorer`: one score per
legal action from the seat's observation and the action's features (the game's
``action_features``), read as the action's value. The actors are the batched kernels: in
each of B games every seat the learner plays (every seat in self-play; with probability
``pool_share`` a deal puts its seat, or its team, against a baseline agent, as PPO's
rollouts do) picks ε-greedily over the values of its legal actions. Each decision (the
observation and the chosen action's features) waits in its game's journal until the game
ends; then its target is its seat's return from that decision to the end (Monte-Carlo,
discounted per decision of the seat by ``gamma``, 1 by default) and it joins a FIFO replay
buffer, on which the network is regressed (MSE) in minibatches. There is no bootstrapping,
hence no critic to fit first and no bias from one: what a game ends with is what every
decision of it learns.

A journal keeps the last ``decisions_per_game`` decisions of each game; a longer game loses
its earliest ones (counted in ``DMCActors.dropped``) rather than memory without bound.
``init_policy`` continues a run from its ``policy.pt`` (a longer run in legs; the replay
buffer and the optimiser's moments start afresh).
What a run writes: ``config.json``, ``policy.pt`` (the action-scorer checkpoint:
``ActionScorerAgent.load``, the agent spec ``dmc:PATH``) and ``learning_curve.csv``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

from presages_env.agents.action_scorer import (
    SCORING_WORKSPACE_BYTES,
    ActionScorer,
    ActionScorerAgent,
)
from presages_env.agents.base import Agent, act_on
from presages_env.agents.features import RawFeatures
from presages_env.evaluation.learning_curve import LearningCurve
from presages_env.training.config import ScorerConfig, TrainingRun
from presages_env.training.opponents import opponent_agents
from presages_env.training.rollout import LEARNER, SelfPlayRollouts
from presages_env.training.run_log import RunLog
from presages_env.training.settings import (
    PROBABILITY,
    Count,
    OrNone,
    Real,
    Rule,
    Text,
    check_game_settings,
    check_rollout_memory,
    checked_settings,
    config_of,
    trainer_rules,
    write_config,
)

MAX_BUFFER = 2**26  # decisions in the replay buffer (memory is checked besides)
MAX_JOURNAL = 2**16  # decisions of one game kept until it ends
MAX_REUSE = 1000.0


@dataclasses.dataclass
class DMCConfig(ScorerConfig):
    """The shared settings (``config.py``: the same names and defaults as the PPO trainers')
    and Deep Monte-Carlo's own; saved as ``config.json`` beside the checkpoint."""

    gamma: float = 1.0  # discount per decision of the seat: Monte-Carlo returns
    epsilon: float = 0.01  # share of decisions played uniformly at random (DouZero's)
    buffer_size: int = 65_536  # decisions in the FIFO replay buffer
    sample_reuse: float = 2.0  # minibatch rows drawn per decision added to the buffer
    decisions_per_game: int = 256  # the journal of each game (a longer game drops its first)
    pool_share: float = 0.25  # share of deals against a baseline opponent (the rest: self-play)
    init_policy: str | None = None  # a scorer's checkpoint to continue from
    device: str = "auto"  # "auto": CUDA when torch sees one, else CPU
    out_dir: str = "runs/dmc"


SETTINGS: dict[str, Rule] = trainer_rules(
    DMCConfig,
    {
        "epsilon": PROBABILITY,
        "buffer_size": Count(1, MAX_BUFFER),
        "sample_reuse": Real(0.0, MAX_REUSE, low_open=True),
        "decisions_per_game": Count(1, MAX_JOURNAL),
        "init_policy": OrNone(Text()),  # a path, loaded (and checked) first
    },
)
# Bytes of one decision besides its observation and action features (float32): the target
# or reward (float32) and, in the journal, the seat (int64).
ROW_BYTES = 4 + 8


def dmc_config(**settings: Any) -> DMCConfig:
    """A config of ``settings``, the others at their defaults; an unknown name is refused."""
    return config_of(DMCConfig, settings)


def checked_run(config: DMCConfig) -> TrainingRun[DMCConfig]:
    """``config`` with every setting checked (once, here) and made a plain value, and its
    game resolved (once, here); raises ``TypeError``/``ValueError`` naming the setting
    before anything is built or written."""
    config = checked_settings(config, SETTINGS)
    spec = check_game_settings(config)  # the game's own checks of num_players, game_options
    config.check_scorer_arch(spec)  # the network, as the scorer it is
    game, n = spec.game, spec.num_players
    row_bytes = game.obs_size(n) * np.dtype(game.obs_dtype).itemsize
    row_bytes += 4 * game.action_features.ACTION_FEATURES + ROW_BYTES
    rows = config.buffer_size + config.num_envs * config.decisions_per_game
    check_rollout_memory(
        "buffer_size + num_envs x decisions_per_game", rows, row_bytes, SCORING_WORKSPACE_BYTES
    )
    return TrainingRun(config, spec)


def check_config(config: DMCConfig) -> DMCConfig:
    """``config`` with every setting checked and made a plain value (:func:`checked_run`)."""
    return checked_run(config).config


# ---- the replay buffer ------------------------------------------------------------------
class ReplayBuffer:
    """The last ``capacity`` decisions with their returns, oldest overwritten first."""

    def __init__(self, capacity: int, obs_size: int, obs_dtype, features: int) -> None:
        self.obs = np.zeros((capacity, obs_size), obs_dtype)
        self.features = np.zeros((capacity, features), np.float32)
        self.targets = np.zeros(capacity, np.float32)
        self.capacity = capacity
        self.size = 0
        self.added = 0  # decisions added since the start
        self._next = 0

    def add(self, obs: np.ndarray, features: np.ndarray, targets: np.ndarray) -> None:
        rows = (self._next + np.arange(len(targets))) % self.capacity
        self.obs[rows], self.features[rows], self.targets[rows] = obs, features, targets
        self._next = int((self._next + len(targets)) % self.capacity)
        self.size = min(self.size + len(targets), self.capacity)
        self.added += len(targets)

    def sample(self, count: int, rng: np.random.Generator):
        rows = rng.integers(self.size, size=count)
        return self.obs[rows], self.features[rows], self.targets[rows]


# ---- the actors -------------------------------------------------------------------------
# (observations [N, D], masks [N, A]) -> the actions, and the chosen actions' features [N, F]
Choose = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


class DMCActors(SelfPlayRollouts):
    """PPO's games, seats and opponent pool (rollout.py), played for Monte-Carlo returns:
    each learner decision waits in its game's journal until the game ends, then goes to the
    replay buffer with its return."""

    def __init__(
        self, run: TrainingRun[DMCConfig], opponents: Sequence[Agent], buffer: ReplayBuffer
    ):
        config, spec = run.config, run.spec
        super().__init__(
            spec,
            config.num_envs,
            1,  # PPO's rollout buffers are not used
            RawFeatures(spec.game, spec.num_actions),
            opponents=opponents,
            pool_share=config.pool_share,
            team_play=config.team_play,
            seed=config.seed,
        )
        b, size = self.num_envs, config.decisions_per_game
        features = self.game.action_features.ACTION_FEATURES
        self.buffer = buffer
        self.gamma = config.gamma
        self.journal_obs = np.zeros((b, size, self.vec.obs_size), self.vec.obs.dtype)
        self.journal_features = np.zeros((b, size, features), np.float32)
        self.journal_rewards = np.zeros((b, size), np.float32)
        self.journal_seats = np.zeros((b, size), np.int64)
        self.counts = np.zeros(b, np.int64)  # decisions journaled in each game so far
        self.latest = np.full((b, self.num_players), -1, np.int64)  # each seat's last one
        self.dropped = 0  # decisions of games longer than the journal, never learnt from

    def play(self, steps: int, choose: Choose) -> int:
        """Play ``steps`` vector steps; returns the learner decisions made."""
        vec, made = self.vec, 0
        for _ in range(steps):
            seats = vec.current.copy()
            controller = self.controller[self._rows, seats]
            actions = np.empty(self.num_envs, np.int64)
            learners = np.flatnonzero(controller == LEARNER)
            if learners.size:
                actions[learners] = self._decide(learners, seats[learners], choose)
                made += learners.size
            for k in np.unique(controller[controller != LEARNER]):
                envs = np.flatnonzero(controller == k)
                opponent = self.opponents[k]
                actions[envs] = act_on(opponent, vec.states[envs], vec.obs[envs], vec.masks[envs])
            out = vec.step(actions)
            self._credit(out.rewards)  # the episode rewards rollout.py keeps
            self._credit_journal(out.rewards)
            ended = np.flatnonzero(out.done)
            if ended.size:
                self._finish(ended)
                self._end_games(ended)  # new deals, new seats
        return made

    def _decide(self, envs: np.ndarray, seats: np.ndarray, choose: Choose) -> np.ndarray:
        actions, features = choose(self.vec.obs[envs], self.vec.masks[envs])
        position = self.counts[envs]
        slot = position % self.journal_obs.shape[1]
        self.journal_obs[envs, slot] = self.vec.obs[envs]
        self.journal_features[envs, slot] = features
        self.journal_rewards[envs, slot] = 0.0
        self.journal_seats[envs, slot] = seats
        self.latest[envs, seats] = position
        self.counts[envs] += 1
        return actions

    def _credit_journal(self, rewards: np.ndarray) -> None:
        """Each seat's reward goes to its latest decision, if the journal still holds it."""
        held = (self.latest >= 0) & (
            self.counts[:, None] - self.latest <= self.journal_obs.shape[1]
        )
        envs, seats = np.nonzero(held & (rewards != 0))
        slots = self.latest[envs, seats] % self.journal_obs.shape[1]
        self.journal_rewards[envs, slots] += rewards[envs, seats]

    def _finish(self, ended: np.ndarray) -> None:
        """The returns of the ended games' journaled decisions, into the replay buffer."""
        size = self.journal_obs.shape[1]
        kept = np.minimum(self.counts[ended], size)
        envs = np.repeat(ended, kept)
        slots = np.empty(envs.size, np.int64)
        targets = np.empty(envs.size, np.float32)
        monte_carlo_returns(
            ended,
            self.counts,
            self.journal_rewards,
            self.journal_seats,
            self.num_players,
            self.gamma,
            slots,
            targets,
        )
        self.buffer.add(self.journal_obs[envs, slots], self.journal_features[envs, slots], targets)
        self.dropped += int((self.counts[ended] - kept).sum())
        self.counts[ended] = 0
        self.latest[ended] = -1


@nb.njit(cache=True)
def monte_carlo_returns(ended, counts, rewards, seats, num_players, gamma, slots, targets):
    """For each ended game, its journaled decisions from the last back (the journal's slot of
    each, in ``slots``) and each one's return, ``targets``: the reward its seat got until its
    next decision plus ``gamma`` times that next decision's return."""
    size = rewards.shape[1]
    returns = np.zeros(num_players)
    out = 0
    for env in ended:
        returns[:] = 0.0
        for position in range(counts[env] - 1, max(counts[env] - size, 0) - 1, -1):
            slot = position % size
            seat = seats[env, slot]
            returns[seat] = rewards[env, slot] + gamma * returns[seat]
            slots[out] = slot
            targets[out] = returns[seat]
            out += 1


# ---- the learner ------------------------------------------------------------------------
class DMCLearner:
    """The network, its optimiser, ε-greedy choices and the regression on the buffer."""

    def __init__(self, run: TrainingRun[DMCConfig]) -> None:
        import torch

        self.config = config = run.config
        self.torch = torch
        device = config.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        torch.manual_seed(config.seed)
        self.scorer = ActionScorer.for_game(run.spec.game, config.scorer_arch(), device)
        if config.init_policy is not None:
            self.scorer.network.load_state_dict(initial_scorer(run).network.state_dict())
        self.optimiser = torch.optim.Adam(self.scorer.network.parameters(), lr=config.learning_rate)
        self._rng = np.random.default_rng(config.seed)

    def choose(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """ε-greedy over the legal actions' values; the chosen actions and their features,
        picked a chunk of rows at a time (``ActionScorer.scored_chunks``: the features of
        every action of every row are never held at once)."""
        explore = self._rng.random(len(obs)) < self.config.epsilon
        actions = np.empty(len(obs), np.int64)
        chosen = np.empty((len(obs), self.scorer.features.ACTION_FEATURES), np.float32)
        for rows, scores, features in self.scorer.scored_chunks(obs, masks):
            picked = scores.argmax(axis=1)
            explored = np.flatnonzero(explore[rows])
            if explored.size:  # uniform over the legal actions: the largest of random keys
                keys = self._rng.random((explored.size, masks.shape[1]))
                picked[explored] = (keys * (masks[rows][explored] != 0)).argmax(axis=1)
            actions[rows] = picked
            chosen[rows] = features[np.arange(len(picked)), picked]
        return actions, chosen

    def update(self, buffer: ReplayBuffer, added: int) -> float | None:
        """``sample_reuse`` minibatch rows per decision ``added`` to the buffer, in
        minibatches; returns the mean loss (None: nothing to learn from yet)."""
        config = self.config
        if not buffer.size or not added:
            return None
        batch = min(config.minibatch_size, buffer.size)
        losses = []
        for _ in range(math.ceil(added * config.sample_reuse / batch)):
            loss = self._loss(buffer.sample(batch, self._rng))
            self.optimiser.zero_grad(set_to_none=True)
            loss.backward()
            self.optimiser.step()
            losses.append(float(loss.detach()))
        return float(np.mean(losses))

    def rehearse(self, buffer: ReplayBuffer) -> None:
        """One forward and backward pass on a minibatch of ``buffer`` (start-up: torch's
        first pass), the weights and the optimiser's moments left as they were."""
        rows = buffer.sample(min(self.config.minibatch_size, buffer.size), np.random.default_rng())
        self._loss(rows).backward()
        self.optimiser.zero_grad(set_to_none=True)

    def _loss(self, rows: tuple[np.ndarray, np.ndarray, np.ndarray]):
        """The mean squared error of the scores of a minibatch's actions to their returns."""
        torch = self.torch
        obs, features, targets = rows
        values = self.scorer.scores(torch.as_tensor(obs), torch.as_tensor(features))
        wanted = torch.as_tensor(targets, device=self.scorer.device)
        return torch.nn.functional.mse_loss(values, wanted)

    def agent(self, name: str = "dmc") -> ActionScorerAgent:
        """The greedy policy as it stands (not a copy: it changes as training goes)."""
        return ActionScorerAgent(self.scorer, name)


def initial_scorer(run: TrainingRun[DMCConfig]) -> ActionScorer:
    """The scorer of ``config.init_policy`` (a longer run in several legs), loaded through the
    checked loader for the config's game and table size, refused unless its network is the
    config's (the run records what it trained)."""
    config, spec = run.config, run.spec
    path = config.init_policy
    if Path(path).is_dir():
        raise ValueError(
            f"init_policy {path!r} is a folder (an ensemble): one network is continued; name "
            "one of its checkpoints"
        )
    try:
        loaded = ActionScorer.from_checkpoint(path, spec.game, spec.num_players)
    except OSError as error:
        raise ValueError(f"init_policy {path!r} cannot be read: {error}") from None
    except (TypeError, ValueError) as error:
        raise type(error)(f"init_policy {error}") from None
    arch, wanted = loaded.metadata["net_arch"], config.scorer_arch()
    if arch != wanted:
        raise ValueError(
            f"init_policy {path} has the network {arch} but the config's is {wanted}: set "
            f"net_arch={arch['state']}, action_net_arch={arch['action']} and "
            f"head_net_arch={arch['head']}"
        )
    return loaded


def train_dmc(
    config: DMCConfig,
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
) -> tuple[DMCLearner, LearningCurve]:
    """Train under ``config.out_dir``: ``config.json``, ``policy.pt``,
    ``learning_curve.csv`` and TensorBoard scalars in ``logs/``. ``opponents`` (default:
    ``config.baseline_opponents`` by name) are the pool of the ``pool_share`` deals;
    ``curve_opponents`` (default: ``config.eval_opponents`` by name) those of the learning
    curve. Returns the learner and its curve. The config is checked and its game resolved
    first (:func:`checked_run`)."""
    return train_dmc_run(checked_run(config), opponents, curve_opponents=curve_opponents)


def train_dmc_run(
    run: TrainingRun[DMCConfig],
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
) -> tuple[DMCLearner, LearningCurve]:
    """:func:`train_dmc` of a run :func:`checked_run` made (a command line's)."""
    learner = DMCLearner(run)  # loads and checks init_policy before anything is written
    config = run.config
    out = write_config(config)
    if opponents is None:
        opponents = opponent_agents(config.baseline_opponents, run.spec.game, config.seed)
    game = learner.scorer.game
    buffer = ReplayBuffer(
        config.buffer_size,
        game.obs_size(game.default_players),
        game.obs_dtype,
        game.action_features.ACTION_FEATURES,
    )
    log = RunLog(run, out, method_label(config), "DMC self-play", curve_opponents)
    actors = DMCActors(run, opponents, buffer)
    log.start(lambda: warm_up(learner, run, opponents), lambda: evaluate(learner, log, 0))
    decisions = updates = 0
    while decisions < config.total_timesteps:
        if config.time_budget_s is not None and log.elapsed >= config.time_budget_s:
            break
        before = buffer.added
        decisions += actors.play(config.rollout_steps, learner.choose)
        loss = learner.update(buffer, buffer.added - before)
        updates += 1
        stats = {"buffer_size": buffer.size, "dropped_decisions": actors.dropped}
        log.progress(decisions, stats if loss is None else {**stats, "loss": loss})
        if updates % config.eval_every == 0:
            evaluate(learner, log, decisions)
    if log.curve[-1]["timesteps"] != decisions:
        evaluate(learner, log, decisions)
    learner.scorer.save(out / "policy.pt")
    log.close()
    return learner, log.curve


def warm_up(learner: DMCLearner, run: TrainingRun[DMCConfig], opponents: Sequence[Agent]) -> None:
    """Start-up before the clock: two throwaway games played by the run's learner and
    opponents until one ends (the game's kernels, the action features and the returns'
    kernel compile), then one forward and backward pass of the scorer."""
    config = learner.config
    game = learner.scorer.game
    buffer = ReplayBuffer(
        2 * config.decisions_per_game,
        game.obs_size(game.default_players),
        game.obs_dtype,
        game.action_features.ACTION_FEATURES,
    )
    two = TrainingRun(dataclasses.replace(config, num_envs=2), run.spec)
    actors = DMCActors(two, opponents, buffer)
    while not buffer.size:
        actors.play(1, learner.choose)
    learner.rehearse(buffer)


def method_label(config: DMCConfig) -> str:
    pool = f", {config.pool_share:.0%} of deals against the pool" if config.pool_share else ""
    start = "" if config.init_policy is None else f", continued from {config.init_policy}"
    return f"Deep Monte-Carlo self-play (action features, epsilon {config.epsilon:g}{pool}{start})"


def evaluate(learner: DMCLearner, log: RunLog, decisions: int) -> None:
    """A point of the learning curve: win rate and reward against each evaluation opponent."""
    log.evaluate(learner.agent(), decisions)
