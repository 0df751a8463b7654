"""The batched kernels as one RLlib ``VectorMultiAgentEnv``.

RLlib's ``MultiAgentEnvRunner`` steps ``num_envs_per_env_runner`` games as a Python list of
envs; :class:`~presages_env.integrations.rllib_runner.BatchedEnvRunner` gives it instead one
:class:`BatchedMultiAgentEnv`, which steps every game in one numba call
(:class:`~presages_env.core.vector.VectorEnv`) and has exactly the agents, spaces, rewards
and ends of as many :class:`~presages_env.integrations.rllib_env.CardGameMultiAgentEnv`
(autoreset ``"next_step"``, as RLlib expects); its :meth:`~BatchedMultiAgentEnv.advance` is
the same step as arrays, for the runner's bulk sampling.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv

from presages_env.core.aec import ILLEGAL_ACTION_MODES, ILLEGAL_ACTION_PENALTY
from presages_env.core.validation import (
    MAX_STEP,
    check_actions,
    check_int,
    optional_seed,
    vector_seed,
)
from presages_env.core.vector import VectorEnv
from presages_env.games import DEFAULT_GAME, get_game
from presages_env.integrations import rllib_spaces as rs

SEED_BOUND = 2**62


@dataclasses.dataclass
class Advance:
    """One step of every game, as arrays over the games (see ``advance``)."""

    played: np.ndarray  # the games where a seat acted
    actors: np.ndarray  # the seat that acted in each game
    rewards: np.ndarray  # [games, seats]
    done: np.ndarray  # ended by the rules
    illegal: np.ndarray  # ended by an illegal action (illegal_action="terminate")
    cut: np.ndarray  # ended by max_steps
    agents: list[list[str]]  # each game's agent ids in the deal just played
    last_obs: dict[int, dict]  # every seat's observation of each cut game

    @property
    def ended(self) -> np.ndarray:
        return np.flatnonzero(self.done | self.illegal | self.cut)


class BatchedMultiAgentEnv(VectorMultiAgentEnv):
    """``num_envs`` games of ``config`` (the :class:`CardGameMultiAgentEnv` config)."""

    def __init__(self, config: dict, num_envs: int, seed: int | None = None) -> None:
        super().__init__()
        config = dict(config)
        if "game" not in config:
            raise ValueError(f"the env config must name a game, e.g. {{'game': {DEFAULT_GAME!r}}}")
        self.agent_ids = config.pop("agent_ids", "seat")
        self.illegal_action = config.pop("illegal_action", "terminate")
        if self.illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}")
        max_steps = config.pop("max_steps", None)
        self.max_steps = 0 if max_steps is None else check_int(max_steps, "max_steps", 0, MAX_STEP)
        self._rng = np.random.default_rng(optional_seed(seed))
        game = get_game(config.pop("game"))
        self.vec = VectorEnv(game, num_envs, config.pop("num_players", None), **config)
        self.num_envs = b = self.vec.num_envs
        n = self.vec.num_players
        self.possible_agents = rs.possible_agents(n, self.agent_ids)
        space = rs.observation_space(game, n)
        action = spaces.Discrete(self.vec.num_actions)
        self.single_observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.single_action_spaces = dict.fromkeys(self.possible_agents, action)
        self.single_observation_space = spaces.Dict(self.single_observation_spaces)
        self.single_action_space = spaces.Dict(self.single_action_spaces)
        self.metadata = {"autoreset_mode": "next_step"}
        # RLlib reads each sub-env's spaces through envs[i].unwrapped: all games share them.
        self.envs = [self] * b
        self._agents: list[list[str]] = [[] for _ in range(b)]
        self._decisions = np.zeros(b, dtype=np.int64)
        self._autoreset = np.zeros(b, dtype=np.bool_)
        self._observation = np.zeros(self.vec.obs_size, dtype=game.obs_dtype)

    def get_observation_space(self, agent_id: str) -> spaces.Space:
        return self.single_observation_spaces[agent_id]

    def get_action_space(self, agent_id: str) -> spaces.Space:
        return self.single_action_spaces[agent_id]

    def reset(self, *, seed: Any = None, options: dict | None = None):
        seed = vector_seed(seed, self.num_envs)  # one seed fixes the batch (or a list's first)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.vec.reset(int(self._rng.integers(SEED_BOUND)))
        self._new_deals(np.arange(self.num_envs))
        self._autoreset[:] = False
        return [self._current_obs(b) for b in range(self.num_envs)], [{}] * self.num_envs

    def step(self, actions: list[dict[str, Any]]):
        acting = self._actions(actions)
        step = self.advance(acting)
        result = [self._reset_step(b) for b in range(self.num_envs)]
        for b in step.played:
            result[b] = self._played_step(b, step)
        self._autoreset[:] = False
        self._autoreset[step.ended] = True
        obs, rewards, terminated, truncated = (list(column) for column in zip(*result, strict=True))
        return obs, rewards, terminated, truncated, [{}] * self.num_envs

    def advance(self, acting: np.ndarray) -> Advance:
        """Play ``acting`` (one action per game, -1 to leave a game as it is), end the games
        that ended or went illegal or over ``max_steps``, deal them anew; what happened."""
        acting = check_actions(acting, self.num_envs)
        if ((acting < -1) | (acting >= self.vec.num_actions)).any():
            raise ValueError(f"actions must be in [-1, {self.vec.num_actions}), got {acting}")
        illegal = self._illegal(acting)
        actors = self.vec.current.copy()
        out = self.vec.step(np.where(illegal, -1, acting))
        self._decisions += acting >= 0
        played = np.flatnonzero(acting >= 0)
        over = (self._decisions >= self.max_steps) & (self.max_steps > 0)
        cut = np.zeros(self.num_envs, dtype=np.bool_)
        cut[played] = ~out.done[played] & over[played]
        done = np.zeros(self.num_envs, dtype=np.bool_)
        done[played] = out.done[played]
        step = Advance(
            played=played,
            actors=actors,
            rewards=out.rewards.copy(),
            done=done,
            illegal=illegal,
            cut=cut,
            agents=list(self._agents),
            last_obs={int(b): self._every_obs(int(b)) for b in np.flatnonzero(cut)},
        )
        self._redeal(np.flatnonzero(cut | illegal))
        self._new_deals(step.ended)
        return step

    # ---- one game of the step --------------------------------------------------------
    def _actions(self, actions: list[dict[str, Any]]) -> np.ndarray:
        """The action of each game's seat to act (-1 in games being reset), checked."""
        if not isinstance(actions, (list, tuple)) or len(actions) != self.num_envs:
            raise TypeError(f"actions must be a list of {self.num_envs} dicts (one per game)")
        acting = np.full(self.num_envs, -1, dtype=np.int64)
        for b, action in enumerate(actions):
            if self._autoreset[b]:
                continue
            agent = self._agents[b][self.vec.current[b]]
            if not isinstance(action, dict) or set(action) != {agent}:
                raise ValueError(f"game {b}: {agent} is to act (alone), got {action!r}")
            acting[b] = check_int(
                action[agent], f"game {b}: the action", 0, self.vec.num_actions - 1
            )
        return acting

    def _illegal(self, acting: np.ndarray) -> np.ndarray:
        rows = np.flatnonzero(acting >= 0)
        illegal = np.zeros(self.num_envs, dtype=np.bool_)
        illegal[rows] = self.vec.masks[rows, acting[rows]] == 0
        if illegal.any() and self.illegal_action == "raise":
            b = int(np.flatnonzero(illegal)[0])
            raise ValueError(
                f"action {int(acting[b])} is not legal in game {b}; legal actions there: "
                f"{np.flatnonzero(self.vec.masks[b]).tolist()} (no game was stepped)"
            )
        return illegal

    def _reset_step(self, b: int) -> tuple:
        """A game that ended on the previous step shows its new deal (next-step autoreset)."""
        return self._current_obs(b), {}, {"__all__": False}, {"__all__": False}

    def _played_step(self, b: int, step: Advance) -> tuple:
        agents = step.agents[b]
        if step.illegal[b]:
            rewards = {agents[step.actors[b]]: ILLEGAL_ACTION_PENALTY}
        else:
            actor = step.actors[b]  # always rewarded, even 0: RLlib needs it if it acts again
            row = step.rewards[b]
            rewards = {agents[i]: float(r) for i, r in enumerate(row) if r or i == actor}
        if step.illegal[b] or step.done[b]:
            return {}, rewards, {"__all__": True}, {"__all__": False}
        if step.cut[b]:
            return step.last_obs[b], rewards, {"__all__": False}, {"__all__": True}
        return self._current_obs(b), rewards, {"__all__": False}, {"__all__": False}

    def _current_obs(self, b: int) -> dict[str, dict[str, np.ndarray]]:
        agent = self._agents[b][self.vec.current[b]]
        return {agent: rs.observation(self.vec.obs[b], self.vec.masks[b])}

    def _every_obs(self, b: int) -> dict[str, dict[str, np.ndarray]]:
        """Every seat's observation of game ``b`` (only the seat to act has legal actions)."""
        state, current = self.vec.states[b], int(self.vec.current[b])
        no_mask = np.zeros(self.vec.num_actions, dtype=np.int8)
        obs = {}
        for seat, agent in enumerate(self._agents[b]):
            self.vec.game.kernel.observe(state, np.int64(seat), self._observation)
            mask = self.vec.masks[b] if seat == current else no_mask
            obs[agent] = rs.observation(self._observation, mask)
        return obs

    # ---- deals -------------------------------------------------------------------------
    def _redeal(self, envs: np.ndarray) -> None:
        """Deal anew the games cut short (by max_steps or an illegal action)."""
        if envs.size:
            envs = envs.astype(np.int64)
            self.vec.reset_games(envs, self._rng.integers(SEED_BOUND, size=envs.size))

    def _new_deals(self, envs: np.ndarray) -> None:
        for b in envs:
            teams = self.vec.game.teams(self.vec.states[b])
            self._agents[b] = rs.agents_of_seats(teams, self.agent_ids)
        self._decisions[envs] = 0
