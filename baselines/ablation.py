"""The learner-design ablation of issue 41: each arm from scratch, the same seed and wall time.

    python baselines/ablation.py --game presages --seconds 1200 --out runs/ablation
    python baselines/ablation.py --arms flat dmc --seconds 60      # a quick look at two arms

Arms (``ARMS``): the flat-logit batched PPO of today; the same with the critic reading the
global state (hidden hands included, the actor still only its seat); with the pool's
heuristic erring on a curriculum that keeps it about as strong as the learner; and Deep
Monte-Carlo over action features. Every arm evaluates against the random and the heuristic
team (``--eval-games`` games a point, seats rotated) and writes its run under ``--out/<arm>``;
then one figure of every arm's curves (``ablation.png``) and a Markdown table of where each
ended. Run the arms on a machine doing nothing else: they share its cores, and the budget is
wall time.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from presages_env.evaluation.learning_curve import plot_learning_curve
from presages_env.games import GAME_CLASSES
from presages_env.training.batched_ppo import game_config, train_batched
from presages_env.training.dmc import dmc_config, train_dmc

# arm -> (trainer, its settings beyond the shared ones)
ARMS: dict[str, tuple[str, dict[str, Any]]] = {
    "flat": ("ppo", {}),
    "global_critic": ("ppo", {"critic": "global"}),
    "curriculum": ("ppo", {"heuristic_epsilon": 0.5, "epsilon_curriculum": True}),
    "dmc": ("dmc", {}),
}
TRAINERS = {"ppo": (game_config, train_batched), "dmc": (dmc_config, train_dmc)}


def run_arm(
    arm: str, game: str, seconds: float, eval_games: int, seed: int, out: Path, **shared: Any
):
    """Train one arm from scratch (``shared``: settings every arm takes, e.g. ``num_envs``);
    returns its learning curve."""
    trainer, settings = ARMS[arm]
    make_config, train = TRAINERS[trainer]
    config = make_config(
        game=game,
        time_budget_s=seconds,
        total_timesteps=10**12,  # the wall time is the budget
        eval_games=eval_games,
        eval_opponents=("random", "heuristic"),
        seed=seed,
        out_dir=str(out / arm),
        **shared,
        **settings,
    )
    return train(config)[1]


def summary(curves: dict[str, list[dict]]) -> str:
    """Each arm's last point and its best against the heuristic, as a Markdown table."""
    lines = [
        "| arm | decisions | vs random | vs heuristic (last) | vs heuristic (best) |",
        "|---|---|---|---|---|",
    ]
    for arm, curve in curves.items():
        last = curve[-1]
        best = max(row["win_rate_vs_heuristic"] for row in curve)
        lines.append(
            f"| {arm} | {last['timesteps']:,} | {last['win_rate_vs_random']:.1%} | "
            f"{last['win_rate_vs_heuristic']:.1%} | {best:.1%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages", choices=sorted(GAME_CLASSES))
    p.add_argument("--arms", nargs="+", default=list(ARMS), choices=list(ARMS))
    p.add_argument("--seconds", type=float, default=1200.0, help="wall time per arm")
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/ablation")
    args = p.parse_args(argv)
    out = Path(args.out)
    curves = {
        arm: run_arm(arm, args.game, args.seconds, args.eval_games, args.seed, out)
        for arm in args.arms
    }
    plot_learning_curve(curves, out / "ablation.png")
    print(summary(curves))


if __name__ == "__main__":
    main()
