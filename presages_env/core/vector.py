"""A batch of B games stepped together in numba, with automatic reset.

Arrays, not dicts: ``obs[B, D]`` (observation of the seat to act in each game),
``masks[B, A]`` (its legal actions), ``rewards[B, P]`` (this step's reward of every seat),
``current[B]`` (seat to act), ``done[B]`` (the game ended or was truncated on this step and
has been replaced by a new deal, whose first observation is already in ``obs``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from presages_env.core.actions import legal_actions
from presages_env.core.batched import random_actions, random_actions_serial, specialise
from presages_env.core.game import Game
from presages_env.core.rng import derive_seed
from presages_env.core.validation import check_actions, check_array, check_int, check_seed

_kernel_cache: dict[str, Any] = {}

# Below this many games a batch is stepped on one thread: waking threads costs more.
PARALLEL_MIN_ENVS = 256


def batched_kernels(game: Game):
    """The batched kernels of ``game``, compiled (or loaded from cache) once per process."""
    if game.name not in _kernel_cache:
        _kernel_cache[game.name] = specialise(game)
    return _kernel_cache[game.name]


class VectorStep(NamedTuple):
    obs: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    current: np.ndarray
    done: np.ndarray
    truncated: np.ndarray


class VectorEnv:
    """B independent games of one kind; game i is seeded from ``(seed, i)`` alone.

    The returned arrays are owned by the env and overwritten by the next call; copy them to
    keep them. ``truncated[i]`` marks games cut by ``max_steps`` (0 = no cap).
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        num_players: int | None = None,
        seed: int = 0,
        max_steps: int = 0,
        **options: Any,
    ) -> None:
        num_envs = check_int(num_envs, "num_envs", 1)
        max_steps = check_int(max_steps, "max_steps (0 = no cap)", 0)
        seed = check_seed(seed)
        self.game = game
        self.num_players = game.check_num_players(
            game.default_players if num_players is None else num_players
        )
        self.options = game.make_options(self.num_players, **options)
        self.num_envs = int(num_envs)
        self.num_actions = game.num_actions(self.num_players)
        self.obs_size = game.obs_size(self.num_players)
        self.max_steps = int(max_steps)
        template = game.blank_state(self.num_players, self.options)
        self.states = np.repeat(template[None, :], self.num_envs, axis=0)
        b = self.num_envs
        self.obs = np.zeros((b, self.obs_size), dtype=game.obs_dtype)
        self.masks = np.zeros((b, self.num_actions), dtype=np.int8)
        self.rewards = np.zeros((b, self.num_players), dtype=np.float32)
        self.current = np.zeros(b, dtype=np.int64)
        self.done = np.zeros(b, dtype=np.bool_)
        self.truncated = np.zeros(b, dtype=np.bool_)
        kernels = batched_kernels(game)
        small = self.num_envs < PARALLEL_MIN_ENVS
        self._reset_all = kernels.reset_all_serial if small else kernels.reset_all
        self._step_all = kernels.step_all_serial if small else kernels.step_all
        self._random_actions = random_actions_serial if small else random_actions
        self.reset(seed)

    def _result(self) -> VectorStep:
        return VectorStep(
            self.obs, self.masks, self.rewards, self.current, self.done, self.truncated
        )

    def reset(self, seed: int = 0) -> VectorStep:
        """Deal every game anew; game i gets a seed derived from ``(seed, i)``."""
        seed = check_seed(seed)
        seeds = np.array([derive_seed(seed, i) for i in range(self.num_envs)], dtype=np.int64)
        self.rewards[:] = 0
        self.done[:] = False
        self.truncated[:] = False
        self._reset_all(self.states, seeds, self.obs, self.masks, self.current)
        return self._result()

    def step(self, actions: np.ndarray) -> VectorStep:
        """Apply one action per game; a negative one (say -1) skips that game: no reward,
        not done, same observation. An out-of-range or illegal action raises ``ValueError``
        (a non-integer array ``TypeError``); no game moves.
        """
        actions = check_actions(actions, self.num_envs)
        bad = self._step_all(
            self.states,
            actions,
            self.obs,
            self.masks,
            self.rewards,
            self.current,
            self.done,
            self.truncated,
            self.max_steps,
        )
        if bad >= 0:
            action = int(actions[bad])
            why = "is not legal" if 0 <= action < self.num_actions else "is out of range"
            raise ValueError(
                f"action {action} {why} in game {bad} (-1 skips a game); legal actions there: "
                f"{legal_actions(self.masks[bad])} (no game was stepped)"
            )
        return self._result()

    def random_actions(self, rng_states: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per game, drawn from per-game RNG states.

        ``rng_states`` (``int64[num_envs]``, C-contiguous) is advanced in place.
        """
        check_array(rng_states, "rng_states", (self.num_envs,), np.int64)
        actions = np.empty(self.num_envs, dtype=np.int64)
        self._random_actions(self.masks, rng_states, actions)
        return actions

    def reset_games(self, envs: np.ndarray, seeds: np.ndarray) -> VectorStep:
        """Deal the games ``envs`` anew from ``seeds`` now, whatever their state: for a caller
        that cuts games short at a point of its choosing (the others are untouched)."""
        if not isinstance(envs, np.ndarray) or envs.dtype != np.int64 or envs.ndim != 1:
            raise TypeError(f"envs must be a 1-d int64 array, got {getattr(envs, 'dtype', envs)}")
        check_array(seeds, "seeds", envs.shape, np.int64)
        if np.unique(envs).size != envs.size or (
            envs.size and not (envs.min() >= 0 and envs.max() < self.num_envs)
        ):
            raise ValueError(f"envs must be distinct indices in [0, {self.num_envs}): {envs}")
        if (seeds < 0).any():
            raise ValueError(f"seeds must be in [0, 2**63 - 1], got {seeds}")
        states, obs, masks = self.states[envs], self.obs[envs], self.masks[envs]
        current = self.current[envs]
        kernels = batched_kernels(self.game)
        kernels.reset_all_serial(states, seeds, obs, masks, current)
        self.states[envs], self.obs[envs], self.masks[envs] = states, obs, masks
        self.current[envs] = current
        self.rewards[envs] = 0
        self.done[envs] = False
        self.truncated[envs] = False
        return self._result()
