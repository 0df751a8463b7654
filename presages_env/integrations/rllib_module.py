"""PPO's default RLlib module with action masking, for ``{"observations", "action_mask"}``.

RLlib ships the same module as an example (``ActionMaskingTorchRLModule``), but that one is
built on ``PPOTorchRLModule``, which RLlib deprecates (importing it logs a warning); this one
is built on ``DefaultPPOTorchRLModule``, the class RLlib names instead. Its network is RLlib's
default MLP (separate policy and value encoders, linear heads), so the parameter names that
:mod:`~presages_env.integrations.rllib_convert` reads are RLlib's own.
"""

from __future__ import annotations

from typing import Any

import torch
from gymnasium import spaces
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from presages_env.integrations.rllib_spaces import MASK_KEY, OBS_KEY


class ActionMaskingPPOModule(DefaultPPOTorchRLModule):
    """The networks read the ``"observations"`` part; the ``"action_mask"`` part sets the
    logits of illegal actions to ``FLOAT_MIN``, so they are never drawn."""

    def __init__(self, *, observation_space: spaces.Dict | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, spaces.Dict) or set(observation_space) != {
            OBS_KEY,
            MASK_KEY,
        }:
            raise ValueError(
                f"the observation space must be a Dict of {OBS_KEY!r} and {MASK_KEY!r}, "
                f"got {observation_space}"
            )
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)
        self.observation_space = observation_space  # what RLlib's connectors see

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        batch, mask = _split(batch)
        return _masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        batch, mask = _split(batch)
        return _masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return super().compute_values(_split(batch)[0], embeddings)


def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor]:
    """The batch with the observations alone (a copy: RLlib's batch is left as it is), and
    the mask."""
    obs = batch[Columns.OBS]
    return {**batch, Columns.OBS: obs[OBS_KEY]}, obs[MASK_KEY]


def _masked(outputs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
    logits = outputs[Columns.ACTION_DIST_INPUTS]
    outputs[Columns.ACTION_DIST_INPUTS] = logits + torch.clamp(torch.log(mask), min=FLOAT_MIN)
    return outputs
