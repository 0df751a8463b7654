"""A quick tournament of random agents through the vector env (``make run``).

Plays many Président manches with uniformly random legal agents in every seat and prints,
per seat, how often it finished in each place, its mean reward, and the games per second.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import presages_env


def place_from_reward(rewards: np.ndarray, num_players: int) -> np.ndarray:
    """Invert the "places" reward (+1 for 1st ... -1 for last) into places 0..n-1."""
    return np.rint((num_players - 1) * (1 - rewards) / 2).astype(np.int64)


def run(num_games: int, num_players: int, num_envs: int, seed: int) -> dict:
    from tqdm import tqdm

    env = presages_env.make_vec("president", num_envs, num_players=num_players, seed=seed)
    rng_states = np.arange(num_envs, dtype=np.int64) * 104729 + seed
    place_counts = np.zeros((num_players, num_players), dtype=np.int64)
    reward_sums = np.zeros(num_players)
    finished = steps = 0
    start = time.perf_counter()
    with tqdm(total=num_games, unit="game", desc="Président, random agents") as bar:
        while finished < num_games:
            out = env.step(env.random_actions(rng_states))
            steps += num_envs
            ended = np.flatnonzero(out.done)[: num_games - finished]
            if ended.size:
                rewards = out.rewards[ended]
                reward_sums += rewards.sum(axis=0)
                places = place_from_reward(rewards, num_players)
                for seat in range(num_players):
                    np.add.at(place_counts[seat], places[:, seat], 1)
                finished += ended.size
                bar.update(ended.size)
    elapsed = time.perf_counter() - start
    return {
        "place_counts": place_counts,
        "mean_rewards": reward_sums / num_games,
        "games_per_s": num_games / elapsed,
        "steps_per_s": steps / elapsed,
        "games": num_games,
    }


def summary_table(result: dict) -> str:
    counts = result["place_counts"]
    n = counts.shape[0]
    header = "| seat | " + " | ".join(f"place {p + 1}" for p in range(n)) + " | mean reward |"
    lines = [header, "|" + "---|" * (n + 2)]
    for seat in range(n):
        shares = counts[seat] / counts[seat].sum()
        cells = " | ".join(f"{share:6.1%}" for share in shares)
        lines.append(f"| player_{seat} | {cells} | {result['mean_rewards'][seat]:+.3f} |")
    lines.append(
        f"\n{result['games']:,} games, {result['games_per_s']:,.0f} games/s, "
        f"{result['steps_per_s']:,.0f} decisions/s"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(summary_table(run(args.games, args.players, args.envs, args.seed)))


if __name__ == "__main__":
    main()
