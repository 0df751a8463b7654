"""How long games are and how many choices they offer, measured through the vector env.

:func:`game_statistics` plays whole games with one agent in every seat and records, at each
decision, how many actions were legal. Game k is dealt in the first env free once games
0..k-1 have started, from the vector env's fixed seed, so a run replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from presages_env.agents.base import Agent, act_on
from presages_env.core.game import Game
from presages_env.evaluation.report import markdown_table
from presages_env.evaluation.tournament import _vector_env


@dataclass(frozen=True, eq=False)
class GameStatistics:
    """Per-game decision counts and per-decision legal-action counts of a series of games.

    ``lengths[g]`` is the number of decisions of game g (every step, forced or not),
    ``truncated[g]`` whether it was cut short, and ``legal_counts`` the number of legal
    actions at every decision of every game (in the order they were taken).
    """

    game: str
    num_players: int
    agent: str
    lengths: np.ndarray
    truncated: np.ndarray
    legal_counts: np.ndarray

    @property
    def num_games(self) -> int:
        return int(self.lengths.size)

    @property
    def mean_length(self) -> float:
        return float(self.lengths.mean())

    @property
    def median_length(self) -> float:
        return float(np.median(self.lengths))

    @property
    def max_length(self) -> int:
        return int(self.lengths.max())

    @property
    def branching(self) -> float:
        """Mean number of legal actions per decision (over every decision of every game)."""
        return float(self.legal_counts.mean())

    @property
    def forced_share(self) -> float:
        """Share of decisions with exactly one legal action."""
        return float(np.mean(self.legal_counts == 1))


def game_statistics(
    game: str | Game,
    agent: Agent,
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 128,
    **options: Any,
) -> GameStatistics:
    """Play ``num_games`` games with ``agent`` in every seat; see :class:`GameStatistics`.

    ``options`` are the game's options (and ``max_steps``). Agents that act on states
    (``needs_state``) get the games' states, the others their observations and masks.

    Args:
        game: the game's name, or its Game.
        agent: the agent of every seat.
        num_games: how many games.
        num_players: the table's size; None: the game's usual count.
        seed: the seed the deals are drawn from.
        num_envs: how many games are played at once (the vector env's batch).
        **options: the game's options (and ``max_steps``).

    Returns:
        The series' :class:`GameStatistics`.
    """
    vec = _vector_env(game, num_games, num_players, seed, num_envs, options, least=1)
    b = vec.num_envs
    lengths = np.zeros(num_games, dtype=np.int64)
    truncated = np.zeros(num_games, dtype=np.bool_)
    counts: list[np.ndarray] = []
    game_of_env = np.arange(b)  # -1: idle, every game is started
    steps = np.zeros(b, dtype=np.int64)
    next_game, finished = b, 0
    while finished < num_games:
        playing = np.flatnonzero(game_of_env >= 0)
        counts.append(vec.masks[playing].sum(axis=1, dtype=np.int64))
        actions = np.full(b, -1, dtype=np.int64)
        actions[playing] = act_on(agent, vec.states[playing], vec.obs[playing], vec.masks[playing])
        out = vec.step(actions)
        steps[playing] += 1
        for env in playing[out.done[playing]]:
            k = game_of_env[env]
            lengths[k], truncated[k] = steps[env], out.truncated[env]
            steps[env] = 0
            finished += 1
            if next_game < num_games:
                game_of_env[env] = next_game
                next_game += 1
            else:
                game_of_env[env] = -1
    return GameStatistics(
        vec.game.name, vec.num_players, agent.name, lengths, truncated, np.concatenate(counts)
    )


def statistics_table(rows: list[GameStatistics]) -> str:
    """A Markdown table, one row per series.

    Args:
        rows: one :class:`GameStatistics` per series.

    Returns:
        A Markdown table.
    """
    header = [
        "players",
        "play",
        "games",
        "decisions: mean / median / max",
        "legal actions per decision",
        "forced decisions",
        "truncated",
    ]
    body = [
        [
            str(s.num_players),
            s.agent,
            f"{s.num_games:,}",
            f"{s.mean_length:,.0f} / {s.median_length:,.0f} / {s.max_length:,}",
            f"{s.branching:.2f}",
            f"{100 * s.forced_share:.1f}%",
            str(int(s.truncated.sum())),
        ]
        for s in rows
    ]
    return markdown_table(header, body)
