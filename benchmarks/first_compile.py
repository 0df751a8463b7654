"""Seconds a first run spends compiling each game's kernels (numba's disk cache empty).

    python benchmarks/first_compile.py [--games presages president]

Each game in a process of its own with ``NUMBA_CACHE_DIR`` an empty temporary folder: two
games of the heuristic against random (the vector env, the heuristic's kernels), then one
AEC game of first legal moves. The games' declared ``compile_seconds`` (the estimate the
"compiling the game's kernels" line prints) come from these numbers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import presages_env

ONE_GAME = """
import sys
import numpy as np
import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation import head_to_head
game = sys.argv[1]
head_to_head(game, HeuristicAgent(game), RandomAgent(0), 2)
env = presages_env.make(game)
env.reset(seed=0)
for agent in env.agent_iter():
    obs, _, terminated, truncated, _ = env.last()
    env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
"""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", nargs="+", default=presages_env.list_games())
    args = p.parse_args()
    print("| game | seconds (cache empty) | declared compile_seconds |\n|---|---|---|")
    for game in args.games:
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            subprocess.run([sys.executable, "-c", ONE_GAME, game], env=env, check=True)
            seconds = time.perf_counter() - start
        declared = presages_env.get_game(game).compile_seconds
        print(f"| {presages_env.get_game(game).title} | {seconds:.0f} | {declared} |")


if __name__ == "__main__":
    main()
