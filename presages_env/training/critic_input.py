"""What a centralised critic reads besides a seat's features: the game's global state (every
hand) and the acting seat, one-hot. Built here once for every trainer (SB3's
``CentralCriticPolicy`` through ``LearnerBatch``, the batched trainer's rollouts); the actor
never reads it."""

from __future__ import annotations

import numpy as np

from presages_env.core.game import Game
from presages_env.core.vector import VectorEnv


def critic_state_size(game: Game, num_players: int) -> int:
    """Numbers in one row of :func:`critic_state`."""
    return game.global_size(num_players) + num_players


def critic_state_bounds(game: Game, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 lower and upper bounds of a row of :func:`critic_state`."""
    low, high = game.global_bounds(num_players)
    zeros, ones = np.zeros(num_players), np.ones(num_players)
    return (
        np.concatenate([low, zeros]).astype(np.float32),
        np.concatenate([high, ones]).astype(np.float32),
    )


def critic_state(
    vec: VectorEnv, envs: np.ndarray, seats: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """``float32[len(envs), G + n]``: the global state of games ``envs`` and ``seats``
    one-hot (``out``: a buffer for every game's global state, filled in place)."""
    world = vec.global_states(out=out)[envs].astype(np.float32)
    return np.concatenate([world, np.eye(vec.num_players, dtype=np.float32)[seats]], axis=1)
