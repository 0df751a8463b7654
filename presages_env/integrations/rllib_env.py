"""Every game as an RLlib ``MultiAgentEnv`` (new API stack): turn-based, one env per game.

Only the seat to act gets an observation; rewards go to every seat that earns one (RLlib
adds those of seats not acting to their next step). When a game ends by its rules no
observation is sent (RLlib closes each seat's episode on its last one); when ``max_steps``
cuts it, every seat gets its final observation, which truncated episodes bootstrap from.

``illegal_action`` defaults to ``"terminate"`` here (the offender gets -1 and the game
ends), because RLlib's env checker steps one random action; a masking policy never takes
an illegal one. Pass ``"raise"`` to make a masking bug fail loudly instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import presages_env
from presages_env.games import DEFAULT_GAME
from presages_env.integrations import rllib_spaces as rs


class CardGameMultiAgentEnv(MultiAgentEnv):
    """``config``: ``game`` (required), ``num_players``, ``agent_ids`` (``"seat"`` or
    ``"team"``, see :mod:`~presages_env.integrations.rllib_spaces`), ``max_steps``,
    ``illegal_action`` and the game's options."""

    def __init__(self, config: dict | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        if "game" not in config:
            raise ValueError(f"the env config must name a game, e.g. {{'game': {DEFAULT_GAME!r}}}")
        self.agent_ids = config.pop("agent_ids", "seat")
        config.setdefault("illegal_action", "terminate")
        self.aec = presages_env.make(config.pop("game"), config.pop("num_players", None), **config)
        n = self.aec.num_players
        self.possible_agents = rs.possible_agents(n, self.agent_ids)
        self.agents = list(self.possible_agents)
        space = rs.observation_space(self.aec.game, n)
        action = self.aec.action_space("player_0")
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._agent_of_seat = rs.agents_of_seats(np.arange(n), "seat")

    def teams(self) -> dict[str, int]:
        """Team of every agent in the current deal."""
        teams = self.aec.game.teams(self.aec.get_state())
        return {a: int(t) for a, t in zip(self._agent_of_seat, teams, strict=True)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        teams = self.aec.game.teams(self.aec.get_state())
        self._agent_of_seat = rs.agents_of_seats(teams, self.agent_ids)
        self.agents = list(self._agent_of_seat)
        return self._observe_current(), {}

    def step(self, action_dict: dict[str, Any]):
        seat = self.aec.agent_selection
        agent = self._agent_of_seat[self.aec.possible_agents.index(seat)]
        if set(action_dict) != {agent}:
            raise ValueError(f"{agent} is to act (alone), got actions for {sorted(action_dict)}")
        self.aec.step(action_dict[agent])
        rewards = {
            self._agent_of_seat[i]: reward
            for i, reward in enumerate(self.aec.rewards[s] for s in self.aec.possible_agents)
            if reward or self._agent_of_seat[i] == agent
        }
        terminated = any(self.aec.terminations.values())
        truncated = any(self.aec.truncations.values()) and not terminated
        if terminated:
            obs = {}
        elif truncated:
            obs = {
                self._agent_of_seat[i]: self._observe(s)
                for i, s in enumerate(self.aec.possible_agents)
            }
        else:
            obs = self._observe_current()
        return obs, rewards, {"__all__": terminated}, {"__all__": truncated}, {}

    def render(self) -> str | None:
        return self.aec.render()

    def _observe(self, seat: str) -> dict[str, np.ndarray]:
        raw = self.aec.observe(seat)
        return rs.observation(raw["observation"], raw["action_mask"])

    def _observe_current(self) -> dict[str, dict[str, np.ndarray]]:
        seat = self.aec.agent_selection
        agent = self._agent_of_seat[self.aec.possible_agents.index(seat)]
        return {agent: self._observe(seat)}
