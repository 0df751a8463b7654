"""The PPO checkpoint format, and the one check every loader passes before it builds a network.

Format (version 1, written by ``PPOAgent.save``): one file written by ``torch.save`` (its zip
archive) and read with ``torch.load(weights_only=True)``, which rebuilds tensors and plain
containers only, so a crafted file cannot run code while it is read. It holds a dict:

- ``"metadata"``: UTF-8 JSON as a 1-D uint8 tensor: ``format`` (``"presages_env.ppo_policy"``),
  ``version`` (1), ``game``, ``features`` (``"raw"`` or ``"heuristic_hints"``),
  ``observation_size``, ``num_actions``, ``net_arch`` (``{"pi": [...], "vf": [...]}``) and
  ``activation_fn`` (a ``torch.nn`` class name, one of :data:`ACTIVATIONS`);
- ``"observation_low"``, ``"observation_high"``: the bounds of the policy's observation Box
  (float32, ``observation_size`` each);
- ``"policy"``: the policy's state dict (name → float32 tensor).

The other constructor parameters of ``MaskableActorCriticPolicy`` are SB3's defaults
(``FlattenExtractor``), which ``save`` requires.

Every loader reads a file with :func:`read_checkpoint` (or builds the same dict in memory)
and passes it to :func:`check_checkpoint`, which returns the metadata and features only when
everything a network is built from is sound. The checks run so that nothing is allocated or
computed from a value not yet checked:

1. the file: a regular file (never a pipe waited on or a device read without end:
   :func:`~presages_env.core.files.open_regular`), at most :data:`MAX_FILE_BYTES`, a zip
   archive whose records are stored as they are (so the reader allocates no more than the
   file holds; torch's legacy format, which allocates the storage sizes it declares before
   reading them, is refused);
2. every tensor: dense, on the CPU, of the format's dtype, and laid out contiguously inside
   its storage (a stride-0 or overlapping view declares a huge shape over a few bytes);
3. the metadata: known values, a network within the bounds below, sizes that fit the game,
   and the game (and table) it is loaded for;
4. the tensors: exactly those of that network, with finite values and ordered bounds, and a
   policy whose logits stay within :data:`LOGIT_LIMIT` on the game's observations.

A ``MaskablePPO.save`` zip is another format, read only when trusted (loading it runs its
code: ``PPOAgent.load(..., trusted=True)``), and not checked here.

The bounds are far above every shipped checkpoint (2 hidden layers of 256, at most 620,078
parameters, files under 2.5 MB, metadata under 230 bytes).

A second kind of policy, the action scorer (``agents/action_scorer.py``: a network scoring
each legal action from the observation and the action's features), is stored the same way
under ``format`` ``"presages_env.action_scorer"``; its metadata names ``observation_size``,
``num_actions``, ``action_features`` and ``net_arch`` (``{"state": [...], "action": [...],
"head": [...]}``), its bounds must be the game's observation space, and
:func:`check_scorer_checkpoint` runs the same four steps for it (the score bound
:data:`SCORE_LIMIT` instead of the logit bound, for ReLU layers).
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from presages_env.agents.features import FEATURES, RawFeatures, make_features
from presages_env.agents.heuristic import observation_bounds
from presages_env.core.action_features import FEATURE_HIGH, FEATURE_LOW
from presages_env.core.files import open_regular
from presages_env.core.game import Game
from presages_env.games import GAME_CLASSES
from presages_env.games.run_spec import as_game

FORMAT = "presages_env.ppo_policy"
VERSION = 1
ACTIVATIONS = ("ELU", "GELU", "LeakyReLU", "ReLU", "SiLU", "Tanh")  # torch.nn, no parameters
CHECKPOINT_KEYS = ("metadata", "observation_low", "observation_high", "policy")
BOUNDS = ("observation_low", "observation_high")
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

MAX_WIDTH = 4096  # units of one hidden layer (shipped: 256)
MAX_DEPTH = 8  # hidden layers of the policy or the value network (shipped: 2)
MAX_PARAMETERS = 2**24  # 16,777,216 weights and biases in all (shipped: at most 620,078)
MAX_FILE_BYTES = 2**27  # 128 MiB: MAX_PARAMETERS float32 values twice over
MAX_PICKLE_BYTES = 2**20  # the archive's data.pkl, which describes the tensors (shipped: 1.4 KB)
MAX_RECORDS = 256  # records in the archive (a checkpoint at MAX_DEPTH has under 50)
MAX_METADATA_BYTES = 4096  # the JSON metadata (shipped: under 230 bytes)
# SB3 masks an illegal action's logit to -1e8: a legal logit must stay far above it (and far
# from float32's overflow), or the policy picks an illegal action or computes NaN.
LOGIT_LIMIT = 1e7
# An action scorer's bound (check_scores) guards one thing: no observation of the game makes a
# loaded network compute inf or NaN. The bound is sound (inputs in [-1, 1], ReLU keeps
# |f(x)| <= |x|), so its limit need only keep float32 (max 3.4e38) finite, with room to spare:
# float32 rounding adds under 1% over at most 17 layers of at most 8,192 terms, and a factor
# of 10**8 is left for the sums and differences scores then go through (Gumbel noise, a
# batch's mean). No mask value is added to a score (an illegal action's is -inf), so,
# unlike LOGIT_LIMIT, it need not stay below one; a limit as low as 1e7 refuses sound networks
# (4 x 512 Présages scorers as initialised bound their scores at 3.1e7); no network within
# the bounds above comes near this one (at most 3.4e25: action_scorer.initial_score_bound).
# Probing scores at load time instead would not be sound: the observations not probed can
# still overflow.
SCORE_LIMIT = 1e30


def read_checkpoint(path: str | Path) -> Any:
    """What the file at ``path`` holds, read without unpickling anything but tensors and
    plain containers, from an archive checked not to make the reader allocate more than
    the file holds. Its contents are :func:`check_checkpoint`'s to judge."""
    import pickle

    import torch

    # a missing file raises here as itself; a folder, a pipe or a device is refused
    with open_regular(path, "the checkpoint") as file:
        check_archive(path, file)
        file.seek(0)
        try:
            return torch.load(file, map_location="cpu", weights_only=True)
        except pickle.UnpicklingError as error:
            raise ValueError(
                f"{path}: refused, it holds Python objects besides tensors: a crafted file, or "
                "a checkpoint from before format 1 (convert one you made yourself: read it with "
                "torch.load(weights_only=False), rebuild the policy, PPOAgent(...).save)"
            ) from error
        except MemoryError:  # the process's state, not the file's: not "unreadable"
            raise
        except Exception as error:  # the reader's errors for a cut or foreign file vary
            message = f"{path}: not a readable torch checkpoint ({error!r:.200})"
            raise ValueError(message) from error


def check_archive(path: str | Path, file) -> None:
    """Refuse a file that is not a bounded ``torch.save`` zip of uncompressed records."""
    size = os.fstat(file.fileno()).st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(
            f"{path}: {size:,} bytes; a checkpoint within the network bounds takes at most "
            f"{MAX_FILE_BYTES:,}"
        )
    try:
        with zipfile.ZipFile(file) as archive:
            records = archive.infolist()
    except Exception as error:  # zipfile's errors for a cut or foreign file vary
        raise ValueError(
            f"{path}: not a readable torch checkpoint (not a zip archive, as torch.save "
            f"writes: {error!r:.200})"
        ) from error
    if len(records) > MAX_RECORDS:
        raise ValueError(f"{path}: {len(records)} records in the archive, at most {MAX_RECORDS}")
    for record in records:
        _check_record(path, record, size)


def _check_record(path: str | Path, record: zipfile.ZipInfo, file_size: int) -> None:
    name = f"{record.filename:.100}"
    if record.compress_type != zipfile.ZIP_STORED or record.file_size != record.compress_size:
        raise ValueError(
            f"{path}: not a readable torch checkpoint (record {name!r} is compressed; "
            "torch.save stores records as they are)"
        )
    limit = MAX_PICKLE_BYTES if record.filename.endswith("data.pkl") else file_size
    if record.header_offset + record.file_size > file_size or record.file_size > limit:
        raise ValueError(
            f"{path}: not a readable torch checkpoint (record {name!r} declares "
            f"{record.file_size:,} bytes; at most {min(limit, file_size):,} here)"
        )


def check_checkpoint(
    saved: Any, game: str | Game | None = None, num_players: int | None = None
) -> tuple[dict[str, Any], RawFeatures]:
    """The metadata and features of ``saved`` (a checkpoint's dict), once every check of
    the module docstring passed; ``game`` (a name or a ``Game``) and ``num_players``, where
    given, name the table it is loaded for. Raises ``TypeError``/``ValueError`` saying what
    is wrong."""
    check_keys(saved)
    check_layouts(saved)
    metadata = parse_metadata(saved["metadata"])
    trained_on = game_trained_on(metadata, game)
    features = checked_features(trained_on, metadata, num_players)
    check_tensors(metadata, saved)
    check_values(saved)
    magnitude = observation_magnitude(trained_on, metadata, features, num_players)
    check_logits(metadata, saved["policy"], magnitude)
    return metadata, features


def check_keys(saved: Any) -> None:
    """A dict with exactly the format's keys (both kinds of policy share them)."""
    if not isinstance(saved, dict) or set(saved) != set(CHECKPOINT_KEYS):
        found = list(saved) if isinstance(saved, dict) else type(saved).__name__
        raise ValueError(f"expected a dict with keys {list(CHECKPOINT_KEYS)}, got {found}")


def check_layouts(saved: dict[str, Any]) -> None:
    """Every tensor a dense CPU tensor of the format's dtype inside its storage."""
    import torch

    tensor = saved["metadata"]
    if not isinstance(tensor, torch.Tensor) or tensor.dtype != torch.uint8 or tensor.dim() != 1:
        raise TypeError("checkpoint metadata must be a 1-D uint8 tensor of UTF-8 JSON")
    check_layout("metadata", tensor, torch.uint8)
    for key in BOUNDS:
        check_layout(key, saved[key], torch.float32)
    tensors = saved["policy"]
    if not isinstance(tensors, dict):
        found = type(tensors).__name__
        raise TypeError(f"checkpoint policy must be a dict of tensors, got {found}")
    for name, tensor in tensors.items():
        check_layout(name, tensor, torch.float32)


def check_layout(name: Any, tensor: Any, dtype) -> None:
    """A dense CPU tensor of ``dtype`` whose elements lie contiguously inside its storage:
    a stride-0 or overlapping view can declare a huge shape over a few bytes, and building a
    network of that shape is the allocation a crafted file wants."""
    import torch

    if not isinstance(tensor, torch.Tensor) or tensor.layout != torch.strided:
        raise TypeError(f"checkpoint {name!r:.100} must be a dense tensor, got {type(tensor)}")
    if tensor.device.type != "cpu" or tensor.dtype != dtype:
        raise ValueError(
            f"checkpoint {name!r:.100} is {tensor.dtype} on {tensor.device}; the format "
            f"stores {dtype} on the CPU"
        )
    if not tensor.is_contiguous():
        raise ValueError(
            f"checkpoint {name!r:.100} of shape {tuple(tensor.shape)} has strides "
            f"{tensor.stride()}, not the contiguous layout the format stores (a stride-0 or "
            "overlapping view can declare a huge shape over a few bytes)"
        )
    needed = (tensor.storage_offset() + tensor.numel()) * tensor.element_size()
    held = tensor.untyped_storage().nbytes()
    if needed > held:
        raise ValueError(
            f"checkpoint {name!r:.100} of shape {tuple(tensor.shape)} needs {needed:,} bytes "
            f"of storage; its storage holds {held:,}"
        )


def parse_metadata(tensor, validate: Callable[[Any], None] | None = None) -> dict[str, Any]:
    """The metadata from its uint8 tensor (already known to lie in its storage), checked by
    ``validate`` (default: :func:`validate_metadata`, the PPO format's)."""
    if tensor.numel() > MAX_METADATA_BYTES:
        raise ValueError(
            f"checkpoint metadata is {tensor.numel():,} bytes, at most {MAX_METADATA_BYTES:,}"
        )
    try:
        metadata = json.loads(tensor.numpy().tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"checkpoint metadata is not UTF-8 JSON: {error}") from error
    (validate or validate_metadata)(metadata)
    return metadata


def validate_metadata(metadata: Any) -> None:
    """Raise TypeError/ValueError naming the first field that is missing, mistyped or wrong,
    or a network beyond the bounds (width, depth, parameters)."""
    check_fields(metadata, METADATA_KEYS, FORMAT, VERSION)
    check_choice("game", metadata["game"], GAME_CLASSES)
    check_choice("features", metadata["features"], FEATURES)
    check_choice("activation_fn", metadata["activation_fn"], ACTIVATIONS)
    _check_size("observation_size", metadata["observation_size"])
    _check_size("num_actions", metadata["num_actions"])
    check_net_arch(metadata["net_arch"])
    parameters = sum(int(np.prod(shape)) for shape in expected_shapes(metadata).values())
    if parameters > MAX_PARAMETERS:
        raise ValueError(
            f"metadata describes a network of {parameters:,} parameters; at most {MAX_PARAMETERS:,}"
        )


def check_fields(metadata: Any, keys: dict[str, type], format_: str, version: int) -> None:
    """Exactly ``keys``, each of its type (never a bool for an int), of ``format_`` (checked
    first: the other kind of policy has other keys) and ``version``."""
    if isinstance(metadata, dict) and metadata.get("format", format_) != format_:
        found = metadata["format"]
        raise ValueError(f"metadata 'format' must be {format_!r}, got {found!r:.100}")
    if not isinstance(metadata, dict) or set(metadata) != set(keys):
        found = sorted(metadata) if isinstance(metadata, dict) else type(metadata).__name__
        raise ValueError(f"checkpoint metadata must have keys {sorted(keys)}, got {found}")
    for key, kind in keys.items():
        if not isinstance(metadata[key], kind) or isinstance(metadata[key], bool):
            raise TypeError(f"metadata {key!r} must be {kind.__name__}, got {metadata[key]!r:.100}")
    for key, value in {"format": format_, "version": version}.items():
        if metadata[key] != value:
            raise ValueError(f"metadata {key!r} must be {value!r}, got {metadata[key]!r:.100}")


def check_net_arch(arch: Any, nets: tuple[str, ...] = ("pi", "vf")) -> None:
    """``{net: [...]}`` for each of ``nets``: at most MAX_DEPTH layers of 1..MAX_WIDTH units
    each."""
    if set(arch) != set(nets) or not all(isinstance(arch[k], list) for k in arch):
        expected = ", ".join(f"{net!r}: [int]" for net in nets)
        raise TypeError(f"metadata 'net_arch' must be {{{expected}}}, got {arch!r:.100}")
    for key, sizes in arch.items():
        if len(sizes) > MAX_DEPTH:
            raise ValueError(
                f"metadata net_arch[{key!r}] has {len(sizes)} layers, at most {MAX_DEPTH}"
            )
        for size in sizes:
            _check_size(f"net_arch[{key!r}] layer", size)
            if size > MAX_WIDTH:
                raise ValueError(
                    f"metadata net_arch[{key!r}] has a layer of {size:,} units, at most "
                    f"{MAX_WIDTH:,}"
                )


def check_choice(key: str, value: str, known) -> None:
    if value not in known:
        raise ValueError(f"metadata {key!r} is {value!r:.100}; known: {sorted(known)}")


def _check_size(key: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"metadata {key!r} must be a positive int, got {value!r:.100}")


def check_game(trained_on: str, game: str | None) -> None:
    """A policy plays the game it was trained on only (``game`` None: any)."""
    if game is not None and trained_on != game:
        raise ValueError(
            f"this checkpoint plays {trained_on!r}, not {game!r}: a policy reads only the "
            "observations of its own game"
        )


def game_trained_on(metadata: dict[str, Any], game: str | Game | None) -> Game:
    """The game the checked ``metadata`` names, refused unless it is ``game`` (where given):
    the ``Game`` given, else the one the name is resolved to (once, for every check)."""
    check_game(metadata["game"], getattr(game, "name", game))
    return game if isinstance(game, Game) else as_game(metadata["game"])


def checked_features(
    game: Game, metadata: dict[str, Any], num_players: int | None = None
) -> RawFeatures:
    """The metadata's features, once its sizes are known to fit its game, ``game`` (at
    ``num_players``, where given; else at some player count). The action count is compared
    first: the features' bounds are built from it."""
    counts = player_counts(game, num_players)
    found = (metadata["observation_size"], metadata["num_actions"])
    sizes = set()
    if found[1] in {game.num_actions(n) for n in counts}:
        features = make_features(metadata["features"], game, metadata["num_actions"])
        for n in counts:
            low, _ = features.low_high(game.obs_low(n), game.obs_high(n))
            sizes.add((low.size, game.num_actions(n)))
    if found not in sizes:
        table = f"{game.name}" + ("" if num_players is None else f" at {num_players} players")
        raise ValueError(
            f"metadata (observation_size, num_actions) = {found} do not fit {table} with "
            f"{metadata['features']} features: expected one of {sorted(sizes) or 'none'}"
        )
    return features


def player_counts(game, num_players: int | None) -> range:
    if num_players is None:
        return range(game.min_players, game.max_players + 1)
    n = game.check_num_players(num_players)
    return range(n, n + 1)


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


def check_tensors(
    metadata: dict[str, Any],
    saved: dict[str, Any],
    shapes: dict[str, tuple[int, ...]] | None = None,
) -> None:
    """Refuse tensors that are not exactly those the metadata describes (``shapes``, by
    state-dict name; default: the PPO policy's, :func:`expected_shapes`)."""
    size = metadata["observation_size"]
    for key in BOUNDS:
        _check_shape(key, saved[key], (size,))
    tensors = saved["policy"]
    shapes = expected_shapes(metadata) if shapes is None else shapes
    if set(tensors) != set(shapes):
        found = [f"{name!r:.100}" for name in tensors]
        raise ValueError(f"checkpoint policy tensors must be {sorted(shapes)}, got {found}")
    for name, shape in shapes.items():
        _check_shape(name, tensors[name], shape)


def _check_shape(name: str, tensor, shape: tuple[int, ...]) -> None:
    if tuple(tensor.shape) != shape:
        raise ValueError(
            f"checkpoint {name!r} is {tensor.dtype} {tuple(tensor.shape)}; "
            f"the network the metadata describes needs torch.float32 {shape}"
        )


def check_values(saved: dict[str, Any]) -> None:
    """Finite values everywhere (a NaN or infinite weight fails at the first move), and
    observation bounds in order."""
    import torch

    named = {key: saved[key] for key in BOUNDS} | saved["policy"]
    for name, tensor in named.items():
        if not bool(torch.isfinite(tensor).all()):
            raise ValueError(f"checkpoint {name!r} holds NaN or infinite values")
    if not bool((saved["observation_low"] <= saved["observation_high"]).all()):
        raise ValueError("checkpoint observation_low must be <= observation_high everywhere")


def observation_magnitude(
    game: Game, metadata: dict[str, Any], features: RawFeatures, num_players: int | None
) -> np.ndarray:
    """The largest ``|feature|`` the policy can be given, per input, at any table of ``game``
    it may play."""
    magnitude = np.zeros(metadata["observation_size"])
    for n in player_counts(game, num_players):
        low, high = features.low_high(game.obs_low(n), game.obs_high(n))
        if (low.size, game.num_actions(n)) == (magnitude.size, metadata["num_actions"]):
            magnitude = np.maximum(magnitude, np.maximum(np.abs(low), np.abs(high)))
    return magnitude


def check_logits(metadata: dict[str, Any], tensors: dict[str, Any], magnitude: np.ndarray) -> None:
    """Refuse a policy whose hidden units or logits can exceed :data:`LOGIT_LIMIT` on some
    observation: a bound carried layer by layer (``|W| @ bound + |b|``; every activation of
    :data:`ACTIVATIONS` keeps ``|f(x)| <= |x|``, and tanh ``<= 1``), in float64."""
    import torch

    bound = torch.as_tensor(magnitude, dtype=torch.float64)
    layers = [f"mlp_extractor.policy_net.{2 * i}" for i in range(len(metadata["net_arch"]["pi"]))]
    for layer in [*layers, "action_net"]:
        weight = tensors[f"{layer}.weight"].to(torch.float64).abs()
        bound = weight @ bound + tensors[f"{layer}.bias"].to(torch.float64).abs()
        largest = float(bound.max())
        if not largest <= LOGIT_LIMIT:
            raise ValueError(
                f"checkpoint {layer} can reach {largest:.3g} on the game's observations, "
                f"beyond {LOGIT_LIMIT:g}: its actions could overflow or drown the action mask"
            )
        if metadata["activation_fn"] == "Tanh":
            bound = bound.clamp(max=1.0)


def pack_checkpoint(metadata: dict[str, Any], low, high, policy: dict[str, Any]) -> dict[str, Any]:
    """The dict the format stores (``torch.save`` writes it; :func:`check_checkpoint` reads it)."""
    import torch

    text = json.dumps(metadata, sort_keys=True).encode("utf-8")
    return {
        "metadata": torch.frombuffer(bytearray(text), dtype=torch.uint8),
        "observation_low": torch.as_tensor(low, dtype=torch.float32),
        "observation_high": torch.as_tensor(high, dtype=torch.float32),
        "policy": dict(policy),
    }


# ---- the action-scorer format (agents/action_scorer.py) -------------------------------------
SCORER_FORMAT = "presages_env.action_scorer"
SCORER_VERSION = 1
SCORER_METADATA_KEYS = {
    "format": str,
    "version": int,
    "game": str,
    "observation_size": int,
    "num_actions": int,
    "action_features": int,
    "net_arch": dict,
}
SCORER_NETS = ("state", "action", "head")


def check_scorer_checkpoint(
    saved: Any, game: str | Game | None = None, num_players: int | None = None
) -> dict[str, Any]:
    """The metadata of ``saved``, an action scorer's checkpoint dict, once the checks of the
    module docstring passed (``game``, a name or a ``Game``, and ``num_players``, where
    given, name the table it is loaded for). Raises ``TypeError``/``ValueError`` saying
    what is wrong."""
    check_keys(saved)
    check_layouts(saved)
    metadata = parse_metadata(saved["metadata"], validate_scorer_metadata)
    trained_on = game_trained_on(metadata, game)
    check_scorer_sizes(trained_on, metadata, num_players)
    check_tensors(metadata, saved, scorer_shapes(metadata))
    check_values(saved)
    check_scorer_bounds(trained_on, metadata, saved)
    check_scores(metadata, saved["policy"])
    return metadata


def validate_scorer_metadata(metadata: Any) -> None:
    """Raise TypeError/ValueError naming the first field that is missing, mistyped or wrong,
    or a network beyond the bounds (width, depth, parameters)."""
    check_fields(metadata, SCORER_METADATA_KEYS, SCORER_FORMAT, SCORER_VERSION)
    check_choice("game", metadata["game"], GAME_CLASSES)
    for key in ("observation_size", "num_actions", "action_features"):
        _check_size(key, metadata[key])
    check_net_arch(metadata["net_arch"], SCORER_NETS)
    parameters = sum(int(np.prod(shape)) for shape in scorer_shapes(metadata).values())
    if parameters > MAX_PARAMETERS:
        raise ValueError(
            f"metadata describes a network of {parameters:,} parameters; at most {MAX_PARAMETERS:,}"
        )


def check_scorer_sizes(
    game: Game, metadata: dict[str, Any], num_players: int | None = None
) -> None:
    """The sizes are ``game``'s (at ``num_players``, where given): its observation, its
    action table and its action features."""
    found = (metadata["observation_size"], metadata["num_actions"], metadata["action_features"])
    sizes = {
        (game.obs_size(n), game.num_actions(n), game.action_features.ACTION_FEATURES)
        for n in player_counts(game, num_players)
    }
    if found not in sizes:
        table = game.name + ("" if num_players is None else f" at {num_players} players")
        raise ValueError(
            f"metadata (observation_size, num_actions, action_features) = {found} do not fit "
            f"{table}: expected one of {sorted(sizes)}"
        )


def scorer_shapes(metadata: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every tensor of the action scorer the metadata describes, by state-dict name: the
    state and action MLPs (Linear, ReLU, ...), then the head over their two outputs side by
    side, ending in one score."""
    arch = metadata["net_arch"]
    shapes: dict[str, tuple[int, ...]] = {}
    inputs = {"state": metadata["observation_size"], "action": metadata["action_features"]}
    widths = {}
    for net in ("state", "action"):
        widths[net] = _add_layers(shapes, net, inputs[net], arch[net])
    _add_layers(shapes, "head", widths["state"] + widths["action"], [*arch["head"], 1])
    return shapes


def _add_layers(shapes: dict, net: str, width: int, sizes: list[int]) -> int:
    for i, size in enumerate(sizes):  # Linear, activation, Linear, ...
        shapes[f"{net}.{2 * i}.weight"] = (size, width)
        shapes[f"{net}.{2 * i}.bias"] = (size,)
        width = size
    return width


def check_scorer_bounds(game: Game, metadata: dict[str, Any], saved: dict[str, Any]) -> None:
    """The stored observation bounds are the game's observation space, which the network
    scales its input by: other bounds belong to another layout of the observation."""
    import torch

    low, high = observation_bounds(game)
    for key, bound in zip(BOUNDS, (low, high), strict=True):
        if not torch.equal(saved[key], torch.as_tensor(bound, dtype=torch.float32)):
            raise ValueError(
                f"checkpoint {key} is not the {metadata['game']} observation space: the "
                "network scales its input by it (a checkpoint of another observation layout?)"
            )


def check_scores(metadata: dict[str, Any], tensors: dict[str, Any]) -> None:
    """Refuse a scorer whose hidden units or scores can exceed :data:`SCORE_LIMIT`: the
    network's inputs lie in [-1, 1] (observations scaled by the space's bounds, action
    features in [0, 1]), and a bound is carried layer by layer (``|W| @ bound + |b|``; ReLU
    keeps ``|f(x)| <= |x|``), in float64."""
    import torch

    arch = metadata["net_arch"]
    inputs = {
        "state": torch.ones(metadata["observation_size"], dtype=torch.float64),
        "action": torch.full(
            (metadata["action_features"],),
            max(abs(FEATURE_LOW), abs(FEATURE_HIGH)),
            dtype=torch.float64,
        ),
    }
    codes = [_carried_bound(tensors, net, len(arch[net]), inputs[net]) for net in inputs]
    _carried_bound(tensors, "head", len(arch["head"]) + 1, torch.cat(codes))


def _carried_bound(tensors: dict[str, Any], net: str, layers: int, bound):
    import torch

    for i in range(layers):
        layer = f"{net}.{2 * i}"
        weight = tensors[f"{layer}.weight"].to(torch.float64).abs()
        bound = weight @ bound + tensors[f"{layer}.bias"].to(torch.float64).abs()
        largest = float(bound.max())
        if not largest <= SCORE_LIMIT:
            raise ValueError(
                f"checkpoint {layer} can reach {largest:.3g} on the game's observations, "
                f"beyond {SCORE_LIMIT:g}: its scores could overflow"
            )
    return bound
