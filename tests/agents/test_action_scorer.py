"""The action scorer (agents/action_scorer.py): one score per legal action from the state and
the action's features, an agent on it, and its checkpoints, which the checked loader reads
without unpickling and refuses when tampered."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from extras import require

torch = require("train")

import presages_env  # noqa: E402
from presages_env.agents import action_scorer as scorer_module  # noqa: E402
from presages_env.agents import checkpoint  # noqa: E402
from presages_env.agents.action_scorer import ActionScorer, ActionScorerAgent  # noqa: E402
from presages_env.agents.ppo import PPOAgent, shipped_checkpoint  # noqa: E402
from presages_env.agents.specs import make_agent  # noqa: E402
from presages_env.games import get_game  # noqa: E402

GAMES = presages_env.list_games()
ARCH = {"state": [16, 8], "action": [8], "head": [8]}


def positions(game: str, num_envs: int = 16, steps: int = 10):
    vec = presages_env.make_vec(game, num_envs, seed=7)
    rng = np.random.default_rng(0).integers(1, 2**62, size=num_envs).astype(np.int64)
    obs, masks = [], []
    for _ in range(steps):
        obs.append(vec.obs.copy())
        masks.append(vec.masks.copy())
        vec.step(vec.random_actions(rng))
    return np.concatenate(obs), np.concatenate(masks)


def tiny_scorer(game: str = "president", arch=None) -> ActionScorer:
    torch.manual_seed(0)
    return ActionScorer.for_game(get_game(game), arch or ARCH)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("scorer") / "tiny.pt"
    tiny_scorer().save(path)
    return path


@pytest.mark.parametrize("game", GAMES)
def test_a_round_trip_keeps_every_score_and_the_agent_plays_legal_moves(game, tmp_path):
    scorer = tiny_scorer(game)
    obs, masks = positions(game)
    scores = scorer.legal_scores(obs, masks)
    assert np.isfinite(scores[masks == 1]).all() and np.isneginf(scores[masks == 0]).all()
    ActionScorerAgent(scorer).save(tmp_path / "policy.pt")
    agent = ActionScorerAgent.load(tmp_path / "policy.pt", game=game)
    np.testing.assert_array_equal(agent.scorer.legal_scores(obs, masks), scores)
    actions = agent.act_batch(obs, masks)
    np.testing.assert_array_equal(actions, scores.argmax(axis=1))
    sampled = ActionScorerAgent(scorer, deterministic=False, seed=1).act_batch(obs, masks)
    assert (masks[np.arange(len(obs)), sampled] == 1).all()


def test_the_head_reads_the_state_and_action_codes_side_by_side():
    """Its first layer, applied as two products, is the layer over the concatenation."""
    scorer = tiny_scorer("presages")
    obs, masks = positions("presages", steps=2)
    [(_, _, features)] = scorer.scored_chunks(obs, masks)
    assert features.shape == (*masks.shape, scorer.features.ACTION_FEATURES)
    chosen = torch.as_tensor(features[:, 0])
    network = scorer.network
    with torch.no_grad():
        codes = scorer.encode(torch.as_tensor(obs))
        joined = torch.cat([codes, network["action"](chosen)], dim=1)
        expected = network["head"](joined).squeeze(-1)
        np.testing.assert_allclose(
            scorer.scores(torch.as_tensor(obs), chosen), expected, rtol=1e-5, atol=1e-6
        )


def test_scores_do_not_depend_on_the_other_rows_of_a_batch():
    scorer = tiny_scorer("aciliande")
    obs, masks = positions("aciliande")
    together = scorer.legal_scores(obs, masks)
    alone = np.concatenate(
        [scorer.legal_scores(obs[i : i + 1], masks[i : i + 1]) for i in range(5)]
    )
    np.testing.assert_allclose(together[:5], alone, rtol=1e-5)


def test_observations_outside_the_space_are_refused_before_the_kernel_reads_them():
    agent = ActionScorerAgent(tiny_scorer("presages"))
    obs, masks = positions("presages", steps=1)
    bad = obs.copy()
    bad[0, 0] = 100  # OBS_ME: a seat + 1 the game cannot have
    with pytest.raises(ValueError, match="outside the presages observation space"):
        agent.act_batch(bad, masks)
    with pytest.raises(ValueError, match="int8"):
        agent.act_batch(obs.astype(np.int16), masks)


def test_the_file_is_tensors_and_json_only(saved):
    checkpoint = torch.load(saved, weights_only=True)  # nothing but tensors and containers
    metadata = json.loads(checkpoint["metadata"].numpy().tobytes())
    assert metadata["format"] == "presages_env.action_scorer"
    assert metadata["net_arch"] == ARCH


def set_metadata(key, value):
    return lambda checkpoint, metadata: metadata.__setitem__(key, value)


def set_tensor(name, value):
    return lambda checkpoint, metadata: checkpoint["policy"].__setitem__(name, value)


TAMPERINGS = {
    "ppo format": (set_metadata("format", "presages_env.ppo_policy"), ValueError, "'format'"),
    "newer version": (set_metadata("version", 2), ValueError, "'version' must be 1"),
    "size as bool": (set_metadata("num_actions", True), TypeError, "must be int"),
    "features off the game": (set_metadata("action_features", 30), ValueError, "do not fit"),
    "another game": (set_metadata("game", "presages"), ValueError, "not 'president'"),
    "net_arch keys": (set_metadata("net_arch", {"pi": [8], "vf": [8]}), TypeError, "'state'"),
    "huge network": (
        set_metadata("net_arch", {"state": [4096] * 4, "action": [8], "head": [8]}),
        ValueError,
        "parameters",
    ),
    "wider layer": (
        set_metadata("net_arch", {"state": [17, 8], "action": [8], "head": [8]}),
        ValueError,
        r"\(17, 115\)",
    ),
    "missing tensor": (lambda c, m: c["policy"].pop("head.2.bias"), ValueError, "tensors"),
    "nan weight": (
        set_tensor("action.0.weight", torch.full((8, 29), float("nan"))),
        ValueError,
        "NaN",
    ),
    "exploding weights": (  # 115 inputs x 1e29: beyond 1e30 from the first layer
        set_tensor("state.0.weight", torch.full((16, 115), 1e29)),
        ValueError,
        "can reach",
    ),
    "other bounds": (
        lambda c, m: c.__setitem__("observation_high", c["observation_high"] * 2),
        ValueError,
        "observation space",
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
    checkpoint = torch.load(saved, weights_only=True)
    metadata = json.loads(checkpoint["metadata"].numpy().tobytes())
    change(checkpoint, metadata)
    text = json.dumps(metadata).encode()
    checkpoint["metadata"] = torch.frombuffer(bytearray(text), dtype=torch.uint8)
    torch.save(checkpoint, tmp_path / "bad.pt")
    monkeypatch.setattr(scorer_module, "build_network", lambda *_: pytest.fail("built"))
    with pytest.raises(error, match=message):
        ActionScorerAgent.load(tmp_path / "bad.pt", game="president")


def test_each_loader_refuses_the_other_kind_of_policy(saved):
    with pytest.raises(ValueError, match="presages_env.action_scorer"):
        PPOAgent.load(saved)
    with pytest.raises(ValueError, match="presages_env.ppo_policy"):
        ActionScorerAgent.load(shipped_checkpoint("president"))


def test_a_checkpoint_is_refused_for_another_game_or_table(saved):
    with pytest.raises(ValueError, match="plays 'president', not 'aciliande'"):
        ActionScorerAgent.load(saved, game="aciliande")
    with pytest.raises(ValueError, match="num_players"):
        ActionScorerAgent.load(saved, game="president", num_players=9)


def test_the_dmc_spec_loads_a_path_or_the_scorer_shipped_for_the_game(saved, tmp_path, monkeypatch):
    label, agent = make_agent(f"dmc:{saved}", "president")
    assert label == "dmc:tiny" and isinstance(agent, ActionScorerAgent)
    monkeypatch.setattr(scorer_module, "SHIPPED_SCORERS", tmp_path)
    with pytest.raises(ValueError, match="no action scorer is shipped for 'president'.*dmc:PATH"):
        make_agent("dmc", "president")
    (tmp_path / "president").mkdir()
    (tmp_path / "president" / "seed0.pt").write_bytes(saved.read_bytes())
    label, agent = make_agent("dmc", "president")
    assert label == "dmc" and isinstance(agent, ActionScorerAgent)
    with pytest.raises(ValueError, match="unknown game"):
        scorer_module.shipped_scorer("chess")


def test_an_ensemble_scores_each_action_by_its_members_mean(tmp_path):
    members = [ActionScorer.for_game(get_game("presages"), ARCH) for _ in range(3)]
    obs, masks = positions("presages")
    for k, member in enumerate(members):
        member.save(tmp_path / f"member{k}.pt")
    mean = np.mean([member.legal_scores(obs, masks) for member in members], axis=0)
    ensemble = ActionScorerAgent.load(tmp_path, game="presages")
    assert len(ensemble.members) == 3 and ensemble.name == tmp_path.name
    np.testing.assert_allclose(ensemble.legal_scores(obs, masks), mean, rtol=1e-6)
    np.testing.assert_array_equal(ensemble.act_batch(obs, masks), mean.argmax(axis=1))
    label, by_spec = make_agent(f"dmc:{tmp_path}", "presages")
    np.testing.assert_array_equal(by_spec.act_batch(obs, masks), mean.argmax(axis=1))
    with pytest.raises(ValueError, match="save each of its members"):
        ensemble.save(tmp_path / "one.pt")


def test_an_ensemble_of_another_game_too_many_or_no_members_is_refused(saved, tmp_path):
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "a.pt").write_bytes(saved.read_bytes())
    tiny_scorer("presages").save(mixed / "b.pt")
    with pytest.raises(ValueError, match="plays 'president', not 'presages'"):
        ActionScorerAgent.load(mixed, game="presages")
    with pytest.raises(ValueError, match="one game"):
        ActionScorerAgent.load(mixed)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="1 to 16 checkpoints"):
        ActionScorerAgent.load(empty)
    crowded = tmp_path / "crowded"
    crowded.mkdir()
    for k in range(scorer_module.MAX_MEMBERS + 1):
        (crowded / f"m{k:02d}.pt").write_bytes(b"never read")
    with pytest.raises(ValueError, match="found 17"):
        ActionScorerAgent.load(crowded)


def test_every_shipped_scorer_loads_for_its_game_and_plays_legal_actions():
    shipped = sorted(p for p in scorer_module.SHIPPED_SCORERS.iterdir() if p.is_dir())
    assert [p.name for p in shipped] == ["presages"]
    for path in shipped:
        agent = ActionScorerAgent.load(scorer_module.shipped_scorer(path.name), game=path.name)
        obs, masks = positions(path.name)
        actions = agent.act_batch(obs, masks)
        assert masks[np.arange(len(actions)), actions].all()


def test_a_network_beyond_the_format_bounds_is_never_built():
    with pytest.raises(ValueError, match="parameters"):
        ActionScorer.for_game(get_game("presages"), {"state": [4096] * 8, "action": [], "head": []})


def test_a_network_its_loader_would_refuse_is_never_written(tmp_path):
    """save runs the loader's check on what it writes: a scorer whose weights grew past the
    score bound, or went NaN, is refused naming the layer, and no file is left."""
    scorer = tiny_scorer()
    with torch.no_grad():
        scorer.network["state"][0].weight.fill_(1e29)  # 115 inputs: 1.2e31 from the first layer
    with pytest.raises(ValueError, match=r"not written.*state\.0 can reach 1\.\d+e\+31"):
        scorer.save(tmp_path / "grown.pt")
    with torch.no_grad():
        scorer.network["head"][0].bias[0] = float("nan")
    with pytest.raises(ValueError, match="not written.*NaN"):
        scorer.save(tmp_path / "nan.pt")
    assert not list(tmp_path.iterdir())


def test_a_wide_deep_scorer_as_initialised_saves_and_loads(tmp_path):
    """Four layers of 512 in the state MLP and the head (within the settings' bounds) reach a
    score bound of 3.1e7 as initialised: the former limit of 1e7 had the loader refuse them,
    so a DMC run wrote a policy.pt neither ActionScorerAgent.load nor dmc:PATH took."""
    arch = {"state": [512] * 4, "action": [64], "head": [512] * 4}
    scorer = tiny_scorer("presages", arch)
    scorer.save(tmp_path / "policy.pt")
    agent = ActionScorerAgent.load(tmp_path / "policy.pt", game="presages")
    obs, masks = positions("presages", num_envs=4, steps=1)
    np.testing.assert_array_equal(
        agent.scorer.legal_scores(obs, masks), scorer.legal_scores(obs, masks)
    )


@pytest.mark.parametrize("arch", [ARCH, {"state": [], "action": [], "head": [32, 4]}])
def test_the_initial_score_bound_holds_for_every_initialisation(arch, monkeypatch):
    """The bound scorer_metadata refuses by is above what the loader's check finds on any
    freshly built network: the check passes with the limit set to it."""
    metadata = scorer_module.scorer_metadata(get_game("aciliande"), arch)
    monkeypatch.setattr(checkpoint, "SCORE_LIMIT", scorer_module.initial_score_bound(metadata))
    for seed in range(5):
        torch.manual_seed(seed)
        network = scorer_module.build_network(metadata)
        checkpoint.check_scores(metadata, network.state_dict())  # raises beyond the limit


def test_a_network_whose_initial_scores_pass_the_limit_is_never_built(monkeypatch):
    monkeypatch.setattr(scorer_module, "SCORE_LIMIT", 1e7)
    arch = {"state": [512] * 4, "action": [64], "head": [512] * 4}
    monkeypatch.setattr(scorer_module, "build_network", lambda *_: pytest.fail("built"))
    with pytest.raises(ValueError, match=r"net_arch .*as initialised.*beyond the loader's limit"):
        ActionScorer.for_game(get_game("presages"), arch)


class LyingWidth(int):
    def __int__(self) -> int:
        return 4096

    __index__ = __int__


@pytest.mark.parametrize(
    ("arch", "error", "message"),
    [
        ({"state": [True], "action": [8], "head": [8]}, TypeError, r"net_arch\['state'\]\[0\]"),
        ({"state": [16], "action": [8.0], "head": [8]}, TypeError, r"net_arch\['action'\]\[0\]"),
        ({"state": [16], "action": ["8"], "head": [8]}, TypeError, r"net_arch\['action'\]\[0\]"),
        ({"state": [16], "action": [8], "head": [0]}, ValueError, r"net_arch\['head'\]\[0\]"),
        ({"state": [4097], "action": [8], "head": [8]}, ValueError, r"\[1, 4096\]"),
        ({"state": [16] * 9, "action": [8], "head": [8]}, ValueError, "at most 8 widths"),
        ({"state": 16, "action": [8], "head": [8]}, TypeError, r"net_arch\['state'\]"),
        ({"state": [16], "action": [8]}, TypeError, "net_arch must be a dict with keys"),
        ([[16], [8], [8]], TypeError, "net_arch must be a dict with keys"),
    ],
)
def test_widths_are_plain_ints_in_the_checkpoint_bounds(arch, error, message):
    with pytest.raises(error, match=message):
        ActionScorer.for_game(get_game("president"), arch)


def test_widths_are_read_by_their_true_value():
    """An int subclass gives its own value (not what its __int__ says); a NumPy int is an int."""
    arch = {"state": [LyingWidth(16)], "action": [np.int64(8)], "head": [np.int16(4)]}
    metadata = scorer_module.scorer_metadata(get_game("president"), arch)
    assert metadata["net_arch"] == {"state": [16], "action": [8], "head": [4]}
    assert all(type(width) is int for sizes in metadata["net_arch"].values() for width in sizes)


def test_a_batch_is_scored_a_bounded_chunk_of_rows_at_a_time(monkeypatch):
    """The kernel fills float32[N, A, F] (257 KB a row for Res Arcana): it gets a chunk of
    rows within SCORING_CHUNK_BYTES, never the whole batch, and the scores are the same."""
    scorer = tiny_scorer("president")
    obs, masks = positions("president", num_envs=16, steps=5)  # 80 rows
    whole = scorer.legal_scores(obs, masks)
    monkeypatch.setattr(scorer_module, "SCORING_CHUNK_BYTES", 53 * 29 * 4 * 7)  # 7 rows
    kernel = scorer.features.action_features
    calls = []

    def spy(chunk_obs, out):
        calls.append(out.shape)
        kernel(chunk_obs, out)

    features = SimpleNamespace(ACTION_FEATURES=scorer.features.ACTION_FEATURES, action_features=spy)
    monkeypatch.setattr(scorer, "features", features)
    np.testing.assert_allclose(scorer.legal_scores(obs, masks), whole, rtol=1e-6, atol=1e-7)
    assert [shape[0] for shape in calls] == [7] * 11 + [3]
    assert all(shape[1:] == (53, 29) for shape in calls)


def test_the_module_imports_without_torch():
    blocked = "import sys; sys.modules.update(torch=None)"
    code = f"{blocked}; import presages_env.agents.action_scorer"
    subprocess.run([sys.executable, "-c", code], check=True)
