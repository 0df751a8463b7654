"""States stepped per second through pyspiel's Python API: our games, Python
(``presages_env_<game>``) and compiled (``presages_env_<game>_native``), against OpenSpiel's
own C++ ``oh_hell``, in one run.

Usage::

    python benchmarks/openspiel_speed.py                   # every benchmarked game at 4 players
    python benchmarks/openspiel_speed.py --games aciliande --rounds 7 --seconds 3

Every game is played the same way, the loop an OpenSpiel user writes: ``is_terminal``,
``is_chance_node``, then a uniformly drawn ``chance_outcomes()`` entry or ``legal_actions()``
entry, ``apply_action``. A *state stepped* is one ``apply_action``, chance nodes included
(``oh_hell`` deals card by card, about half its steps; ours draws the deal's seed in
``seed_bytes`` = 4 chance steps a game); decisions per second are reported beside it. The
games alternate within each round and each row is the median of its rounds, so a machine
whose speed drifts (a shared one) slows every row alike; the cores other processes used
meanwhile are printed (from ``/proc/stat``). The compiled games are built first if need be
(``presages_env.openspiel.register_native``); where they cannot be, their rows are left out.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import pyspiel
from machine import busy_seconds, process_seconds

from presages_env import openspiel
from presages_env.games import GAME_CLASSES, benchmarked_games

ANCHOR = "oh_hell"


def play(game: pyspiel.Game, seconds: float, seed: int) -> tuple[int, int, float]:
    """(states stepped, decisions, seconds) of uniform random play for about ``seconds``."""
    rng = random.Random(seed)
    steps = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                decisions += 1
            state.apply_action(action)
            steps += 1
    return steps, decisions, time.perf_counter() - start


def short_names(names: list[str]) -> list[str]:
    """Each game's Python and (where it builds) compiled pyspiel name."""
    try:
        openspiel.register_native()
        suffixes = ["", openspiel.NATIVE_SUFFIX]
    except openspiel.NativeUnavailable as why:
        print(f"compiled games left out: {why}")
        suffixes = [""]
    return [openspiel.PREFIX + name + suffix for name in names for suffix in suffixes]


def measure(names: list[str], players: int, seconds: float, rounds: int) -> dict[str, dict]:
    games = {ANCHOR: pyspiel.load_game(ANCHOR)}
    for name in names:
        games[name] = pyspiel.load_game(name, {"players": players})
    for game in games.values():  # compile (or load) the kernels before timing
        play(game, 0.2, seed=0)
    rates: dict[str, dict[str, list[float]]] = {n: {"states": [], "decisions": []} for n in games}
    others = []
    for round_ in range(rounds):
        for name, game in games.items():
            busy, own, wall = busy_seconds(), process_seconds(), time.perf_counter()
            steps, decisions, elapsed = play(game, seconds, seed=round_)
            rates[name]["states"].append(steps / elapsed)
            rates[name]["decisions"].append(decisions / elapsed)
            other = busy_seconds() - busy - (process_seconds() - own)
            others.append(max(0.0, other) / (time.perf_counter() - wall))
    result = {
        name: {key: statistics.median(values) for key, values in rate.items()}
        for name, rate in rates.items()
    }
    result["other_cores"] = {"median": statistics.median(others), "max": max(others)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=benchmarked_games(), choices=GAME_CLASSES)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0, help="per game and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    names = short_names(args.games)
    result = measure(names, args.players, args.seconds, args.rounds)
    anchor = result[ANCHOR]
    header = f"{'game':<32}{'states/s':>12}{'decisions/s':>14}{'states vs':>11}{'decisions vs':>14}"
    print(header)
    for name in [ANCHOR, *names]:
        row = result[name]
        states, decisions = row["states"] / anchor["states"], row["decisions"] / anchor["decisions"]
        print(
            f"{name:<32}{row['states']:>12,.0f}{row['decisions']:>14,.0f}"
            f"{states:>10.2f}x{decisions:>13.2f}x"
        )
    cores = result["other_cores"]
    print(f"other processes used {cores['median']:.2f} cores (median; max {cores['max']:.2f})")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
