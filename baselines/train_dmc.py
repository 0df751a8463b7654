"""Deep Monte-Carlo self-play on one game (``presages_env.training.dmc``, on Ray workers:
``presages_env.training.dmc_ray``).

    python baselines/train_dmc.py --game presages --time-budget 600 --out runs/dmc
    python baselines/train_dmc.py --game president --set epsilon=0.05 num_envs=256
    python baselines/train_dmc.py --game presages --workers 2 --timesteps 5000000
    python baselines/train_dmc.py --game presages --workers 62 --address auto

Starts from ``DMCConfig``'s defaults (the settings it shares with the PPO trainers have the
same names and defaults, ``training/config.py``); each ``--set name=value`` overrides one.
``--workers 0`` (the default) trains in this one process; ``--workers N`` plays on N Ray
actor processes while this process learns (a local Ray of N CPUs, or the cluster at
``--address``: ``auto`` on a cluster's node, ``ray://HOST:10001`` from outside it).
Writes under --out: config.json, policy.pt (for ActionScorerAgent.load, evaluate.py and the
agent spec ``dmc:PATH``), learning_curve.csv, learning_curve.png and TensorBoard scalars in
logs/ (``tensorboard --logdir OUT/logs``); with workers, learner.pt too (``--set
resume=true`` continues from it).
"""

from __future__ import annotations

from presages_env.training.command_line import Option, train_from_command_line
from presages_env.training.dmc_ray import checked_distributed_run, distributed_config, train_run

OPTIONS = (
    Option("workers", "--workers", int, "Ray actor processes that play (0: this process alone)"),
    Option("address", "--address", str, "a Ray cluster: auto or ray://HOST:PORT (default: local)"),
)


def main() -> None:
    train_from_command_line(
        __doc__,
        lambda settings: distributed_config(**settings),
        checked_distributed_run,
        train_run,
        game="presages",
        out="runs/dmc",
        options=OPTIONS,
    )


if __name__ == "__main__":
    main()
