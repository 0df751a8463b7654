"""How much duplicate deals shrink a win rate's interval: each pairing played twice on the
same number of games, sides rotating from deal to deal (plain) and each deal once per side
(``--duplicate`` of ``evaluate.py``).

    python baselines/duplicate_deals.py --game presages --pairings heuristic:random heuristic:ppo

Prints a Markdown table: per pairing, both win rates with their standard errors (plain: over
the games; duplicate: over the deal groups, whose games are correlated), the variance ratio
(plain / duplicate: how many times more games the plain rotation needs for the same
interval) and the same for the mean reward.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from presages_env.agents.specs import make_agent, parse_pairing
from presages_env.evaluation import head_to_head
from presages_env.evaluation.report import markdown_table
from presages_env.evaluation.tournament import MatchResult


def standard_error(values: np.ndarray, group_size: int) -> float:
    """Standard error of the mean of values in correlated groups of ``group_size``."""
    groups = values.reshape(-1, group_size).mean(axis=1)
    return float(groups.std(ddof=1) / math.sqrt(groups.size))


def compare(plain: MatchResult, duplicate: MatchResult) -> list[str]:
    """One table row: the two series' win rates and mean rewards with standard errors."""
    cells = []
    for values in (MatchResult.outcomes, MatchResult.focus_rewards):
        errors = [standard_error(values(r), r.group_size) for r in (plain, duplicate)]
        means = [float(values(r).mean()) for r in (plain, duplicate)]
        cells += [f"{m:.3f} ± {e:.4f}" for m, e in zip(means, errors, strict=True)]
        cells.append(f"{errors[0] ** 2 / errors[1] ** 2:.2f}" if errors[1] else "no spread")
    return cells


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--pairings", nargs="+", default=["heuristic:random", "heuristic:ppo"])
    p.add_argument("--games", type=int, default=4000, help="games per series (both)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    rows = []
    for text in args.pairings:
        try:
            specs = parse_pairing(text)
            (a, agent_a), (b, agent_b) = (
                make_agent(spec, args.game, args.seed, num_players=args.players) for spec in specs
            )
        except (OSError, ValueError, TypeError) as error:
            p.error(str(error))
        setting = dict(num_players=args.players, seed=args.seed, names=(a, b))
        start = time.perf_counter()
        plain, duplicate = (
            head_to_head(args.game, agent_a, agent_b, args.games, duplicate=d, **setting)
            for d in (False, True)
        )
        rows.append([f"{a} vs {b}", f"{args.games:,}", *compare(plain, duplicate)])
        print(f"{a} vs {b}: {time.perf_counter() - start:.0f}s", flush=True)
    header = ["pairing", "games", "win rate, plain (± SE)", "win rate, duplicate (± SE)"]
    header += ["variance ratio", "reward, plain (± SE)", "reward, duplicate (± SE)"]
    header.append("variance ratio")
    print(markdown_table(header, rows))


if __name__ == "__main__":
    main()
