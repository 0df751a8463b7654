"""RLlib sampling throughput: the batched env runner vs PettingZooEnv of the AEC env.

    python benchmarks/rllib_throughput.py --game president --num-envs 64

The same PPO config (RLlib's action-masking module, the same MLP, every seat mapped to one
policy, the same number of games per env runner), sampled by one local env runner: by
presages_env.rllib.BatchedEnvRunner (every game stepped in one numba call, episodes written
in bulk), and by RLlib's own MultiAgentEnvRunner over RLlib's PettingZooEnv wrapper of the
AEC env, with the glue a user would need (rename ``observation`` to ``observations``, cast
to float32). The two alternate for ``--rounds`` rounds, so a load change on a shared machine
hits both; prints env steps per second of ``sample()`` per round, the medians and the
median of the per-round ratios. Torch runs on ``--torch-threads`` threads in both.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def glued_pettingzoo_env(config: dict):
    """The conventional route: RLlib's PettingZooEnv of the AEC env, plus today's glue."""
    from gymnasium import spaces
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    import presages_env
    from presages_env.integrations import rllib_spaces as rs

    class Glued(PettingZooEnv):
        def __init__(self) -> None:
            aec = presages_env.make(config["game"], illegal_action="terminate")
            super().__init__(aec)
            space = rs.observation_space(aec.game, aec.num_players)
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.observation_space = spaces.Dict(self.observation_spaces)

        def reset(self, *args, **kwargs):
            obs, infos = super().reset(*args, **kwargs)
            return self._glue(obs), infos

        def step(self, actions):
            obs, *rest = super().step(actions)
            return (self._glue(obs), *rest)

        @staticmethod
        def _glue(obs: dict) -> dict:
            return {a: rs.observation(o["observation"], o["action_mask"]) for a, o in obs.items()}

    return Glued()


def measure(runner, steps: int) -> float:
    runner.sample(num_timesteps=steps // 4, explore=True)  # warm-up: compile, allocate
    start = time.perf_counter()
    sampled = 0
    while sampled < steps:
        episodes = runner.sample(num_timesteps=steps - sampled, explore=True)
        sampled += sum(len(episode) for episode in episodes)
    return sampled / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="president")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=20_000, help="env steps per measure")
    parser.add_argument("--hiddens", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.tune.registry import register_env

    from presages_env.rllib import BatchedEnvRunner, ppo_config

    register_env("presages_env_pettingzoo", glued_pettingzoo_env)
    runners = {}
    for name in ("batched", "pettingzoo"):
        batched = name == "batched"
        config = ppo_config(
            {"game": args.game}, hiddens=args.hiddens, num_envs=args.num_envs, batched=batched
        ).env_runners(num_env_runners=0)
        if not batched:
            config.environment("presages_env_pettingzoo", env_config={"game": args.game})
        runners[name] = (BatchedEnvRunner if batched else MultiAgentEnvRunner)(config=config)
    rates = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, runner in runners.items():
            rates[name].append(measure(runner, args.steps))
    for runner in runners.values():
        runner.stop()
    batched, glued = (np.array(rates[name]) for name in runners)
    print(f"{args.game}, {args.num_envs} games per env runner, MLP {args.hiddens}: env steps/s")
    print(f"  BatchedEnvRunner               : {np.median(batched):10,.0f}  {batched.round()}")
    print(f"  MultiAgentEnvRunner+PettingZoo : {np.median(glued):10,.0f}  {glued.round()}")
    print(f"  ratio (median of rounds)       : {np.median(batched / glued):10.1f}x")


if __name__ == "__main__":
    main()
