"""Deep Monte-Carlo self-play on one game (``presages_env.training.dmc``).

    python baselines/train_dmc.py --game presages --time-budget 600 --out runs/dmc
    python baselines/train_dmc.py --game president --set epsilon=0.05 num_envs=256

Starts from ``DMCConfig``'s defaults (the settings it shares with the batched PPO trainer have
the same names and defaults); each ``--set name=value`` overrides one (the value read
as JSON where it parses: numbers, lists, true/false; else taken as a string). Writes under
--out: config.json, policy.pt (for ActionScorerAgent.load, evaluate.py and the agent spec
``dmc:PATH``), learning_curve.csv and learning_curve.png.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from presages_env.training.batched_ppo import parse_setting
from presages_env.training.dmc import check_config, dmc_config, train_dmc
from presages_env.training.self_play import plot_learning_curve
from presages_env.training.settings import seconds_argument


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None)
    p.add_argument(
        "--time-budget", type=seconds_argument, default=600.0, help="seconds of training"
    )
    p.add_argument("--timesteps", type=int, default=100_000_000, help="learner decisions")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/dmc")
    p.add_argument("--set", nargs="*", type=parse_setting, default=[], metavar="NAME=VALUE")
    args = p.parse_args()
    settings = {
        "game": args.game,
        "num_players": args.players,
        "time_budget_s": args.time_budget,
        "total_timesteps": args.timesteps,
        "seed": args.seed,
        "out_dir": args.out,
        **dict(args.set),
    }
    try:  # a bad setting is a usage error, refused before anything is written
        config = check_config(dmc_config(**settings))
    except (TypeError, ValueError) as error:
        p.error(str(error))
    _, curve = train_dmc(config)
    plot_learning_curve(curve, Path(args.out) / "learning_curve.png")
    for row in curve:
        rates = ", ".join(f"{k[12:]} {v:.1%}" for k, v in row.items() if k.startswith("win_rate"))
        print(f"{row['timesteps']:>11,} decisions {row['seconds']:>7.0f} s: {rates}")


if __name__ == "__main__":
    main()
