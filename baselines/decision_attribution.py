"""Which kinds of decision a learner loses on against the heuristic
(``presages_env.evaluation.attribution``).

    python baselines/decision_attribution.py --game presages --policy runs/batched/policy.pt
    python baselines/decision_attribution.py --game presages --policy P --games 4000 --seed 1

Plays the learner (``--policy``: a checkpoint written by a trainer) against the heuristic,
then for each kind of decision the game names two hybrids: the learner with the heuristic
making that kind, and the heuristic with the learner making it. Prints a Markdown table of
their win rates (Wilson 95% intervals) and the gain or cost each kind accounts for.
"""

from __future__ import annotations

import argparse

from presages_env.agents import HeuristicAgent
from presages_env.agents.ppo import PPOAgent
from presages_env.evaluation.attribution import attribute_decisions, attribution_table
from presages_env.games import GAME_CLASSES


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages", choices=sorted(GAME_CLASSES))
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--policy", required=True, help="the learner's checkpoint (policy.pt)")
    p.add_argument("--games", type=int, default=1000, help="games per arm (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    args = p.parse_args(argv)
    learner = PPOAgent.load(args.policy, game=args.game, num_players=args.players)
    result = attribute_decisions(
        args.game, learner, HeuristicAgent(args.game), args.games, args.players, args.seed
    )
    print(attribution_table(result))


if __name__ == "__main__":
    main()
