"""A trained MaskablePPO policy as an :class:`Agent` (needs the ``train`` extra: torch, sb3).

Checkpoint format (``PPOAgent.save`` / ``PPOAgent.load``, version 1): one file written by
``torch.save`` and read with ``torch.load(weights_only=True)``, which rebuilds tensors and
plain containers only, so a crafted file cannot run code while it is read. It holds a dict:

- ``"metadata"``: UTF-8 JSON as a 1-D uint8 tensor: ``format`` (``"presages_env.ppo_policy"``),
  ``version`` (1), ``game``, ``features`` (``"raw"`` or ``"heuristic_hints"``),
  ``observation_size``, ``num_actions``, ``net_arch`` (``{"pi": [...], "vf": [...]}``) and
  ``activation_fn`` (a ``torch.nn`` class name, one of :data:`ACTIVATIONS`);
- ``"observation_low"``, ``"observation_high"``: the bounds of the policy's observation Box
  (float32, ``observation_size`` each);
- ``"policy"``: the policy's state dict (name → float32 tensor).

The other constructor parameters of ``MaskableActorCriticPolicy`` are SB3's defaults
(``FlattenExtractor``), which ``save`` requires. ``load`` checks the metadata's types and
values, that the sizes fit the game, and that the tensors are exactly those of the network
the metadata describes (names, shapes, dtypes) before it builds anything from them.

A ``MaskablePPO.save`` zip unpickles Python objects when loaded (it can run any code), so
``load`` reads one only with ``trusted=True``. To hand a policy to Stable-Baselines3,
export it the other way (any shipped checkpoint, in one line)::

    PPOAgent.load(shipped_checkpoint("president")).to_sb3("president.zip")
    model = MaskablePPO.load("president.zip")  # game and features in model.presages_env
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.features import FEATURES, RawFeatures, make_features
from presages_env.games import GAME_CLASSES, get_game

SHIPPED = Path(__file__).resolve().parent.parent / "checkpoints"

FORMAT = "presages_env.ppo_policy"
VERSION = 1
ACTIVATIONS = ("ELU", "GELU", "LeakyReLU", "ReLU", "SiLU", "Tanh")  # torch.nn, no parameters
CHECKPOINT_KEYS = ("metadata", "observation_low", "observation_high", "policy")
METADATA_KEYS = {
    "format": str,
    "version": int,
    "game": str,
    "features": str,
    "observation_size": int,
    "num_actions": int,
    "net_arch": dict,
    "activation_fn": str,
}


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
    ) -> PPOAgent:
        """Load a checkpoint written by :meth:`save` (any name but ``.zip``; read without
        unpickling), or, only with ``trusted=True``, a ``MaskablePPO.save`` zip (its features
        read from the run's ``config.json`` beside it, if any)."""
        path = Path(path)
        if path.suffix != ".zip":
            policy, features = load_checkpoint(path)
        elif trusted:
            policy, features = _load_trusted_zip(path)
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
        checked_features(metadata)  # never write a file that load would refuse
        space = self.policy.observation_space
        text = json.dumps(metadata, sort_keys=True).encode("utf-8")
        torch.save(
            {
                "metadata": torch.frombuffer(bytearray(text), dtype=torch.uint8),
                "observation_low": torch.as_tensor(space.low, dtype=torch.float32),
                "observation_high": torch.as_tensor(space.high, dtype=torch.float32),
                "policy": dict(self.policy.state_dict()),
            },
            str(path),
        )

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


def shipped_checkpoint(game: str, num_players: int | None = None) -> Path:
    """The checkpoint shipped for ``game`` at ``num_players`` (default: the game's default
    count): the one trained at that count (``checkpoints/<game>_<n>p.pt``) where it exists,
    else the game's own (``checkpoints/<game>.pt``)."""
    spec = get_game(game)  # an unknown name is refused with the list of games
    n = spec.default_players if num_players is None else spec.check_num_players(num_players)
    per_count = SHIPPED / f"{game}_{n}p.pt"
    return per_count if per_count.is_file() else SHIPPED / f"{game}.pt"


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
def load_checkpoint(path: str | Path) -> tuple[Any, RawFeatures]:
    """The policy and features stored at ``path``, each part checked before it is used."""
    saved = read_checkpoint(path)
    metadata = parse_metadata(saved["metadata"])
    features = checked_features(metadata)
    check_tensors(metadata, saved)
    return build_policy(metadata, saved), features


def read_checkpoint(path: str | Path) -> dict[str, Any]:
    """The file's dict of tensors, read without unpickling anything else."""
    import pickle

    import torch

    with open(path, "rb") as file:  # a missing file raises here, as itself
        try:
            saved = torch.load(file, map_location="cpu", weights_only=True)
        except pickle.UnpicklingError as error:
            raise ValueError(
                f"{path}: refused, it holds Python objects besides tensors: a crafted file, or "
                "a checkpoint from before format 1 (convert one you made yourself: read it with "
                "torch.load(weights_only=False), rebuild the policy, PPOAgent(...).save)"
            ) from error
        except Exception as error:  # the reader's errors for a cut or foreign file vary
            message = f"{path}: not a readable torch checkpoint ({error!r:.200})"
            raise ValueError(message) from error
    if not isinstance(saved, dict) or set(saved) != set(CHECKPOINT_KEYS):
        found = list(saved) if isinstance(saved, dict) else type(saved).__name__
        raise ValueError(f"{path}: expected a dict with keys {list(CHECKPOINT_KEYS)}, got {found}")
    return saved


def parse_metadata(tensor) -> dict[str, Any]:
    """The checked metadata from its uint8 tensor."""
    import torch

    if not (isinstance(tensor, torch.Tensor) and tensor.dtype == torch.uint8 and tensor.dim() == 1):
        raise TypeError("checkpoint metadata must be a 1-D uint8 tensor of UTF-8 JSON")
    try:
        metadata = json.loads(tensor.numpy().tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"checkpoint metadata is not UTF-8 JSON: {error}") from error
    validate_metadata(metadata)
    return metadata


def validate_metadata(metadata: Any) -> None:
    """Raise TypeError/ValueError naming the first field that is missing, mistyped or wrong."""
    if not isinstance(metadata, dict) or set(metadata) != set(METADATA_KEYS):
        found = sorted(metadata) if isinstance(metadata, dict) else type(metadata).__name__
        raise ValueError(f"checkpoint metadata must have keys {sorted(METADATA_KEYS)}, got {found}")
    for key, kind in METADATA_KEYS.items():
        if not isinstance(metadata[key], kind) or isinstance(metadata[key], bool):
            raise TypeError(f"metadata {key!r} must be {kind.__name__}, got {metadata[key]!r}")
    expected = {"format": FORMAT, "version": VERSION}
    for key, value in expected.items():
        if metadata[key] != value:
            raise ValueError(f"metadata {key!r} must be {value!r}, got {metadata[key]!r}")
    _check_choice("game", metadata["game"], GAME_CLASSES)
    _check_choice("features", metadata["features"], FEATURES)
    _check_choice("activation_fn", metadata["activation_fn"], ACTIVATIONS)
    _check_size("observation_size", metadata["observation_size"])
    _check_size("num_actions", metadata["num_actions"])
    arch = metadata["net_arch"]
    if set(arch) != {"pi", "vf"} or not all(isinstance(arch[k], list) for k in arch):
        raise TypeError(f"metadata 'net_arch' must be {{'pi': [int], 'vf': [int]}}, got {arch!r}")
    for key, sizes in arch.items():
        for size in sizes:
            _check_size(f"net_arch[{key!r}] layer", size)


def _check_choice(key: str, value: str, known) -> None:
    if value not in known:
        raise ValueError(f"metadata {key!r} is {value!r}; known: {sorted(known)}")


def _check_size(key: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"metadata {key!r} must be a positive int, got {value!r}")


def checked_features(metadata: dict[str, Any]) -> RawFeatures:
    """The metadata's features, once its sizes are known to fit its game."""
    features = make_features(metadata["features"], metadata["game"], metadata["num_actions"])
    game = get_game(metadata["game"])
    sizes = set()
    for n in range(game.min_players, game.max_players + 1):
        low, _ = features.low_high(game.obs_low(n), game.obs_high(n))
        sizes.add((low.size, game.num_actions(n)))
    found = (metadata["observation_size"], metadata["num_actions"])
    if found not in sizes:
        raise ValueError(
            f"metadata (observation_size, num_actions) = {found} do not fit {game.name} with "
            f"{metadata['features']} features: expected one of {sorted(sizes)}"
        )
    return features


def expected_shapes(metadata: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every tensor of the network the metadata describes, by state-dict name."""
    arch = metadata["net_arch"]
    shapes: dict[str, tuple[int, ...]] = {}
    last = {}
    for net, key in (("policy_net", "pi"), ("value_net", "vf")):
        width = metadata["observation_size"]
        for i, size in enumerate(arch[key]):  # Linear, activation, Linear, ...
            shapes[f"mlp_extractor.{net}.{2 * i}.weight"] = (size, width)
            shapes[f"mlp_extractor.{net}.{2 * i}.bias"] = (size,)
            width = size
        last[key] = width
    shapes["action_net.weight"] = (metadata["num_actions"], last["pi"])
    shapes["action_net.bias"] = (metadata["num_actions"],)
    shapes["value_net.weight"] = (1, last["vf"])
    shapes["value_net.bias"] = (1,)
    return shapes


def check_tensors(metadata: dict[str, Any], saved: dict[str, Any]) -> None:
    """Refuse tensors that are not exactly those the metadata describes."""
    size = metadata["observation_size"]
    for key in ("observation_low", "observation_high"):
        _check_tensor(key, saved[key], (size,))
    if not bool((saved["observation_low"] <= saved["observation_high"]).all()):
        raise ValueError("checkpoint observation_low must be <= observation_high everywhere")
    tensors, shapes = saved["policy"], expected_shapes(metadata)
    if not isinstance(tensors, dict) or set(tensors) != set(shapes):
        found = list(tensors) if isinstance(tensors, dict) else type(tensors).__name__
        raise ValueError(f"checkpoint policy tensors must be {sorted(shapes)}, got {found}")
    for name, shape in shapes.items():
        _check_tensor(name, tensors[name], shape)


def _check_tensor(name: str, tensor: Any, shape: tuple[int, ...]) -> None:
    import torch

    if not isinstance(tensor, torch.Tensor) or tensor.layout != torch.strided:
        raise TypeError(f"checkpoint {name!r} must be a dense tensor, got {type(tensor).__name__}")
    if tensor.dtype != torch.float32 or tuple(tensor.shape) != shape:
        raise ValueError(
            f"checkpoint {name!r} is {tensor.dtype} {tuple(tensor.shape)}; "
            f"the network the metadata describes needs torch.float32 {shape}"
        )


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

    model = MaskablePPO.load(str(path), device="cpu")
    policy = model.policy
    config = path.parent / "config.json"
    if hasattr(model, "presages_env"):
        run = model.presages_env
    elif config.exists():
        run = json.loads(config.read_text())
    else:
        return policy, None
    game, name = run.get("game"), run.get("features", RawFeatures.name)
    _check_choice("game", game, GAME_CLASSES)
    return policy, make_features(name, game, policy.action_space.n)
