"""Batched self-play PPO on one game (``presages_env.training.batched_ppo``).

    python baselines/train_batched.py --game presages --time-budget 600 --out runs/batched
    python baselines/train_batched.py --game president --set learning_rate=1e-3 n_epochs=2

Starts from the game's recorded hyper-parameters (``training/hyperparameters.json``); each
``--set name=value`` overrides one. Writes under --out: config.json, policy.pt (for
PPOAgent.load, evaluate.py and the agent spec ``ppo:PATH``), learning_curve.csv,
learning_curve.png and TensorBoard scalars in logs/ (``tensorboard --logdir OUT/logs``).
"""

from __future__ import annotations

from presages_env.training.batched_ppo import checked_run, game_config, train_batched_run
from presages_env.training.command_line import train_from_command_line


def main() -> None:
    train_from_command_line(
        __doc__,
        lambda settings: game_config(**settings),
        checked_run,
        train_batched_run,
        game="presages",
        out="runs/batched",
    )


if __name__ == "__main__":
    main()
