"""Fuzzing of policy checkpoint loading: crafted or damaged files are refused, or load and act.

Each case starts from a small policy freshly built for the game (its checkpoint written once),
changes one thing — a tensor's storage, strides, dtype, shape or values, the metadata's sizes,
types or keys, the archive's records, the file's bytes — or takes another game's shipped
checkpoint, writes the file and loads it with ``PPOAgent.load(path, game=...)``, or with
``policy="scorer"`` an action scorer's with ``ActionScorerAgent.load(path, game=...)``
(:mod:`presages_env.agents.checkpoint`). The outcome is

- ``refused``: ``TypeError``/``ValueError`` with a message, raised before any allocation
  failed (a refusal that comes from a failed allocation means the loader tried first);
- ``loaded``: the agent picks a legal action on a real observation of the game.

Anything else is a failure: another exception, an illegal action, peak memory grown by more
than ``MAX_GROWTH_MB`` (the loader allocated what the file only declared). Run it under an
address-space limit (``resource.RLIMIT_AS``) to turn such an allocation into a failure
instead of a swapping machine; the test does.
"""

from __future__ import annotations

import collections
import io
import json
import pickle
import tempfile
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

import presages_env
from presages_env.agents.action_scorer import ActionScorer, ActionScorerAgent
from presages_env.agents.checkpoint import expected_shapes, scorer_shapes
from presages_env.agents.features import make_features
from presages_env.agents.ppo import PPOAgent, shipped_checkpoint
from presages_env.fuzzing import FuzzReport, memory_growth, peak_memory_mb
from presages_env.games import GAME_CLASSES, get_game

NET_ARCH = {"pi": [16, 8], "vf": [8]}  # the base policy: small, so a case takes milliseconds
SCORER_ARCH = {"state": [16, 8], "action": [8], "head": [8]}  # the base action scorer
POLICIES = ("ppo", "scorer")
STRIDE_0_TENSORS = 64  # tensors of a declared network written as stride-0 views, at most
OBSERVATIONS = 4  # real observations an accepted checkpoint acts on, one per case in turn
HUGE_SIZES = (0, -1, 2**31, 2**40, 2**63, 10**30, 57_000)
BAD_VALUES = (float("nan"), float("inf"), -float("inf"), 3e38, 1e20, 1e9)
JUNK_VALUES: tuple[Any, ...] = ("8", 8.0, float("nan"), True, None, [8], {"8": 8}, -8, 2**70)
DTYPES = (
    torch.float64,
    torch.float16,
    torch.bfloat16,
    torch.int32,
    torch.int64,
    torch.uint8,
    torch.int8,
    torch.bool,
    torch.complex64,
)
STORAGE_TYPES = {torch.float32: "FloatStorage", torch.uint8: "ByteStorage"}

Checkpoint = dict[str, Any]


@dataclass
class Corpus:
    """What cases are made from: the base checkpoint (as loaded, and as written), the
    shipped checkpoints of the other games (bytes), the game's own (None for a kind of
    policy none is shipped of), the loader of that kind and its network's tensor shapes."""

    game: str
    base: Checkpoint
    base_bytes: bytes
    others: list[tuple[str, bytes]]
    shipped: bytes | None
    load: Callable[[Path, str], Any]
    shapes: Callable[[dict[str, Any]], dict[str, tuple[int, ...]]]


def fuzz_checkpoints(game_name: str, cases: int, seed: int = 0, policy: str = "ppo") -> FuzzReport:
    """``cases`` crafted checkpoints of ``policy`` (``"ppo"`` or ``"scorer"``) loaded for
    ``game_name`` (deterministic in ``seed``); see the module's docstring for what passes."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    rng = np.random.default_rng(seed)
    vec = presages_env.make_vec(game_name, OBSERVATIONS, seed=seed)
    report = FuzzReport(game_name)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.pt"
        corpus = make_corpus(game_name, seed, path, policy)
        run_case(corpus, path, corpus.base_bytes, vec.obs[:1], vec.masks[:1])  # warm up
        for case in range(cases):
            kind = KINDS[case % len(KINDS)]
            description, content = MUTATIONS[kind](corpus, rng)
            row = slice(case % OBSERVATIONS, case % OBSERVATIONS + 1)
            outcome, problem = run_case(corpus, path, content, vec.obs[row], vec.masks[row])
            report.cases += 1
            report.outcomes[outcome] += 1
            if problem:
                report.failures.append(f"case {case} ({kind}: {description}): {problem}")
    return report


def fuzz_scorer_checkpoints(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    """:func:`fuzz_checkpoints` of action scorers' checkpoints."""
    return fuzz_checkpoints(game_name, cases, seed, policy="scorer")


def run_case(
    corpus: Corpus, path: Path, content: bytes, obs: np.ndarray, masks: np.ndarray
) -> tuple[str, str | None]:
    """``(outcome, problem)``: ``"refused"``, ``"loaded"`` or ``"failed"``, and what went
    wrong, if anything."""
    path.write_bytes(content)
    peak = peak_memory_mb()
    try:
        with warnings.catch_warnings():  # torch warns of some damage it then reports
            warnings.simplefilter("ignore", UserWarning)
            agent = corpus.load(path, corpus.game)
    except (TypeError, ValueError) as error:
        if not str(error):
            return "failed", f"refused without a message ({type(error).__name__})"
        if "allocate" in str(error):
            return "failed", f"refused only once an allocation failed: {error}"
        return _outcome("refused", peak)
    except Exception as error:  # every other exception is what the fuzz looks for
        return "failed", f"{type(error).__name__}: {error}"
    try:
        action = int(agent.act_batch(obs, masks)[0])  # an illegal action raises
    except Exception as error:  # a loaded checkpoint must act
        return "failed", f"loaded, then acting raised {type(error).__name__}: {error}"
    if masks[0, action] != 1:
        return "failed", f"loaded, then chose the illegal action {action}"
    return _outcome("loaded", peak)


def _outcome(outcome: str, peak: float) -> tuple[str, str | None]:
    grown = memory_growth(peak)
    return ("failed", f"{outcome}, but {grown}") if grown else (outcome, None)


# ---- the corpus -----------------------------------------------------------------------------
def make_corpus(game_name: str, seed: int, path: Path, policy: str = "ppo") -> Corpus:
    """A small policy of kind ``policy`` for ``game_name`` (PPO on raw features at its
    default table, or an action scorer), saved once (at ``path``), and the checkpoints the
    games ship (a game declaring ``ships_checkpoint = False`` has none to take)."""
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        if policy == "ppo":
            _small_ppo(game_name).save(path)
        else:
            ActionScorer.for_game(get_game(game_name), SCORER_ARCH).save(path)
    base = torch.load(path, weights_only=True)
    shipped = {g: _shipped(g) for g in GAME_CLASSES}
    others = [(g, content) for g, content in shipped.items() if g != game_name and content]
    if policy == "ppo":
        own = shipped[game_name]
        return Corpus(game_name, base, path.read_bytes(), others, own, _load_ppo, expected_shapes)
    return Corpus(game_name, base, path.read_bytes(), others, None, _load_scorer, scorer_shapes)


def _shipped(game_name: str) -> bytes | None:
    """The game's shipped checkpoint, or None for a game that declares it ships none
    (``ships_checkpoint = False``: there is no file to take)."""
    if not get_game(game_name).ships_checkpoint:
        return None
    return shipped_checkpoint(game_name).read_bytes()


def _small_ppo(game_name: str) -> PPOAgent:
    game = get_game(game_name)
    n = game.default_players
    features = make_features("raw", game_name, game.num_actions(n))
    low, high = features.low_high(game.obs_low(n), game.obs_high(n))
    policy = MaskableActorCriticPolicy(
        spaces.Box(low, high),
        spaces.Discrete(game.num_actions(n)),
        lambda _: 0.0,
        net_arch=NET_ARCH,
        activation_fn=nn.Tanh,
    )
    return PPOAgent(policy, features=features)


def _load_ppo(path: Path, game: str) -> PPOAgent:
    return PPOAgent.load(path, game=game)


def _load_scorer(path: Path, game: str) -> ActionScorerAgent:
    return ActionScorerAgent.load(path, game=game)


def copied(checkpoint: Checkpoint) -> Checkpoint:
    return {
        key: ({k: v.clone() for k, v in value.items()} if key == "policy" else value.clone())
        for key, value in checkpoint.items()
    }


def saved(checkpoint: Any) -> bytes:
    buffer = io.BytesIO()
    torch.save(checkpoint, buffer)
    return buffer.getvalue()


def metadata_of(checkpoint: Checkpoint) -> dict[str, Any]:
    return json.loads(checkpoint["metadata"].numpy().tobytes())


def with_metadata_bytes(checkpoint: Checkpoint, text: bytes) -> Checkpoint:
    checkpoint["metadata"] = torch.tensor(list(text), dtype=torch.uint8)
    return checkpoint


def with_metadata(checkpoint: Checkpoint, metadata: Any) -> Checkpoint:
    return with_metadata_bytes(checkpoint, json.dumps(metadata).encode())


def tensor_names(checkpoint: Checkpoint) -> list[tuple[str | None, str]]:
    """Every tensor as ``(None, key)`` or ``("policy", name)``."""
    return [(None, key) for key in ("metadata", "observation_low", "observation_high")] + [
        ("policy", name) for name in checkpoint["policy"]
    ]


def pick_tensor(
    checkpoint: Checkpoint, rng: np.random.Generator, floats_only: bool = False
) -> tuple[dict[str, Any], str]:
    """A random tensor's container and key (policy tensors most often)."""
    names = tensor_names(checkpoint)[1 if floats_only else 0 :]
    where, name = names[rng.integers(len(names))]
    return (checkpoint if where is None else checkpoint[where]), name


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


# ---- mutations: each returns (description, file content) ------------------------------------
def intact(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """Changes a checkpoint may have: the base as written, scaled weights, a tensor stored as
    a contiguous slice of a larger storage, the game's own shipped checkpoint."""
    choice = int(rng.integers(4))
    if choice == 0:
        return "the base checkpoint", corpus.base_bytes
    if choice == 3 and corpus.shipped is not None and rng.random() < 0.25:
        return "the game's shipped checkpoint", corpus.shipped
    checkpoint = copied(corpus.base)
    parent, name = pick_tensor(checkpoint, rng, floats_only=True)
    if choice == 1:
        scale = float(rng.choice([0.0, 0.5, -1.0, 2.0]))
        parent[name] = parent[name] * scale
        return f"{name} scaled by {scale}", saved(checkpoint)
    tensor = parent[name]
    offset = int(rng.integers(1, 9))
    storage = torch.zeros(tensor.numel() + offset + int(rng.integers(0, 9)))
    storage[offset : offset + tensor.numel()] = tensor.flatten()
    parent[name] = storage[offset : offset + tensor.numel()].view(tensor.shape)
    return f"{name} at offset {offset} of a larger storage", saved(checkpoint)


def view(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """A tensor replaced by a view that is not contiguous: stride 0, overlapping rows,
    transposed, every other element."""
    checkpoint = copied(corpus.base)
    parent, name = pick_tensor(checkpoint, rng)
    tensor = parent[name]
    shape = tuple(tensor.shape)
    kind = str(rng.choice(["stride 0", "overlapping", "transposed", "strided"]))
    if kind == "stride 0":
        parent[name] = tensor.flatten()[:1].expand(shape)
    elif kind == "overlapping" and len(shape) == 2:
        parent[name] = torch.zeros(shape[0] + shape[1], dtype=tensor.dtype).as_strided(
            shape, (1, 1)
        )
    elif kind == "transposed" and len(shape) == 2:
        parent[name] = tensor.t().contiguous().t()
    else:
        kind = "every other element"
        parent[name] = torch.repeat_interleave(tensor.flatten(), 2)[::2].view(shape)
    return f"{name}: {kind} view", saved(checkpoint)


def dtype(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    checkpoint = copied(corpus.base)
    parent, name = pick_tensor(checkpoint, rng)
    target = DTYPES[rng.integers(len(DTYPES))]
    parent[name] = parent[name].to(target)
    return f"{name} as {target}", saved(checkpoint)


def shape(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    checkpoint = copied(corpus.base)
    parent, name = pick_tensor(checkpoint, rng, floats_only=True)
    tensor = parent[name]
    kind = int(rng.integers(5))
    if kind == 0:
        parent[name] = tensor.unsqueeze(0)
    elif kind == 1:
        parent[name] = tensor.flatten()[:-1]
    elif kind == 2:
        parent[name] = torch.cat([tensor.flatten(), tensor.flatten()[:1]])
    elif kind == 3:
        parent[name] = tensor.flatten()[0].clone()
    else:
        parent[name] = torch.zeros((0, *tensor.shape[1:]))
    return f"{name}: shape {tuple(tensor.shape)} -> {tuple(parent[name].shape)}", saved(checkpoint)


def sizes(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """A size of the metadata set to a huge, zero or negative value, or the network made
    deep; half the time every tensor is a stride-0 view of the shape that size declares
    (defect 2: a few KB declaring gigabytes)."""
    checkpoint = copied(corpus.base)
    metadata = metadata_of(checkpoint)
    value = int(rng.choice(HUGE_SIZES))
    nets = sorted(metadata["net_arch"])
    sized = [
        key for key in ("observation_size", "num_actions", "action_features") if key in metadata
    ]
    field = str(rng.choice([*sized, *nets, "depth"]))
    if field in nets:
        layers = metadata["net_arch"][field] or [8]
        layers[int(rng.integers(len(layers)))] = value
        metadata["net_arch"][field] = layers
    elif field == "depth":
        value = int(rng.choice([9, 100, 10_000]))
        metadata["net_arch"][nets[0]] = [8] * value
    else:
        metadata[field] = value
    described = f"{field} = {_short(value)}"
    if rng.random() < 0.5 and 0 < value <= 2**31:
        checkpoint["policy"] = _stride_0_network(corpus.shapes(metadata))
        described += ", every tensor a stride-0 view of its declared shape"
    return described, saved(with_metadata(checkpoint, metadata))


def _stride_0_network(shapes: dict[str, tuple[int, ...]]) -> dict[str, torch.Tensor]:
    """The network's tensors at the shapes its metadata declares (the first
    ``STRIDE_0_TENSORS``), each over one float."""
    one = torch.zeros(1)
    names = list(shapes)[:STRIDE_0_TENSORS]
    return {name: one.expand(shapes[name]) for name in names}


def metadata_junk(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """A field of the wrong type or value, a key missing or extra, or text that is not a
    JSON object (deeply nested, not UTF-8, too long, empty)."""
    checkpoint = copied(corpus.base)
    metadata = metadata_of(checkpoint)
    kind = int(rng.integers(5))
    if kind == 0:
        key = str(rng.choice(sorted(metadata)))
        value = JUNK_VALUES[rng.integers(len(JUNK_VALUES))]
        metadata[key] = value
        return f"metadata {key} = {_short(value)}", saved(with_metadata(checkpoint, metadata))
    if kind == 1:
        key = str(rng.choice(sorted(metadata)))
        del metadata[key]
        return f"metadata without {key}", saved(with_metadata(checkpoint, metadata))
    if kind == 2:
        key = str(rng.choice(["game", "features", "activation_fn", "format"]))
        metadata[key] = str(rng.choice(["Softmax", "os.system", "", "chess", "raw "]))
        return f"metadata {key} = {metadata[key]!r}", saved(with_metadata(checkpoint, metadata))
    if kind == 3:
        metadata[str(rng.choice(["extra", "__class__", ""]))] = 1
        return "metadata with an extra key", saved(with_metadata(checkpoint, metadata))
    texts = {
        "nested": b"[" * 100_000,
        "not UTF-8": b"\xff\xfe{}",
        "too long": b'{"a": "' + b"x" * 10_000 + b'"}',
        "empty": b"",
        "a list": b"[1, 2]",
        "a huge number": b'{"observation_size": 1' + b"0" * 4000 + b"}",
    }
    label = str(rng.choice(sorted(texts)))
    return f"metadata text {label}", saved(with_metadata_bytes(checkpoint, texts[label]))


def values(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """NaN, an infinity or a float32-overflowing value in a tensor, or crossed bounds."""
    checkpoint = copied(corpus.base)
    if rng.random() < 0.15:
        checkpoint["observation_low"] = checkpoint["observation_high"] + 1
        return "observation_low above observation_high", saved(checkpoint)
    parent, name = pick_tensor(checkpoint, rng, floats_only=True)
    value = float(BAD_VALUES[rng.integers(len(BAD_VALUES))])
    flat = parent[name].view(-1)
    if rng.random() < 0.3:
        flat[:] = value
        return f"{name}: every value {value}", saved(checkpoint)
    index = int(rng.integers(flat.numel()))
    flat[index] = value
    return f"{name}[{index}] = {value}", saved(checkpoint)


def keys(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """A key missing or extra at either level, or a value that is not a tensor."""
    checkpoint = copied(corpus.base)
    junk = (None, 1, "tensor", [1.0], (1.0,), b"x", {"a": torch.zeros(1)}, torch.zeros(1))
    kind = int(rng.integers(5))
    if kind == 0:
        key = str(rng.choice(sorted(checkpoint)))
        del checkpoint[key]
        return f"no {key}", saved(checkpoint)
    if kind == 1:
        name = str(rng.choice(sorted(checkpoint["policy"])))
        del checkpoint["policy"][name]
        return f"no policy tensor {name}", saved(checkpoint)
    value = junk[rng.integers(len(junk))]
    if kind == 2:
        parent, name = pick_tensor(checkpoint, rng)
        parent[name] = value
        return f"{name} = {_short(value)}", saved(checkpoint)
    if kind == 3:
        target = str(rng.choice(["policy", "extra", "optimizer"]))
        (checkpoint["policy"] if target == "policy" else checkpoint)[f"{target}.x"] = value
        return f"an extra {target} entry {_short(value)}", saved(checkpoint)
    whole = (checkpoint["policy"], list(checkpoint.values()), torch.zeros(3), 1, None)
    choice = int(rng.integers(len(whole)))
    return f"the file holds {type(whole[choice]).__name__}", saved(whole[choice])


def damaged(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """The file's bytes cut, flipped, overwritten, or with junk around them."""
    content = bytearray(corpus.base_bytes)
    size = len(content)
    kind = int(rng.integers(5))
    if kind == 0:
        cut = int(rng.integers(size))
        return f"cut to {cut} of {size} bytes", bytes(content[:cut])
    if kind == 1:
        places = rng.integers(size, size=int(rng.integers(1, 9)))
        for place in places:
            content[place] ^= 1 << int(rng.integers(8))
        return f"bits flipped at {sorted(int(p) for p in places)}", bytes(content)
    if kind == 2:
        start, length = int(rng.integers(size)), int(rng.integers(1, 256))
        junk = rng.integers(256, size=min(length, size - start), dtype=np.uint8)
        content[start : start + junk.size] = junk.tobytes()
        return f"{junk.size} random bytes at {start}", bytes(content)
    junk = rng.integers(256, size=int(rng.integers(1, 512)), dtype=np.uint8).tobytes()
    if kind == 3:
        return f"{len(junk)} random bytes appended", bytes(content) + junk
    return f"{len(junk)} random bytes prepended", junk + bytes(content)


def archive(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """The archive rewritten: records compressed, one dropped or duplicated, the legacy
    torch format, or crafted storages (declared sizes, offsets, strides) over real records."""
    kind = int(rng.integers(5))
    if kind == 0:
        return "records deflated", rezipped(corpus.base_bytes, zipfile.ZIP_DEFLATED)
    if kind == 1:
        names = zipfile.ZipFile(io.BytesIO(corpus.base_bytes)).namelist()
        dropped = str(rng.choice(names))
        return f"no record {dropped}", rezipped(corpus.base_bytes, drop=dropped)
    if kind == 2:
        legacy = io.BytesIO()
        torch.save(corpus.base, legacy, _use_new_zipfile_serialization=False)
        return "torch's legacy format", legacy.getvalue()
    return crafted_storage(corpus, rng)


def rezipped(content: bytes, compression: int = zipfile.ZIP_STORED, drop: str = "") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(content)) as src, zipfile.ZipFile(out, "w", compression) as dst:
        for item in src.infolist():
            if item.filename != drop:
                dst.writestr(item.filename, src.read(item))
    return out.getvalue()


def other_game(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """Another game's shipped checkpoint, or the base claiming another game."""
    other, content = corpus.others[rng.integers(len(corpus.others))]
    if rng.random() < 0.5:
        return f"{other}'s shipped checkpoint", content
    checkpoint = copied(corpus.base)
    metadata = metadata_of(checkpoint)
    metadata["game"] = other
    return f"the base claiming {other}", saved(with_metadata(checkpoint, metadata))


# ---- crafted storages: a pickle naming storages and views as torch.save would -----------------
class _Storage:
    def __init__(self, key: str, dtype: torch.dtype, numel: int) -> None:
        self.key, self.dtype, self.numel = key, dtype, numel


class _View:
    """A tensor as the pickle describes it: storage, offset, size, stride."""

    def __init__(self, storage: _Storage, offset: int, size: tuple, stride: tuple) -> None:
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride

    def __reduce__(self):
        arguments = (self.storage, self.offset, self.size, self.stride, False)
        return torch._utils._rebuild_tensor_v2, (*arguments, collections.OrderedDict())


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, _Storage):
            storage_type = getattr(torch, STORAGE_TYPES.get(obj.dtype, "FloatStorage"))
            return ("storage", storage_type, obj.key, "cpu", obj.numel)
        return None


def crafted_storage(corpus: Corpus, rng: np.random.Generator) -> tuple[str, bytes]:
    """The base written by hand, one tensor's storage or view changed: a declared storage
    size other than its record's, an offset, size or stride past the storage, negative ones."""
    records: dict[str, bytes] = {}
    views: dict[tuple[str | None, str], _View] = {}
    for where, name in tensor_names(corpus.base):
        tensor = (corpus.base if where is None else corpus.base[where])[name].contiguous()
        key = str(len(records))
        records[key] = tensor.numpy().tobytes()
        storage = _Storage(key, tensor.dtype, tensor.numel())
        views[(where, name)] = _View(storage, 0, tuple(tensor.shape), tensor.stride())
    place = list(views)[rng.integers(len(views))]
    target = views[place]
    description = _change_view(target, records, rng)
    tree: dict[str, Any] = {key: views[(None, key)] for where, key in views if where is None}
    tree["policy"] = {name: views[("policy", name)] for where, name in views if where}
    return f"{place[1]}: {description}", _archive_bytes(tree, records)


def _change_view(view: _View, records: dict[str, bytes], rng: np.random.Generator) -> str:
    numel = view.storage.numel
    kind = int(rng.integers(6))
    if kind == 0:
        view.storage.numel = int(rng.choice([0, numel - 1, numel + 1, 2**40]))
        return f"storage declares {view.storage.numel} elements, its record holds {numel}"
    if kind == 1:
        view.offset = int(rng.choice([1, numel, -1, 2**40]))
        return f"offset {view.offset}"
    if kind == 2:
        view.size = tuple(int(rng.choice([2**20, 2**31, -1])) for _ in view.size)
        return f"size {view.size}"
    if kind == 3:
        view.stride = tuple(int(rng.choice([0, 2, -1, 2**40])) for _ in view.stride)
        return f"stride {view.stride}"
    if kind == 4:
        view.size = tuple(57_000 for _ in view.size)
        view.stride = tuple(0 for _ in view.size)
        return f"size {view.size} at stride 0 (over {numel} elements)"
    records[view.storage.key] = records[view.storage.key][: int(rng.integers(0, 4))]
    return "record cut to a few bytes"


def _archive_bytes(tree: dict[str, Any], records: dict[str, bytes]) -> bytes:
    pickled = io.BytesIO()
    _Pickler(pickled, protocol=2).dump(tree)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as written:
        written.writestr("archive/data.pkl", pickled.getvalue())
        written.writestr("archive/byteorder", "little")
        for key, data in records.items():
            written.writestr(f"archive/data/{key}", data)
        written.writestr("archive/version", "3\n")
    return out.getvalue()


MUTATIONS: dict[str, Callable[[Corpus, np.random.Generator], tuple[str, bytes]]] = {
    "intact": intact,
    "view": view,
    "dtype": dtype,
    "shape": shape,
    "sizes": sizes,
    "metadata": metadata_junk,
    "values": values,
    "keys": keys,
    "bytes": damaged,
    "archive": archive,
    "other game": other_game,
}
KINDS = tuple(MUTATIONS)
