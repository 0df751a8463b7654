"""The batched kernels as a ``gymnasium.vector.VectorEnv`` of single-agent views.

``LearnerVectorEnv`` is :class:`~presages_env.training.single_env.SingleAgentEnv` at full
speed: B games stepped together in numba, the learner playing one seat (or team) of each
against opponents (:class:`~presages_env.training.learner_batch.LearnerBatch`). Made by
``gymnasium.make_vec("presages_env/<game>-v0", num_envs=B,
vectorization_mode="vector_entry_point", opponents=...)`` or directly.

Autoreset: ``"next_step"`` (Gymnasium's default, what RLlib's env runners expect): a step
that ends a game returns its final observation, and the next step of that env ignores its
action and returns the new deal's first observation with reward 0. ``"same_step"``: the new
deal's observation is returned at once and the final one is in ``infos["final_obs"]``.
The legal actions are in ``infos["action_mask"]`` (``int8[B, A]``) and ``action_masks()``.
Illegal actions raise ``ValueError`` before any game moves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from presages_env.core.validation import vector_seed
from presages_env.training.learner_batch import SEED_BOUND, LearnerBatch
from presages_env.training.opponents import OpponentSpec, opponent_agents

AUTORESET_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


class LearnerVectorEnv(VectorEnv):
    def __init__(
        self,
        game: str,
        num_envs: int,
        opponents: OpponentSpec = "random",
        num_players: int | None = None,
        team_play: bool = False,
        features: str = "raw",
        max_steps: int = 0,
        autoreset_mode: str | AutoresetMode = "next_step",
        **options: Any,
    ) -> None:
        modes = {**AUTORESET_MODES, **{mode: mode for mode in AUTORESET_MODES.values()}}
        if autoreset_mode not in modes:
            raise ValueError(f"autoreset_mode must be one of {list(AUTORESET_MODES)}")
        self.autoreset_mode = modes[autoreset_mode]
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        self._opponent_spec = opponents
        seed = int(np.random.default_rng().integers(SEED_BOUND))  # until reset(seed=...)
        self.batch = LearnerBatch(
            game,
            num_envs,
            opponent_agents(opponents, game, seed),
            num_players=num_players,
            team_play=team_play,
            seed=seed,
            features=features,
            max_steps=max_steps,
            **options,
        )
        self.num_envs = self.batch.num_envs
        low, high = self.batch.bounds()
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.masks.shape[1])
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._autoreset = np.zeros(self.num_envs, dtype=np.bool_)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal every game anew; ``seed`` (one int for the whole batch, or a list of
        ``num_envs`` whose first does) fixes every deal, seat and opponent that follows."""
        seed = vector_seed(seed, self.num_envs)  # before Gymnasium's seeding, which has its own
        super().reset(seed=seed)
        opponents = None
        if seed is not None:
            opponents = opponent_agents(self._opponent_spec, self.batch.game.name, seed)
        obs = self.batch.reset(seed, opponents)
        self._autoreset[:] = False
        return obs, self._infos()

    def step(self, actions: Any):
        skip = self._autoreset if self.autoreset_mode == AutoresetMode.NEXT_STEP else None
        out = self.batch.step(actions, skip)
        ended = out.terminated | out.truncated
        infos = self._infos()
        obs = out.obs
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            obs = np.where(ended[:, None], out.final_obs, out.obs)
            self._autoreset = ended
        elif ended.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = out.final_obs[i]
            infos.update(final_obs=final, _final_obs=ended)
        return obs, out.rewards, out.terminated, out.truncated, infos

    def action_masks(self) -> np.ndarray:
        """``bool[B, A]``: the learner's legal actions in every game."""
        return self.batch.masks.astype(np.bool_)

    def _infos(self) -> dict[str, np.ndarray]:
        masks = self.batch.masks.copy()
        return {"action_mask": masks, "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}
