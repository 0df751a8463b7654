"""Which kinds of decision a learner loses on against the heuristic
(``presages_env.evaluation.attribution``).

    python baselines/decision_attribution.py --game presages --learner ppo:runs/batched/policy.pt
    python baselines/decision_attribution.py --learner dmc:runs/dmc/policy.pt --games 4000

Plays the learner (``--learner``: an agent spec, ``ppo:PATH`` or ``dmc:PATH`` for a trained
checkpoint) against the reference (``--reference``, default the heuristic), then for each
kind of decision the game names two hybrids: the learner with the reference making that
kind, and the reference with the learner making it. Prints a Markdown table of their win
rates (Wilson 95% intervals) and the gain or cost each kind accounts for (paired over the
same deals, normal 95% intervals).
"""

from __future__ import annotations

import argparse

from presages_env.agents.specs import make_agent
from presages_env.evaluation.attribution import attribute_decisions, attribution_table
from presages_env.games import GAME_CLASSES


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages", choices=sorted(GAME_CLASSES))
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--learner", required=True, help="agent spec: ppo:PATH, dmc:PATH, ...")
    p.add_argument("--reference", default="heuristic", help="agent spec (default heuristic)")
    p.add_argument("--games", type=int, default=1000, help="games per arm (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    args = p.parse_args(argv)
    try:
        _, learner = make_agent(args.learner, args.game, num_players=args.players)
        _, reference = make_agent(args.reference, args.game, num_players=args.players)
        result = attribute_decisions(
            args.game, learner, reference, args.games, args.players, args.seed
        )
    except (TypeError, ValueError, OSError) as error:
        p.error(str(error))
    print(attribution_table(result))


if __name__ == "__main__":
    main()
