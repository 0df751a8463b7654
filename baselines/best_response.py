"""Approximate best response against each agent: which is least exploitable?

    python baselines/best_response.py --game president --agents heuristic ppo
    python baselines/best_response.py --game presages --agents heuristic ppo search:50 \
        --decisions 1000000 --eval-games 4000 --out runs/abr_presages.md

For every agent (the specs of ``python -m presages_env play``: ``heuristic``, ``ppo[:PATH]``,
``search[:SIMULATIONS]``, ``random``), trains a fresh best response against it with the
batched trainer at the same budget and seed (``training.best_response``), then prints and
writes a Markdown table: the best response's win rate and reward against the frozen agent,
with 95% intervals, and the training time. ``--set`` overrides trainer settings as in
``train_batched.py``; ``--set init_policy=shipped features=heuristic_hints`` starts each best
response from the shipped policy (a warm start, where a from-scratch learner gets nowhere
near the frozen agent at the budget, as in Présages).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from presages_env.agents.specs import make_agent
from presages_env.training.best_response import ABR_DECISIONS, approximate_best_response
from presages_env.training.command_line import parse_setting


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="president")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--agents", nargs="+", default=["heuristic", "ppo"])
    p.add_argument("--decisions", type=int, default=ABR_DECISIONS, help="best response budget")
    p.add_argument("--eval-games", type=int, default=4000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="Markdown table (default: print only)")
    p.add_argument(
        "--set",
        nargs="*",
        type=parse_setting,
        default=[],
        metavar="NAME=VALUE",
        help="trainer settings, as in train_batched.py (init_policy=shipped: a warm start)",
    )
    args = p.parse_args()
    rows = [
        "| frozen agent | BR win rate (95% interval) | BR reward | chance | decisions | seconds |",
        "|---|---|---|---|---|---|",
    ]
    for spec in args.agents:
        label, agent = make_agent(spec, args.game, args.seed, num_players=args.players)
        agent.name = label
        abr = approximate_best_response(
            args.game,
            agent,
            num_players=args.players,
            decisions=args.decisions,
            eval_games=args.eval_games,
            seed=args.seed,
            **dict(args.set),
        )
        print(abr.line(), flush=True)
        rate, reward = abr.win_rate, abr.mean_reward
        rows.append(
            f"| {label} | {rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}] | "
            f"{reward.value:+.3f} ± {reward.half_width:.3f} | {abr.result.chance:.0%} | "
            f"{abr.decisions:,} | {abr.seconds:.0f} |"
        )
    table = "\n".join(rows)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")


if __name__ == "__main__":
    main()
