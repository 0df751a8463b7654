"""Deep Monte-Carlo self-play on one game (``presages_env.training.dmc``).

    python baselines/train_dmc.py --game presages --time-budget 600 --out runs/dmc
    python baselines/train_dmc.py --game president --set epsilon=0.05 num_envs=256

Starts from ``DMCConfig``'s defaults (the settings it shares with the PPO trainers have the
same names and defaults, ``training/config.py``); each ``--set name=value`` overrides one.
Writes under --out: config.json, policy.pt (for ActionScorerAgent.load, evaluate.py and the
agent spec ``dmc:PATH``), learning_curve.csv, learning_curve.png and TensorBoard scalars in
logs/ (``tensorboard --logdir OUT/logs``).
"""

from __future__ import annotations

from presages_env.training.command_line import train_from_command_line
from presages_env.training.dmc import checked_run, dmc_config, train_dmc_run


def main() -> None:
    train_from_command_line(
        __doc__,
        lambda settings: dmc_config(**settings),
        checked_run,
        train_dmc_run,
        game="presages",
        out="runs/dmc",
    )


if __name__ == "__main__":
    main()
