"""Distil the search into a policy: one step of expert iteration on search visit shares.

    python baselines/distill_search.py --game presages \\
        --init presages_env/checkpoints/presages.pt --simulations 1000 --games 400 \\
        --workers 2 --epochs 1 2 4 --eval-games 2000

The search plays one side against the heuristic (sides rotating) in ``--games`` games per
worker (each worker its own deals); every decision it searches with a choice is kept with
its visit shares (saved as ``--out``/targets.npz; ``--targets`` reuses such a file instead of
searching). The ``--init`` policy is then fitted (``training.imitation.imitate``, value head
untouched) for each epoch count to ``mix`` × the visit shares + (1 − ``mix``) × its own
action distribution, on the decisions where the search's favourite got at least
``--min-top-share`` of the simulations; each result is played against the heuristic on
``--eval-games`` deals of ``--eval-seed``, beside the ``--init`` policy itself. Policies go to
``--out``/epochs<k>.pt and the table to stdout.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import torch

from presages_env.agents import HeuristicAgent
from presages_env.agents.ppo import PPOAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.evaluation import head_to_head
from presages_env.training.distill import search_targets
from presages_env.training.imitation import imitate


def worker_targets(args: argparse.Namespace, seed: int) -> tuple[np.ndarray, ...]:
    """One worker's recorded decisions (its own deals and search seed)."""
    search = ISMCTSAgent(args.game, args.simulations, seed=seed, rollouts=args.rollouts)
    data = search_targets(
        args.game, search, HeuristicAgent(args.game), args.games, args.players, seed
    )
    return data[:3]


def search_data(args: argparse.Namespace, out: Path) -> tuple[np.ndarray, ...]:
    """``(obs, masks, shares)``: searched now by ``--workers`` processes, or read back."""
    if args.targets:
        with np.load(args.targets) as saved:
            return saved["obs"], saved["masks"], saved["shares"]
    start = time.perf_counter()
    seeds = [args.seed + w for w in range(args.workers)]
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        parts = list(pool.map(worker_targets, [args] * args.workers, seeds))
    obs, masks, shares = (np.concatenate(column) for column in zip(*parts, strict=True))
    np.savez_compressed(out / "targets.npz", obs=obs, masks=masks, shares=shares)
    print(f"{len(shares):,} searched decisions in {time.perf_counter() - start:.0f} s")
    return obs, masks, shares


def policy_probabilities(agent: PPOAgent, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The agent's action distribution at each recorded decision."""
    inputs = torch.as_tensor(agent.features(obs, masks))
    legal = torch.as_tensor(masks.astype(np.bool_))
    with torch.no_grad():
        return agent.policy.get_distribution(inputs, action_masks=legal).distribution.probs.numpy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="presages")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--init", required=True, help="the policy.pt to start from")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--rollouts", default=None, choices=("random", "heuristic"))
    parser.add_argument("--games", type=int, default=400, help="games per worker")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100, help="worker w deals seed + w")
    parser.add_argument("--targets", default=None, help="a targets.npz to reuse")
    parser.add_argument("--mix", type=float, default=1.0, help="weight of the visit shares")
    parser.add_argument("--min-top-share", type=float, default=0.0)
    parser.add_argument("--epochs", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--eval-seed", type=int, default=0)
    parser.add_argument("--out", default="runs/distill")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    obs, masks, shares = search_data(args, out)
    keep = shares.max(axis=1) >= args.min_top_share
    obs, masks, shares = obs[keep], masks[keep], shares[keep]
    own = policy_probabilities(PPOAgent.load(args.init), obs, masks)
    targets = (args.mix * shares + (1.0 - args.mix) * own).astype(np.float32)
    agree = np.mean(shares.argmax(axis=1) == own.argmax(axis=1))
    print(f"{keep.sum():,} decisions kept; the search's favourite is the policy's in {agree:.1%}")

    heuristic = HeuristicAgent(args.game)
    rows = [("init", PPOAgent.load(args.init))]
    for epochs in args.epochs:
        agent = PPOAgent.load(args.init, name=f"epochs{epochs}")
        fit = imitate(
            agent.policy,
            (obs, masks, targets, None),
            epochs=epochs,
            learning_rate=args.lr,
            features=agent.features,
        )
        agent.save(out / f"epochs{epochs}.pt")
        print(
            f"epochs {epochs}: cross-entropy {fit['action_nll']:.3f}, agreement "
            f"{fit['agreement']:.1%}"
        )
        rows.append((f"epochs{epochs}", agent))
    print("| policy | games | win rate vs heuristic (95% CI) |\n|---|---|---|")
    for name, agent in rows:
        result = head_to_head(
            args.game, agent, heuristic, args.eval_games, args.players, args.eval_seed
        )
        rate = result.win_rate_ci()
        print(f"| {name} | {args.eval_games:,} | {rate.value:.1%} ± {rate.half_width:.1%} |")


if __name__ == "__main__":
    main()
