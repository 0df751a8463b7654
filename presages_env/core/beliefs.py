"""Checking a game's ``sample_world`` against the truth: rejection sampling and a chi-square test.

``sample_world(state, seat, seed)`` must draw uniformly among the full states the seat cannot
tell from the real one. On a small position the truth can be sampled directly: deal the
hidden cards at random, replay the same actions, and keep the deals under which the seat
saw exactly what it saw in the real game (its observation after every step, which is its
whole information under perfect recall). :func:`rejection_keys` does that; :func:`world_keys`
asks ``sample_world`` instead; :func:`homogeneity` compares the two samples with a
chi-square test of homogeneity. The test's failure threshold is fixed before running
(:data:`Z_FAIL`), and every sample is seeded, so a result is reproducible.

The actions are replayed as they were played, so the candidates are conditioned on each
action's identity: a position must let the seat know every action it replays (a card given
to the seat, an exchange it took part in), or the truth sampled here knows more than the
seat. Under that condition a deal and its final state determine each other, and uniform
deals give the uniform distribution over consistent final states that ``sample_world``
must draw from.

Used by the tests of every game (``tests/<game>/test_<game>_beliefs.py``); a researcher
writing a variant can check their own ``sample_world`` the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence

import numpy as np

from .game import Game
from .header import HDR_TERMINAL

# One-sided z of the Wilson-Hilferty normal approximation of the chi-square statistic
# above which the two samples are declared different (p < 0.001).
Z_FAIL = 3.09
# Categories whose pooled count is below this are merged into one, as the chi-square
# approximation needs.
MIN_POOLED = 10

Key = Callable[[np.ndarray], Hashable]


def seen_by(game: Game, start: np.ndarray, actions: Sequence[int], seat: int) -> list[bytes] | None:
    """The seat's observations after the start and after every action, or None if an action
    is illegal on the way (the deal cannot have produced this game)."""
    n = game.num_players_of(start)
    state = start.copy()
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    game.kernel.observe(state, np.int64(seat), obs)
    seen = [obs.tobytes()]
    for action in actions:
        if state[HDR_TERMINAL]:
            return None
        game.kernel.legal_mask(state, mask)
        if not mask[action]:
            return None
        game.kernel.step(state, np.int64(action), rewards)
        game.kernel.observe(state, np.int64(seat), obs)
        seen.append(obs.tobytes())
    return seen


def final_state(game: Game, start: np.ndarray, actions: Sequence[int]) -> np.ndarray:
    """``start`` after ``actions``, each checked."""
    state = start.copy()
    rewards = np.zeros(game.num_players_of(state), dtype=np.float32)
    for action in actions:
        game.step(state, action, rewards)
    return state


def rejection_keys(
    game: Game,
    real_start: np.ndarray,
    candidate_starts: Iterable[np.ndarray],
    actions: Sequence[int],
    seat: int,
    key: Key,
    wanted: int,
) -> Counter:
    """Keys of the final states of the first ``wanted`` candidate starts under which ``seat``
    sees what it saw from ``real_start`` (the true distribution, when the candidates are the
    prior's deals drawn independently)."""
    truth = seen_by(game, real_start, actions, seat)
    if truth is None:
        raise ValueError("the actions are not legal from the real start")
    keys: Counter = Counter()
    for start in candidate_starts:
        if seen_by(game, start, actions, seat) == truth:
            keys[key(final_state(game, start, actions))] += 1
            if sum(keys.values()) == wanted:
                return keys
    raise ValueError(f"only {sum(keys.values())} of {wanted} candidates were consistent")


def world_keys(
    game: Game, state: np.ndarray, seat: int, key: Key, count: int, seed: int
) -> Counter:
    """Keys of ``count`` worlds ``sample_world`` draws for ``seat`` from ``state``."""
    return Counter(key(game.sample_world(state, seat, seed + i)) for i in range(count))


def homogeneity(a: Counter, b: Counter) -> tuple[float, int, float]:
    """Chi-square test that two samples come from one distribution: (statistic, degrees of
    freedom, z). Rare categories (pooled count below :data:`MIN_POOLED`) are merged."""
    total_a, total_b = sum(a.values()), sum(b.values())
    rows: list[tuple[int, int]] = []
    rare = [0, 0]
    for category in set(a) | set(b):
        pair = (a[category], b[category])
        if sum(pair) < MIN_POOLED:
            rare[0] += pair[0]
            rare[1] += pair[1]
        else:
            rows.append(pair)
    if sum(rare) > 0:
        rows.append((rare[0], rare[1]))
    if len(rows) < 2:
        return 0.0, 0, 0.0
    statistic = 0.0
    for count_a, count_b in rows:
        pooled = (count_a + count_b) / (total_a + total_b)
        for count, total in ((count_a, total_a), (count_b, total_b)):
            expected = pooled * total
            statistic += (count - expected) ** 2 / expected
    dof = len(rows) - 1
    ratio = (statistic / dof) ** (1 / 3)
    z = (ratio - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return statistic, dof, z
