"""Approximate best response, the PPO mode: a deliberately exploitable agent is exploited far
more than the heuristic at the same budget."""

from __future__ import annotations

import numpy as np
import pytest
from extras import require

require("train")  # ABR trains with the batched trainer

from presages_env.agents import Agent, HeuristicAgent  # noqa: E402
from presages_env.training.best_response import approximate_best_response  # noqa: E402

pytestmark = pytest.mark.xdist_group("batched_ppo")
BUDGET = {  # small: a test, not a measurement (docs/agents.md has the real table)
    "decisions": 60_000,
    "eval_games": 600,
    "curve_games": 100,
    "mode": "ppo",
    "num_envs": 128,
    "minibatch_size": 1024,
    "net_arch": (64, 64),
    "learning_rate": 1e-3,
    "precision": "float32",
}


class LowestAction(Agent):
    """Always the legal action with the lowest index: predictable, so exploitable."""

    name = "lowest action"

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return masks.argmax(axis=1).astype(np.int64)


def test_a_predictable_agent_is_exploited_far_more_than_the_heuristic(tmp_path):
    lowest = approximate_best_response(
        "president", LowestAction(), out_dir=tmp_path / "lowest", seed=1, **BUDGET
    )
    heuristic = approximate_best_response(
        "president", HeuristicAgent("president"), out_dir=tmp_path / "heuristic", seed=1, **BUDGET
    )
    print(lowest.line(), heuristic.line(), sep="\n")
    assert lowest.decisions >= BUDGET["decisions"]
    assert lowest.win_rate.low > heuristic.win_rate.high
    assert lowest.win_rate.value > lowest.result.chance + 0.2


def test_the_frozen_agent_must_be_an_agent_and_the_budget_a_count(tmp_path):
    with pytest.raises(TypeError, match="Agent"):
        approximate_best_response("president", "heuristic", out_dir=tmp_path)
    with pytest.raises(ValueError, match="decisions"):
        approximate_best_response(
            "president", HeuristicAgent("president"), out_dir=tmp_path, decisions=0
        )
