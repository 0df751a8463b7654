"""A trained MaskablePPO policy as an :class:`Agent` (needs the ``train`` extra: torch, sb3).

Checkpoints (``PPOAgent.save`` / ``PPOAgent.load``): the format, and the checks every
load passes before a network is built, are in :mod:`presages_env.agents.checkpoint`. A
checkpoint loaded for a game (``PPOAgent.load(path, game=...)``) must be of that game.

A ``MaskablePPO.save`` zip unpickles Python objects when loaded (it can run any code), so
``load`` reads one only with ``trusted=True``. To hand a policy to Stable-Baselines3,
export it the other way (any shipped checkpoint, in one line)::

    PPOAgent.load(shipped_checkpoint("president")).to_sb3("president.zip")
    model = MaskablePPO.load("president.zip")  # game and features in model.presages_env
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.checkpoint import (
    ACTIVATIONS,
    FORMAT,
    VERSION,
    check_checkpoint,
    check_choice,
    check_game,
    checked_features,
    pack_checkpoint,
    read_checkpoint,
    validate_metadata,
)
from presages_env.agents.features import RawFeatures, make_features
from presages_env.core.files import open_regular, read_json
from presages_env.core.game import Game
from presages_env.games import GAME_CLASSES
from presages_env.games.run_spec import as_game

SHIPPED = Path(__file__).resolve().parent.parent / "checkpoints"
# A run's config.json (a trainer's settings: under 2 KB, nested 3 deep)
MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH = 2**20, 8


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
    def load(
        cls,
        path: str | Path,
        name: str | None = None,
        deterministic: bool = True,
        *,
        trusted: bool = False,
        game: str | None = None,
        num_players: int | None = None,
    ) -> PPOAgent:
        """Load a checkpoint written by :meth:`save` (any name but ``.zip``; read without
        unpickling), or, only with ``trusted=True``, a ``MaskablePPO.save`` zip (its features
        read from the run's ``config.json`` beside it, if any). ``game`` and ``num_players``
        name the table it will play at: a checkpoint of another game or of other sizes is
        refused here rather than at its first move."""
        path = Path(path)
        if path.suffix != ".zip":
            policy, features = load_checkpoint(path, game, num_players)
        elif trusted:
            policy, features = _load_trusted_zip(path)
            if features is not None:  # a zip that names no game cannot be checked
                check_game(features.game, game)
        else:
            raise ValueError(
                f"{path} is a MaskablePPO zip: loading one unpickles Python objects, which can "
                "run any code. Load it with PPOAgent.load(path, trusted=True) only if you made "
                "it yourself, and convert it once with .save('policy.pt') (the safe format)"
            )
        policy.set_training_mode(False)
        return cls(policy, name or path.stem, deterministic, features)

    def save(self, path: str | Path, game: str | None = None) -> None:
        """Save the policy alone (no optimiser state) with its features, in the checkpoint
        format above. ``game`` is needed only when the agent has no features to name it."""
        import torch

        metadata = policy_metadata(self.policy, self._game(game), self.features)
        validate_metadata(metadata)
        checked_features(as_game(metadata["game"]), metadata)  # never write what load refuses
        space = self.policy.observation_space
        saved = pack_checkpoint(metadata, space.low, space.high, self.policy.state_dict())
        torch.save(saved, str(path))

    def to_sb3(self, path: str | Path, game: str | None = None) -> Path:
        """Write the policy as a ``MaskablePPO`` zip that ``MaskablePPO.load`` opens, to
        evaluate or fine-tune it in SB3; ``model.presages_env`` names its game and features
        (``PPOAgent.load(path, trusted=True)`` reads them back)."""
        from sb3_contrib import MaskablePPO

        metadata = policy_metadata(self.policy, self._game(game), self.features)
        model = MaskablePPO(
            "MlpPolicy",
            _SpacesOnly(self.policy.observation_space, self.policy.action_space),
            policy_kwargs={
                "net_arch": metadata["net_arch"],
                "activation_fn": self.policy.activation_fn,
            },
            device="cpu",
        )
        model.policy.load_state_dict(self.policy.state_dict())
        model.presages_env = {"game": metadata["game"], "features": metadata["features"]}
        model.save(str(path))
        return Path(path)

    def _game(self, game: str | None) -> str:
        known = None if self.features is None else self.features.game
        if game is None and known is None:
            raise ValueError("this agent has no features naming its game: pass save(path, game=)")
        if game is not None and known is not None and game != known:
            raise ValueError(f"game={game!r} but the agent's features are for {known!r}")
        return game if game is not None else known

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        x = obs.astype(np.float32) if self.features is None else self.features(obs, masks)
        actions, _ = self.policy.predict(
            x, deterministic=self.deterministic, action_masks=masks.astype(np.bool_)
        )
        return np.asarray(actions, dtype=np.int64)


def shipped_checkpoint(game: str | Game, num_players: int | None = None) -> Path:
    """The checkpoint shipped for ``game`` at ``num_players`` (default: the game's default
    count): the one trained at that count (``checkpoints/<game>_<n>p.pt``) where it exists,
    else the game's own (``checkpoints/<game>.pt``)."""
    spec = as_game(game)  # an unknown name is refused with the list of games
    n = spec.default_players if num_players is None else spec.check_num_players(num_players)
    per_count = SHIPPED / f"{spec.name}_{n}p.pt"
    return per_count if per_count.is_file() else SHIPPED / f"{spec.name}.pt"


class _SpacesOnly(gymnasium.Env):
    """Just the spaces a policy was built for: all SB3 needs to build a model around it."""

    def __init__(self, observation_space, action_space) -> None:
        self.observation_space, self.action_space = observation_space, action_space


def frozen_copy(policy, name: str, features: RawFeatures | None = None) -> PPOAgent:
    """A snapshot of a learning policy that later updates do not change (for the pool)."""
    import copy

    snapshot = copy.deepcopy(policy)
    snapshot.set_training_mode(False)
    for parameter in snapshot.parameters():
        parameter.requires_grad_(False)
    return PPOAgent(snapshot, name, deterministic=False, features=features)


# ---- writing ----------------------------------------------------------------------------
def policy_metadata(policy, game: str, features: RawFeatures | None) -> dict[str, Any]:
    """The metadata that rebuilds ``policy``; refuses policies the format cannot describe."""
    from gymnasium import spaces
    from stable_baselines3.common.torch_layers import FlattenExtractor
    from torch import nn

    space, actions = policy.observation_space, policy.action_space
    if not (isinstance(space, spaces.Box) and len(space.shape) == 1):
        raise ValueError(f"only flat Box observations can be saved, got {space}")
    if not (isinstance(actions, spaces.Discrete) and actions.start == 0):
        raise ValueError(f"only Discrete actions starting at 0 can be saved, got {actions}")
    if policy.features_extractor_class is not FlattenExtractor:
        raise ValueError(f"only FlattenExtractor policies can be saved, got {policy}")
    activation = policy.activation_fn.__name__
    if getattr(nn, activation, None) is not policy.activation_fn or activation not in ACTIVATIONS:
        raise ValueError(f"activation {policy.activation_fn} is not one of {ACTIVATIONS}")
    arch = policy.net_arch
    pi, vf = (arch.get("pi", []), arch.get("vf", [])) if isinstance(arch, dict) else (arch, arch)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "features": RawFeatures.name if features is None else features.name,
        "observation_size": int(space.shape[0]),
        "num_actions": int(actions.n),
        "net_arch": {"pi": [int(h) for h in pi], "vf": [int(h) for h in vf]},
        "activation_fn": activation,
    }


# ---- reading ----------------------------------------------------------------------------
def load_checkpoint(
    path: str | Path, game: str | None = None, num_players: int | None = None
) -> tuple[Any, RawFeatures]:
    """The policy and features stored at ``path``, built only once the whole file passed
    :func:`~presages_env.agents.checkpoint.check_checkpoint` (for ``game`` at ``num_players``,
    where given)."""
    saved = read_checkpoint(path)
    try:
        metadata, features = check_checkpoint(saved, game, num_players)
    except (TypeError, ValueError) as error:
        raise type(error)(f"{path}: {error}") from None
    return build_policy(metadata, saved), features


def build_policy(metadata: dict[str, Any], saved: dict[str, Any]):
    """The policy rebuilt from checked metadata and tensors."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from torch import nn

    policy = MaskableActorCriticPolicy(
        spaces.Box(saved["observation_low"].numpy(), saved["observation_high"].numpy()),
        spaces.Discrete(metadata["num_actions"]),
        _no_learning,
        net_arch=metadata["net_arch"],
        activation_fn=getattr(nn, metadata["activation_fn"]),
        ortho_init=False,  # the saved weights replace any initialisation
    )
    policy.load_state_dict(saved["policy"])
    return policy


def _no_learning(progress_remaining: float) -> float:
    """Learning-rate schedule of a loaded policy: it acts, it is not trained further."""
    return 0.0


def _load_trusted_zip(path: Path):
    """A ``MaskablePPO.save`` zip (unpickles: trusted files only) and its features: those
    :meth:`PPOAgent.to_sb3` recorded, else those of the run's ``config.json`` beside it."""
    from sb3_contrib import MaskablePPO

    with open_regular(path, "the MaskablePPO zip") as file:  # never a pipe or a device
        model = MaskablePPO.load(file, device="cpu")
    policy = model.policy
    config = path.parent / "config.json"
    if hasattr(model, "presages_env"):
        run = model.presages_env
    elif config.exists():
        run = read_json(config, "the run's config", MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH)
    else:
        return policy, None
    if not isinstance(run, dict):
        raise ValueError(f"{config}: a run's config is a JSON object of its settings")
    game, name = run.get("game"), run.get("features", RawFeatures.name)
    check_choice("game", game, GAME_CLASSES)
    return policy, make_features(name, game, policy.action_space.n)
