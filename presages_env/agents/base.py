"""The agent interface: act on a batch of (observation, mask) pairs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np

from presages_env.core.rng import choose_legal, splitmix_next
from presages_env.core.validation import check_seed


class Agent:
    """A policy over the flat observation and the int8 legal-action mask.

    Subclasses implement :meth:`act_batch`; :meth:`act` is the single-pair convenience.
    An agent only sees what its seat observes, so it can sit in any seat of any batch.
    Every subclass's ``act_batch`` is wrapped (so none can forget it): arrays of the wrong
    shape or dtype, or a row with no legal action, are refused before the agent's own code
    runs (:meth:`check_batch`), and an action the mask does not allow is never returned (an
    observation that contradicts its mask raises ``ValueError``).
    """

    name: str = "agent"
    needs_state: bool = False  # True for agents that act on full states (``act_states``)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "act_batch" in cls.__dict__:
            cls.act_batch = _checked_act_batch(cls.__dict__["act_batch"])

    def check_batch(self, obs: np.ndarray, masks: np.ndarray) -> None:
        """Refuse a batch this agent cannot act on; game-specific agents add width checks."""
        check_batch(obs, masks)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One legal action per row of ``masks`` (``obs`` is ``[B, D]``, ``masks`` ``[B, A]``).

        Args:
            obs: observations, one row each (``[B, D]``).
            masks: their legal-action masks (``[B, A]``, int8).

        Returns:
            One legal action per row (``[B]``, int64).
        """
        raise NotImplementedError

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One decision: :meth:`act_batch` on a batch of one.

        Args:
            obs: one observation, as the seat sees it.
            mask: its legal-action mask (int8, 1 where legal).

        Returns:
            The action, an int the mask allows.
        """
        return int(self.act_batch(obs[None, :], mask[None, :])[0])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def act_on(agent: Any, states: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``agent``'s actions in games given both ways: search agents (``needs_state``) read the
    full states, from which they sample worlds; the others the seats' observations and masks."""
    if getattr(agent, "needs_state", False):
        return agent.act_states(states)
    return agent.act_batch(obs, masks)


def check_batch(obs: Any, masks: Any) -> None:
    """``obs`` ``[B, D]`` and ``masks`` ``int8[B, A]`` with at least one legal action a row."""
    for name, array in (("obs", obs), ("masks", masks)):
        if not isinstance(array, np.ndarray) or array.ndim != 2:
            shape = getattr(array, "shape", type(array).__name__)
            raise TypeError(f"{name} must be a 2-d numpy array [B, ...], got {shape}")
    if masks.dtype != np.int8:
        raise TypeError(f"masks must be int8 (1 = legal), got {masks.dtype}")
    if obs.shape[0] != masks.shape[0]:
        raise ValueError(f"obs has {obs.shape[0]} rows but masks has {masks.shape[0]}")
    if masks.size and ((masks != 0) & (masks != 1)).any():
        raise ValueError("masks must hold only 0 and 1")
    empty = np.flatnonzero(~masks.any(axis=1))
    if empty.size:
        raise ValueError(f"row {int(empty[0])} of masks has no legal action")


def _checked_act_batch(act_batch: Callable) -> Callable:
    @functools.wraps(act_batch)
    def checked(self: Agent, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        self.check_batch(obs, masks)
        actions = act_batch(self, obs, masks)
        rows = np.arange(masks.shape[0])
        in_range = (actions >= 0) & (actions < masks.shape[1])
        illegal = np.flatnonzero(~in_range | (masks[rows, np.where(in_range, actions, 0)] == 0))
        if illegal.size:
            row = int(illegal[0])
            raise ValueError(
                f"{self!r} found no legal action it could justify in row {row} (it chose "
                f"{int(actions[row])}): that row's observation contradicts its mask"
            )
        return actions

    return checked


@nb.njit(cache=True)
def uniform_legal(masks, rng_state, actions):
    """Uniformly random legal action per row, from one splitmix64 stream."""
    for i in range(masks.shape[0]):
        rng_state[0], bits = splitmix_next(rng_state[0])
        actions[i] = choose_legal(masks[i], bits)


class RandomAgent(Agent):
    """Uniform over the legal actions; seeded, so tournaments are reproducible.

    Args:
        seed: the seed of the random draws.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng_state = np.array([check_seed(seed)], dtype=np.int64)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = np.empty(masks.shape[0], dtype=np.int64)
        uniform_legal(masks, self._rng_state, actions)
        return actions


class ErringAgent(Agent):
    """``base`` except that each decision is, with probability ``epsilon``, a uniformly random
    legal action instead: an opponent of graded strength between ``base`` (0) and random play
    (1), which a curriculum can weaken or strengthen while it plays (``epsilon`` may change).

    Args:
        base: the agent whose decisions are kept.
        epsilon: the probability, from 0 to 1, of a random legal action instead.
        seed: the seed of the random draws.
    """

    def __init__(self, base: Agent, epsilon: float, seed: int = 0) -> None:
        self.base = base
        self.epsilon = epsilon
        self.name = f"erring {base.name}"
        self._random = RandomAgent(seed)
        self._draws = np.random.default_rng(check_seed(seed))

    @property
    def epsilon(self) -> float:
        return self._epsilon

    @epsilon.setter
    def epsilon(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
            raise TypeError(f"epsilon must be a number in [0, 1], got {value!r}")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {value!r}")
        self._epsilon = float(value)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = self.base.act_batch(obs, masks)
        errs = np.flatnonzero(self._draws.random(masks.shape[0]) < self._epsilon)
        if errs.size:
            actions[errs] = self._random.act_batch(obs[errs], masks[errs])
        return actions
