"""OpenSpiel's algorithms on our games, at a real budget, measured against our agents.

    python baselines/openspiel_algorithms.py                       # everything below
    python baselines/openspiel_algorithms.py --runs mccfr --mccfr-iterations 200000

Runs (``--runs``, any of them):

- ``nfsp-president`` / ``nfsp-presages``: NFSP (OpenSpiel's PyTorch agents, one per seat,
  on observation tensors), ``--nfsp-episodes`` games of self-play.
- ``psro-president`` / ``psro-presages``: PSRO v2 with policy-gradient best-response
  oracles and projected replicator dynamics, ``--psro-iterations`` iterations of
  ``--psro-episodes`` games per oracle and ``--psro-sims`` games per empirical-game entry.
- ``mccfr``: outcome-sampling MCCFR, ``--mccfr-iterations`` sampled games, on the smallest
  configuration where tabular CFR means something: Aciliande, two players, one life,
  one-card hands (a game is a bid and a card each, so information states recur; every other
  table has too many to revisit).
- ``mccfr-compiled``: OpenSpiel's C++ outcome-sampling MCCFR, the same iterations on the
  same table's compiled game (``presages_env_aciliande_native``, built on first use), its
  policy measured on the Python game.
- ``random-president`` / ``random-presages`` / ``random-mccfr`` (not run by default):
  uniformly random play on the same tables, the reference the results compare with.

Président is played by 3 and Présages by 4. Each result is then measured over
``--eval-games`` games against the heuristic and the shipped PPO agent (the learned side
rotating over the seats, or the teams, as in ``evaluate.py``): win rate and mean reward with
95% intervals, and the wall time of training and of evaluating. Prints a Markdown table
and writes it to ``--out``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pyspiel
import torch
from open_spiel.python.policy import UniformRandomPolicy

from presages_env.agents.specs import make_agent
from presages_env.evaluation import format_number, format_percent, mean_interval, win_rate
from presages_env.integrations import openspiel_algorithms as algorithms
from presages_env.openspiel import NATIVE_SUFFIX, register_native

RUNS = (
    "nfsp-president",
    "nfsp-presages",
    "psro-president",
    "psro-presages",
    "mccfr",
    "mccfr-compiled",
)
# Uniformly random play on the same tables: what the learned policies' results compare with.
REFERENCES = ("random-president", "random-presages", "random-mccfr")
PLAYERS = {"president": 3, "presages": 4}
MCCFR_GAME = ("aciliande", {"players": 2, "lives": 1, "fixed_hand_size": 1})


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", nargs="+", default=list(RUNS), choices=RUNS + REFERENCES)
    p.add_argument("--nfsp-episodes", type=int, default=3000)
    p.add_argument("--psro-iterations", type=int, default=3)
    p.add_argument("--psro-episodes", type=int, default=300, help="games per oracle")
    p.add_argument("--psro-sims", type=int, default=4, help="games per empirical-game entry")
    p.add_argument("--mccfr-iterations", type=int, default=100_000)
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--opponents", nargs="+", default=["heuristic", "ppo"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--out", type=Path, default=Path("runs/openspiel/results.md"))
    return p.parse_args()


def train(run: str, args: argparse.Namespace) -> tuple[pyspiel.Game, str, object]:
    """The game, its name in our library and a focus factory (game index -> policy)."""
    algorithm, _, game_name = run.partition("-")
    if "mccfr" in (algorithm, game_name):
        name, params = MCCFR_GAME
        game = pyspiel.load_game(f"presages_env_{name}", params)
    else:
        name = game_name
        game = pyspiel.load_game(f"presages_env_{name}", {"players": PLAYERS[name]})
    if algorithm == "random":
        uniform = UniformRandomPolicy(game)
        return game, name, lambda k: uniform
    if run == "mccfr-compiled":
        register_native()
        compiled = pyspiel.load_game(f"presages_env_{name}{NATIVE_SUFFIX}", params)
        policy = algorithms.train_mccfr_compiled(compiled, args.mccfr_iterations, args.seed)
        return game, name, lambda k: policy
    if algorithm == "mccfr":
        solver = algorithms.train_mccfr(game, args.mccfr_iterations, seed=args.seed)
        policy = solver.average_policy()
        return game, name, lambda k: policy
    if algorithm == "nfsp":
        agents = algorithms.train_nfsp(game, args.nfsp_episodes, seed=args.seed)
        policy = algorithms.NFSPAveragePolicy(game, agents)
        return game, name, lambda k: policy
    solver = algorithms.train_psro(
        game, args.psro_iterations, args.psro_episodes, args.psro_sims, seed=args.seed
    )
    rng = np.random.default_rng(args.seed)
    return game, name, lambda k: algorithms.MetaStrategySample(solver, rng)


def main() -> None:
    args = parse_args()
    torch.set_num_threads(args.threads)
    rows = [
        "| run | budget | training | vs | win rate | mean reward | evaluation |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in args.runs:
        start = time.perf_counter()
        game, name, focus = train(run, args)
        trained = time.perf_counter() - start
        for spec in args.opponents:
            label, opponent = make_agent(spec, name, num_players=game.num_players())
            start = time.perf_counter()
            result = algorithms.play_against(
                game, focus, opponent, args.eval_games, seed=args.seed + 1, focus_name=run
            )
            evaluated = time.perf_counter() - start
            rows.append(
                f"| {run} | {budget(run, args)} | {trained:,.0f} s | {label} "
                f"| {format_percent(win_rate(result.outcomes()))} "
                f"| {format_number(mean_interval(result.focus_rewards()))} "
                f"| {args.eval_games} games, {evaluated:,.0f} s |"
            )
            print(rows[-1], flush=True)
    table = "\n".join(rows)
    print(f"\n{table}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(table + "\n")


def budget(run: str, args: argparse.Namespace) -> str:
    if run.startswith("random"):
        return "none (uniform random)"
    if run.startswith("nfsp"):
        return f"{args.nfsp_episodes:,} episodes"
    if run.startswith("psro"):
        return (
            f"{args.psro_iterations} iterations x {args.psro_episodes} episodes, "
            f"{args.psro_sims} sims/entry"
        )
    return f"{args.mccfr_iterations:,} iterations"


if __name__ == "__main__":
    main()
