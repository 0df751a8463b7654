"""Regressions for the hardening defects that the conformance suite does not already cover.

Each test failed before its fix; the generic checks (bad actions, seeds, rng_states, states
through every entry point, truncation, fuzz) run for every game in ``test_conformance.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.core.header import HDR_CURRENT
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
