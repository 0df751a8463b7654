"""RLlib (new API stack) for every game: ``pip install presages_env[rllib]``.

- :class:`CardGameMultiAgentEnv`: one game as a turn-based ``MultiAgentEnv``
  (config ``{"game": ..., "num_players": ..., "agent_ids": "seat" | "team", ...}``),
  observations ``{"observations": float32, "action_mask": float32}``.
- :class:`BatchedEnvRunner` / :class:`BatchedMultiAgentEnv`: the env runner that steps all
  its games in one numba call (``num_envs_per_env_runner`` of them).
- :func:`ppo_config`: PPO with :class:`ActionMaskingPPOModule` (RLlib's default PPO MLP
  that never draws an illegal action) over either runner;
  :func:`team_of` reads the side an agent id plays, for policy mappings shared per team.
- :func:`module_to_agent`, :func:`weights_to_agent`, :func:`load_rllib_checkpoint`: RLlib
  policies as :class:`~presages_env.agents.ppo.PPOAgent` (for ``evaluate.py``; save them as
  ``policy.pt``).

See ``baselines/train_rllib.py`` for self-play with a league of frozen snapshots.
"""

from presages_env.integrations.rllib_config import masking_module_spec, ppo_config, register
from presages_env.integrations.rllib_convert import (
    load_rllib_checkpoint,
    module_to_agent,
    weights_to_agent,
)
from presages_env.integrations.rllib_env import CardGameMultiAgentEnv
from presages_env.integrations.rllib_module import ActionMaskingPPOModule
from presages_env.integrations.rllib_runner import BatchedEnvRunner
from presages_env.integrations.rllib_spaces import team_of
from presages_env.integrations.rllib_vector import BatchedMultiAgentEnv

__all__ = [
    "ActionMaskingPPOModule",
    "BatchedEnvRunner",
    "BatchedMultiAgentEnv",
    "CardGameMultiAgentEnv",
    "load_rllib_checkpoint",
    "masking_module_spec",
    "module_to_agent",
    "ppo_config",
    "register",
    "team_of",
    "weights_to_agent",
]
