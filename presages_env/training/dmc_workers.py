"""The actor side of distributed Deep Monte-Carlo (``dmc_ray.py``): games played in a worker
process, whose finished episodes go back to the learner as rows.

A worker is :class:`~presages_env.training.dmc.DMCActors` (the same games, seats, opponent
pool, journal and returns) with a copy of the learner's scorer choosing ε-greedily
(:class:`~presages_env.training.dmc.DMCLearner`'s ``choose``). What it adds is bookkeeping:
each game's episode has an id, and the version of the weights it started with; a row leaves
the worker only when its episode has ended (the journal holds the others), so a worker that
dies takes its unfinished episodes with it and none of them is ever credited. Ray makes it
an actor (``ray.remote(DMCWorker)``) in ``dmc_ray.py``; Ray is imported here only inside
the methods that run in one.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence

import numpy as np

from presages_env.agents.base import Agent
from presages_env.core.validation import offset_seed
from presages_env.training.config import TrainingRun
from presages_env.training.dmc import DMCActors, DMCConfig, DMCLearner, checked_run, warm_up
from presages_env.training.opponents import opponent_agents

WORKER_SEED_OFFSET = 7919  # worker i deals from the run's seed + this + i


@dataclasses.dataclass
class Rows:
    """What one call of a worker sends: the rows of the episodes that ended during it, each
    with its episode id and the weights' version its episode started with, and the learner
    decisions it made (ended or not)."""

    worker: int
    incarnation: int  # 0 for a worker's first process, a random id after each restart
    episodes: np.ndarray  # int64 [n]: each row's episode, unique within the incarnation
    versions: np.ndarray  # int64 [n]: the learner update whose weights began the episode
    obs: np.ndarray
    features: np.ndarray
    targets: np.ndarray
    decisions: int
    dropped: int  # decisions of games longer than the journal, never sent

    def __len__(self) -> int:
        return len(self.targets)


class Outbox:
    """Stands in for the replay buffer of :class:`DMCActors`: it keeps the rows of ended
    episodes, each labelled, until the worker sends them."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, ...]] = []
        self._labels: tuple[np.ndarray, np.ndarray] | None = None

    def label(self, episodes: np.ndarray, versions: np.ndarray) -> None:
        """The episode and version of each row of the next :meth:`add`."""
        self._labels = (episodes, versions)

    def add(self, obs: np.ndarray, features: np.ndarray, targets: np.ndarray) -> None:
        episodes, versions = self._labels
        self.parts.append((episodes, versions, obs.copy(), features.copy(), targets.copy()))
        self._labels = None

    def take(self) -> tuple[np.ndarray, ...]:
        """Every row added since the last take, as five arrays."""
        parts, self.parts = self.parts, []
        return tuple(np.concatenate(column) for column in zip(*parts, strict=True))


class EpisodeActors(DMCActors):
    """:class:`DMCActors` whose ended games leave their rows labelled with the episode and
    the weights' version it started with."""

    def __init__(self, run: TrainingRun[DMCConfig], opponents: Sequence[Agent]) -> None:
        super().__init__(run, opponents, Outbox())
        self.version = -1  # of the weights choosing now (-1: none loaded yet)
        self.episodes = np.arange(self.num_envs, dtype=np.int64)
        self.next_episode = self.num_envs
        self.started = np.full(self.num_envs, -1, np.int64)

    def new_weights(self, version: int) -> None:
        """The weights of update ``version`` choose from now on: a game whose learner has
        not decided yet starts its episode with them."""
        self.version = version
        self.started[self.counts == 0] = version

    def _finish(self, ended: np.ndarray) -> None:
        kept = np.minimum(self.counts[ended], self.journal_obs.shape[1])
        self.buffer.label(
            np.repeat(self.episodes[ended], kept), np.repeat(self.started[ended], kept)
        )
        super()._finish(ended)
        self.episodes[ended] = self.next_episode + np.arange(len(ended))
        self.next_episode += len(ended)
        self.started[ended] = self.version


def worker_config(config: DMCConfig, index: int) -> DMCConfig:
    """Worker ``index``'s settings: its own deals and exploration, on the CPU; its weights
    come from the learner (``init_policy`` is the learner's to load: a cluster's node need
    not have the file)."""
    seed = offset_seed(config.seed, WORKER_SEED_OFFSET + index)
    return dataclasses.replace(config, seed=seed, device="cpu", init_policy=None)


class DMCWorker:
    """One worker process: games, the action features, a copy of the scorer and the pool."""

    def __init__(
        self, config: DMCConfig, index: int, opponents: Sequence[Agent] | None = None
    ) -> None:
        import numba
        import torch

        torch.set_num_threads(1)  # a worker is one core: Ray gives it one CPU
        numba.set_num_threads(1)
        self.index = index
        self.incarnation = 0
        config = worker_config(config, index)
        if _restarted():  # fresh deals: the dead process's would repeat its episodes' ids
            self.incarnation = 1 + secrets.randbelow(2**62)
            config = dataclasses.replace(config, seed=self.incarnation)
        self.run = checked_run(config)  # the worker process's game, resolved once
        self.learner = DMCLearner(self.run)  # its choose; the optimiser is never used
        if opponents is None:
            opponents = opponent_agents(config.baseline_opponents, self.run.spec.game, config.seed)
        self.opponents = list(opponents)
        self.actors = EpisodeActors(self.run, self.opponents)

    def warm_up(self) -> int:
        """Compile the game's kernels and run the scorer once (before the run's clock);
        returns the worker's incarnation."""
        warm_up(self.learner, self.run, self.opponents)
        return self.incarnation

    def play(self, weights: list, version: int, steps: int) -> Rows:
        """Load the weights of update ``version`` (``weights``: ``[ObjectRef]`` of a state
        dict, fetched only when newer than the loaded ones; ``[]``: keep them), play ``steps``
        vector steps and return the rows of the episodes that ended."""
        if weights and version != self.actors.version:
            import ray

            self.learner.scorer.network.load_state_dict(ray.get(weights[0]))
            self.actors.new_weights(version)
        dropped = self.actors.dropped
        decisions = self.actors.play(steps, self.learner.choose)
        if self.actors.buffer.parts:
            episodes, versions, obs, features, targets = self.actors.buffer.take()
        else:
            episodes = versions = np.zeros(0, np.int64)
            obs, features, targets = self._empty()
        return Rows(
            self.index,
            self.incarnation,
            episodes,
            versions,
            obs,
            features,
            targets,
            decisions,
            self.actors.dropped - dropped,
        )

    def _empty(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        journal_obs, journal_features = self.actors.journal_obs, self.actors.journal_features
        return journal_obs[0, :0], journal_features[0, :0], np.zeros(0, np.float32)


def _restarted() -> bool:
    """Whether this actor's process replaces one that died (Ray restarted it)."""
    import warnings

    import ray

    with warnings.catch_warnings():  # Ray 2.60 reads its own deprecated actor_id here
        warnings.simplefilter("ignore", DeprecationWarning)
        return ray.get_runtime_context().was_current_actor_reconstructed
