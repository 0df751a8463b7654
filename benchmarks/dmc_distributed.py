"""Deep Monte-Carlo on Ray workers: decisions per second with 0, 1 and 2 workers, and the
two halves alone (what one learner absorbs, what one actor plays).

    python benchmarks/dmc_distributed.py --game presages --seconds 60
    python benchmarks/dmc_distributed.py --workers 0 1 2 4 --device cpu

In one run, the same config (``DMCConfig``'s defaults unless ``--set``), each after its
warm-up (kernels compiled, the scorer run once):

- ``actor alone``: one process playing ``rollout_steps`` vector steps at a time with the
  learner's ε-greedy choice and no learning (a worker's work, ``training/dmc_workers.py``):
  learner decisions/s.
- ``learner alone``: one update per call's worth of rows (``num_envs x rollout_steps``, on a
  buffer the actor filled), as the distributed learner makes them: updates/s and rows/s, the
  rows it absorbs per second: the ceiling of what the actors it feeds can send.
- ``end to end``: ``train_dmc`` (0 workers) and ``train_distributed`` with N workers on a
  local Ray of N CPUs, each for ``--seconds`` of learning: learner decisions/s.

The last lines are the ratios of N workers to 1 and of 1 worker to 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time

from presages_env.training.command_line import parse_setting
from presages_env.training.dmc import (
    DMCActors,
    DMCLearner,
    ReplayBuffer,
    checked_run,
    warm_up,
)
from presages_env.training.dmc_ray import (
    DistributedDMCConfig,
    check_distributed,
    single_process,
    train,
)
from presages_env.training.opponents import opponent_agents


def buffer_for(learner: DMCLearner, capacity: int) -> ReplayBuffer:
    game = learner.scorer.game
    obs_size = game.obs_size(learner.config.num_players or game.default_players)
    features = game.action_features.ACTION_FEATURES
    return ReplayBuffer(capacity, obs_size, game.obs_dtype, features)


def actor_rate(
    config: DistributedDMCConfig, seconds: float
) -> tuple[float, DMCLearner, ReplayBuffer]:
    """The actor's decisions/s; the learner and the buffer it filled."""
    plain = dataclasses.replace(single_process(config), device="cpu")
    run = checked_run(plain)
    learner = DMCLearner(run)
    opponents = opponent_agents(plain.baseline_opponents, run.spec.game, plain.seed)
    warm_up(learner, run, opponents)
    buffer = buffer_for(learner, plain.buffer_size)
    actors = DMCActors(run, opponents, buffer)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += actors.play(plain.rollout_steps, learner.choose)
    return decisions / (time.perf_counter() - start), learner, buffer


def learner_rate(
    config: DistributedDMCConfig, buffer: ReplayBuffer, seconds: float
) -> tuple[float, float]:
    """Updates/s and rows/s of a learner on ``config.device``, one update per call's worth
    of rows (``num_envs x rollout_steps``) from ``buffer``."""
    learner = DMCLearner(checked_run(single_process(config)))
    rows = config.num_envs * config.rollout_steps
    learner.update(buffer, rows)  # warm-up: the first pass, the optimiser's state
    updates, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        learner.update(buffer, rows)
        updates += 1
    if learner.scorer.device.type == "cuda":
        learner.torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    return updates / elapsed, updates * rows / elapsed


def end_to_end_rate(config: DistributedDMCConfig, workers: int, seconds: float) -> float:
    """Learner decisions/s of a run of ``seconds`` with ``workers`` (0: ``train_dmc``)."""
    with tempfile.TemporaryDirectory() as out:
        run = dataclasses.replace(
            config, workers=workers, time_budget_s=seconds, out_dir=out, checkpoint_every=0
        )
        _, curve = train(run)
    last = curve[-1]
    return last["timesteps"] / max(last["seconds"], 1e-9)


def parse() -> tuple[argparse.Namespace, DistributedDMCConfig]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="presages")
    parser.add_argument("--seconds", type=float, default=30.0, help="of each measurement")
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--device", default="cpu", help="the learner's (cpu, cuda)")
    parser.add_argument("--set", nargs="*", type=parse_setting, default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    settings = {
        "game": args.game,
        "device": args.device,
        "total_timesteps": 10**12,  # the time budget stops each run
        "eval_every": 10**9,  # one curve point at each end
        "eval_opponents": (),
        **dict(args.set),
    }
    return args, check_distributed(DistributedDMCConfig(**settings))


def main() -> None:
    import ray

    args, config = parse()
    print(
        f"{config.game}, {config.num_envs} games x {config.rollout_steps} steps a call, "
        f"minibatch {config.minibatch_size}, sample_reuse {config.sample_reuse:g}, learner on "
        f"{config.device}, {args.seconds:g} s each:",
        flush=True,
    )
    actor, _, buffer = actor_rate(config, args.seconds)
    print(f"  actor alone (1 process)   : {actor:10,.0f} decisions/s", flush=True)
    updates, rows = learner_rate(config, buffer, args.seconds)
    print(f"  learner alone             : {rows:10,.0f} rows/s ({updates:.2f} updates/s)")
    print(f"  the learner saturates at about {rows / actor:.1f} actors", flush=True)
    if max(args.workers):
        ray.init(num_cpus=max(args.workers), include_dashboard=False, logging_level="WARNING")
    rates = {}
    for n in args.workers:
        rates[n] = end_to_end_rate(config, n, args.seconds)
        print(f"  end to end, {n} workers    : {rates[n]:10,.0f} decisions/s", flush=True)
    if 1 in rates:
        for n in sorted(set(rates) - {0, 1}):
            print(f"ratio {n} workers / 1: {rates[n] / rates[1]:.2f}")
        if 0 in rates:
            print(f"ratio 1 worker / 0: {rates[1] / rates[0]:.2f}")


if __name__ == "__main__":
    main()
