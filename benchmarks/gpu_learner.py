"""The Deep Monte-Carlo learner on a CUDA card: its rows/s, and end-to-end decisions/s with
as many Ray workers as the machine has cores but one (the learner's).

    python benchmarks/gpu_learner.py --game presages --seconds 60

Prepared for a machine with a GPU (none is needed anywhere else: the tests never use one).
In one run (``dmc_distributed.py``'s measurements): the actor alone on one core, the learner
alone on the CPU and on CUDA, then end to end on CUDA with N = cores - 1 workers on a local
Ray. Prints the Markdown row of docs/speed.md's GPU table, the card named by
``torch.cuda.get_device_name``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os

import ray
import torch
from dmc_distributed import actor_rate, end_to_end_rate, learner_rate

from presages_env.training.dmc_ray import DistributedDMCConfig, check_distributed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="presages")
    parser.add_argument("--seconds", type=float, default=60.0, help="of each measurement")
    parser.add_argument("--workers", type=int, default=None, help="default: cores - 1")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device: this benchmark measures the learner on one")
    cores = len(os.sched_getaffinity(0))
    workers = args.workers or max(1, cores - 1)
    config = check_distributed(
        DistributedDMCConfig(
            game=args.game,
            device="cuda",
            total_timesteps=10**12,
            eval_every=10**9,
            eval_opponents=(),
        )
    )
    actor, _, buffer = actor_rate(config, args.seconds)
    _, cpu_rows = learner_rate(dataclasses.replace(config, device="cpu"), buffer, args.seconds)
    cuda_updates, cuda_rows = learner_rate(config, buffer, args.seconds)
    ray.init(num_cpus=workers, include_dashboard=False, logging_level="WARNING")
    end_to_end = end_to_end_rate(config, workers, args.seconds)
    card = torch.cuda.get_device_name(0)
    print(
        "| card | cores | actor alone, decisions/s | learner rows/s, CPU | learner rows/s, "
        "CUDA (updates/s) | end to end, decisions/s (workers) | actors the CUDA learner feeds |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {card} | {cores} | {actor:,.0f} | {cpu_rows:,.0f} | {cuda_rows:,.0f} "
        f"({cuda_updates:.1f}) | {end_to_end:,.0f} ({workers}) | {cuda_rows / actor:.0f} |"
    )


if __name__ == "__main__":
    main()
