"""Approximate best response against each agent: which is least exploitable?

    python baselines/best_response.py --game president --agents heuristic ppo --out runs/abr
    python baselines/best_response.py --game presages --agents heuristic dmc \
        --init-policy presages_env/checkpoints/scorers/presages/seed2_continued.pt \
        --decisions 6000000 --eval-games 4000 --out runs/abr_presages

For every agent (the specs of ``python -m presages_env play``: ``heuristic``, ``ppo[:PATH]``,
``dmc[:PATH]``, ``search[:SIMULATIONS]``, ``random``), trains a best response against it at
the same budget and seed (``training.best_response``): ``--mode dmc`` (the default) by Deep
Monte-Carlo over action features, from scratch or from ``--init-policy`` (a scorer's
checkpoint); ``--mode ppo`` with the batched PPO trainer. In a team game the best response
plays a whole team. Each one is written to ``OUT/<agent>/`` (``policy.pt``, loadable as
``dmc:PATH`` or ``ppo:PATH``, ``learning_curve.csv`` against the frozen agent), then
measured on ``--eval-games`` fresh deals (``--eval-seed``, never the training's seed), seats
rotated. Prints and writes ``OUT/best_responses.md``: the win rate and reward against the
frozen agent, with 95% intervals, and the decisions and seconds of learning. ``--set``
overrides trainer settings as in ``train_dmc.py`` / ``train_batched.py`` (those with an
option of their own, such as the curve's games, ``--curve-games``, are refused there).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from presages_env.agents.specs import make_agent
from presages_env.training.best_response import (
    ABR_DECISIONS,
    MODES,
    approximate_best_response,
)
from presages_env.training.command_line import parse_setting


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="president")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--agents", nargs="+", default=["heuristic", "ppo"])
    p.add_argument("--mode", choices=MODES, default="dmc")
    p.add_argument("--init-policy", default=None, help="checkpoint the best response starts from")
    p.add_argument("--decisions", type=int, default=ABR_DECISIONS, help="best response budget")
    p.add_argument("--time-budget", type=float, default=None, help="seconds of learning")
    p.add_argument("--eval-games", type=int, default=4000, help="games of the measurement")
    p.add_argument("--curve-games", type=int, default=400, help="games per curve point")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-seed", type=int, default=None, help="default: the seed + 4242")
    p.add_argument("--out", default="runs/best_response", help="folder of the best responses")
    p.add_argument(
        "--set",
        nargs="*",
        type=parse_setting,
        default=[],
        metavar="NAME=VALUE",
        help="trainer settings, as in train_dmc.py (or train_batched.py with --mode ppo)",
    )
    args = p.parse_args()
    settings = dict(args.set)
    for name in {"eval_games", "total_timesteps", "time_budget_s", "init_policy"} & set(settings):
        p.error(f"--set {name}: give it as its option (--curve-games for the curve's games)")
    rows = [
        "| frozen agent | mode | BR win rate (95% interval) | BR reward | chance | decisions "
        "| seconds | policy |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for spec in args.agents:
        label, agent = make_agent(spec, args.game, args.seed, num_players=args.players)
        agent.name = label
        abr = approximate_best_response(
            args.game,
            agent,
            out_dir=Path(args.out) / re.sub(r"[^\w.-]", "_", label),
            mode=args.mode,
            init_policy=args.init_policy,
            num_players=args.players,
            decisions=args.decisions,
            time_budget_s=args.time_budget,
            eval_games=args.eval_games,
            curve_games=args.curve_games,
            seed=args.seed,
            eval_seed=args.eval_seed,
            **settings,
        )
        print(abr.line(), flush=True)
        rate, reward = abr.win_rate, abr.mean_reward
        rows.append(
            f"| {label} | {abr.mode} | {rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}] | "
            f"{reward.value:+.3f} ± {reward.half_width:.3f} | {abr.result.chance:.0%} | "
            f"{abr.decisions:,} | {abr.seconds:.0f} | `{abr.spec}` |"
        )
    table = "\n".join(rows)
    print(table)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "best_responses.md").write_text(table + "\n")


if __name__ == "__main__":
    main()
