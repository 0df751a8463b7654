"""A native Stable-Baselines3 ``VecEnv`` over the batched kernels, for self-play training.

In each of the B games the learner plays one seat, or every seat of one team (partners
share the policy and the reward); the other seats are played by opponents drawn from a pool
at every new deal. ``step`` applies the learner's actions, then lets opponents act until
every game waits for the learner again, so SB3 only ever sees learner decisions. Learner
seats rotate: each deal draws one uniformly. ``env_method("action_masks")`` serves
sb3-contrib's ``MaskablePPO``. The learner sees ``features`` of its observation
(``agents/features.py``: raw, or with the heuristic's hints).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

import presages_env
from presages_env.agents.base import Agent
from presages_env.agents.features import make_features
from presages_env.core.actions import legal_actions
from presages_env.core.validation import check_actions


class SelfPlayVecEnv(VecEnv):
    def __init__(
        self,
        game: str,
        num_envs: int,
        opponents: Sequence[Agent],
        num_players: int | None = None,
        team_play: bool = False,
        seed: int = 0,
        opponent_weights: Sequence[float] | None = None,
        features: str = "raw",
        **options: Any,
    ) -> None:
        if not opponents:
            raise ValueError("give at least one opponent agent")
        self.vec = presages_env.make_vec(
            game, num_envs, num_players=num_players, seed=seed, **options
        )
        self.game = self.vec.game
        self.num_players = self.vec.num_players
        self.team_play = team_play
        self.opponents = list(opponents)
        weights = np.ones(len(self.opponents)) if opponent_weights is None else opponent_weights
        self.opponent_weights = np.asarray(weights, dtype=np.float64) / np.sum(weights)
        self._rng = np.random.default_rng(seed)
        n, b = self.num_players, num_envs
        self.learner_seat = np.zeros(b, dtype=np.int64)
        self.is_learner = np.zeros((b, n), dtype=np.bool_)
        self.opponent_of = np.zeros(b, dtype=np.int64)
        self._episode_return = np.zeros(b)
        self._episode_length = np.zeros(b, dtype=np.int64)
        self._carry = np.zeros(b, dtype=np.float32)
        self._actions = np.full(b, -1, dtype=np.int64)
        self._finished: list[tuple[int, float, int]] = []
        self.render_mode = None
        self.features = make_features(features, self.game.name, self.game.num_actions(n))
        low, high = self.features.low_high(self.game.obs_low(n), self.game.obs_high(n))
        observation_space = spaces.Box(low, high, dtype=np.float32)
        action_space = spaces.Discrete(self.game.num_actions(n))
        super().__init__(num_envs, observation_space, action_space)

    # ---- seats and opponents ------------------------------------------------------------
    def set_opponents(self, opponents: Sequence[Agent]) -> None:
        """Draw future opponents uniformly from ``opponents``; games in progress keep theirs."""
        for agent in opponents:
            if agent not in self.opponents:
                self.opponents.append(agent)
        self.opponent_weights = np.array([a in opponents for a in self.opponents], dtype=float)
        self.opponent_weights /= self.opponent_weights.sum()

    def _new_deals(self, envs: np.ndarray) -> None:
        """Draw the learner's seat (or team) and the opponent for freshly dealt games."""
        n = self.num_players
        for i in envs:
            seat = int(self._rng.integers(n))
            self.learner_seat[i] = seat
            if self.team_play:
                teams = self.game.teams(self.vec.states[i])
                self.is_learner[i] = teams == teams[seat]
            else:
                self.is_learner[i] = np.arange(n) == seat
        self.opponent_of[envs] = self._rng.choice(
            len(self.opponents), size=len(envs), p=self.opponent_weights
        )

    def _learner_to_act(self) -> np.ndarray:
        return self.is_learner[np.arange(self.num_envs), self.vec.current]

    def _play_opponents(self, rewards: np.ndarray, done: np.ndarray) -> None:
        """Step opponents until every game waits for the learner; collect learner rewards."""
        rows = np.arange(self.num_envs)
        while True:
            waiting = ~self._learner_to_act()
            if not waiting.any():
                return
            self._actions[:] = -1
            for k, agent in enumerate(self.opponents):
                envs = np.flatnonzero(waiting & (self.opponent_of == k))
                if envs.size:
                    self._actions[envs] = agent.act_batch(self.vec.obs[envs], self.vec.masks[envs])
            out = self.vec.step(self._actions)
            gained = out.rewards[rows, self.learner_seat]
            # rewards of a game that already ended in this call belong to the next episode
            self._carry += np.where(done, gained, 0.0)
            rewards += np.where(done, 0.0, gained)
            ended = np.flatnonzero(out.done & ~done)
            done |= out.done
            self._end_episodes(ended, rewards)

    def _end_episodes(self, envs: np.ndarray, rewards: np.ndarray) -> None:
        self._episode_return[envs] += rewards[envs]
        for i in envs:
            self._finished.append(
                (int(i), float(self._episode_return[i]), int(self._episode_length[i]))
            )
        self._episode_return[envs] = 0.0
        self._episode_length[envs] = 0
        self._new_deals(envs)

    # ---- VecEnv API ----------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.vec.reset(int(self._rng.integers(2**62)))
        self._reset_seeds()
        self._new_deals(np.arange(self.num_envs))
        self._episode_return[:] = 0.0
        self._episode_length[:] = 0
        self._carry[:] = 0.0
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        self._play_opponents(rewards, done)
        return self._learner_obs()

    def step_async(self, actions: np.ndarray) -> None:
        """Check the learner's actions (one legal action per game) before anything moves."""
        actions = check_actions(actions, self.num_envs)
        in_range = (actions >= 0) & (actions < self.vec.num_actions)
        legal = self.vec.masks[np.arange(self.num_envs), np.where(in_range, actions, 0)] == 1
        illegal = np.flatnonzero(~(in_range & legal))
        if illegal.size:
            i = int(illegal[0])
            raise ValueError(
                f"learner action {int(actions[i])} is not legal in game {i}; legal actions "
                f"there: {legal_actions(self.vec.masks[i])} (no game was stepped)"
            )
        self._pending = actions

    def step_wait(self):
        rows = np.arange(self.num_envs)
        rewards = self._carry.copy()
        self._carry[:] = 0.0
        self._episode_length += 1
        out = self.vec.step(self._pending)
        rewards += out.rewards[rows, self.learner_seat]
        done = out.done.copy()
        self._finished = []
        self._end_episodes(np.flatnonzero(done), rewards)
        self._play_opponents(rewards, done)
        self._episode_return[~done] += rewards[~done]
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i, ret, length in self._finished:
            infos[i]["episode"] = {"r": ret, "l": length}
        return self._learner_obs(), rewards, done, infos

    def _learner_obs(self) -> np.ndarray:
        return self.features(self.vec.obs, self.vec.masks)

    def action_masks(self) -> np.ndarray:
        return self.vec.masks.astype(np.bool_)

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self, method_name)(*args, **kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
