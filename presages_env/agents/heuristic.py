"""Each game's hand-written strategy (``games/<game>/heuristic.py``) as an :class:`Agent`."""

from __future__ import annotations

import numpy as np

from presages_env.agents.base import Agent
from presages_env.core.game import Game
from presages_env.games.run_spec import as_game


class HeuristicAgent(Agent):
    """Plays the game's documented heuristic; see the module docstring of each game's.

    Args:
        game: the game, or its name (its ``Game.heuristic`` plays).

    Raises:
        ValueError: a game without a heuristic.
    """

    def __init__(self, game: str | Game) -> None:
        self.name = "heuristic"
        self._game = as_game(game)
        self.game = self._game.name
        module = self._game.heuristic
        if module is None:
            raise ValueError(f"{self._game.title} has no heuristic (its Game declares none)")
        self._kernel = module.heuristic_actions
        self.strategy = (module.__doc__ or "").strip()
        self._low, self._high = observation_bounds(self._game)

    def check_batch(self, obs: np.ndarray, masks: np.ndarray) -> None:
        """The heuristic kernel reads observation values as indices: they must lie within
        the game's observation space."""
        super().check_batch(obs, masks)
        check_observations(self._game, obs, masks, self._low, self._high)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = np.empty(masks.shape[0], dtype=np.int64)
        self._kernel(obs, masks, actions)
        return actions


def check_observations(
    game, obs: np.ndarray, masks: np.ndarray, low: np.ndarray, high: np.ndarray
) -> None:
    """``obs``/``masks`` have the game's widths and dtype, and every entry of ``obs`` lies
    in ``[low, high]`` (:func:`observation_bounds`)."""
    n = game.max_players
    if obs.shape[1] != game.obs_size(n) or obs.dtype != game.obs_dtype:
        raise ValueError(
            f"{game.name} observations are {np.dtype(game.obs_dtype).name}[B, "
            f"{game.obs_size(n)}], got {obs.dtype}{list(obs.shape)}"
        )
    if masks.shape[1] != game.num_actions(n):
        raise ValueError(
            f"{game.name} masks have {game.num_actions(n)} columns, got {masks.shape[1]}"
        )
    outside = (obs < low) | (obs > high)
    if outside.any():
        row, col = (int(x) for x in np.argwhere(outside)[0])
        raise ValueError(
            f"obs[{row}, {col}] = {int(obs[row, col])} is outside the {game.name} observation "
            f"space [{int(low[col])}, {int(high[col])}]"
        )


def observation_bounds(game) -> tuple[np.ndarray, np.ndarray]:
    """Entry-wise observation bounds over every player count (widths do not depend on it)."""
    counts = range(game.min_players, game.max_players + 1)
    low = np.min([game.obs_low(n) for n in counts], axis=0)
    high = np.max([game.obs_high(n) for n in counts], axis=0)
    return low, high
