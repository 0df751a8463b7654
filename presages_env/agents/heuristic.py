"""Each game's hand-written strategy (``games/<game>/heuristic.py``) as an :class:`Agent`."""

from __future__ import annotations

import importlib

import numpy as np

from presages_env.agents.base import Agent


class HeuristicAgent(Agent):
    """Plays the game's documented heuristic; see the module docstring of each game's."""

    def __init__(self, game: str) -> None:
        self.name = "heuristic"
        self.game = game
        module = importlib.import_module(f"presages_env.games.{game}.heuristic")
        self._kernel = module.heuristic_actions
        self.strategy = (module.__doc__ or "").strip()

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = np.empty(masks.shape[0], dtype=np.int64)
        self._kernel(obs, masks, actions)
        return actions
