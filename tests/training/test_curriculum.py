"""Opponents of graded strength: the erring heuristic and the curriculum that moves it."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from extras import require

import presages_env
from presages_env.agents import ErringAgent, HeuristicAgent, RandomAgent
from presages_env.training.opponents import (
    CURRICULUM_STEP,
    CURRICULUM_WINDOW,
    EpsilonCurriculum,
    graded,
)
from presages_env.training.rollout import outcome


def batch(name: str = "president", size: int = 64):
    vec = presages_env.make_vec(name, size, seed=3)
    return vec.obs.copy(), vec.masks.copy()


def test_an_agent_that_never_errs_is_its_base_and_one_that_always_errs_plays_at_random():
    obs, masks = batch()
    heuristic = HeuristicAgent("president")
    np.testing.assert_array_equal(
        ErringAgent(heuristic, 0.0).act_batch(obs, masks), heuristic.act_batch(obs, masks)
    )
    erring = ErringAgent(heuristic, 1.0, seed=5).act_batch(obs, masks)
    np.testing.assert_array_equal(erring, RandomAgent(5).act_batch(obs, masks))
    assert masks[np.arange(len(erring)), erring].all()


@pytest.mark.parametrize("epsilon", [-0.1, 1.5, float("nan"), True, "0.5"])
def test_an_epsilon_outside_zero_to_one_is_refused(epsilon):
    with pytest.raises((TypeError, ValueError), match="epsilon"):
        ErringAgent(HeuristicAgent("president"), epsilon)


def test_only_the_heuristic_is_graded():
    heuristic, random = HeuristicAgent("president"), RandomAgent(0)
    assert graded(random, 0.3, True, 0) is random
    assert graded(heuristic, 0.0, False, 0) is heuristic
    erring = graded(heuristic, 0.3, False, 0)
    assert isinstance(erring, ErringAgent) and erring.epsilon == 0.3 and erring.base is heuristic


@pytest.mark.parametrize(
    ("win_rate", "change"), [(0.6, -CURRICULUM_STEP), (0.3, 0.0), (0.1, CURRICULUM_STEP)]
)
def test_the_curriculum_moves_epsilon_by_the_learners_results(win_rate, change):
    agent = ErringAgent(HeuristicAgent("president"), 0.5)
    other = RandomAgent(1)
    curriculum = EpsilonCurriculum(agent, target=0.5)
    wins = int(win_rate * CURRICULUM_WINDOW)
    games = [(0, 1.0)] * wins + [(0, 0.0)] * (CURRICULUM_WINDOW - wins - 1)
    curriculum.update([agent, other], games + [(1, 1.0)] * 50)  # other opponents' games
    assert agent.epsilon == 0.5  # a window not yet full moves nothing
    curriculum.update([agent, other], [(0, 0.0)])
    assert agent.epsilon == pytest.approx(0.5 + change)


def test_outcome_compares_the_learners_seats_with_the_best_other_seat():
    learner = np.array([True, False, True, False])
    assert outcome(np.array([1.0, -1.0, 1.0, -1.0]), learner) == 1.0
    assert outcome(np.array([-1.0, 1.0, -1.0, 1.0]), learner) == 0.0
    assert outcome(np.array([0.0, 0.0, 0.0, 0.0]), learner) == 0.5


def test_a_curriculum_run_records_its_epsilon_in_the_learning_curve(tmp_path):
    require("train")
    from presages_env.training.batched_ppo import game_config, train_batched

    config = game_config(
        "president",
        num_envs=16,
        rollout_steps=8,
        minibatch_size=64,
        n_epochs=1,
        net_arch=(16,),
        device="cpu",
        eval_games=8,
        eval_every=2,
        eval_opponents=("heuristic",),
        total_timesteps=600,
        time_budget_s=None,
        pool_share=1.0,
        heuristic_epsilon=0.5,
        epsilon_curriculum=True,
        out_dir=str(tmp_path),
    )
    _, curve = train_batched(config)
    assert "erring-heuristic curriculum" in curve.method
    with open(tmp_path / "learning_curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(0.0 <= float(row["epsilon_heuristic"]) <= 1.0 for row in rows)
