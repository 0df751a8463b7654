"""The ``states`` kind: corrupted real states must be refused or play out cleanly.

Every case takes a real state from random play, corrupts it (an extreme or boundary value in
one slot, a random value, two slots swapped, one slot copied over another — a card in two
places —, or several slots at once; or, in the pending decision's slots (those its decision
signature reads, :mod:`presages_env.core.decisions`), one value from the range real states
hold there, or the whole pending decision of another real state) and checks the outcome is
one of:

- ``refused``: :func:`~presages_env.core.validation.checked_state` raised ``ValueError`` or
  ``TypeError``;
- ``played``: the state was accepted, the states the kernel makes of it in its first
  ``CLOSURE_STEPS`` decisions are accepted too (an accepted state leads only to states the
  validator accepts), and random legal play from it reaches the end, with a legal action at
  every decision and every seat observed at every step.

Anything else (a kernel exception, no legal action, a game that does not end, a crash) is a
failure. Run it under ``NUMBA_BOUNDSCHECK=1`` so that an out-of-bounds access raises instead
of corrupting memory; :mod:`presages_env.fuzzing` does that in a child process, so a crash is
reported as a failure instead of killing the caller::

    python -m presages_env.fuzzing --kinds states --cases 10000
    python -m presages_env.fuzzing --kinds states --games presages --cases 500 --seed 3
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from presages_env.core.game import Game
from presages_env.core.header import HDR_TERMINAL
from presages_env.core.validation import checked_state
from presages_env.fuzzing import FuzzReport
from presages_env.games import get_game

# What a caller checks on every state a play-out reaches (raises AssertionError on a fault).
StateCheck = Callable[[np.ndarray, np.random.Generator], None]
# Longer than any game's longest match played at random; a game still going is stuck.
MAX_PLAYOUT_STEPS = 50_000
EXTREMES = (-(2**63), -(2**31), -(10**9), -1000, -2, -1, 0, 1, 2, 3, 7, 13, 36, 100, 10**9)
KINDS = ("extreme", "boundary", "random", "swap", "copy", "several")
PENDING_KINDS = ("pending", "pending_copy")  # need a Corpus of real states
# Decisions after an accepted corrupted state whose states must be accepted in turn.
CLOSURE_STEPS = 4


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


class _ReadRecorder(list):
    """A state's values that remember which slots were read (see :func:`pending_slots`)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(values)
        self.read: set[int] = set()

    def __getitem__(self, index):
        if isinstance(index, slice):
            self.read.update(range(*index.indices(len(self))))
        else:
            self.read.add(index % len(self))
        return super().__getitem__(index)


class _RecordingState:
    def __init__(self, state: np.ndarray) -> None:
        self.values = _ReadRecorder(state.tolist())

    def tolist(self) -> _ReadRecorder:
        return self.values


def pending_slots(game: Game, state: np.ndarray) -> list[int]:
    """The slots ``state``'s decision signature reads (signatures read ``state.tolist()``)."""
    recording = _RecordingState(state)
    game.validator.decision_signature(recording)
    return sorted(recording.values.read)


@dataclass
class Corpus:
    """Real states, with what the pending-decision corruptions draw from."""

    game: Game
    states: list[np.ndarray]
    pending: list[list[int]]  # slots each state's decision signature reads
    ranges: dict[int, tuple[np.ndarray, np.ndarray]]  # per state size: each slot's min, max

    @classmethod
    def of(cls, game: Game, states: list[np.ndarray]) -> Corpus:
        ranges = {}
        for size in {state.size for state in states}:
            same = np.stack([state for state in states if state.size == size])
            ranges[size] = (same.min(axis=0), same.max(axis=0))
        live = [s for s in states if not s[HDR_TERMINAL]]
        return cls(game, live, [pending_slots(game, s) for s in live], ranges)


def corrupt_pending(
    state: np.ndarray, kind: str, rng: np.random.Generator, corpus: Corpus
) -> tuple[str, np.ndarray]:
    """In-range corruption of the pending decision: one of its slots set to a value real
    states hold there, or every slot of another real state's pending decision copied in."""
    out = state.copy()
    if kind == "pending_copy":
        donor = int(rng.integers(len(corpus.states)))
        other = corpus.states[donor]
        if other.size != state.size:
            return "pending decision of a state of another size: unchanged", out
        slots = corpus.pending[donor]
        out[slots] = other[slots]
        return f"pending slots {slots} copied from another state", out
    i = int(rng.choice(pending_slots(corpus.game, state)))
    low, high = corpus.ranges[state.size]
    out[i] = int(rng.integers(int(low[i]), int(high[i]) + 1))
    return f"pending slot {i}: {state[i]} -> {out[i]}", out


def corruptions(game: Game, cases: int, seed: int) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """``cases`` (description, original, corrupted) triples, every kind in turn."""
    rng = np.random.default_rng(seed)
    originals = real_states(game, max(1, cases // 8), rng)
    corpus = Corpus.of(game, originals)
    kinds = KINDS + PENDING_KINDS if corpus.states else KINDS
    for case in range(cases):
        original = originals[case % len(originals)]
        kind = kinds[case % len(kinds)]
        if kind in PENDING_KINDS:
            description, state = corrupt_pending(original, kind, rng, corpus)
        else:
            description, state = corrupt(original, kind, rng)
        yield description, original, state


def play_out(
    game: Game, state: np.ndarray, rng: np.random.Generator, check: StateCheck | None = None
) -> None:
    """Random legal play to the end, observing every seat; raises AssertionError if stuck.
    ``check`` (a per-game hook: its heuristic, its worlds) sees every state reached."""
    n = game.num_players_of(state)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    for step in range(MAX_PLAYOUT_STEPS):
        for seat in range(n):
            game.kernel.observe(state, np.int64(seat), obs)
        if check is not None:
            check(state, rng)
        if 0 < step <= CLOSURE_STEPS:
            try:
                checked_state(game, state)
            except ValueError as error:
                message = f"the kernel's state {step} steps on is refused: {error}"
                raise AssertionError(message) from None
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


def run_case(game: Game, state: np.ndarray, seed: int = 0, check: StateCheck | None = None) -> str:
    """``"refused"`` or ``"played"``; raises on anything else (see the module docstring)."""
    try:
        valid = checked_state(game, state)
    except (TypeError, ValueError):
        return "refused"
    play_out(game, valid, np.random.default_rng(seed), check)
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


def fuzz_states(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    return fuzz(get_game(game_name), cases, seed)
