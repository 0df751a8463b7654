"""The agent interface: act on a batch of (observation, mask) pairs."""

from __future__ import annotations

import numba as nb
import numpy as np

from presages_env.core.rng import choose_legal, splitmix_next


class Agent:
    """A policy over the flat observation and the int8 legal-action mask.

    Subclasses implement :meth:`act_batch`; :meth:`act` is the single-pair convenience.
    An agent only sees what its seat observes, so it can sit in any seat of any batch.
    """

    name: str = "agent"
    needs_state: bool = False  # True for agents that act on full states (``act_states``)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One legal action per row of ``masks`` (``obs`` is ``[B, D]``, ``masks`` ``[B, A]``)."""
        raise NotImplementedError

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(obs[None, :], mask[None, :])[0])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


@nb.njit(cache=True)
def uniform_legal(masks, rng_state, actions):
    """Uniformly random legal action per row, from one splitmix64 stream."""
    for i in range(masks.shape[0]):
        rng_state[0], bits = splitmix_next(rng_state[0])
        actions[i] = choose_legal(masks[i], bits)


class RandomAgent(Agent):
    """Uniform over the legal actions; seeded, so tournaments are reproducible."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng_state = np.array([seed], dtype=np.int64)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = np.empty(masks.shape[0], dtype=np.int64)
        uniform_legal(masks, self._rng_state, actions)
        return actions
