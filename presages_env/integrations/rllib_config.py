"""PPO on the new API stack, set up for the games: env registered, masking module, runner.

The action-masking module (:class:`~presages_env.integrations.rllib_module.ActionMaskingPPOModule`)
reads the ``{"observations", "action_mask"}`` observations and gives illegal actions zero
probability. Its network is RLlib's default MLP: tanh layers of ``hiddens`` for the policy and
the value function apart, which is exactly the shape of the library's PPO checkpoints
(:mod:`~presages_env.integrations.rllib_convert` turns one into the other).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from presages_env.integrations.rllib_env import CardGameMultiAgentEnv
from presages_env.integrations.rllib_module import ActionMaskingPPOModule
from presages_env.integrations.rllib_runner import BatchedEnvRunner

ENV_NAME = "presages_env"


def register() -> str:
    """Register :class:`CardGameMultiAgentEnv` with Ray Tune as ``"presages_env"``."""
    register_env(ENV_NAME, CardGameMultiAgentEnv)
    return ENV_NAME


def masking_module_spec(hiddens: Sequence[int] = (256, 256)) -> RLModuleSpec:
    return RLModuleSpec(
        module_class=ActionMaskingPPOModule,
        model_config={"fcnet_hiddens": list(hiddens), "fcnet_activation": "tanh"},
    )


def ppo_config(
    env_config: dict[str, Any],
    modules: Sequence[str] = ("learner",),
    trained: Sequence[str] = ("learner",),
    policy_mapping_fn: Callable | None = None,
    hiddens: Sequence[int] = (256, 256),
    num_envs: int = 64,
    batched: bool = True,
) -> PPOConfig:
    """A PPO config over ``env_config`` (:class:`CardGameMultiAgentEnv`'s) where every
    module in ``modules`` is a masking MLP and only ``trained`` learn. ``batched`` steps the
    ``num_envs`` games of each env runner in one numba call (:class:`BatchedEnvRunner`);
    otherwise RLlib steps one Python env per game. Default mapping: every agent to the
    first module (plain self-play)."""
    spec = masking_module_spec(hiddens)
    mapping = policy_mapping_fn or (lambda agent_id, episode, **kwargs: modules[0])
    config = (
        PPOConfig()
        .environment(register(), env_config=dict(env_config))
        .env_runners(num_envs_per_env_runner=num_envs)
        .multi_agent(
            policies=set(modules), policy_mapping_fn=mapping, policies_to_train=list(trained)
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(modules, spec)))
    )
    if batched:
        config.env_runners(env_runner_cls=BatchedEnvRunner)
    return config
