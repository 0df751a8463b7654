"""A trained MaskablePPO policy as an :class:`Agent` (needs the ``train`` extra: torch, sb3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from presages_env.agents.base import Agent


class PPOAgent(Agent):
    """Acts with a MaskablePPO policy; ``deterministic=False`` samples from it."""

    def __init__(self, policy, name: str = "ppo", deterministic: bool = True) -> None:
        self.policy = policy
        self.name = name
        self.deterministic = deterministic

    @classmethod
    def load(cls, path: str | Path, name: str | None = None, deterministic: bool = True):
        """Load a model saved by ``MaskablePPO.save`` (e.g. ``runs/ppo/model.zip``)."""
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(path), device="cpu")
        return cls(model.policy, name or Path(path).stem, deterministic)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = self.policy.predict(
            obs.astype(np.float32),
            deterministic=self.deterministic,
            action_masks=masks.astype(np.bool_),
        )
        return np.asarray(actions, dtype=np.int64)


def frozen_copy(policy, name: str) -> PPOAgent:
    """A snapshot of a learning policy that later updates do not change (for the pool)."""
    import copy

    snapshot = copy.deepcopy(policy)
    snapshot.set_training_mode(False)
    for parameter in snapshot.parameters():
        parameter.requires_grad_(False)
    return PPOAgent(snapshot, name, deterministic=False)
