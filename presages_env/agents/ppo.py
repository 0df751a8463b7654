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
        """Load a policy saved by :meth:`save` (``.pt``) or a whole ``MaskablePPO.save`` zip."""
        path = Path(path)
        if path.suffix == ".pt":
            from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

            policy = MaskableActorCriticPolicy.load(str(path), device="cpu")
        else:
            from sb3_contrib import MaskablePPO

            policy = MaskablePPO.load(str(path), device="cpu").policy
        return cls(policy, name or path.stem, deterministic)

    def save(self, path: str | Path) -> None:
        """Save the policy alone (no optimiser state): a third of a model zip, for shipping."""
        self.policy.save(str(path))

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
