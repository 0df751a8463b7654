"""Deep Monte-Carlo on Ray workers (training/dmc_ray.py, dmc_workers.py): the learner takes
exactly the rows of finished episodes, each once, also when a worker dies mid-run; the
settings are refused before Ray starts; ``workers=0`` (and ``train_dmc.py --workers 0``) is
the single-process trainer bit for bit; the learner's checkpoint resumes a run.

One local Ray of 2 CPUs serves the module; the runs are Kuhn poker, tiny networks, a few
thousand decisions (seconds once the workers have started)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import socket
import sys
from pathlib import Path

import numpy as np
import pytest
from extras import require

require("train")
ray = require("ray")

import torch  # noqa: E402

from presages_env.agents.action_scorer import ActionScorer  # noqa: E402
from presages_env.training import dmc_ray, dmc_workers  # noqa: E402
from presages_env.training.dmc import (  # noqa: E402
    DMCLearner,
    ReplayBuffer,
    checked_run,
    dmc_config,
    train_dmc,
)
from presages_env.training.dmc_ray import (  # noqa: E402
    CHECKPOINT,
    DistributedRun,
    distributed_config,
    load_checkpoint,
    save_checkpoint,
    single_process,
    train,
)
from presages_env.training.dmc_workers import DMCWorker, Rows  # noqa: E402

pytestmark = pytest.mark.xdist_group("ray")
ROOT = Path(__file__).resolve().parents[2]
GAME = "kuhn_poker"
TINY = {
    "game": GAME,
    "num_envs": 8,
    "rollout_steps": 8,
    "minibatch_size": 64,
    "net_arch": (16,),
    "action_net_arch": (8,),
    "head_net_arch": (16,),
    "buffer_size": 2048,
    "decisions_per_game": 64,
    "time_budget_s": None,
    "total_timesteps": 3000,
    "eval_every": 10,
    "eval_opponents": (),
    "pool_share": 0.0,  # self-play: every decision of an episode is a row
    "device": "cpu",
}


@pytest.fixture(scope="module")
def local_ray():
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    if started:
        ray.shutdown()


def tiny(tmp_path, **overrides):
    return distributed_config(**{**TINY, "out_dir": str(tmp_path / "run"), **overrides})


def by_episode(batches: list[Rows]) -> dict[tuple[int, int, int], list[np.ndarray]]:
    """The targets of each (worker, incarnation, episode), one entry per batch it was in."""
    found: dict[tuple[int, int, int], list[np.ndarray]] = {}
    for rows in batches:
        for episode in np.unique(rows.episodes):
            targets = rows.targets[rows.episodes == episode]
            found.setdefault((rows.worker, rows.incarnation, int(episode)), []).append(targets)
    return found


def assert_whole_episodes(batches: list[Rows]) -> None:
    """Each episode arrives once, whole: Kuhn poker's 2 or 3 decisions, every one with its
    seat's result (an unfinished game's decisions would have 0: no reward yet), one seat's
    the other's negative."""
    for key, parts in by_episode(batches).items():
        assert len(parts) == 1, f"episode {key} credited {len(parts)} times"
        targets = parts[0]
        assert len(targets) in (2, 3), (key, targets)
        assert set(np.abs(targets).tolist()) <= {1.0, 2.0} and len(set(np.abs(targets))) == 1
        assert targets.min() == -targets.max(), (key, targets)


def replay(config, index: int, calls: int, monkeypatch) -> list[Rows]:
    """Worker ``index``'s first ``calls`` calls, played again in this process."""
    monkeypatch.setattr(dmc_workers, "_restarted", lambda: False)
    threads = torch.get_num_threads()
    worker = DMCWorker(single_process(config), index)
    torch.set_num_threads(threads)
    worker.warm_up()
    return [worker.play([], 0, config.rollout_steps) for _ in range(calls)]


def crash(worker: DMCWorker) -> None:
    """Run in a worker's process: it dies as a crash does, with no goodbye to Ray (the
    first process only: Ray runs the call again on the restarted one)."""
    if worker.incarnation == 0:
        os._exit(1)


crash.__module__ = "__main__"  # sent by value: the workers cannot import the tests


def test_the_learner_takes_the_finished_episodes_each_once_also_when_a_worker_dies(
    local_ray, tmp_path, monkeypatch
):
    """With epsilon 1 the workers' play does not depend on the weights: what reached the
    learner from a worker is what a replay of its seeds ends, episode for episode. Worker 0
    crashes after its third call (and the calls queued then): Ray restarts it, the calls
    queued on it run again on the new process (calls run in order, so what arrived before
    is still a replay's first calls), the old process's unfinished games are gone, and the
    new one deals afresh (new episode ids); the run goes on until the new process has sent
    rows twice."""
    # a budget the run never reaches: it ends once the restarted worker has sent rows twice,
    # however long the restart takes on a loaded machine
    config = tiny(tmp_path, workers=2, epsilon=1.0, total_timesteps=5_000_000)
    batches: list[Rows] = []
    ages: list[int] = []

    def observe(run: DistributedRun, rows: Rows) -> bool:
        batches.append(rows)
        ages.extend((run.updates - 1 - rows.versions).tolist())
        if sum(r.worker == 0 for r in batches) == 3:  # mid-game in most of its 8 games
            run.workers[0].__ray_call__.remote(crash)  # after the calls queued before it
        runs.append(run)
        return sum(r.worker == 0 and r.incarnation != 0 for r in batches) >= 2

    runs: list[DistributedRun] = []
    _, curve = train(config, observer=observe)
    run = runs[-1]
    assert run.restarts == 1
    assert curve[-1]["timesteps"] == run.decisions == sum(rows.decisions for rows in batches)
    assert len({rows.incarnation for rows in batches if rows.worker == 0}) == 2
    assert {rows.incarnation for rows in batches if rows.worker == 1} == {0}
    assert_whole_episodes(batches)
    assert min(ages) >= 0  # the weights' age, in updates
    for index in (0, 1):
        first = [rows for rows in batches if rows.worker == index and rows.incarnation == 0]
        again = by_episode(replay(config, index, len(first), monkeypatch))
        received = by_episode(first)
        assert received.keys() == again.keys()
        for key, parts in received.items():
            np.testing.assert_array_equal(parts[0], again[key][0])
    written = {p.name for p in (tmp_path / "run").iterdir()}
    assert {"config.json", "policy.pt", "learning_curve.csv", CHECKPOINT} <= written


def test_zero_workers_is_the_single_process_trainer_bit_for_bit(tmp_path, monkeypatch):
    monkeypatch.setattr(dmc_ray, "connect", lambda config: pytest.fail("Ray was started"))
    plain = dmc_config(**{**TINY, "total_timesteps": 500, "out_dir": str(tmp_path / "one")})
    expected, _ = train_dmc(plain)
    spec = importlib.util.spec_from_file_location("train_dmc", ROOT / "baselines/train_dmc.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    sets = [f"{name}={_json(value)}" for name, value in TINY.items() if name != "game"]
    sets = [s for s in sets if not s.startswith(("time_budget_s", "total_timesteps"))]
    argv = ["train_dmc.py", "--game", GAME, "--timesteps", "500", "--workers", "0"]
    monkeypatch.setattr(sys, "argv", [*argv, "--out", str(tmp_path / "cli"), "--set", *sets])
    script.main()
    for run in ("one", "cli"):
        loaded = ActionScorer.from_checkpoint(tmp_path / run / "policy.pt", GAME, 2)
        weights = loaded.network.state_dict()
        for name, value in expected.scorer.network.state_dict().items():
            assert torch.equal(weights[name], value), (run, name)
    written = [json.loads((tmp_path / run / "config.json").read_text()) for run in ("one", "cli")]
    assert written[0] == {**written[1], "out_dir": str(tmp_path / "one")}  # no Ray settings
    assert not (tmp_path / "cli" / CHECKPOINT).exists()


def _json(value) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("workers", -1),
        ("workers", 1.5),
        ("address", "not an address"),
        ("address", "auto"),  # with no workers
        ("in_flight", 0),
        ("weights_every", 0),
        ("max_restarts", -1),
        ("resume", "yes"),
        ("resume", True),  # nothing to resume from
        ("epsilon", 2.0),  # Deep Monte-Carlo's own settings, checked as train_dmc does
    ],
)
def test_bad_settings_are_refused_before_ray_starts(tmp_path, monkeypatch, setting, value):
    monkeypatch.setattr(dmc_ray, "connect", lambda config: pytest.fail("Ray was started"))
    workers = 0 if setting == "address" else 1
    with pytest.raises((TypeError, ValueError), match=setting):
        train(tiny(tmp_path, **{"workers": workers, setting: value}))
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_unreachable_cluster_fails_naming_its_address(tmp_path, monkeypatch, scheme):
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    address = f"{scheme}127.0.0.1:{port}"
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as in a fresh process
    monkeypatch.setattr(ray, "init", lambda **settings: pytest.fail("ray.init was reached"))
    with pytest.raises(ConnectionError, match=f"cannot reach the Ray cluster at '{address}'"):
        train(tiny(tmp_path, workers=1, address=address))
    assert not (tmp_path / "run").exists()


def test_the_learners_checkpoint_resumes_weights_optimiser_counts_and_curve(tmp_path):
    config = tiny(tmp_path, workers=1)
    learner = DMCLearner(checked_run(single_process(config)))
    game = learner.scorer.game
    features = game.action_features.ACTION_FEATURES
    buffer = ReplayBuffer(64, game.obs_size(2), game.obs_dtype, features)
    buffer.add(np.ones((64, game.obs_size(2))), np.ones((64, features)), np.ones(64))
    learner.update(buffer, 64)  # the optimiser's moments
    curve = [{"timesteps": 0, "seconds": 0.0}]
    log = dataclasses.make_dataclass("Log", ["curve"])(curve)
    run = dataclasses.make_dataclass("Run", ["decisions", "updates", "log"])(1234, 56, log)
    path = tmp_path / CHECKPOINT
    save_checkpoint(path, learner, run)
    later = DMCLearner(checked_run(dataclasses.replace(single_process(config), seed=9)))
    state = load_checkpoint(path, later)
    assert (state["decisions"], state["updates"]) == (1234, 56)
    assert state["curve"] == [{"timesteps": 0, "seconds": 0.0}]
    for name, value in learner.scorer.network.state_dict().items():
        assert torch.equal(later.scorer.network.state_dict()[name], value)
    moments = later.optimiser.state_dict()["state"]
    for key, values in learner.optimiser.state_dict()["state"].items():
        assert all(torch.equal(moments[key][k], v) for k, v in values.items())
    other = DMCLearner(checked_run(dataclasses.replace(single_process(config), net_arch=(8,))))
    with pytest.raises(ValueError, match="resume:.*network"):
        load_checkpoint(path, other)
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="resume:.*cannot be read"):
        load_checkpoint(path, later)
    path.unlink()
    os.mkfifo(path)  # opening it to read would wait for a writer
    with pytest.raises(ValueError, match=r"resume:.*a named pipe \(FIFO\), not a regular file"):
        load_checkpoint(path, later)


def test_a_best_response_passes_its_workers_to_the_distributed_trainer(tmp_path, monkeypatch):
    """``approximate_best_response(mode="dmc", workers=N)`` trains on Ray workers: its
    settings reach dmc_ray's checks (a bad count is refused there, before Ray starts)."""
    from presages_env.agents import RandomAgent
    from presages_env.training.best_response import approximate_best_response

    monkeypatch.setattr(dmc_ray, "connect", lambda config: pytest.fail("Ray was started"))
    with pytest.raises(ValueError, match="workers must be an int in"):
        approximate_best_response(GAME, RandomAgent(1), out_dir=tmp_path / "br", workers=-2)
    assert not (tmp_path / "br").exists()
