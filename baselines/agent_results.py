"""The shipped agents' results table for one game (docs/agents.md is made of these).

    python baselines/agent_results.py --game president --games 2000 --search-games 200

Plays the four pairings the docs report — heuristic vs random, PPO vs random, PPO vs
heuristic, search vs heuristic — with seat (or team) rotation and fixed seeds, the first
agent on one side and the second on all others. PPO is the shipped checkpoint
``presages_env/checkpoints/<game>.pt`` (or --ppo PATH). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.agents.ppo import PPOAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.evaluation import head_to_head, results_table


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--games", type=int, default=2000, help="games per pairing")
    p.add_argument("--search-games", type=int, default=200, help="games for search")
    p.add_argument("--simulations", type=int, default=200, help="search, per move")
    p.add_argument("--rollouts", default="random", choices=["random", "heuristic"])
    p.add_argument("--ppo", default=None, help="policy .pt checkpoint (default: the shipped one)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    shipped = Path(presages_env.__file__).parent / "checkpoints" / f"{args.game}.pt"
    ppo = PPOAgent.load(args.ppo or shipped, name="ppo")
    heuristic = HeuristicAgent(args.game)
    random = RandomAgent(args.seed)
    search = ISMCTSAgent(
        args.game, simulations=args.simulations, seed=args.seed, rollouts=args.rollouts
    )
    pairings = [
        (heuristic, random, args.games),
        (ppo, random, args.games),
        (ppo, heuristic, args.games),
        (search, heuristic, args.search_games),
    ]
    results = []
    for a, b, games in pairings:
        start = time.perf_counter()
        results.append(
            head_to_head(
                args.game, a, b, games, num_players=args.players, seed=args.seed, progress=True
            )
        )
        print(f"{a.name} vs {b.name}: {time.perf_counter() - start:.0f}s")
    print(results_table(results))


if __name__ == "__main__":
    main()
