"""PPO checkpoints: round trips, refusal of crafted or tampered files, the shipped policies."""

from __future__ import annotations

import base64
import json
import pathlib
import pickle
import re
import subprocess
import sys
import zipfile

import numpy as np
import pytest
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

import presages_env
from presages_env.agents import RandomAgent
from presages_env.agents import ppo as ppo_module
from presages_env.agents.features import make_features
from presages_env.agents.ppo import PPOAgent
from presages_env.agents.specs import make_agent
from presages_env.games import get_game
from presages_env.training.vec_env import SelfPlayVecEnv

GAMES = ["president", "presages", "aciliande"]
CHECKPOINTS = pathlib.Path(presages_env.__file__).parent / "checkpoints"


class TouchOnUnpickle:
    """A pickle payload: unpickling it creates ``marker`` (stands for any code it could run)."""

    def __init__(self, marker: pathlib.Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return pathlib.Path.touch, (self.marker,)


def positions(game: str, agent=None, steps: int = 20, num_envs: int = 32, num_players=None):
    """Observations and masks met when ``agent`` (default: random) plays every seat."""
    agent = agent or RandomAgent(3)
    vec = presages_env.make_vec(game, num_envs, num_players=num_players, seed=7)
    obs, masks = [], []
    for _ in range(steps):
        obs.append(vec.obs.copy())
        masks.append(vec.masks.copy())
        actions = agent.act_batch(vec.obs, vec.masks)
        assert vec.masks[np.arange(num_envs), actions].all(), "an illegal action"
        vec.step(actions)
    return np.concatenate(obs), np.concatenate(masks)


def tiny_agent(features="raw", net_arch=(8,), activation=nn.Tanh, game="president") -> PPOAgent:
    game_ = get_game(game)
    n = game_.default_players
    feats = make_features(features, game, game_.num_actions(n))
    low, high = feats.low_high(game_.obs_low(n), game_.obs_high(n))
    torch.manual_seed(0)
    policy = MaskableActorCriticPolicy(
        spaces.Box(low, high),
        spaces.Discrete(game_.num_actions(n)),
        lambda _: 0.0,
        net_arch=net_arch,
        activation_fn=activation,
    )
    policy.set_training_mode(False)
    return PPOAgent(policy, features=feats)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("ckpt") / "tiny.pt"
    tiny_agent().save(path)
    return path


def tampered(saved: pathlib.Path, tmp_path: pathlib.Path, change) -> pathlib.Path:
    """A copy of ``saved`` with ``change(checkpoint, metadata)`` applied, re-saved."""
    checkpoint = torch.load(saved, weights_only=True)
    metadata = json.loads(checkpoint["metadata"].numpy().tobytes())
    change(checkpoint, metadata)
    if isinstance(checkpoint.get("metadata"), torch.Tensor):
        text = bytearray(json.dumps(metadata).encode())
        checkpoint["metadata"] = torch.frombuffer(text, dtype=torch.uint8)
    path = tmp_path / "tampered.pt"
    torch.save(checkpoint, path)
    return path


# ---- round trips -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "features, net_arch, activation",
    [
        ("raw", (8,), nn.Tanh),
        ("heuristic_hints", {"pi": [8, 4], "vf": [6]}, nn.ReLU),
        ("raw", {"pi": [], "vf": [4]}, nn.GELU),
    ],
)
def test_a_round_trip_keeps_the_actions_and_the_network(tmp_path, features, net_arch, activation):
    agent = tiny_agent(features, net_arch, activation)
    agent.save(tmp_path / "p.pt")
    loaded = PPOAgent.load(tmp_path / "p.pt")
    assert (loaded.name, loaded.features.name, loaded.features.game) == ("p", features, "president")
    assert loaded.policy.activation_fn is activation
    assert loaded.policy.observation_space == agent.policy.observation_space
    obs, masks = positions("president")
    np.testing.assert_array_equal(loaded.act_batch(obs, masks), agent.act_batch(obs, masks))
    for name, tensor in agent.policy.state_dict().items():
        assert torch.equal(loaded.policy.state_dict()[name], tensor), name


def test_the_file_is_tensors_and_json_only(saved):
    checkpoint = torch.load(saved, weights_only=True)
    assert sorted(checkpoint) == ["metadata", "observation_high", "observation_low", "policy"]
    metadata = json.loads(checkpoint["metadata"].numpy().tobytes().decode("utf-8"))
    assert metadata == {
        "format": "presages_env.ppo_policy",
        "version": 1,
        "game": "president",
        "features": "raw",
        "observation_size": 115,
        "num_actions": 53,
        "net_arch": {"pi": [8], "vf": [8]},
        "activation_fn": "Tanh",
    }


def test_save_needs_a_game_and_a_describable_policy(tmp_path):
    agent = tiny_agent()
    with pytest.raises(ValueError, match="game="):
        PPOAgent(agent.policy).save(tmp_path / "p.pt")
    with pytest.raises(ValueError, match="features are for 'president'"):
        agent.save(tmp_path / "p.pt", game="aciliande")
    with pytest.raises(ValueError, match="activation"):
        tiny_agent(activation=nn.Softplus).save(tmp_path / "p.pt")
    PPOAgent(agent.policy).save(tmp_path / "p.pt", game="president")
    assert PPOAgent.load(tmp_path / "p.pt").features.name == "raw"


# ---- crafted files run nothing -----------------------------------------------------------
def test_a_crafted_pt_is_refused_and_its_payload_never_runs(tmp_path):
    marker, crafted = tmp_path / "pwned", tmp_path / "crafted.pt"
    torch.save({"metadata": TouchOnUnpickle(marker)}, crafted)
    with pytest.raises(ValueError, match="Python objects besides tensors"):
        PPOAgent.load(crafted)
    assert not marker.exists()
    torch.load(crafted, weights_only=False)  # the payload is live: unpickling runs it
    assert marker.exists()


def crafted_zip(tmp_path: pathlib.Path, marker: pathlib.Path) -> pathlib.Path:
    """A real MaskablePPO zip with one more serialized entry: the payload."""
    env = SelfPlayVecEnv("president", 2, [RandomAgent(1)])
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16, policy_kwargs={"net_arch": [8]})
    model.save(tmp_path / "real.zip")
    path = tmp_path / "model.zip"
    with zipfile.ZipFile(tmp_path / "real.zip") as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            content = src.read(item)
            if item.filename == "data":
                data = json.loads(content)
                payload = base64.b64encode(pickle.dumps(TouchOnUnpickle(marker))).decode()
                data["extra"] = {":type:": "<class 'object'>", ":serialized:": payload}
                content = json.dumps(data).encode()
            dst.writestr(item, content)
    return path


def test_a_zip_loads_only_when_trusted_because_loading_it_runs_code(tmp_path):
    marker = tmp_path / "pwned"
    path = crafted_zip(tmp_path, marker)
    with pytest.raises(ValueError, match="trusted=True"):
        PPOAgent.load(path)
    assert not marker.exists()
    agent = PPOAgent.load(path, trusted=True)  # what trusted means: the payload runs
    assert marker.exists()
    assert agent.policy.action_space.n == 53


# ---- tampered or broken files are refused with a reason ----------------------------------
def set_metadata(key, value):
    return lambda checkpoint, metadata: metadata.__setitem__(key, value)


def set_tensor(name, tensor):
    return lambda checkpoint, metadata: checkpoint["policy"].__setitem__(name, tensor)


TAMPERINGS = {
    "unknown activation": (set_metadata("activation_fn", "os.system"), ValueError, "activation"),
    "unlisted activation": (set_metadata("activation_fn", "Softmax"), ValueError, "activation"),
    "unknown game": (set_metadata("game", "chess"), ValueError, "'game' is 'chess'"),
    "unknown features": (set_metadata("features", "pixels"), ValueError, "'features'"),
    "other format": (set_metadata("format", "sb3"), ValueError, "'format' must be"),
    "newer version": (set_metadata("version", 2), ValueError, "'version' must be 1"),
    "size as text": (set_metadata("observation_size", "115"), TypeError, "must be int"),
    "size as bool": (set_metadata("num_actions", True), TypeError, "must be int"),
    "zero size": (set_metadata("observation_size", 0), ValueError, "positive int"),
    "size off the game": (set_metadata("observation_size", 116), ValueError, "do not fit"),
    "negative layer": (set_metadata("net_arch", {"pi": [-8], "vf": [8]}), ValueError, "positive"),
    "list net_arch": (set_metadata("net_arch", [8]), TypeError, "'net_arch' must be dict"),
    "net_arch keys": (set_metadata("net_arch", {"pi": [8]}), TypeError, "'net_arch' must be"),
    "wider arch": (set_metadata("net_arch", {"pi": [9], "vf": [8]}), ValueError, r"\(9, 115\)"),
    "missing field": (lambda c, m: m.pop("game"), ValueError, "must have keys"),
    "extra field": (set_metadata("code", "x"), ValueError, "must have keys"),
    "metadata not an object": (lambda c, m: m.clear(), ValueError, "must have keys"),
    "wrong tensor shape": (set_tensor("action_net.bias", torch.zeros(52)), ValueError, r"\(53,\)"),
    "float64 tensor": (
        set_tensor("value_net.bias", torch.zeros(1, dtype=torch.float64)),
        ValueError,
        "float32",
    ),
    "extra tensor": (set_tensor("hook", torch.zeros(1)), ValueError, "policy tensors must be"),
    "missing tensor": (lambda c, m: c["policy"].pop("value_net.bias"), ValueError, "tensors"),
    "not a tensor": (set_tensor("value_net.bias", [0.0]), TypeError, "dense tensor"),
    "bounds shape": (
        lambda c, m: c.__setitem__("observation_low", torch.zeros(3)),
        ValueError,
        "observation_low",
    ),
    "bounds crossed": (
        lambda c, m: c.__setitem__("observation_low", c["observation_high"] + 1),
        ValueError,
        "<= observation_high",
    ),
    "metadata as text": (
        lambda c, m: c.__setitem__("metadata", json.dumps(m)),
        TypeError,
        "uint8 tensor",
    ),
    "extra top-level key": (
        lambda c, m: c.__setitem__("optimizer", torch.zeros(1)),
        ValueError,
        "expected a dict with keys",
    ),
}


@pytest.mark.parametrize("case", sorted(TAMPERINGS))
def test_tampered_checkpoints_are_refused_before_any_network_is_built(
    saved, tmp_path, monkeypatch, case
):
    change, error, message = TAMPERINGS[case]
    path = tampered(saved, tmp_path, change)
    monkeypatch.setattr(ppo_module, "build_policy", lambda *_: pytest.fail("built a network"))
    with pytest.raises(error, match=message):
        PPOAgent.load(path)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not json{", "not UTF-8 JSON"),
        (b"\xff\xfe", "not UTF-8 JSON"),
        (b"[1, 2]", "must have keys"),
    ],
)
def test_metadata_that_is_not_a_json_object_is_refused(saved, tmp_path, content, message):
    checkpoint = torch.load(saved, weights_only=True)
    checkpoint["metadata"] = torch.frombuffer(bytearray(content), dtype=torch.uint8)
    torch.save(checkpoint, tmp_path / "bad.pt")
    with pytest.raises(ValueError, match=message):
        PPOAgent.load(tmp_path / "bad.pt")


@pytest.mark.parametrize("keep", [0.0, 0.5, 0.99])
def test_truncated_files_are_refused(saved, tmp_path, keep):
    content = saved.read_bytes()
    (tmp_path / "cut.pt").write_bytes(content[: int(len(content) * keep)])
    with pytest.raises(ValueError, match="not a readable torch checkpoint"):
        PPOAgent.load(tmp_path / "cut.pt")


def test_foreign_files_are_refused_and_missing_ones_are_not_found(tmp_path):
    (tmp_path / "text.pt").write_text("hello")
    with pytest.raises(ValueError, match="not a readable torch checkpoint"):
        PPOAgent.load(tmp_path / "text.pt")
    torch.save(torch.zeros(3), tmp_path / "tensor.pt")
    with pytest.raises(ValueError, match="expected a dict with keys"):
        PPOAgent.load(tmp_path / "tensor.pt")
    with pytest.raises(FileNotFoundError):
        PPOAgent.load(tmp_path / "absent.pt")


# ---- the shipped checkpoints ---------------------------------------------------------------
SHIPPED_FILES = sorted(path.name for path in CHECKPOINTS.glob("*.pt"))
PER_COUNT = re.compile(r"(?P<game>[a-z_]+?)(_(?P<players>\d)p)?\.pt")


@pytest.mark.parametrize("name", SHIPPED_FILES)
def test_shipped_checkpoints_load_safely_and_play_legal_actions(name):
    match = PER_COUNT.fullmatch(name)
    assert match, f"{name} is neither <game>.pt nor <game>_<n>p.pt"
    game, players = match["game"], match["players"] and int(match["players"])
    assert sorted(torch.load(CHECKPOINTS / name, weights_only=True)) == [
        "metadata",
        "observation_high",
        "observation_low",
        "policy",
    ]
    agent = PPOAgent.load(CHECKPOINTS / name)
    assert agent.features.game == game
    obs, masks = positions(game, agent, steps=30, num_players=players)  # every action legal
    assert len(np.unique(agent.act_batch(obs, masks))) > 5


def test_the_shipped_checkpoint_is_the_one_trained_at_the_player_count(tmp_path, monkeypatch):
    monkeypatch.setattr(ppo_module, "SHIPPED", tmp_path)
    (tmp_path / "presages_5p.pt").touch()
    assert ppo_module.shipped_checkpoint("presages", 5).name == "presages_5p.pt"
    assert ppo_module.shipped_checkpoint("presages", 6).name == "presages.pt"  # none at 6
    assert ppo_module.shipped_checkpoint("presages").name == "presages.pt"
    (tmp_path / "presages_4p.pt").touch()  # the default count's own, when there is one
    assert ppo_module.shipped_checkpoint("presages").name == "presages_4p.pt"
    with pytest.raises(ValueError, match="players"):
        ppo_module.shipped_checkpoint("presages", 9)


def test_a_ppo_spec_loads_the_checkpoint_of_its_player_count(monkeypatch):
    loaded = []
    load = classmethod(lambda cls, path, **table: loaded.append((path, table)))
    monkeypatch.setattr(PPOAgent, "load", load)
    make_agent("ppo", "presages", num_players=5)
    make_agent("ppo", "presages")
    assert loaded == [
        (ppo_module.shipped_checkpoint("presages", 5), {"game": "presages", "num_players": 5}),
        (ppo_module.shipped_checkpoint("presages", 4), {"game": "presages", "num_players": None}),
    ]


def test_the_module_imports_without_torch():
    blocked = "import sys; sys.modules.update(torch=None, sb3_contrib=None, stable_baselines3=None)"
    code = f"{blocked}; import presages_env.agents.ppo"
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- issue 27: memory bombs, non-finite weights, another game's checkpoint ------------------
def expanded(shape: tuple[int, ...]) -> torch.Tensor:
    """A stride-0 view: ``shape`` declared over a storage of one float."""
    return torch.zeros(1).expand(shape)


def mlp_shapes(pi: list[int], vf: list[int], inputs: int = 115, actions: int = 53) -> dict:
    """The state dict's shapes of an SB3 MLP policy (Président's sizes by default)."""
    shapes = {}
    for net, sizes in (("policy_net", pi), ("value_net", vf)):
        width = inputs
        for i, size in enumerate(sizes):
            shapes[f"mlp_extractor.{net}.{2 * i}.weight"] = (size, width)
            shapes[f"mlp_extractor.{net}.{2 * i}.bias"] = (size,)
            width = size
        shapes["action_net" if net == "policy_net" else "value_net"] = width
    last_pi, last_vf = shapes.pop("action_net"), shapes.pop("value_net")
    shapes |= {"action_net.weight": (actions, last_pi), "action_net.bias": (actions,)}
    return shapes | {"value_net.weight": (1, last_vf), "value_net.bias": (1,)}


def test_a_huge_network_declared_over_stride_0_tensors_is_refused_before_building(
    saved, tmp_path, monkeypatch
):
    """Defect 2: a few KB declaring 12 GiB of weights; load built (allocated) the network."""
    arch = {"pi": [57_000, 57_000], "vf": [8]}

    def huge(checkpoint, metadata):
        metadata["net_arch"] = arch
        shapes = mlp_shapes(arch["pi"], arch["vf"])
        checkpoint["policy"] = {name: expanded(shape) for name, shape in shapes.items()}

    path = tampered(saved, tmp_path, huge)
    declared = sum(t.numel() for t in torch.load(path, weights_only=True)["policy"].values())
    assert path.stat().st_size < 8_000 and 4 * declared > 12 * 2**30
    monkeypatch.setattr(ppo_module, "build_policy", lambda *_: pytest.fail("built a network"))
    with pytest.raises(
        ValueError, match="'mlp_extractor.policy_net.0.weight' .* not the contiguous"
    ):
        PPOAgent.load(path)


@pytest.mark.parametrize(
    "arch, message",
    [
        ({"pi": [4097], "vf": [8]}, "layer of 4,097 units, at most 4,096"),
        ({"pi": [8] * 9, "vf": [8]}, "9 layers, at most 8"),
        ({"pi": [4096] * 2, "vf": [4096] * 2}, "34,734,134 parameters; at most 16,777,216"),
    ],
)
def test_the_declared_network_is_bounded_before_any_tensor_is_read(saved, tmp_path, arch, message):
    path = tampered(saved, tmp_path, set_metadata("net_arch", arch))
    with pytest.raises(ValueError, match=message):
        PPOAgent.load(path)


def overlapping(shape: tuple[int, ...]) -> torch.Tensor:
    """Rows that share all but one element of their storage."""
    return torch.zeros(shape[0] + shape[1] - 1).as_strided(shape, (1, 1))


VIEWS = {
    "stride-0 weight": ("action_net.weight", expanded),
    "overlapping weight": ("mlp_extractor.policy_net.0.weight", overlapping),
    "stride-0 bounds": ("observation_high", expanded),
    "stride-0 metadata": ("metadata", lambda s: torch.zeros(1, dtype=torch.uint8).expand(s)),
}


@pytest.mark.parametrize("case", sorted(VIEWS))
def test_tensors_that_are_not_contiguous_in_their_storage_are_refused(
    saved, tmp_path, monkeypatch, case
):
    """A view whose storage does not hold the elements it declares is refused, at any size."""
    name, view = VIEWS[case]
    checkpoint = torch.load(saved, weights_only=True)
    parent = checkpoint["policy"] if name in checkpoint["policy"] else checkpoint
    parent[name] = view(tuple(parent[name].shape))
    torch.save(checkpoint, tmp_path / "view.pt")
    monkeypatch.setattr(ppo_module, "build_policy", lambda *_: pytest.fail("built a network"))
    with pytest.raises(ValueError, match="not the contiguous layout"):
        PPOAgent.load(tmp_path / "view.pt")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 3e38])
@pytest.mark.parametrize("name", ["action_net.weight", "mlp_extractor.policy_net.0.bias"])
def test_non_finite_or_overflowing_weights_are_refused_at_load(saved, tmp_path, name, value):
    """Defect 3: such weights loaded and failed at the first move (NaN logits)."""

    def poison(checkpoint, metadata):
        checkpoint["policy"][name][0] = value

    layer = name.rsplit(".", 1)[0]  # an overflow is reported by layer
    with pytest.raises(ValueError, match=f"{layer}.* (NaN or infinite|beyond 1e\\+07)"):
        PPOAgent.load(tampered(saved, tmp_path, poison))


def test_non_finite_observation_bounds_are_refused(saved, tmp_path):
    def poison(checkpoint, metadata):
        checkpoint["observation_high"][3] = float("inf")

    with pytest.raises(ValueError, match="observation_high.* NaN or infinite"):
        PPOAgent.load(tampered(saved, tmp_path, poison))


def test_a_checkpoint_of_another_game_is_refused_naming_both_games(saved):
    with pytest.raises(ValueError, match="plays 'president', not 'presages'"):
        PPOAgent.load(saved, game="presages")
    assert PPOAgent.load(saved, game="president", num_players=5).features.game == "president"


def rewritten(saved: pathlib.Path, tmp_path: pathlib.Path, compression: int) -> pathlib.Path:
    """``saved``'s archive, each record written again with ``compression``."""
    path = tmp_path / "rewritten.pt"
    with zipfile.ZipFile(saved) as src, zipfile.ZipFile(path, "w", compression) as dst:
        for item in src.infolist():
            dst.writestr(item.filename, src.read(item))
    return path


def test_archives_the_reader_could_allocate_more_for_than_they_hold_are_refused(saved, tmp_path):
    """A compressed record may declare any size (the reader allocates it, then inflates);
    the legacy format allocates every storage size it declares before reading it."""
    assert PPOAgent.load(rewritten(saved, tmp_path, zipfile.ZIP_STORED)).features.game
    with pytest.raises(ValueError, match="is compressed"):
        PPOAgent.load(rewritten(saved, tmp_path, zipfile.ZIP_DEFLATED))
    legacy = tmp_path / "legacy.pt"
    torch.save(torch.load(saved, weights_only=True), legacy, _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="not a zip archive"):
        PPOAgent.load(legacy)
