"""Deep Monte-Carlo on Ray Core: ``workers`` actor processes play, one learner learns.

Each worker (``dmc_workers.py``) is a Ray actor with its own games, the action features, a
copy of the scorer and the opponent pool; it plays ``rollout_steps`` vector steps per call
and returns the rows (observation, chosen action's features, return) of the episodes that
ended, each labelled with its episode and the weights' version it started with. The learner
(this process, on ``device``: CPU or CUDA) keeps ``in_flight`` calls queued on every worker
and no more: a worker waits for the learner to take its rows before it plays on, so memory
is bounded (``workers x in_flight`` calls of rows) whatever their speeds. Each call's rows
join the replay buffer and drive one update (``DMCLearner.update``, the single-process
trainer's); every ``weights_every`` updates the weights go to the object store once and the
workers load them at their next call. Each row's weights age (updates since the weights its
episode started with) is logged (``train/weights_age_mean``, ``weights_age_max``).

Faults: a worker that dies is restarted by Ray (``max_restarts`` times, then the run fails
naming it) and the calls it had queued run on the new process; its unfinished episodes never
left the dead one and are gone with it: only ended episodes are credited, each once (a
restarted worker deals afresh, with new episode ids; ``train/worker_restarts`` counts them).
The learner writes ``learner.pt`` (weights, optimiser, counts and curve) every
``checkpoint_every`` updates and at the end; ``resume=True`` continues the run
of ``out_dir`` from it. ``workers=0`` is ``train_dmc``, the single-process trainer, unchanged.
Every setting is checked before Ray starts; an ``address`` that cannot be reached fails
naming it.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from presages_env.agents.base import Agent
from presages_env.agents.checkpoint import MAX_FILE_BYTES
from presages_env.core.files import open_regular
from presages_env.evaluation.learning_curve import LearningCurve
from presages_env.training.config import TrainingRun
from presages_env.training.dmc import (
    SETTINGS,
    DMCConfig,
    DMCLearner,
    ReplayBuffer,
    checked_run,
    evaluate,
    method_label,
    train_dmc_run,
    warm_up,
)
from presages_env.training.dmc_workers import DMCWorker, Rows
from presages_env.training.opponents import opponent_agents
from presages_env.training.run_log import RunLog
from presages_env.training.settings import (
    MAX_COUNT,
    Count,
    Flag,
    OrNone,
    Text,
    checked_settings,
    config_of,
    shown,
    write_config,
)

# sees each call's rows once the learner has taken them; True ends the run there
Observer = Callable[["DistributedRun", Rows], "bool | None"]
MAX_WORKERS = 4096
MAX_IN_FLIGHT = 64
CHECKPOINT = "learner.pt"
# the network's largest checkpoint and Adam's two moments of it
MAX_CHECKPOINT_BYTES = 2 * MAX_FILE_BYTES
# a local address ("auto"), a Ray client's ("ray://host:10001") or a cluster's ("host:6379")
ADDRESS = re.compile(r"auto|(ray://)?[A-Za-z0-9._\-\[\]:]+:\d{1,5}")
START_TIMEOUT_S = 1800.0  # the workers' start-up: a first compile of the slowest game
CONNECT_TIMEOUT_S = 10.0  # to open a connection to a cluster's address


@dataclasses.dataclass
class DistributedDMCConfig(DMCConfig):
    """Deep Monte-Carlo's settings and how the run spreads over Ray workers."""

    workers: int = 0  # Ray actor processes that play (0: the single-process trainer)
    address: str | None = None  # a Ray cluster ("auto", "ray://HOST:10001"); None: local
    weights_every: int = 1  # learner updates between weight broadcasts
    in_flight: int = 2  # calls queued on each worker: the back-pressure bound
    max_restarts: int = 3  # restarts of a dead worker before the run fails
    checkpoint_every: int = 100  # updates between the learner's checkpoints (0: at the end)
    resume: bool = False  # continue the run of out_dir from its learner.pt


class Address:
    """A Ray address: ``auto``, ``ray://HOST:PORT`` or ``HOST:PORT``."""

    def __call__(self, value: Any, name: str) -> str:
        text = Text(300)(value, name)
        if not ADDRESS.fullmatch(text):
            raise ValueError(
                f"{name} must be auto, ray://HOST:PORT or HOST:PORT, got {shown(value)}"
            )
        return text


RULES = {
    **SETTINGS,
    "workers": Count(0, MAX_WORKERS),
    "address": OrNone(Address()),
    "weights_every": Count(1, MAX_COUNT),
    "in_flight": Count(1, MAX_IN_FLIGHT),
    "max_restarts": Count(0, 1000),
    "checkpoint_every": Count(0, MAX_COUNT),
    "resume": Flag(),
}


def distributed_config(**settings: Any) -> DistributedDMCConfig:
    """A config of ``settings``, the others at their defaults; an unknown name is refused."""
    return config_of(DistributedDMCConfig, settings)


def single_process(config: DMCConfig) -> DMCConfig:
    """The Deep Monte-Carlo settings of ``config``, without the distributed ones."""
    return DMCConfig(**{f.name: getattr(config, f.name) for f in dataclasses.fields(DMCConfig)})


def checked_distributed_run(config: DistributedDMCConfig) -> TrainingRun[DistributedDMCConfig]:
    """``config`` checked (``dmc.checked_run`` and the distributed settings) with its game
    resolved, once, before Ray starts or anything is written; raises ``TypeError``/
    ``ValueError`` naming the setting."""
    if not isinstance(config, DistributedDMCConfig):
        raise TypeError(f"expected a DistributedDMCConfig, got {type(config).__name__}")
    config = checked_settings(config, RULES)
    plain = checked_run(single_process(config))
    if not config.workers:
        for name in ("address", "resume"):
            if getattr(config, name):
                raise ValueError(f"{name} is for Ray workers: set workers >= 1 with it")
    if config.resume and not (Path(config.out_dir) / CHECKPOINT).is_file():
        raise ValueError(f"resume: no {CHECKPOINT} in {config.out_dir} to continue from")
    return TrainingRun(dataclasses.replace(config, **dataclasses.asdict(plain.config)), plain.spec)


def check_distributed(config: DistributedDMCConfig) -> DistributedDMCConfig:
    """``config`` checked (:func:`checked_distributed_run`)."""
    return checked_distributed_run(config).config


def plain_run(run: TrainingRun[DistributedDMCConfig]) -> TrainingRun[DMCConfig]:
    """``run`` as the single-process trainer's: its Deep Monte-Carlo settings, its game."""
    return TrainingRun(single_process(run.config), run.spec)


def train(
    config: DistributedDMCConfig,
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
    observer: Observer | None = None,
) -> tuple[DMCLearner, LearningCurve]:
    """Check ``config`` (:func:`checked_distributed_run`) and train it (:func:`train_run`)."""
    run = checked_distributed_run(config)
    return train_run(run, opponents, curve_opponents=curve_opponents, observer=observer)


def train_run(
    run: TrainingRun[DistributedDMCConfig],
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
    observer: Observer | None = None,
) -> tuple[DMCLearner, LearningCurve]:
    """Train as ``run.config.workers`` says: ``train_dmc_run`` in this process (0), else
    :func:`train_distributed` (``observer``: see there). Returns the learner and its curve."""
    if not run.config.workers:
        return train_dmc_run(plain_run(run), opponents, curve_opponents=curve_opponents)
    return train_distributed(run, opponents, curve_opponents=curve_opponents, observer=observer)


def train_distributed(
    run: TrainingRun[DistributedDMCConfig],
    opponents: Sequence[Agent] | None = None,
    *,
    curve_opponents: Sequence[Agent] | None = None,
    observer: Observer | None = None,
) -> tuple[DMCLearner, LearningCurve]:
    """Train ``run`` on its ``workers`` Ray workers (a local Ray, or the cluster at its
    ``address``; one already started in this process is used as it is) into
    ``config.out_dir``, as ``train_dmc`` writes it, plus ``learner.pt``. ``opponents``
    (default: each worker's ``baseline_opponents`` by name) are sent to every worker;
    ``observer(run, rows)`` sees each call's rows once the learner has taken them (tests,
    monitoring); it returning True ends the run there. Returns the learner and its curve."""
    config, plain = run.config, plain_run(run)
    learner = DMCLearner(plain)
    resumed = load_checkpoint(Path(config.out_dir) / CHECKPOINT, learner) if config.resume else None
    ray, started = connect(config)
    try:
        out = write_config(config)
        log = RunLog(run, out, distributed_label(config), "DMC on Ray", curve_opponents)
        workers = start_workers(config, opponents)
        spread = DistributedRun(config, learner, workers, log, observer)
        local = opponents
        if local is None:
            local = opponent_agents(config.baseline_opponents, run.spec.game, config.seed)
        first_point = lambda: evaluate(learner, log, 0)  # noqa: E731
        if resumed is not None:
            spread.decisions, spread.updates = resumed["decisions"], resumed["updates"]
            log.curve.extend(resumed["curve"])
            first_point = lambda: None  # noqa: E731
        log.start(lambda: spread.start(lambda: warm_up(learner, plain, local)), first_point)
        spread.loop()
        if log.curve[-1]["timesteps"] != spread.decisions:
            evaluate(learner, log, spread.decisions)
        learner.scorer.save(out / "policy.pt")
        save_checkpoint(out / CHECKPOINT, learner, spread)
        log.close()
        spread.stop()
    finally:
        if started:
            ray.shutdown()
    return learner, log.curve


def distributed_label(config: DistributedDMCConfig) -> str:
    where = "a local Ray" if config.address is None else f"the Ray cluster at {config.address}"
    return f"{method_label(config)}, {config.workers} workers on {where}"


def connect(config: DistributedDMCConfig) -> tuple[Any, bool]:
    """Ray, started for the run (True) or already running in this process (False): a local
    one of ``workers`` CPUs, quiet and without the dashboard, or the cluster at ``address``;
    one that cannot be reached raises ``ConnectionError`` naming it."""
    import ray

    if ray.is_initialized():
        return ray, False
    quiet = {"logging_level": logging.WARNING, "include_dashboard": False}
    if config.address is None:
        ray.init(num_cpus=config.workers, **quiet)
        return ray, True
    try:
        check_reachable(config.address)
        ray.init(address=config.address, **quiet)
    except Exception as error:  # Ray raises ConnectionError, RuntimeError or its own
        raise ConnectionError(
            f"cannot reach the Ray cluster at {config.address!r}: {error}"
        ) from error
    return ray, True


def check_reachable(address: str) -> None:
    """Open and close a TCP connection to ``HOST:PORT`` (or ``ray://HOST:PORT``) first:
    ``ray.init`` retries an unreachable one for minutes; this fails in seconds
    (``OSError``). ``auto`` is Ray's to find."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S):
        pass


def start_workers(config: DistributedDMCConfig, opponents: Sequence[Agent] | None) -> list:
    """The workers, one CPU each, restarted by Ray up to ``max_restarts`` times; a call that
    was queued or running when its worker died runs again on the new process (the episodes
    the dead one had not finished are gone with it, never sent)."""
    import ray

    remote = ray.remote(num_cpus=1, max_restarts=config.max_restarts, max_task_retries=-1)
    actor = remote(DMCWorker)
    plain = single_process(config)
    pool = None if opponents is None else list(opponents)
    return [actor.remote(plain, index, pool) for index in range(config.workers)]


class DistributedRun:
    """The learner's side of a run: the calls in flight on each worker, the weights they
    load, and what each call's rows do (the buffer, an update, the log)."""

    def __init__(
        self,
        config: DistributedDMCConfig,
        learner: DMCLearner,
        workers: list,
        log: RunLog,
        observer: Observer | None = None,
    ) -> None:
        import ray

        self.ray, self.config, self.learner, self.workers, self.log = (
            ray,
            config,
            learner,
            workers,
            log,
        )
        self.observer = observer
        game = learner.scorer.game
        features = game.action_features.ACTION_FEATURES
        obs_size = game.obs_size(config.num_players or game.default_players)
        self.buffer = ReplayBuffer(config.buffer_size, obs_size, game.obs_dtype, features)
        self.pending: dict[Any, int] = {}  # call -> worker
        self.incarnations = [0] * len(workers)  # of each worker's process (dmc_workers.py)
        self.failures = [0] * len(workers)  # calls lost to each worker's deaths
        self.decisions = self.updates = self.dropped = self.restarts = 0
        self.weights, self.version = None, 0
        self.ended = False  # by the observer

    def start(self, warm_up_here: Callable[[], None]) -> None:
        """Start-up before the run's clock: ``warm_up_here`` (the learner's) while every
        worker compiles and warms up; a worker that cannot start fails the run naming where
        it was to run."""
        where = self.config.address or "a local Ray"
        calls = [worker.warm_up.remote() for worker in self.workers]
        warm_up_here()
        try:
            self.ray.get(calls, timeout=START_TIMEOUT_S)
        except Exception as error:  # a worker's own error, Ray's, or the timeout: all fatal
            raise RuntimeError(f"the workers did not start on {where}: {error}") from error
        self.broadcast()
        for index in range(len(self.workers)):
            for _ in range(self.config.in_flight):
                self.submit(index)

    def broadcast(self) -> None:
        """The learner's weights into the object store, for the workers' next calls."""
        network = self.learner.scorer.network
        state = {name: value.detach().cpu() for name, value in network.state_dict().items()}
        self.weights, self.version = self.ray.put(state), self.updates

    def submit(self, index: int) -> None:
        call = self.workers[index].play.remote(
            [self.weights], self.version, self.config.rollout_steps
        )
        self.pending[call] = index

    def loop(self) -> None:
        """Take the workers' rows until the decision budget (or the time budget) is spent."""
        config = self.config
        while self.decisions < config.total_timesteps and not self.ended:
            if config.time_budget_s is not None and self.log.elapsed >= config.time_budget_s:
                break
            rows = self.next_rows()
            if rows is not None:
                self.take(rows)

    def next_rows(self) -> Rows | None:
        """The next call to return, its worker given another one. None where the call died
        with its worker and Ray did not run it again (it mostly does: a call racing the
        restart); a worker that keeps dying past ``max_restarts`` fails the run naming it."""
        ray = self.ray
        [call], _ = ray.wait(list(self.pending), num_returns=1)
        index = self.pending.pop(call)
        try:
            rows = ray.get(call)
        except ray.exceptions.RayActorError as error:
            self.failures[index] += 1  # each death fails at most in_flight calls
            if self.failures[index] > (self.config.max_restarts + 1) * self.config.in_flight:
                raise RuntimeError(
                    f"worker {index} died and max_restarts={self.config.max_restarts} is "
                    f"spent: {error}"
                ) from error
            rows = None
        self.submit(index)
        if rows is not None and rows.incarnation != self.incarnations[index]:
            self.incarnations[index] = rows.incarnation  # a new process since its last rows
            self.restarts += 1
        return rows

    def take(self, rows: Rows) -> None:
        """One call's rows: into the buffer, one update, the weights out every
        ``weights_every`` updates, the log, the curve and the checkpoint when due."""
        config, log = self.config, self.log
        ages = self.updates - rows.versions
        self.buffer.add(rows.obs, rows.features, rows.targets)
        self.decisions += rows.decisions
        self.dropped += rows.dropped
        loss = self.learner.update(self.buffer, len(rows))
        self.updates += 1
        if self.updates % config.weights_every == 0:
            self.broadcast()
        stats = {
            "buffer_size": self.buffer.size,
            "dropped_decisions": self.dropped,
            "worker_restarts": self.restarts,
        }
        if len(rows):
            stats.update(weights_age_mean=float(ages.mean()), weights_age_max=int(ages.max()))
        log.progress(self.decisions, stats if loss is None else {**stats, "loss": loss})
        if self.updates % config.eval_every == 0:
            evaluate(self.learner, log, self.decisions)
        if config.checkpoint_every and self.updates % config.checkpoint_every == 0:
            save_checkpoint(log.out / CHECKPOINT, self.learner, self)
        if self.observer is not None and self.observer(self, rows):
            self.ended = True

    def stop(self) -> None:
        """The workers end (their unfinished episodes with them; Ray logs that the calls
        still queued on them cannot run)."""
        for worker in self.workers:
            self.ray.kill(worker, no_restart=True)
        self.pending.clear()


def save_checkpoint(path: Path, learner: DMCLearner, run: DistributedRun) -> None:
    """The learner's state (weights, optimiser's moments, counts, the curve so far), written
    whole or not at all (a temporary file, then renamed)."""
    torch = learner.torch
    state = {
        "game": learner.config.game,
        "net_arch": learner.config.scorer_arch(),
        "network": learner.scorer.network.state_dict(),
        "optimiser": learner.optimiser.state_dict(),
        "decisions": run.decisions,
        "updates": run.updates,
        "curve": [dict(row) for row in run.log.curve],
    }
    partial = path.with_name(path.name + ".partial")
    torch.save(state, partial)
    os.replace(partial, path)


def load_checkpoint(path: Path, learner: DMCLearner) -> dict[str, Any]:
    """Load :func:`save_checkpoint`'s file into ``learner``: a regular file of bounded size,
    tensors and plain values only (loading runs no code and never blocks), refused naming
    the file unless it is this config's game and network. Returns its counts and curve."""
    config = learner.config
    with open_regular(path, "resume: the learner checkpoint", MAX_CHECKPOINT_BYTES) as file:
        try:
            state = learner.torch.load(file, map_location=learner.scorer.device, weights_only=True)
        except Exception as error:  # a file from outside: whatever torch raises is a refusal
            raise ValueError(
                f"resume: {path} cannot be read as a learner checkpoint: {error}"
            ) from None
    expected = {"game", "net_arch", "network", "optimiser", "decisions", "updates", "curve"}
    if not isinstance(state, dict) or set(state) != expected:
        raise ValueError(f"resume: {path} is not a learner checkpoint")
    if state["game"] != config.game or state["net_arch"] != config.scorer_arch():
        raise ValueError(
            f"resume: {path} is {state['game']} with the network {state['net_arch']}, the "
            f"config is {config.game} with {config.scorer_arch()}"
        )
    counts = [state["decisions"], state["updates"]]
    if not all(isinstance(c, int) and 0 <= c <= MAX_COUNT for c in counts):
        raise ValueError(f"resume: {path} has counts {counts}, not two counts")
    if not isinstance(state["curve"], list) or not all(isinstance(r, dict) for r in state["curve"]):
        raise ValueError(f"resume: {path}'s curve is not a list of rows")
    try:
        learner.scorer.network.load_state_dict(state["network"])
        learner.optimiser.load_state_dict(state["optimiser"])
    except (KeyError, RuntimeError, ValueError) as error:
        raise ValueError(f"resume: {path} does not fit the config's network: {error}") from None
    return state
