"""The shipped agents' results table for one game (docs/agents.md is made of these).

    python baselines/agent_results.py --game president --games 2000 --search-games 200

Plays the four pairings the docs report — heuristic vs random, PPO vs random, PPO vs
heuristic, search vs heuristic — with seat (or team) rotation and fixed seeds, the first
agent on one side and the second on all others. PPO is the checkpoint shipped for the player
count (``shipped_checkpoint``; or --ppo PATH); a game with no checkpoint yet plays the other
pairings. ``--pairings`` picks some of them, ``--rollouts`` (default: the game's
``Game.search_rollouts``) the search's rollout policy. Prints a Markdown table, and the
search's speed: seconds per searched decision (decisions with one legal action are played
without searching) and simulations per second, in wall and in CPU time.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from presages_env.agents import Agent, HeuristicAgent, RandomAgent
from presages_env.agents.ppo import PPOAgent, shipped_checkpoint
from presages_env.agents.search import ISMCTSAgent
from presages_env.evaluation import head_to_head, results_table

PAIRINGS = ("heuristic-random", "ppo-random", "ppo-heuristic", "search-heuristic")


class TimedSearch(Agent):
    """An :class:`ISMCTSAgent` that counts its searched decisions and the time they take."""

    needs_state = True

    def __init__(self, search: ISMCTSAgent, name: str) -> None:
        self.search, self.name = search, name
        self.mask = np.zeros(search.game.num_actions(search.game.max_players), dtype=np.int8)
        self.decisions = self.searched = 0
        self.seconds = self.cpu_seconds = 0.0
        # load the compiled search now (a throwaway agent: this one's seed stream is untouched)
        game = search.game
        warm_up = ISMCTSAgent(game.name, simulations=1, rollouts="random")
        warm_up.act_states(game.new_state(game.default_players, 0)[None, :])

    def act_states(self, states: np.ndarray) -> np.ndarray:
        for state in states:
            self.mask[:] = 0
            self.search.game.kernel.legal_mask(state, self.mask)
            self.searched += int(self.mask.sum() > 1)
        self.decisions += len(states)
        start, cpu_start = time.perf_counter(), time.process_time()
        actions = self.search.act_states(states)
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu_start
        return actions

    def speed(self) -> str:
        """Per searched decision and per second of wall time, and of this process's CPU
        time (the search runs on one thread; on a shared machine CPU time is the steadier)."""
        searched = max(self.searched, 1)
        simulations = self.search.simulations * self.searched
        return (
            f"{self.name}: {self.searched:,} of {self.decisions:,} decisions searched; "
            f"wall {self.seconds / searched:.3f} s per searched decision, "
            f"{simulations / max(self.seconds, 1e-9):,.0f} simulations/s; "
            f"CPU {self.cpu_seconds / searched:.3f} s, "
            f"{simulations / max(self.cpu_seconds, 1e-9):,.0f} simulations/s"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--games", type=int, default=2000, help="games per pairing")
    p.add_argument("--search-games", type=int, default=200, help="games for search")
    p.add_argument("--simulations", type=int, default=200, help="search, per move")
    p.add_argument(
        "--rollouts",
        nargs="+",
        default=[None],
        choices=["random", "heuristic"],
        help="search rollouts (default: the game's); several give one search row each",
    )
    p.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=PAIRINGS)
    p.add_argument("--ppo", default=None, help="policy .pt checkpoint (default: the shipped one)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    agents: dict[str, Agent] = {
        "heuristic": HeuristicAgent(args.game),
        "random": RandomAgent(args.seed),
    }
    shipped = shipped_checkpoint(args.game, args.players)
    wants_ppo = any(pairing.startswith("ppo") for pairing in args.pairings)
    if wants_ppo and (args.ppo or shipped.exists()):
        agents["ppo"] = PPOAgent.load(args.ppo or shipped, name="ppo")
        print(f"ppo: {args.ppo or shipped.name}")
    elif wants_ppo:
        print(f"no PPO checkpoint for {args.game} ({shipped} is missing): PPO rows left out")
    pairings = []
    for pairing in args.pairings:
        first, second = pairing.split("-")
        if first == "search":
            for rollouts in args.rollouts:
                search = ISMCTSAgent(
                    args.game, simulations=args.simulations, seed=args.seed, rollouts=rollouts
                )
                kind = "heuristic" if search.heuristic_rollouts else "random"
                name = f"search ({args.simulations} sims, {kind} rollouts)"
                pairings.append((TimedSearch(search, name), agents[second], args.search_games))
        elif first in agents:
            pairings.append((agents[first], agents[second], args.games))
    results = []
    for a, b, games in pairings:
        start = time.perf_counter()
        results.append(
            head_to_head(
                args.game, a, b, games, num_players=args.players, seed=args.seed, progress=True
            )
        )
        print(f"{a.name} vs {b.name}: {time.perf_counter() - start:.0f}s")
        if isinstance(a, TimedSearch):
            print(a.speed())
    print(results_table(results))
    for a, _, _ in pairings:
        if isinstance(a, TimedSearch):
            print(a.speed())


if __name__ == "__main__":
    main()
