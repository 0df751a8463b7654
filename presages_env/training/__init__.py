"""Learning on the batched kernels: single-agent views for Gymnasium and SB3, self-play PPO.

- :class:`SingleAgentEnv`: one game as a ``gymnasium.Env`` (the learner's seat or team
  against opponents), registered as ``presages_env/<game>-v0`` when this package is imported.
- :class:`LearnerVectorEnv`: the same view over B games as a ``gymnasium.vector.VectorEnv``.
- :class:`SelfPlayVecEnv`: the same view as a Stable-Baselines3 ``VecEnv`` (needs the
  ``train`` extra; imported on first use), and ``self_play.train``.
"""

from __future__ import annotations

from typing import Any

from presages_env.training.gym_vector import LearnerVectorEnv
from presages_env.training.learner_batch import LearnerBatch
from presages_env.training.registration import register_gymnasium_envs
from presages_env.training.single_env import SingleAgentEnv

# SelfPlayVecEnv comes from __getattr__ below (ruff's preview reads __all__ strictly)
__all__ = ["LearnerBatch", "LearnerVectorEnv", "SelfPlayVecEnv", "SingleAgentEnv"]  # noqa: F822

register_gymnasium_envs()


def __getattr__(name: str) -> Any:
    if name == "SelfPlayVecEnv":  # needs stable-baselines3: imported only when asked for
        from presages_env.training.vec_env import SelfPlayVecEnv

        return SelfPlayVecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
