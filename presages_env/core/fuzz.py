"""Fuzzing of state validation: corrupted real states must be refused or play out cleanly.

Every case takes a real state from random play, corrupts it (an extreme or boundary value in
one slot, a random value, two slots swapped, one slot copied over another — a card in two
places —, or several slots at once) and checks the outcome is one of:

- ``refused``: :func:`~presages_env.core.validation.checked_state` raised ``ValueError`` or
  ``TypeError``;
- ``played``: the state was accepted and random legal play from it reaches the end, with a
  legal action at every decision and every seat observed at every step.

Anything else (a kernel exception, no legal action, a game that does not end, a crash) is a
failure. The same is done for each game's heuristic kernel, which reads observation values
as indices: random observations anywhere in the declared observation space, with random
non-empty masks, must give legal actions (``--heuristics``).

Run it under ``NUMBA_BOUNDSCHECK=1`` so that an out-of-bounds access raises instead of
corrupting memory; the command line does that in a child process, so a crash is reported
as a failure instead of killing the caller::

    python -m presages_env.core.fuzz --cases 10000            # every game
    python -m presages_env.core.fuzz --games presages --cases 500 --seed 3
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from presages_env.core.game import Game
from presages_env.core.header import HDR_TERMINAL
from presages_env.core.validation import checked_state

# Longer than any game's longest match played at random; a game still going is stuck.
MAX_PLAYOUT_STEPS = 50_000
EXTREMES = (-(2**63), -(2**31), -(10**9), -1000, -2, -1, 0, 1, 2, 3, 7, 13, 36, 100, 10**9)
KINDS = ("extreme", "boundary", "random", "swap", "copy", "several")


@dataclass
class FuzzReport:
    game: str
    cases: int = 0
    outcomes: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        return f"{self.game}: {self.cases} cases: {counts}; {len(self.failures)} failures"


def real_states(game: Game, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``count`` states met in random play, at every player count, ends of games included."""
    states = []
    counts = range(game.min_players, game.max_players + 1)
    while len(states) < count:
        n = int(rng.choice(counts))
        state = game.new_state(n, int(rng.integers(2**62)))
        trajectory = [state.copy()]
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        rewards = np.zeros(n, dtype=np.float32)
        while not state[HDR_TERMINAL]:
            game.kernel.legal_mask(state, mask)
            game.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
            trajectory.append(state.copy())
        picks = rng.choice(len(trajectory), size=min(8, len(trajectory)), replace=False)
        states.extend(trajectory[i] for i in picks)
    return states[:count]


def corrupt(state: np.ndarray, kind: str, rng: np.random.Generator) -> tuple[str, np.ndarray]:
    """A copy of ``state`` with one corruption of ``kind``, and a description of it."""
    info = np.iinfo(state.dtype)

    def clip(value: int) -> int:  # what the state's dtype can hold
        return min(max(value, info.min), info.max)

    out = state.copy()
    size = state.size
    i, j = (int(x) for x in rng.integers(size, size=2))
    if kind == "extreme":
        value = int(rng.choice(EXTREMES))
        out[i] = clip(value)
        return f"slot {i}: {state[i]} -> {out[i]}", out
    if kind == "boundary":
        out[i] = min(
            max(int(state[i]) + int(rng.choice([-3, -2, -1, 1, 2, 3])), info.min), info.max
        )
        return f"slot {i}: {state[i]} -> {out[i]}", out
    if kind == "random":
        out[i] = int(rng.integers(-40, 60))
        return f"slot {i}: {state[i]} -> {out[i]}", out
    if kind == "swap":
        out[i], out[j] = state[j], state[i]
        return f"slots {i} and {j} swapped ({state[i]}, {state[j]})", out
    if kind == "copy":
        out[j] = state[i]
        return f"slot {j}: {state[j]} -> {state[i]} (copied from slot {i})", out
    described = []
    for _ in range(int(rng.integers(2, 5))):
        i = int(rng.integers(size))
        out[i] = int(rng.integers(-3, 40))
        described.append(f"{i}->{out[i]}")
    return "slots " + ", ".join(described), out


def corruptions(game: Game, cases: int, seed: int) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """``cases`` (description, original, corrupted) triples, every kind in turn."""
    rng = np.random.default_rng(seed)
    originals = real_states(game, max(1, cases // 8), rng)
    for case in range(cases):
        original = originals[case % len(originals)]
        description, state = corrupt(original, KINDS[case % len(KINDS)], rng)
        yield description, original, state


def play_out(game: Game, state: np.ndarray, rng: np.random.Generator) -> None:
    """Random legal play to the end, observing every seat; raises AssertionError if stuck."""
    n = game.num_players_of(state)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    for _ in range(MAX_PLAYOUT_STEPS):
        for seat in range(n):
            game.kernel.observe(state, np.int64(seat), obs)
        if state[HDR_TERMINAL]:
            return
        game.kernel.legal_mask(state, mask)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise AssertionError("an accepted state reached a decision with no legal action")
        game.kernel.step(state, np.int64(rng.choice(legal)), rewards)
        if not np.isfinite(rewards).all():
            raise AssertionError(f"non-finite rewards {rewards}")
    raise AssertionError(f"an accepted state did not end within {MAX_PLAYOUT_STEPS} decisions")


def run_case(game: Game, state: np.ndarray, seed: int = 0) -> str:
    """``"refused"`` or ``"played"``; raises on anything else (see the module docstring)."""
    try:
        valid = checked_state(game, state)
    except (TypeError, ValueError):
        return "refused"
    play_out(game, valid, np.random.default_rng(seed))
    return "played"


def fuzz(game: Game, cases: int, seed: int = 0, max_failures: int = 20) -> FuzzReport:
    report = FuzzReport(game.name)
    for case, (description, _original, state) in enumerate(corruptions(game, cases, seed)):
        report.cases += 1
        try:
            report.outcomes[run_case(game, state, seed + case)] += 1
        except Exception as error:  # every failure is collected with its case, not only the first
            report.outcomes["failed"] += 1
            report.failures.append(f"case {case} ({description}): {type(error).__name__}: {error}")
            if len(report.failures) >= max_failures:
                break
    return report


def fuzz_heuristic(game: Game, cases: int, seed: int = 0) -> FuzzReport:
    """Random in-space observations and masks through the game's heuristic agent."""
    from presages_env.agents.heuristic import HeuristicAgent, observation_bounds

    report = FuzzReport(f"{game.name} heuristic")
    agent = HeuristicAgent(game.name)
    low, high = observation_bounds(game)
    rng = np.random.default_rng(seed)
    n = game.max_players
    batch = 8  # small batches, so one contradictory row does not hide the others
    for start in range(0, cases, batch):
        size = min(batch, cases - start)
        obs = rng.integers(low, high + 1, size=(size, low.size)).astype(game.obs_dtype)
        masks = (rng.random((size, game.num_actions(n))) < rng.random((size, 1))).astype(np.int8)
        masks[np.arange(size), rng.integers(masks.shape[1], size=size)] = 1
        report.cases += size
        try:
            agent.act_batch(obs, masks)  # never returns an illegal action: it raises
            report.outcomes["acted"] += size
        except ValueError:
            report.outcomes["refused"] += size
        except Exception as error:  # collected with its batch, like every fuzz failure
            report.outcomes["failed"] += size
            report.failures.append(f"batch at {start}: {type(error).__name__}: {error}")
    return report


def run_in_child(
    games: list[str], cases: int, seed: int, heuristics: bool = False
) -> subprocess.CompletedProcess:
    """Fuzz in a child process with numba's bounds checks on (its own compile cache)."""
    cache = os.path.join(tempfile.gettempdir(), "presages_env_boundscheck_cache")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
    command = [sys.executable, "-m", "presages_env.core.fuzz", "--in-process"]
    command += ["--games", *games, "--cases", str(cases), "--seed", str(seed)]
    command += ["--heuristics"] if heuristics else []
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def main(argv: list[str] | None = None) -> int:
    from presages_env.games import GAME_CLASSES, get_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAME_CLASSES))
    parser.add_argument("--cases", type=int, default=10_000, help="per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--heuristics", action="store_true", help="fuzz the heuristic agents")
    parser.add_argument("--in-process", action="store_true", help="no child process")
    args = parser.parse_args(argv)
    if not args.in_process:
        result = run_in_child(args.games, args.cases, args.seed, args.heuristics)
        print(result.stdout, end="")
        print(result.stderr, end="", file=sys.stderr)
        if result.returncode < 0:
            print(f"the fuzz process crashed (signal {-result.returncode})", file=sys.stderr)
        return 1 if result.returncode else 0
    failed = False
    run = fuzz_heuristic if args.heuristics else fuzz
    for name in args.games:
        report = run(get_game(name), args.cases, args.seed)
        print(report.line(), flush=True)
        for failure in report.failures:
            print("  " + failure, flush=True)
        failed |= bool(report.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
