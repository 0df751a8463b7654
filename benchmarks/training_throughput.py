"""Learner decisions per second: the batched self-play trainer against MaskablePPO.

    python benchmarks/training_throughput.py --game presages

One run, one game, the same network, rollout size (games × steps), minibatch and epochs.
``batched PPO`` is ``presages_env.training.batched_ppo`` as it trains: self-play, every seat
(or team) the learner plays is a learner decision, one forward pass per vector step.
``MaskablePPO`` is sb3-contrib's over ``SelfPlayVecEnv``: one learner seat (its team in team
games) against the cheapest opponent there is, a uniformly random one. The like-for-like line
runs the batched trainer in that same setting (every deal against the random opponent). Both
warm up first (kernels compiled, buffers allocated); then each trains ``--timesteps`` learner
decisions on the CPU. The last line is ``ratio <batched / MaskablePPO>``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from sb3_contrib import MaskablePPO

from presages_env.agents import RandomAgent
from presages_env.training.batched_ppo import (
    BatchedPPO,
    checked_run,
    collect,
    game_config,
    make_rollouts,
)
from presages_env.training.vec_env import SelfPlayVecEnv


def batched_rate(config, timesteps: int, opponents: list) -> float:
    learner = BatchedPPO(checked_run(config))
    rollouts = make_rollouts(learner, opponents)
    learner.update(collect(learner, rollouts))  # warm-up
    decisions, start = 0, time.perf_counter()
    while decisions < timesteps:
        rollout = collect(learner, rollouts)
        learner.update(rollout)
        decisions += rollout.size
    return decisions / (time.perf_counter() - start)


def maskable_ppo_rate(config, timesteps: int) -> float:
    env = SelfPlayVecEnv(
        config.game,
        config.num_envs,
        [RandomAgent(1)],
        num_players=config.num_players,
        team_play=config.team_play,
        seed=config.seed,
    )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=config.rollout_steps,
        batch_size=config.minibatch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        policy_kwargs={"net_arch": list(config.net_arch)},
        seed=config.seed,
        device="cpu",
    )
    model.learn(config.num_envs * config.rollout_steps)  # warm-up
    start = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=True)
    return model.num_timesteps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="presages")
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--timesteps", type=int, default=200_000, help="learner decisions each")
    parser.add_argument("--num-envs", type=int, default=None, help="default: the game's config")
    parser.add_argument("--net", type=int, nargs="+", default=None, help="default: shipped")
    args = parser.parse_args()
    overrides = {"device": "cpu", "num_players": args.num_players}
    if args.num_envs:
        overrides["num_envs"] = args.num_envs
    if args.net:
        overrides["net_arch"] = tuple(args.net)
    config = game_config(args.game, **overrides)
    settings = {  # the recorded config as it trains, then each difference alone
        "batched PPO, recorded config (self-play)": (config, []),
        "  same, float32": (dataclasses.replace(config, precision="float32"), []),
        "  same, bfloat16": (dataclasses.replace(config, precision="bfloat16"), []),
        "  same, against random like SB3": (
            dataclasses.replace(config, pool_share=1.0),
            [RandomAgent(1)],
        ),
    }
    rates = {label: batched_rate(c, args.timesteps, pool) for label, (c, pool) in settings.items()}
    sb3 = maskable_ppo_rate(config, args.timesteps)
    recorded = "bfloat16" if BatchedPPO(checked_run(config)).bfloat16 else "float32"
    print(
        f"{config.game}, net {list(config.net_arch)}, {config.num_envs} games × "
        f"{config.rollout_steps} steps, minibatch {config.minibatch_size}, "
        f"{config.n_epochs} epochs, CPU ({config.precision} recorded: {recorded}): "
        "learner decisions/s"
    )
    for label, rate in rates.items():
        print(f"  {label:<42}: {rate:10,.0f}  ({rate / sb3:.1f}x)")
    print(f"  {'MaskablePPO over SelfPlayVecEnv (float32)':<42}: {sb3:10,.0f}")
    first = next(iter(rates.values()))
    print(f"ratio {first / sb3:.1f}")


if __name__ == "__main__":
    main()
