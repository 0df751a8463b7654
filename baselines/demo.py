"""The main demo (``make run``): short self-play training, then an evaluation tournament.

    python baselines/demo.py [--game presages] [--budget 180] [--eval-games 600]

Clones the heuristic, then trains MaskablePPO by self-play on the default game (Présages,
4 players, the learner playing a whole team, reading the observation and the heuristic's
hints) for --budget seconds, then plays the trained
agent, the heuristic and the random agent against each other with seat rotation and fixed
seeds. Prints the results table and writes under --out:
the learning curve (``ppo/learning_curve.png``), ``winrates.png`` and ``results.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation import head_to_head, plot_win_rates, results_table
from presages_env.training.self_play import (
    TrainConfig,
    learner_agent,
    plot_learning_curve,
    train,
)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--budget", type=float, default=180.0, help="training seconds")
    p.add_argument("--eval-games", type=int, default=600, help="games per pairing")
    p.add_argument(
        "--features",
        default="heuristic_hints",
        help="what the policy reads: raw or heuristic_hints",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/demo")
    args = p.parse_args()
    game = args.game
    out = Path(args.out)
    start = time.perf_counter()

    print(f"== 1. self-play training on {game} ({args.budget:.0f}s budget)")
    config = TrainConfig(
        game=game,
        num_players=args.players,
        team_play=game == "presages",
        features=args.features,
        # small steps: larger ones drift away from the cloned heuristic (docs/agents.md)
        learning_rate=5e-5,
        ent_coef=0.001,
        time_budget_s=args.budget,
        eval_games=200,
        warm_start_samples=50_000,
        warm_start_epochs=8,
        seed=args.seed,
        out_dir=str(out / "ppo"),
    )
    model, curve = train(config)
    plot_learning_curve(curve, out / "ppo" / "learning_curve.png")

    print(f"== 2. evaluation tournament ({args.eval_games} games per pairing)")
    ppo = learner_agent(model)
    heuristic = HeuristicAgent(game)
    random = RandomAgent(args.seed)
    pairings = [(ppo, random), (ppo, heuristic), (heuristic, random)]
    results = [
        head_to_head(
            game, a, b, args.eval_games, num_players=args.players, seed=args.seed, progress=True
        )
        for a, b in pairings
    ]
    table = results_table(results)
    print(table)
    (out / "results.md").write_text(f"# {game}: evaluation\n\n{table}\n")
    plot_win_rates(results, out / "winrates.png")
    print(f"\nwrote {out}/results.md, {out}/winrates.png, {out}/ppo/learning_curve.png")
    print(f"total time {time.perf_counter() - start:.0f}s")


if __name__ == "__main__":
    main()
