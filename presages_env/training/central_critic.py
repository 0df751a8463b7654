"""MAPPO-style centralised critic for MaskablePPO: the actor reads the seat's features, the
critic reads them plus the global state (every hand, ``Game.global_state``) and the acting
seat.

The learner's input is ``[features | global state | one-hot of the acting seat]``
(``LearnerBatch(critic_state=True)``); :class:`CentralCriticPolicy` slices the first
``actor_size`` columns off for the actor, so the trained actor never depends on what its
seat cannot see. Partners share the policy (team play), as in MAPPO. For play and for the
safe checkpoint format, :func:`actor_policy` copies the actor into a plain policy on the
features alone.
"""

from __future__ import annotations

from typing import Any

import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn


def mlp(size: int, hidden: list[int], activation: type[nn.Module]) -> nn.Sequential:
    """Linear layers of the ``hidden`` widths from ``size`` inputs, each followed by
    ``activation`` (SB3's MLP, which the batched trainer's global critic also is)."""
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(size, width), activation()]
        size = width
    return nn.Sequential(*layers)


class SplitExtractor(nn.Module):
    """The actor's MLP on the first ``actor_size`` inputs, the critic's on all of them
    (the same layer names as SB3's ``MlpExtractor``, so the actor copies into one)."""

    def __init__(
        self,
        input_size: int,
        actor_size: int,
        pi: list[int],
        vf: list[int],
        activation: type[nn.Module],
    ) -> None:
        super().__init__()
        self.actor_size = actor_size
        self.policy_net = mlp(actor_size, pi, activation)
        self.value_net = mlp(input_size, vf, activation)
        self.latent_dim_pi = pi[-1] if pi else actor_size
        self.latent_dim_vf = vf[-1] if vf else input_size

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.policy_net(features[:, : self.actor_size])

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features)


class CentralCriticPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose actor sees only the first ``actor_size`` inputs."""

    def __init__(self, *args: Any, actor_size: int, **kwargs: Any) -> None:
        self.actor_size = actor_size
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        arch = self.net_arch
        pi, vf = (
            (arch.get("pi", []), arch.get("vf", [])) if isinstance(arch, dict) else (arch, arch)
        )
        self.mlp_extractor = SplitExtractor(
            self.features_dim, self.actor_size, list(pi), list(vf), self.activation_fn
        )


def actor_policy(policy: CentralCriticPolicy) -> MaskableActorCriticPolicy:
    """A plain policy on the actor's inputs with the actor's weights, to play and to save.
    Its value head is untrained (the critic needs the global state): it is for acting."""
    size = policy.actor_size
    space = policy.observation_space
    arch = policy.net_arch
    pi = arch.get("pi", []) if isinstance(arch, dict) else arch
    plain = MaskableActorCriticPolicy(
        spaces.Box(space.low[:size], space.high[:size], dtype=space.dtype),
        policy.action_space,
        lambda _: 0.0,
        net_arch={"pi": list(pi), "vf": []},
        activation_fn=policy.activation_fn,
    )
    plain.mlp_extractor.policy_net.load_state_dict(policy.mlp_extractor.policy_net.state_dict())
    plain.action_net.load_state_dict(policy.action_net.state_dict())
    plain.set_training_mode(False)
    return plain
