"""The shipped agents' results table for one game (docs/agents.md is made of these).

    python baselines/agent_results.py --game president --games 2000 --search-games 200

Plays the four pairings the docs report — heuristic:random, ppo:random, ppo:heuristic,
search:heuristic — with seat (or team) rotation and fixed seeds, the first agent on one side
and the second on all others. ``--pairings A:B ...`` names others, each side an agent spec
(``dmc:heuristic``, ``ppo:runs/x/policy.pt:random``, ``search:400:heuristic``: the specs of
``evaluate.py``); ppo and dmc without a path are the checkpoints shipped for the game and
player count, and a default pairing whose checkpoint is not shipped is left out. A pairing
with the search plays --search-games games, the others --games; ``--duplicate`` plays each
deal once per side. ``--rollouts`` (default: the game's ``Game.search_rollouts``) sets the
search's rollout policy. Prints a Markdown table, and the search's speed: seconds per
searched decision (decisions with one legal action are played without searching) and
simulations per second, in wall and in CPU time.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from presages_env.agents import Agent
from presages_env.agents.search import ISMCTSAgent
from presages_env.agents.specs import make_agent, parse_pairing
from presages_env.evaluation import deal_group_size, head_to_head, results_table
from presages_env.evaluation.tournament import check_duplicate_games

PAIRINGS = ("heuristic:random", "ppo:random", "ppo:heuristic", "search:heuristic")


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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
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
    p.add_argument("--pairings", nargs="+", metavar="A:B", help="default: " + " ".join(PAIRINGS))
    p.add_argument("--duplicate", action="store_true", help="play each deal once per side")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def build(spec: str, args: argparse.Namespace) -> list[tuple[str, Agent]]:
    """The agent of ``spec`` and its label; the search once per --rollouts, timed."""
    label, agent = make_agent(spec, args.game, args.seed, args.simulations, args.players)
    if not isinstance(agent, ISMCTSAgent):
        return [(label, agent)]
    built = []
    for rollouts in args.rollouts:
        search = ISMCTSAgent(
            args.game, simulations=agent.simulations, seed=args.seed, rollouts=rollouts
        )
        kind = "heuristic" if search.heuristic_rollouts else "random"
        name = f"search ({agent.simulations} sims, {kind} rollouts)"
        built.append((name, TimedSearch(search, name)))
    return built


def pairings(args: argparse.Namespace) -> list[tuple[tuple[str, Agent], tuple[str, Agent]]]:
    """The (first, second) labelled agents of every pairing; a default pairing whose shipped
    checkpoint is missing is left out (a named one stops the run)."""
    played = []
    for text in args.pairings or PAIRINGS:
        try:
            first, second = (build(spec, args) for spec in parse_pairing(text))
        except OSError as error:
            if args.pairings:
                raise SystemExit(f"pairing {text}: {error}") from error
            print(f"{text} left out: {error}")
            continue
        except (ValueError, TypeError) as error:
            raise SystemExit(f"pairing {text}: {error}") from error
        played += [(a, b) for a in first for b in second]
    return played


def check_duplicate(args: argparse.Namespace) -> None:
    """--duplicate needs --games and --search-games to be whole deal groups: refused before
    anything is played."""
    group = deal_group_size(args.game, args.players)
    for flag, games in (("--games", args.games), ("--search-games", args.search_games)):
        try:
            check_duplicate_games(games, group)
        except ValueError as error:
            raise SystemExit(f"{flag} {games} with --duplicate: {error}") from error


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.duplicate:
        check_duplicate(args)
    results, searches = [], []
    for (a, agent_a), (b, agent_b) in pairings(args):
        timed = [x for x in (agent_a, agent_b) if isinstance(x, TimedSearch)]
        games = args.search_games if timed else args.games
        start = time.perf_counter()
        results.append(
            head_to_head(
                args.game,
                agent_a,
                agent_b,
                games,
                num_players=args.players,
                seed=args.seed,
                names=(a, b),
                progress=True,
                duplicate=args.duplicate,
            )
        )
        print(f"{a} vs {b}: {time.perf_counter() - start:.0f}s")
        for search in timed:
            print(search.speed())
        searches += timed
    print(results_table(results))
    for search in searches:
        print(search.speed())


if __name__ == "__main__":
    main()
