"""RLlib policies as the library's agents: so ``evaluate.py`` scores them like any other.

The masking module's default network (separate tanh MLPs for policy and value, linear
heads) is the network of :class:`~presages_env.agents.ppo.PPOAgent`, so conversion renames
tensors; the result saves as a safe checkpoint (``policy.pt``). Reading an RLlib checkpoint
unpickles Python objects (it can run any code), so :func:`load_rllib_checkpoint` requires
``trusted=True``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import torch
from torch import nn

from presages_env.agents.checkpoint import FORMAT, VERSION, check_checkpoint, pack_checkpoint
from presages_env.agents.features import RawFeatures
from presages_env.agents.ppo import PPOAgent, build_policy
from presages_env.games import get_game

# RLlib parameter name -> library (SB3) parameter name
RENAMES = (
    (r"^encoder\.actor_encoder\.net\.mlp\.(\d+)\.", r"mlp_extractor.policy_net.\1."),
    (r"^encoder\.critic_encoder\.net\.mlp\.(\d+)\.", r"mlp_extractor.value_net.\1."),
    (r"^pi\.net\.mlp\.0\.", "action_net."),
    (r"^vf\.net\.mlp\.0\.", "value_net."),
)
UNUSED = re.compile(r"log_std_clip_param_const$")


def module_to_agent(module, game: str, num_players: int | None = None) -> PPOAgent:
    """The RLlib masking PPO ``module`` (a ``TorchRLModule``, not inference-only: the
    value function converts too) as a :class:`PPOAgent`."""
    config = module.model_config
    if config.get("fcnet_activation", "tanh") != "tanh" or config.get("vf_share_layers"):
        raise ValueError("only RLlib's default tanh MLP without shared layers converts")
    return weights_to_agent(module.state_dict(), config["fcnet_hiddens"], game, num_players)


def weights_to_agent(
    weights: dict, hiddens: list[int], game: str, num_players: int | None = None
) -> PPOAgent:
    """An agent from the weights of RLlib's default tanh PPO MLP with ``hiddens`` (as
    ``learner_group.get_weights()[module_id]`` gives them), checked like a checkpoint."""
    game_obj = get_game(game)
    n = game_obj.default_players if num_players is None else game_obj.check_num_players(num_players)
    tensors = {}
    for name, tensor in weights.items():
        if UNUSED.search(name):
            continue
        renamed = name
        for pattern, replacement in RENAMES:
            renamed = re.sub(pattern, replacement, renamed)
        if renamed == name:
            raise ValueError(f"{name!r} is not a tensor of RLlib's default PPO MLP")
        as_float = torch.as_tensor(np.asarray(tensor), dtype=torch.float32)
        tensors[renamed] = as_float.clone(memory_format=torch.contiguous_format)
    hiddens = [int(h) for h in hiddens]
    low = game_obj.obs_low(n).astype(np.float32)
    high = game_obj.obs_high(n).astype(np.float32)
    metadata = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "features": RawFeatures.name,
        "observation_size": int(low.size),
        "num_actions": int(game_obj.num_actions(n)),
        "net_arch": {"pi": hiddens, "vf": hiddens},
        "activation_fn": nn.Tanh.__name__,
    }
    saved = pack_checkpoint(metadata, low, high, tensors)
    metadata, features = check_checkpoint(saved, game, n)
    policy = build_policy(metadata, saved)
    policy.set_training_mode(False)
    return PPOAgent(policy, features=features)


def load_rllib_checkpoint(
    path: str | Path,
    game: str,
    module_id: str = "learner",
    num_players: int | None = None,
    *,
    trusted: bool = False,
) -> PPOAgent:
    """The module ``module_id`` of an RLlib algorithm checkpoint as a :class:`PPOAgent`;
    only with ``trusted=True`` (RLlib checkpoints unpickle: load only those you made)."""
    if not trusted:
        raise ValueError(
            f"{path} is an RLlib checkpoint: loading one unpickles Python objects, which can "
            "run any code. Pass trusted=True only for checkpoints you made, then save the "
            "agent with .save('policy.pt') (the safe format)"
        )
    from ray.rllib.core.rl_module.rl_module import RLModule

    module_path = Path(path) / "learner_group" / "learner" / "rl_module" / module_id
    if not module_path.is_dir():
        raise ValueError(f"{path} has no module {module_id!r} (looked in {module_path})")
    return module_to_agent(RLModule.from_checkpoint(module_path), game, num_players)
