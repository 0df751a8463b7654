"""A native Stable-Baselines3 ``VecEnv`` over the batched kernels, for self-play training.

In each of the B games the learner plays one seat, or every seat of one team (partners
share the policy and the reward); the other seats are played by opponents drawn from a pool
at every new deal (:class:`~presages_env.training.learner_batch.LearnerBatch` does the
playing). SB3 only ever sees learner decisions. ``env_method("action_masks")`` serves
sb3-contrib's ``MaskablePPO``. The learner sees ``features`` of its observation
(``agents/features.py``: raw, or with the heuristic's hints); with ``critic_state`` the
global state and the acting seat follow them, for a centralised critic
(``training/central_critic.py``).

Episode ends are reported the SB3 way: ``infos[i]["episode"]`` (return and length), and for a
game cut by ``max_steps`` ``infos[i]["TimeLimit.truncated"] = True`` with the learner's
observation at the cut in ``infos[i]["terminal_observation"]``, so PPO bootstraps its value
instead of learning the cut as the game's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from presages_env.agents.base import Agent
from presages_env.core.game import Game
from presages_env.core.validation import optional_seed
from presages_env.training.learner_batch import SEED_BOUND, LearnerBatch


class SelfPlayVecEnv(VecEnv):
    """The games of a :class:`~presages_env.training.learner_batch.LearnerBatch` (made from
    the same arguments: the game, the number of games, the opponents, then its settings by
    name) as SB3 steps them."""

    def __init__(
        self, game: str | Game, num_envs: int, opponents: Sequence[Agent], **settings: Any
    ) -> None:
        self.batch = LearnerBatch(game, num_envs, opponents, **settings)
        self.vec = self.batch.vec
        self.game = self.batch.game
        self.num_players = self.batch.num_players
        self.team_play = self.batch.team_play
        self.features = self.batch.features
        self._rng = np.random.default_rng(self.batch.seed)
        self.render_mode = None
        low, high = self.batch.bounds()
        observation_space = spaces.Box(low, high, dtype=np.float32)
        action_space = spaces.Discrete(self.game.num_actions(self.num_players))
        super().__init__(num_envs, observation_space, action_space)

    # ---- the pool and the seats, as the training loop reads them ------------------------
    @property
    def opponents(self) -> list[Agent]:
        return self.batch.opponents

    @property
    def learner_seat(self) -> np.ndarray:
        return self.batch.learner_seat

    @property
    def is_learner(self) -> np.ndarray:
        return self.batch.is_learner

    def set_opponents(self, opponents: Sequence[Agent]) -> None:
        """Draw future opponents uniformly from ``opponents``; games in progress keep theirs."""
        self.batch.set_opponents(opponents)

    # ---- VecEnv API ----------------------------------------------------------------------
    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next ``reset`` (SB3's API; ``None`` draws one); checked here, not there."""
        return super().seed(optional_seed(seed))

    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._reset_seeds()
        return self.batch.reset(int(self._rng.integers(SEED_BOUND)))

    def step_async(self, actions: np.ndarray) -> None:
        """Check the learner's actions (one legal action per game) before anything moves."""
        self._pending = self.batch.check_actions(actions)

    def step_wait(self):
        out = self.batch.step(self._pending)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i, ret, length in out.episodes:
            infos[i]["episode"] = {"r": ret, "l": length}
        for i in np.flatnonzero(out.truncated):
            infos[i]["TimeLimit.truncated"] = True
            infos[i]["terminal_observation"] = out.final_obs[i]
        return out.obs, out.rewards, out.terminated | out.truncated, infos

    def action_masks(self) -> np.ndarray:
        return self.batch.masks.astype(np.bool_)

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
