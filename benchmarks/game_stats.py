"""Game length and legal actions per decision, with random and heuristic play.

    python benchmarks/game_stats.py --game res_arcana --players 2 3 4 --games 1000

For each player count, plays --games games with uniformly random players in every seat,
then with the game's heuristic in every seat (vector env, --num-envs games at a time, fixed
--seed), and prints a Markdown table: decisions per game (every step, forced ones
included), mean legal actions per decision over all decisions, the share of decisions with
exactly one legal action, and how many games were truncated.
"""

from __future__ import annotations

import argparse
import time

from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation import game_statistics, statistics_table


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="res_arcana")
    p.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--games", type=int, default=1000, help="games per row")
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rows = []
    for players in args.players:
        for agent in (RandomAgent(args.seed), HeuristicAgent(args.game)):
            start = time.perf_counter()
            rows.append(
                game_statistics(
                    args.game, agent, args.games, players, seed=args.seed, num_envs=args.num_envs
                )
            )
            print(f"{players} players, {agent.name}: {time.perf_counter() - start:.0f}s")
    print(statistics_table(rows))


if __name__ == "__main__":
    main()
