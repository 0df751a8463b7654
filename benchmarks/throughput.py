"""Throughput of random legal play: AEC env, vector env, and public anchors in one run.

Usage: ``python benchmarks/throughput.py [--seconds 3] [--games president ...]``.
A "step" is one decision applied. Every AEC step reads the observation and the mask through
``last()``; every vector step produces the observation and mask of every game. Anchors
(PettingZoo classic ``leduc_holdem_v4``, OpenSpiel ``oh_hell``) run when installed
(``pip install -e .[bench]``) and are stepped the same way. Results go to stdout as a table
and to ``benchmarks/results/throughput.json``; compare ratios within one run, since the
machine's speed drifts between runs.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

import presages_env
from presages_env.games import GAME_CLASSES

BATCH_SIZES = (1, 64, 1024, 4096)
RESULTS = Path(__file__).parent / "results" / "throughput.json"


def aec_loop(env, seconds: float, seed: int = 0) -> float:
    """Decisions per second of a PettingZoo AEC env under uniform random legal play."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
        env.reset()
    return decisions / (time.perf_counter() - start)


def vector_loop(game: str, num_envs: int, seconds: float, num_players: int) -> float:
    env = presages_env.make_vec(game, num_envs, num_players=num_players, seed=0)
    rng_states = np.arange(num_envs, dtype=np.int64) * 7919 + 1
    env.step(env.random_actions(rng_states))  # compile / warm up
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            env.step(env.random_actions(rng_states))
        steps += 10 * num_envs
    return steps / (time.perf_counter() - start)


def openspiel_loop(seconds: float, seed: int = 0) -> float:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def anchors(seconds: float) -> dict[str, float]:
    results = {}
    try:
        from pettingzoo.classic import leduc_holdem_v4

        results["pettingzoo leduc_holdem_v4 AEC"] = aec_loop(leduc_holdem_v4.env(), seconds)
    except ImportError:
        print("(pettingzoo[classic] not installed: no leduc anchor)")
    try:
        results["openspiel oh_hell (4p) python"] = openspiel_loop(seconds)
    except ImportError:
        print("(open_spiel not installed: no oh_hell anchor)")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all)")
    parser.add_argument("--batch-sizes", nargs="*", type=int, default=list(BATCH_SIZES))
    args = parser.parse_args()
    games = args.games or list(GAME_CLASSES)

    rows: dict[str, float] = anchors(args.seconds)
    for game in games:
        n = presages_env.get_game(game).default_players
        env = presages_env.make(game, num_players=n)
        aec_loop(env, 0.2)  # compile / warm up
        rows[f"{game} ({n}p) AEC"] = aec_loop(env, args.seconds)
        for batch in args.batch_sizes:
            rows[f"{game} ({n}p) vector B={batch}"] = vector_loop(game, batch, args.seconds, n)

    width = max(len(name) for name in rows)
    print(f"\n{'benchmark':<{width}}  {'steps/s':>12}")
    for name, rate in rows.items():
        print(f"{name:<{width}}  {rate:>12,.0f}")
    ratios = {}
    leduc = rows.get("pettingzoo leduc_holdem_v4 AEC")
    ohhell = rows.get("openspiel oh_hell (4p) python")
    for name, rate in rows.items():
        if leduc and name.endswith("AEC") and not name.startswith("pettingzoo"):
            ratios[f"{name} / leduc AEC"] = rate / leduc
        if ohhell and name.endswith("AEC") and not name.startswith(("pettingzoo", "openspiel")):
            ratios[f"{name} / oh_hell"] = rate / ohhell
    if ratios:
        print("\nratios (same run)")
        for name, ratio in ratios.items():
            print(f"  {name}: {ratio:.1f}x")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    meta = {"machine": platform.machine(), "python": platform.python_version()}
    RESULTS.write_text(json.dumps({"meta": meta, "steps_per_s": rows, "ratios": ratios}, indent=2))
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
