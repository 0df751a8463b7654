"""Self-play MaskablePPO on one game of presages_env.

    python baselines/train_ppo.py --game president --time-budget 300 --out runs/ppo

The learner plays a random seat (or, with --team-play, every seat of its team) against an
opponent pool: the baseline agents plus frozen snapshots of itself. Writes under --out:
config.json, policy.pt (the policy, for PPOAgent.load and evaluate.py), model.zip (the
MaskablePPO model, to resume training), logs/ (CSV + TensorBoard), learning_curve.csv/.png.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from presages_env.evaluation.learning_curve import plot_learning_curve
from presages_env.training.command_line import budgets
from presages_env.training.self_play import TrainConfig, check_train_config, train
from presages_env.training.settings import seconds_argument

TIME_BUDGET_S = 300.0  # given neither --time-budget nor --timesteps


def parse_args() -> TrainConfig:
    defaults = TrainConfig()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default=defaults.game)
    p.add_argument("--players", type=int, default=None, help="number of players")
    p.add_argument("--team-play", action="store_true", help="learner plays its whole team")
    p.add_argument(
        "--timesteps",
        type=int,
        default=None,
        help=f"learner decisions, alone: no time budget (default {defaults.total_timesteps:,})",
    )
    p.add_argument(
        "--time-budget",
        type=seconds_argument,
        default=None,
        help=f"seconds of PPO (with neither budget: {TIME_BUDGET_S:g})",
    )
    p.add_argument("--num-envs", type=int, default=defaults.num_envs)
    p.add_argument(
        "--rollout-steps", type=int, default=defaults.rollout_steps, help="decisions per game"
    )
    p.add_argument("--minibatch-size", type=int, default=defaults.minibatch_size)
    p.add_argument("--n-epochs", type=int, default=defaults.n_epochs)
    p.add_argument("--lr", type=float, default=defaults.learning_rate)
    p.add_argument("--ent-coef", type=float, default=defaults.ent_coef)
    p.add_argument("--gamma", type=float, default=defaults.gamma)
    p.add_argument("--eval-games", type=int, default=defaults.eval_games)
    p.add_argument(
        "--features", default=defaults.features, help="raw, or heuristic_hints (see agents)"
    )
    p.add_argument(
        "--opponents",
        default=",".join(defaults.baseline_opponents),
        help="baseline opponents, comma-separated",
    )
    p.add_argument(
        "--critic",
        choices=("local", "global"),
        default=defaults.critic,
        help="global: MAPPO-style critic on the global state (needs --warm-start none)",
    )
    p.add_argument("--max-snapshots", type=int, default=defaults.max_snapshots)
    p.add_argument("--warm-start-samples", type=int, default=defaults.warm_start_samples)
    p.add_argument(
        "--warm-start", default=defaults.warm_start, help="agent to clone first, or 'none'"
    )
    p.add_argument(
        "--init-policy",
        default=None,
        help="a policy.pt to continue training from (with --warm-start none)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --option round_reward=0.25 (repeatable)",
    )
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument("--out", default=defaults.out_dir)
    a = p.parse_args()
    seconds, decisions = budgets(
        a.time_budget, a.timesteps, TIME_BUDGET_S, defaults.total_timesteps
    )
    config = TrainConfig(
        game=a.game,
        num_players=a.players,
        team_play=a.team_play,
        total_timesteps=decisions,
        time_budget_s=seconds,
        num_envs=a.num_envs,
        rollout_steps=a.rollout_steps,
        minibatch_size=a.minibatch_size,
        n_epochs=a.n_epochs,
        learning_rate=a.lr,
        ent_coef=a.ent_coef,
        gamma=a.gamma,
        eval_games=a.eval_games,
        features=a.features,
        critic=a.critic,
        baseline_opponents=tuple(a.opponents.split(",")),
        eval_opponents=tuple(a.opponents.split(",")),  # the curve measures the same agents
        max_snapshots=a.max_snapshots,
        warm_start=None if a.warm_start == "none" else a.warm_start,
        warm_start_samples=a.warm_start_samples,
        init_policy=a.init_policy,
        seed=a.seed,
        out_dir=a.out,
        game_options=dict(_parse_option(o) for o in a.option),
    )
    try:
        return check_train_config(config)  # a bad setting: a usage error, nothing written
    except (TypeError, ValueError) as error:
        p.error(str(error))


def _parse_option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise SystemExit(f"--option wants NAME=VALUE, got {text!r}")
    try:
        return name, json.loads(value)  # numbers and true/false
    except json.JSONDecodeError:
        return name, value


def main() -> None:
    config = parse_args()
    _model, curve = train(config)
    plot_learning_curve(curve, Path(config.out_dir) / "learning_curve.png")
    last = curve[-1]
    print(f"trained {last['timesteps']:,} decisions in {last['seconds']:.0f}s")
    for key, value in last.items():
        if key.startswith(("win_rate", "mean_reward")):
            print(f"  {key}: {value:.3f}")
    print(f"policy: {Path(config.out_dir) / 'policy.pt'}")


if __name__ == "__main__":
    main()
