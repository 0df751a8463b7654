"""Regressions for the hardening defects that the conformance suite does not already cover.

Each test failed before its fix; the generic checks (bad actions, seeds, rng_states, states
through every entry point, truncation, fuzz) run for every game in ``test_conformance.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env.agents import HeuristicAgent, ISMCTSAgent, RandomAgent
from presages_env.core.header import HDR_CURRENT
from presages_env.core.validation import MAX_STEP
from presages_env.training import SingleAgentEnv
from presages_env.training.vec_env import SelfPlayVecEnv

GAMES = presages_env.list_games()


@pytest.mark.parametrize("name", GAMES)
def test_set_state_with_a_bad_seat_to_act_leaves_the_env_unchanged(name):
    env = presages_env.make(name)
    env.reset(seed=0)
    before = env.get_state()
    selected = env.agent_selection
    bad = before.copy()
    bad[HDR_CURRENT] = 37
    with pytest.raises(ValueError, match="HDR_CURRENT = 37"):
        env.set_state(bad)
    np.testing.assert_array_equal(env.get_state(), before)
    assert env.agent_selection == selected


@pytest.mark.parametrize("max_steps", [10, np.int64(10), np.int32(10)])
def test_both_envs_accept_numpy_integer_step_caps(max_steps):
    assert presages_env.make("president", max_steps=max_steps).max_steps == 10
    assert presages_env.make_vec("president", 2, max_steps=max_steps).max_steps == 10


def self_play_env() -> SelfPlayVecEnv:
    env = SelfPlayVecEnv("president", 4, [RandomAgent(seed=1)], seed=3)
    env.seed(5)
    env.reset()
    return env


def first_moves(env: SelfPlayVecEnv, steps: int = 120) -> list:
    """Obs, rewards, dones and episode infos of ``steps`` learner steps (first legal action)."""
    out = []
    for _ in range(steps):
        obs, rewards, dones, infos = env.step(np.argmax(env.action_masks(), axis=1))
        out.append((obs.copy(), rewards.copy(), dones.copy(), [i.get("episode") for i in infos]))
    return out


@pytest.mark.parametrize(
    "make_bad",
    [
        lambda masks: np.argmin(masks, axis=1).astype(np.int64),  # illegal where any is
        lambda masks: np.full(masks.shape[0], np.nan),
        lambda masks: np.argmax(masks, axis=1) + 0.4,  # a float that would be truncated
        lambda masks: np.full(masks.shape[0], -1),  # the learner must act in every game
        lambda masks: np.argmax(masks, axis=1)[:-1],
    ],
    ids=["illegal", "nan", "float", "skip", "short"],
)
def test_self_play_env_refuses_bad_learner_actions_before_counting_anything(make_bad):
    """A refused step leaves no trace: episode lengths, returns and games go on as if it
    had never been tried (checked against an env that never saw it)."""
    env, untouched = self_play_env(), self_play_env()
    with pytest.raises((TypeError, ValueError)):
        env.step_async(make_bad(env.action_masks()))
        env.step_wait()
    for a, b in zip(first_moves(env), first_moves(untouched), strict=True):
        for x, y in zip(a[:3], b[:3], strict=True):
            np.testing.assert_array_equal(x, y)
        assert a[3] == b[3]
    assert any(any(step[3]) for step in first_moves(self_play_env())), "no episode ended"


@pytest.mark.parametrize("name", GAMES)
def test_agents_refuse_a_row_with_no_legal_action(name):
    vec = presages_env.make_vec(name, 3, seed=0)
    masks = vec.masks.copy()
    masks[1] = 0
    for agent in (HeuristicAgent(name), RandomAgent(seed=0)):
        with pytest.raises(ValueError, match="row 1"):
            agent.act_batch(vec.obs, masks)


@pytest.mark.parametrize("name", GAMES)
def test_heuristic_agents_refuse_observations_they_would_misread(name):
    vec = presages_env.make_vec(name, 3, seed=0)
    agent = HeuristicAgent(name)
    agent.act_batch(vec.obs, vec.masks)
    too_high = vec.obs.copy()
    too_high[2, 0] = np.iinfo(too_high.dtype).max
    with pytest.raises(ValueError, match=r"obs\[2, 0\]"):
        agent.act_batch(too_high, vec.masks)
    with pytest.raises(ValueError):
        agent.act_batch(vec.obs[:, :-1], vec.masks)
    with pytest.raises(TypeError):
        agent.act_batch(vec.obs, vec.masks.astype(np.int64))
    with pytest.raises(TypeError):
        agent.act_batch(vec.obs[0], vec.masks[0])


# ---- round two (issue 27): a state's options, seeds and numbers, the wheel smoke ------------
def test_set_state_refuses_a_state_dealt_with_other_options():
    """Defect 4: a 60-manche Président state went into an env made for 1 manche; the env
    then reported the wrong options and overflowed its information-state bound."""
    env = presages_env.make("president", num_manches=1, observation_mode="information_state")
    env.reset(seed=0)
    before, selected = env.get_state(), env.agent_selection
    other = presages_env.make("president", num_manches=60)
    other.reset(seed=1)
    for give in (env.set_state, lambda s: env.reset(options={"state": s})):
        with pytest.raises(ValueError, match="num_manches = 60.*num_manches=1"):
            give(other.get_state())
        np.testing.assert_array_equal(env.get_state(), before)
        assert env.agent_selection == selected


BAD_SEEDS = [-1, 1.5, 2**63, True, np.uint64(2**64 - 1), "3", float("nan")]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_gymnasium_resets_refuse_bad_seeds_with_our_rule(seed):
    """Defect 7: Gymnasium's own seeding answered -1 and 1.5 with its own error, 2**63 with an
    OverflowError and accepted True; the env's generator must not move on a refusal."""
    import gymnasium

    import presages_env.training  # noqa: F401  (registers the envs)

    single = gymnasium.make("presages_env/president-v0").unwrapped
    vector = gymnasium.make_vec(
        "presages_env/president-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    for env in (single, vector):
        env.reset(seed=4)
        drawn = env.np_random.bit_generator.state
        with pytest.raises((TypeError, ValueError), match="seed must be"):
            env.reset(seed=seed)
        assert env.np_random.bit_generator.state == drawn


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_agents_and_self_play_env_refuse_bad_seeds(seed):
    """Defect 7: RandomAgent took -1 (and True), ISMCTSAgent and SelfPlayVecEnv.seed any
    value, failing later or never."""
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        RandomAgent(seed=seed)
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        ISMCTSAgent("president", simulations=2, seed=seed)
    env = self_play_env()
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        env.seed(seed)


@pytest.mark.parametrize("seed", [[], [1], [1, 2, 3], [1, -1], [1.5, 2]], ids=repr)
def test_a_list_of_vector_seeds_is_checked_entry_by_entry(seed):
    """Defect 7: RLlib's batched env read ``seed[0]`` of any list (``[]``: IndexError); its
    seed handling is this plain function (Ray may not be installed)."""
    from presages_env.core.validation import vector_seed

    with pytest.raises((TypeError, ValueError), match="seed"):
        vector_seed(seed, 2)
    assert vector_seed([5, 9], 2) == 5
    assert vector_seed(None, 2) is None


def test_step_caps_beyond_the_header_step_field_are_refused():
    """Defect 7: ``make_vec(max_steps=2**63)`` was accepted, then overflowed at the first step."""
    for make in (presages_env.make, lambda name, **kw: presages_env.make_vec(name, 2, **kw)):
        with pytest.raises(ValueError, match="max_steps"):
            make("president", max_steps=2**63)
        with pytest.raises(ValueError, match="max_steps"):
            make("president", max_steps=MAX_STEP + 1)


def test_res_arcana_pools_refuse_counts_beyond_the_essence_ceiling():
    """Defect 7: ``setup_position(pools=[{"E": 10**30}])`` raised OverflowError."""
    from presages_env.games.res_arcana.game import setup_position

    base = {"mages": ["Scholar", "Transmuter"], "items": ["Research", "Alchemy"]}
    for pool in ({"E": 10**30}, {"E": 4001}, "99999999999999999999E", {"E": 2.0}):
        with pytest.raises((TypeError, ValueError), match=r"pools\[0\]"):
            setup_position(2, pools=[pool, {}], **base)
    setup_position(2, pools=[{"E": 4000}, "4000G"], **base)


def test_wheel_smoke_builds_without_fetching_build_dependencies():
    """Defect 9: the smoke built the wheel with pip's build isolation, which fetched
    setuptools from the index on every run; it must build with what the dev venv holds."""
    root = Path(__file__).resolve().parents[2]
    script = (root / ".ci" / "wheel_smoke.sh").read_text()
    builds = [line for line in script.splitlines() if " wheel " in line and "pip" in line]
    assert builds and all("--no-build-isolation" in line for line in builds), builds
    assert "--upgrade pip" not in script  # another fetch from the index
    project = (root / "pyproject.toml").read_text()
    dev = re.search(r"^dev = \[(.*?)^\]", project, re.S | re.M).group(1)
    assert '"setuptools>=' in dev, "the dev venv must hold what the build needs"


@pytest.mark.parametrize("max_steps", [1, 2, 5])
def test_single_agent_env_gives_the_learner_a_decision_under_any_step_cap(max_steps):
    """Found by the numbers fuzz: with a cap the opponents could reach before the learner's
    first decision, ``reset`` returned an episode already over and ``step`` raised."""
    env = SingleAgentEnv("president", "random", max_steps=max_steps)
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        truncated = terminated = False
        while not (truncated or terminated):
            obs, _, terminated, truncated, info = env.step(int(np.argmax(info["action_mask"])))
        assert truncated and env.observation_space.contains(obs)
