"""The learner-design ablation of issue 41: each arm from scratch, the same seed and wall time.

    python baselines/ablation.py --game presages --seconds 1200 --out runs/ablation
    python baselines/ablation.py --arms flat dmc --seconds 60      # a quick look at two arms
    python baselines/ablation.py --plot-only --out runs/ablation   # the figure of runs made
    python baselines/ablation.py --arms dmc --set 'game_options={"round_reward": 0.5}' \
        --suffix _round_reward                                     # a variant of an arm

Arms (``ARMS``): the flat-logit batched PPO of today; the same with the critic reading the
global state (hidden hands included, the actor still only its seat); with the pool's
heuristic erring on a curriculum that keeps it about as strong as the learner; PPO whose
policy scores each legal action from its features (``policy="action_features"``); Deep
Monte-Carlo over action features; and PPO over action features with the curriculum. Every
arm evaluates against the random and the heuristic team (``--eval-games`` games a point,
seats rotated) and writes its run under ``--out/<arm>``; then one figure of every arm's
curves over seconds of training, a panel per opponent (``ablation.png``), and a Markdown
table of where each ended. A time budget (``--seconds``) is wall time: run the arms on a
machine doing nothing else, or give each arm a core of its own (``--arms`` in separate
processes, one torch thread each, then ``--plot-only``). A decision budget alone
(``--decisions``) is the only budget, the same for every arm however busy the machine; the
figure then draws the curves over learner decisions rather than seconds.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

from presages_env.agents import RandomAgent
from presages_env.evaluation.learning_curve import LearningCurve, plot_comparison
from presages_env.evaluation.tournament import head_to_head
from presages_env.games import GAME_CLASSES
from presages_env.training.batched_ppo import game_config, train_batched
from presages_env.training.command_line import budgets, parse_setting
from presages_env.training.dmc import dmc_config, train_dmc
from presages_env.training.settings import seconds_argument

CURRICULUM = {"heuristic_epsilon": 0.5, "epsilon_curriculum": True}
# arm -> (trainer, its settings beyond the shared ones)
ARMS: dict[str, tuple[str, dict[str, Any]]] = {
    "flat": ("ppo", {}),
    "global_critic": ("ppo", {"critic": "global"}),
    "curriculum": ("ppo", CURRICULUM),
    "action_features": ("ppo", {"policy": "action_features"}),
    "dmc": ("dmc", {}),
    "action_features_curriculum": ("ppo", {"policy": "action_features", **CURRICULUM}),
}
TRAINERS = {"ppo": (game_config, train_batched), "dmc": (dmc_config, train_dmc)}
SECONDS = 1200.0  # per arm, given neither --seconds nor --decisions
MOST_DECISIONS = 10**12  # a time budget alone: the wall time is the budget


def run_arm(
    arm: str,
    game: str,
    seconds: float | None,
    eval_games: int,
    seed: int,
    out: Path,
    label: str | None = None,
    decisions: int = MOST_DECISIONS,
    **shared: Any,
):
    """Train one arm from scratch under ``out/label`` (default: the arm's name) for
    ``seconds`` (None: no time budget) or ``decisions``, whichever ends first; ``shared``:
    settings every arm takes, e.g. ``num_envs``. Returns its learning curve."""
    trainer, settings = ARMS[arm]
    clash = sorted(set(settings) & set(shared))
    if clash:
        raise ValueError(f"arm {arm!r} sets {clash} itself: leave them out of the shared settings")
    make_config, train = TRAINERS[trainer]
    config = make_config(
        game=game,
        time_budget_s=seconds,
        total_timesteps=decisions,
        eval_games=eval_games,
        eval_opponents=("random", "heuristic"),
        seed=seed,
        out_dir=str(out / (label or arm)),
        **shared,
        **settings,
    )
    return train(config)[1]


def read_arm(out: Path, run: str) -> LearningCurve:
    """The learning curve a run wrote under ``out/run``."""
    config = json.loads((out / run / "config.json").read_text())
    with open(out / run / "learning_curve.csv", newline="") as f:
        rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
    # the setting the run measured in, from two games of it (the chance level: 1 / sides)
    setting = head_to_head(
        config["game"],
        RandomAgent(0),
        RandomAgent(1),
        2,
        num_players=config["num_players"],
        **config["game_options"],
    )
    return LearningCurve(
        rows,
        method=run,
        game=setting.game,
        num_players=setting.num_players,
        games_per_point=config["eval_games"],
        chance=setting.chance,
    )


def curve_axis(out: Path, runs: list[str]) -> str:
    """What the figure's curves are drawn over: learner decisions where no run had a time
    budget (runs given a decision budget alone, compared on a busy machine), else seconds."""
    budgets = [json.loads((out / run / "config.json").read_text())["time_budget_s"] for run in runs]
    return "timesteps" if all(budget is None for budget in budgets) else "seconds"


def summary(curves: dict[str, list[dict]]) -> str:
    """Each arm's last point and its best against the heuristic, as a Markdown table."""
    lines = [
        "| arm | decisions | decisions/s | vs random | vs heuristic (last) | vs heuristic (best) |",
        "|---|---|---|---|---|---|",
    ]
    for arm, curve in curves.items():
        last = curve[-1]
        best = max(row["win_rate_vs_heuristic"] for row in curve)
        rate = last["timesteps"] / last["seconds"] if last["seconds"] else float("nan")
        lines.append(
            f"| {arm} | {last['timesteps']:,.0f} | {rate:,.0f} | "
            f"{last['win_rate_vs_random']:.1%} | {last['win_rate_vs_heuristic']:.1%} | {best:.1%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages", choices=sorted(GAME_CLASSES))
    p.add_argument("--arms", nargs="+", default=list(ARMS), choices=list(ARMS))
    p.add_argument(
        "--seconds",
        type=seconds_argument,
        default=None,
        help=f"wall time per arm (with neither budget: {SECONDS:g})",
    )
    p.add_argument(
        "--decisions", type=int, default=None, help="learner decisions per arm; alone, no time"
    )
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/ablation")
    p.add_argument(
        "--set",
        dest="settings",
        nargs="+",
        default=[],
        type=parse_setting,
        metavar="NAME=VALUE",
        help="a setting for every arm (a variant: name its runs with --suffix)",
    )
    p.add_argument("--suffix", default="", help="runs go to --out/<arm><suffix>")
    p.add_argument(
        "--plot-only", action="store_true", help="train nothing: plot every run found in --out"
    )
    args = p.parse_args(argv)
    out = Path(args.out)
    if args.plot_only and (args.settings or args.suffix):
        p.error("--plot-only trains nothing: --set and --suffix do not apply")
    if args.plot_only:
        found = sorted(path.parent.name for path in out.glob("*/learning_curve.csv"))
        order = {arm: i for i, arm in enumerate(ARMS)}
        runs = sorted(found, key=lambda run: (order.get(run, len(order)), run))
    else:
        runs = [arm + args.suffix for arm in args.arms]
        seconds, decisions = budgets(args.seconds, args.decisions, SECONDS, MOST_DECISIONS)
        for arm, run in zip(args.arms, runs, strict=True):
            run_arm(
                arm,
                args.game,
                seconds,
                args.eval_games,
                args.seed,
                out,
                run,
                decisions,
                **dict(args.settings),
            )
    curves = {run: read_arm(out, run) for run in runs}
    plot_comparison(curves, out / "ablation.png", x=curve_axis(out, runs))
    print(summary(curves))


if __name__ == "__main__":
    main()
