"""The main demo (make run): a learner from scratch beside a warm-started PPO, then a
tournament with ratings.

    python baselines/demo.py [--game presages] [--budget 200] [--eval-games 600]

On the default game (Présages, 4 players, the learner playing a whole team) two runs share
the --budget seconds:

1. **from scratch**: Deep Monte-Carlo over action features (``training/dmc.py``, its default
   settings: self-play, a quarter of the deals against the heuristic team), the arm of the
   learner-design ablation that ended highest against the heuristic (docs/agents.md); no
   cloning and no hints, the heuristic only as an opponent; within the 100 s it climbs from
   a few percent to about 40% against the heuristic team (the bout's outcome among its
   action features);
2. **warm-started**: MaskablePPO with the heuristic cloned first (the policy also reads the
   heuristic's hints), so it starts level with the heuristic, and PPO looks for where
   departing from the advice pays.

Both learning curves (win rates against random and against the heuristic) go on one plot;
then the agents play each other with seat rotation and fixed seeds. Prints the results and
the openskill ratings, and writes under --out ``learning_curves.png``, ``winrates.png`` and
``results.md``.

Last, for --showcase seconds, the batched PPO trainer from scratch on Aciliande's team
variant (4 players, two teams), where it climbs to within reach of the heuristic team in
about a minute (``learning_curve_aciliande_teams.png``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation import (
    head_to_head,
    plot_win_rates,
    rate,
    ratings_table,
    results_table,
)
from presages_env.evaluation.learning_curve import plot_learning_curve
from presages_env.games import get_game
from presages_env.training.batched_ppo import game_config, train_batched
from presages_env.training.dmc import dmc_config, train_dmc
from presages_env.training.self_play import TrainConfig, learner_agent, train
from presages_env.training.settings import seconds_argument


def main() -> None:
    p = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None)
    p.add_argument(
        "--budget", type=seconds_argument, default=200.0, help="training seconds, both runs"
    )
    p.add_argument("--eval-games", type=int, default=600, help="games per pairing")
    p.add_argument("--clone-samples", type=int, default=50_000, help="heuristic decisions")
    p.add_argument("--curve-games", type=int, default=400, help="per curve point")
    p.add_argument(
        "--showcase",
        type=float,
        default=60.0,
        help="seconds from scratch on Aciliande teams (0: none)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/demo")
    args = p.parse_args()
    game, out = args.game, Path(args.out)
    start = time.perf_counter()
    seconds = args.budget / 2
    curve_games = args.curve_games  # 400: ± 5 points at worst

    print(f"== 1. from scratch: Deep Monte-Carlo over action features ({seconds:g} s)")
    scratch = dmc_config(
        game=game,
        num_players=args.players,
        time_budget_s=seconds,
        total_timesteps=10**9,
        eval_opponents=("random", "heuristic"),
        eval_games=curve_games,
        seed=args.seed,
        out_dir=str(out / "from_scratch"),
    )
    scratch_learner, scratch_curve = train_dmc(scratch)

    print(f"== 2. warm-started: the heuristic cloned, then PPO ({seconds:g} s)")
    warm = TrainConfig(
        game=game,
        num_players=args.players,
        team_play=game == "presages",
        features="heuristic_hints",
        # small steps: larger ones drift away from the cloned heuristic (docs/agents.md)
        learning_rate=5e-5,
        ent_coef=0.001,
        time_budget_s=seconds,
        eval_games=curve_games,
        warm_start_samples=args.clone_samples,
        warm_start_epochs=8,
        seed=args.seed,
        out_dir=str(out / "warm_started"),
    )
    warm_model, warm_curve = train(warm)
    curves = {"from scratch": scratch_curve, "warm-started": warm_curve}
    methods = (
        "from scratch (Deep Monte-Carlo, action features) vs warm-started (MaskablePPO, "
        "heuristic cloned, hints read)"
    )
    plot_learning_curve(curves, out / "learning_curves.png", method=methods)
    for name, curve in curves.items():
        print(f"{name}: {climb(curve)}")

    print(f"== 3. tournament ({args.eval_games} games per pairing, seeds not used in training)")
    agents = {
        "ppo (warm-started)": learner_agent(warm_model),
        "dmc (from scratch)": scratch_learner.agent(),
        "heuristic": HeuristicAgent(game),
        "random": RandomAgent(args.seed),
    }
    names = list(agents)
    pairings = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    results = [
        head_to_head(
            game,
            agents[a],
            agents[b],
            args.eval_games,
            num_players=args.players,
            seed=args.seed + 777,
            names=(a, b),
            progress=True,
        )
        for a, b in pairings
    ]
    table, ratings = results_table(results), ratings_table(rate(results))
    print(f"{table}\n\nopenskill ratings:\n\n{ratings}")
    title = get_game(game).title
    (out / "results.md").write_text(
        f"# {title}: evaluation\n\n{table}\n\n## Ratings\n\n{ratings}\n"
    )
    plot_win_rates(results, out / "winrates.png", method=f"round robin of {', '.join(names)}")
    print(f"\nwrote {out}/results.md, {out}/winrates.png, {out}/learning_curves.png")
    if args.showcase > 0:
        team_showcase(args.showcase, curve_games, args.seed, out)
    print(f"total time {time.perf_counter() - start:.0f}s")


def team_showcase(seconds: float, curve_games: int, seed: int, out: Path) -> None:
    """From scratch toward the heuristic: Aciliande's team variant, opponents random and the
    run's own snapshots, evaluated often so the climb shows within a minute."""
    print(f"== 4. from scratch on Aciliande's team variant, 4 players ({seconds:.0f} s)")
    config = game_config(
        "aciliande",
        num_players=4,
        game_options={"teams": True},
        time_budget_s=seconds,
        total_timesteps=10**9,
        baseline_opponents=("random",),
        eval_opponents=("random", "heuristic"),
        eval_games=curve_games,
        eval_every=10,
        seed=seed,
        out_dir=str(out / "aciliande_teams"),
    )
    _, curve = train_batched(config)
    path = out / "learning_curve_aciliande_teams.png"
    plot_learning_curve({"from scratch": curve}, path, method="team variant, batched PPO")
    best = max(row["win_rate_vs_heuristic"] for row in curve)
    print(
        f"aciliande teams from scratch: {climb(curve)} (best vs heuristic {best:.0%}); wrote {path}"
    )


def climb(curve: list[dict]) -> str:
    """A curve's first and last win rates against random and the heuristic."""
    first, last = curve[0], curve[-1]
    return (
        f"vs random {first['win_rate_vs_random']:.0%} -> {last['win_rate_vs_random']:.0%}, "
        f"vs heuristic {first['win_rate_vs_heuristic']:.0%} -> "
        f"{last['win_rate_vs_heuristic']:.0%} over {last['timesteps']:,} learner decisions"
    )


if __name__ == "__main__":
    main()
