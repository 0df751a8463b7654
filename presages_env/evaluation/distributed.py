"""Tournaments cut into chunks of games, played here or on Ray workers with the same result.

Chunk c of a series of head-to-head games holds games ``[c·C, (c+1)·C)`` (C =
``chunk_games``): its own vector env, dealt from ``derive_seed(seed, c)``, seats rotating
on as in one long series. A result therefore depends on ``(seed, chunk_games)`` and the
agents only (each chunk starts from a copy of them), never on where or in which order chunks
run: ``executor=None`` plays them in this process, :class:`RayExecutor` fans every (pairing,
chunk) out to a Ray cluster (local, or an existing one by ``address``), and both give
identical arrays. (Without chunks, :func:`~presages_env.evaluation.tournament.head_to_head`
deals one long series instead, so its numbers differ from a chunked run's by sampling only.)

With duplicate deals every chunk holds whole groups (``chunk_games`` is rounded down to a
multiple of the group size, one group at least) and game k is dealt from the series' seed
and its group alone, as in ``head_to_head(..., duplicate=True)``: the deals and seats then
never depend on the chunking, and deterministic agents give the same arrays as one long
series whatever ``chunk_games`` (agents with their own random generator draw afresh in each
chunk, as without duplicate deals).
"""

from __future__ import annotations

import copy
import itertools
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from presages_env.agents.base import Agent
from presages_env.core.rng import derive_seed
from presages_env.core.validation import MAX_NUM_ENVS, MAX_NUM_GAMES, check_int, check_seed
from presages_env.core.vector import VectorEnv
from presages_env.evaluation.tournament import (
    MatchResult,
    _one_side_against_the_rest,
    _play,
    check_duplicate_games,
    deal_group_size,
    duplicate_deals,
)
from presages_env.games.run_spec import as_game


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + count - 1`` of one series: ``agents[0]`` against ``agents[1]``.

    ``group_size`` > 1: duplicate deals, each game dealt from ``seed`` (the series' seed) and
    its group; else the chunk's vector env deals from ``seed``."""

    game: str
    agents: tuple[Agent, Agent]
    first: int
    count: int
    seed: int
    num_players: int | None
    num_envs: int
    options: dict[str, Any] = field(default_factory=dict)
    group_size: int = 1


def play_chunk(chunk: Chunk) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seat rewards, seat sides and focused sides of the chunk's games (runs anywhere).

    The agents are copied first: every chunk starts from them as given (a random agent's
    RNG included) whether it runs here after other chunks or alone on a worker."""
    vec = VectorEnv(
        as_game(chunk.game),
        min(chunk.num_envs, chunk.count),
        chunk.num_players,
        seed=chunk.seed,
        **chunk.options,
    )
    plan = _one_side_against_the_rest
    agents = copy.deepcopy(list(chunk.agents))
    deals = duplicate_deals(chunk.seed, chunk.group_size) if chunk.group_size > 1 else None
    return _play(vec, agents, plan, chunk.count, None, first_game=chunk.first, deals=deals)


class RayExecutor:
    """Runs chunks as Ray tasks: on the cluster at ``address``, else on a local Ray with
    ``num_cpus`` CPUs (started here, without dashboard, if Ray is not running yet)."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        import ray

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if not ray.is_initialized():
            if address:
                ray.init(address=address)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False)
        self._ray = ray
        self._task = ray.remote(num_cpus=1)(play_chunk)

    def map(self, fn: Callable, items: Iterable) -> list:
        if fn is not play_chunk:
            raise ValueError("RayExecutor runs play_chunk only")
        return self._ray.get([self._task.remote(item) for item in items])


class LocalExecutor:
    """Runs chunks one after the other in this process."""

    def map(self, fn: Callable, items: Iterable) -> list:
        return [fn(item) for item in items]


def chunked_round_robin(
    game: str,
    agents: dict[str, Agent],
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 256,
    chunk_games: int = 500,
    executor: LocalExecutor | RayExecutor | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
    duplicate: bool = False,
    **options: Any,
) -> list[MatchResult]:
    """A head-to-head for every ordered pair (or ``pairs``) of agents, every chunk of every
    pairing in one fan-out; each pairing plays the same deals (``duplicate``: each deal once
    per side, as :func:`~presages_env.evaluation.tournament.head_to_head` does).

    Args:
        game: the game's name.
        agents: the agents by name.
        num_games: games per pairing.
        num_players: the table's size; None: the game's usual count.
        seed: the seed the deals are drawn from.
        num_envs: how many games are played at once (the vector env's batch).
        chunk_games: games per chunk, the unit of work an executor runs (with ``duplicate``,
            rounded down to whole deal groups).
        executor: where chunks run (:class:`LocalExecutor`, :class:`RayExecutor`); None: here.
        pairs: the ordered pairs to play; None: every ordered pair of distinct agents.
        duplicate: play each deal once per side, the chunks keeping whole deal groups.
        **options: the game's options (and ``max_steps``).

    Returns:
        One :class:`MatchResult` per pairing, in the order of ``pairs``.
    """
    num_games = check_int(num_games, "num_games", 2, MAX_NUM_GAMES)
    chunk_games = check_int(chunk_games, "chunk_games", 1, MAX_NUM_GAMES)
    num_envs = check_int(num_envs, "num_envs", 1, MAX_NUM_ENVS)
    seed = check_seed(seed)
    pairs = list(pairs or itertools.permutations(agents, 2))
    if not pairs:
        raise ValueError(f"a round robin needs at least two agents, got {sorted(agents)}")
    group = 1
    if duplicate:
        group = check_duplicate_games(num_games, deal_group_size(game, num_players, **options))
        chunk_games = max(chunk_games // group, 1) * group
    starts = list(range(0, num_games, chunk_games))
    chunks = [
        Chunk(
            as_game(game).name,
            (agents[a], agents[b]),
            first,
            min(chunk_games, num_games - first),
            seed if duplicate else derive_seed(seed, c),
            num_players,
            num_envs,
            dict(options),
            group,
        )
        for a, b in pairs
        for c, first in enumerate(starts)
    ]
    played = (executor or LocalExecutor()).map(play_chunk, chunks)
    results = []
    for index, (a, b) in enumerate(pairs):
        parts = played[index * len(starts) : (index + 1) * len(starts)]
        arrays = [np.concatenate(column) for column in zip(*parts, strict=True)]
        n = arrays[0].shape[1]
        results.append(MatchResult(a, b, chunks[0].game, n, *arrays, group))
    return results
