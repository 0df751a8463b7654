"""A trained MaskablePPO policy as an :class:`Agent` (needs the ``train`` extra: torch, sb3)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.features import RawFeatures


class PPOAgent(Agent):
    """Acts with a MaskablePPO policy on ``features(obs, masks)`` (default: the raw
    observation); ``deterministic=False`` samples from it."""

    def __init__(
        self,
        policy,
        name: str = "ppo",
        deterministic: bool = True,
        features: RawFeatures | None = None,
    ) -> None:
        self.policy = policy
        self.name = name
        self.deterministic = deterministic
        self.features = features

    @classmethod
    def load(cls, path: str | Path, name: str | None = None, deterministic: bool = True):
        """Load a policy saved by :meth:`save` (``.pt``) or a ``MaskablePPO.save`` zip (whose
        features, if not raw, are read from the run's ``config.json`` beside it)."""
        import torch

        from presages_env.agents.features import make_features

        path = Path(path)
        if path.suffix == ".pt":
            from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

            saved = torch.load(str(path), map_location="cpu", weights_only=False)
            policy = MaskableActorCriticPolicy(**saved["data"])
            policy.load_state_dict(saved["state_dict"])
            spec = saved.get("features")
        else:
            from sb3_contrib import MaskablePPO

            policy = MaskablePPO.load(str(path), device="cpu").policy
            config = path.parent / "config.json"
            spec = None
            if config.exists():
                run = json.loads(config.read_text())
                spec = {"name": run.get("features", "raw"), "game": run["game"]}
        features = None
        if spec and spec["name"] != RawFeatures.name:
            features = make_features(spec["name"], spec["game"], policy.action_space.n)
        policy.set_training_mode(False)
        return cls(policy, name or path.stem, deterministic, features)

    def save(self, path: str | Path) -> None:
        """Save the policy alone (no optimiser state, a third of a model zip) and its
        features, for shipping."""
        import torch

        features = self.features
        torch.save(
            {
                "state_dict": self.policy.state_dict(),
                "data": self.policy._get_constructor_parameters(),
                "features": features and {"name": features.name, "game": features.game},
            },
            str(path),
        )

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        x = obs.astype(np.float32) if self.features is None else self.features(obs, masks)
        actions, _ = self.policy.predict(
            x, deterministic=self.deterministic, action_masks=masks.astype(np.bool_)
        )
        return np.asarray(actions, dtype=np.int64)


def frozen_copy(policy, name: str, features: RawFeatures | None = None) -> PPOAgent:
    """A snapshot of a learning policy that later updates do not change (for the pool)."""
    import copy

    snapshot = copy.deepcopy(policy)
    snapshot.set_training_mode(False)
    for parameter in snapshot.parameters():
        parameter.requires_grad_(False)
    return PPOAgent(snapshot, name, deterministic=False, features=features)
