"""Self-play PPO on RLlib (new API stack) with a league of frozen snapshots.

    python baselines/train_rllib.py --game president --iterations 50 --out runs/rllib
    python baselines/train_rllib.py --game presages --team-play --address auto  # a cluster

Each episode (game) maps its sides by the episode's id: one side (a seat, or with
--team-play every seat of a team) is the learner, every other side one opponent drawn from
the league: the learner itself or one of --snapshots frozen copies, refreshed round-robin
every --snapshot-every iterations. Env runners step their games in one numba call each
(presages_env.rllib.BatchedEnvRunner). Runs on a local Ray by default, on an existing
cluster with --address. Writes under --out: the RLlib checkpoint (checkpoint/, to resume)
and policy.pt, the learner in the library's safe format, for evaluate.py
(``--agents heuristic ppo:runs/rllib/policy.pt``).
"""

from __future__ import annotations

import argparse
import os
import time
import zlib
from pathlib import Path

import numpy as np

from presages_env.games import get_game
from presages_env.training.settings import seconds_argument

LEARNER = "learner"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="president")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--team-play", action="store_true", help="one policy per team (team ids)")
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--time-budget", type=seconds_argument, default=None, help="seconds")
    p.add_argument("--snapshots", type=int, default=3, help="frozen copies in the league")
    p.add_argument("--snapshot-every", type=int, default=5, help="iterations")
    p.add_argument("--num-env-runners", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=64, help="games per env runner")
    p.add_argument("--batch-size", type=int, default=4000, help="agent steps per iteration")
    p.add_argument("--minibatch-size", type=int, default=1000)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hiddens", type=int, nargs="+", default=[256, 256])
    p.add_argument("--address", default=None, help="Ray cluster address (default: local Ray)")
    p.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local Ray")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/rllib")
    return p.parse_args(argv)


def league_mapping(num_sides: int, opponents: list[str]):
    """Per episode: the side ``h mod num_sides`` is the learner, the others all play one
    league member, both drawn from the episode id's hash ``h``."""
    from presages_env.rllib import team_of

    def mapping(agent_id, episode, **kwargs) -> str:
        h = zlib.crc32(str(episode.id_).encode())
        if team_of(agent_id) % num_sides == h % num_sides:
            return LEARNER
        return opponents[(h // num_sides) % len(opponents)]

    return mapping


def number_of_sides(game: str, num_players: int | None, team_play: bool) -> int:
    """Seats, or the teams of one deal (team counts do not depend on the deal's seed
    in 4-5 player games; 6-player Présages may deal 2 or 3, and then 3 is used)."""
    game_obj = get_game(game)
    n = game_obj.default_players if num_players is None else num_players
    if not team_play:
        return n
    deals = [game_obj.new_state(n, seed) for seed in range(16)]
    return max(len(np.unique(game_obj.teams(state))) for state in deals)


def build(args: argparse.Namespace):
    from presages_env.rllib import ppo_config

    snapshots = [f"snapshot_{k}" for k in range(args.snapshots)]
    sides = number_of_sides(args.game, args.players, args.team_play)
    env_config = {"game": args.game, "agent_ids": "team" if args.team_play else "seat"}
    if args.players is not None:
        env_config["num_players"] = args.players
    config = (
        ppo_config(
            env_config,
            modules=[LEARNER, *snapshots],
            trained=[LEARNER],
            policy_mapping_fn=league_mapping(sides, [LEARNER, *snapshots]),
            hiddens=args.hiddens,
            num_envs=args.num_envs,
        )
        .env_runners(num_env_runners=args.num_env_runners)
        .training(
            lr=args.lr,
            train_batch_size_per_learner=args.batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=args.epochs,
        )
        .debugging(seed=args.seed)
    )
    return config.build_algo(), snapshots


def refresh_snapshot(algo, slot: str) -> None:
    """Copy the learner's current weights into the frozen league member ``slot``."""
    learners = algo.learner_group
    learners.set_weights({slot: learners.get_weights([LEARNER])[LEARNER]})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=learners, policies=[slot], inference_only=True
    )


def train(args: argparse.Namespace) -> Path:
    """Run the league; returns the path of the learner's safe checkpoint."""
    import ray

    from presages_env.rllib import weights_to_agent

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    try:
        algo, snapshots = build(args)
        start = time.perf_counter()
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            print(
                f"iteration {iteration}: {runners.get('num_env_steps_sampled_lifetime', 0):,} "
                f"env steps, {time.perf_counter() - start:.0f}s, learner return "
                f"{runners.get('module_episode_returns_mean', {}).get(LEARNER, float('nan')):+.3f}"
            )
            if snapshots and iteration % args.snapshot_every == 0:
                slot = snapshots[(iteration // args.snapshot_every - 1) % len(snapshots)]
                refresh_snapshot(algo, slot)
            if args.time_budget and time.perf_counter() - start > args.time_budget:
                break
        algo.save_to_path(str(out / "checkpoint"))
        weights = algo.learner_group.get_weights([LEARNER])[LEARNER]
        weights_to_agent(weights, args.hiddens, args.game, args.players).save(out / "policy.pt")
        algo.stop()
    finally:
        ray.shutdown()
    print(f"policy: {out / 'policy.pt'} (checkpoint: {out / 'checkpoint'})")
    return out / "policy.pt"


def main() -> None:
    train(parse_args())


if __name__ == "__main__":
    main()
