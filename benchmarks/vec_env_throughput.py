"""MaskablePPO training throughput: native vector env vs DummyVecEnv of AEC envs.

    python benchmarks/vec_env_throughput.py --game president

Same algorithm, hyper-parameters, network, opponent (random) and number of parallel games;
only the environment side differs: ``SelfPlayVecEnv`` (numba batched kernels) against
SB3's ``DummyVecEnv`` of ``SingleAgentEnv`` (one PettingZoo AEC env each). Prints learner
decisions per second of ``learn()`` for both and their ratio. The more of the time PPO's own
update takes (bigger networks, more epochs: --net, --epochs), the smaller the ratio.
"""

from __future__ import annotations

import argparse
import time

from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from presages_env.agents import RandomAgent
from presages_env.training.single_env import SingleAgentEnv
from presages_env.training.vec_env import SelfPlayVecEnv


def measure(env, timesteps: int, n_steps: int, net: list[int], epochs: int) -> float:
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=env.num_envs * n_steps // 4,
        n_epochs=epochs,
        policy_kwargs={"net_arch": net},
        seed=0,
        device="cpu",
    )
    model.learn(env.num_envs * n_steps)  # warm-up: compile kernels, allocate buffers
    start = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=True)
    return timesteps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="president")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--n-steps", type=int, default=16)
    parser.add_argument("--timesteps", type=int, default=65_536)
    parser.add_argument("--net", type=int, nargs="+", default=[64, 64], help="hidden layers")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    args = parser.parse_args()
    native = SelfPlayVecEnv(args.game, args.num_envs, [RandomAgent(1)], seed=0)
    dummy = DummyVecEnv(
        [lambda: SingleAgentEnv(args.game, RandomAgent(1)) for _ in range(args.num_envs)]
    )
    rate_native = measure(native, args.timesteps, args.n_steps, args.net, args.epochs)
    rate_dummy = measure(dummy, args.timesteps, args.n_steps, args.net, args.epochs)
    print(
        f"{args.game}, {args.num_envs} games, net {args.net}, {args.epochs} epochs: "
        "MaskablePPO learner decisions/s"
    )
    print(f"  native SelfPlayVecEnv : {rate_native:10,.0f}")
    print(f"  DummyVecEnv of AEC    : {rate_dummy:10,.0f}")
    print(f"  ratio                 : {rate_native / rate_dummy:10.1f}x")


if __name__ == "__main__":
    main()
