"""One game as a single-agent Gymnasium env (learner seat vs fixed opponents).

This is the conventional route (an AEC env wrapped for one agent, then SB3's
``DummyVecEnv``); the library ships it for users who need a plain ``gymnasium.Env`` and
as the reference the native :class:`~presages_env.training.vec_env.SelfPlayVecEnv` is
measured against in ``benchmarks/training_throughput.py``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import presages_env
from presages_env.agents.base import Agent


class SingleAgentEnv(gymnasium.Env):
    """The learner plays a seat drawn at each reset; ``opponent`` plays the others."""

    metadata = {"render_modes": []}

    def __init__(self, game: str, opponent: Agent, num_players: int | None = None, **options):
        self.aec = presages_env.make(game, num_players=num_players, **options)
        self.opponent = opponent
        n = self.aec.num_players
        game_obj = self.aec.game
        self.observation_space = spaces.Box(
            game_obj.obs_low(n).astype(np.float32),
            game_obj.obs_high(n).astype(np.float32),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(game_obj.num_actions(n))
        self._rng = np.random.default_rng()
        self.learner = "player_0"

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.aec.reset(seed=int(self._rng.integers(2**62)))
        self.learner = self.aec.possible_agents[int(self._rng.integers(self.aec.num_players))]
        reward = self._play_opponents()
        self._pending = reward
        return self._observation(), {}

    def step(self, action: Any):
        self.aec.step(int(action))
        reward = self._pending + self._play_opponents()
        self._pending = 0.0
        terminated = self.aec.terminations.get(self.learner, True)
        truncated = self.aec.truncations.get(self.learner, False)
        return self._observation(), float(reward), terminated, truncated, {}

    def action_masks(self) -> np.ndarray:
        return self.aec.observe(self.learner)["action_mask"].astype(np.bool_)

    def _observation(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"].astype(np.float32)

    def _play_opponents(self) -> float:
        """Let opponents act until the learner is to act or the game is over."""
        aec = self.aec
        reward = aec._cumulative_rewards[self.learner]
        while not (aec.terminations[self.learner] or aec.truncations[self.learner]):
            if aec.agent_selection == self.learner:
                break
            obs = aec.observe(aec.agent_selection)
            aec.step(self.opponent.act(obs["observation"], obs["action_mask"]))
            reward = aec._cumulative_rewards[self.learner]
        return float(reward)
