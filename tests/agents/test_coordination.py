"""The zero-shot coordination benchmark: its pooling, gap, table and the CI budget end to end."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from extras import require

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.agents.ppo import PPOAgent
from presages_env.evaluation.coordination import coordination_table, evaluate_coordination
from presages_env.evaluation.stats import difference_interval, mean_interval
from presages_env.training.batched_ppo import BatchedPPOConfig
from presages_env.training.dmc import DMCConfig
from presages_env.training.populations import (
    from_scratch_config,
    load_population,
    train_populations,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def result():
    populations = {f"pop{i}": RandomAgent(i) for i in range(3)}
    return evaluate_coordination(
        "presages",
        populations,
        RandomAgent(99),
        12,
        ad_hoc_partners={"heuristic": HeuristicAgent("presages")},
        partner_games={"heuristic": 6},
        num_players=4,
        seed=5,
    )


def test_self_play_is_the_diagonal_and_cross_play_the_rest(result):
    assert result.populations == ["pop0", "pop1", "pop2"]
    assert [m.focus for m in result.self_play()] == ["pop0 + pop0", "pop1 + pop1", "pop2 + pop2"]
    cross = [m.focus for m in result.cross_play()]
    assert len(cross) == 6 and all(a != b for a, _, b in (f.split() for f in cross))
    assert [m.num_games for m in result.ad_hoc["heuristic"]] == [6, 6, 6]
    assert [m.focus for m in result.ad_hoc["heuristic"]] == [
        f"pop{i} + heuristic" for i in range(3)
    ]


def test_the_gap_is_self_play_minus_cross_play_over_pooled_games(result):
    own = np.concatenate([m.outcomes() for m in result.self_play()])
    mixed = np.concatenate([m.outcomes() for m in result.cross_play()])
    rate_gap, _ = result.gap()
    assert own.size == 36 and mixed.size == 72
    assert rate_gap.value == pytest.approx(own.mean() - mixed.mean())
    assert rate_gap.low < rate_gap.value < rate_gap.high


def test_the_table_has_one_row_per_pooling(result):
    rows = coordination_table(result).splitlines()
    assert rows[0].startswith("| pairing | games | chance | win rate vs random")
    labels = [row.split("|")[1].strip() for row in rows[2:]]
    assert labels == [
        "self-play (i + i), 3 populations",
        "cross-play (i + j, i ≠ j), 6 pairs",
        "**gap** (self-play − cross-play)",
        "ad hoc: population + heuristic",
    ]
    assert "| 36 | 50% |" in rows[2] and "| 18 | 50% |" in rows[5]


def test_coordination_needs_two_populations_and_teams():
    with pytest.raises(ValueError, match="two populations"):
        evaluate_coordination("presages", {"a": RandomAgent(0)}, RandomAgent(1), 4)
    with pytest.raises(ValueError, match="own team"):
        evaluate_coordination(
            "president", {"a": RandomAgent(0), "b": RandomAgent(1)}, RandomAgent(2), 4
        )


def test_difference_interval_matches_two_independent_means():
    first, second = np.array([1.0, 0.0, 1.0, 1.0]), np.array([0.0, 0.0, 1.0, 0.0, 0.5])
    gap = difference_interval(first, second)
    a, b = mean_interval(first), mean_interval(second)
    assert gap.value == pytest.approx(first.mean() - second.mean())
    assert gap.half_width == pytest.approx(np.hypot(a.half_width, b.half_width))
    with pytest.raises(ValueError, match="two values a side"):
        difference_interval(first, second[:1])


def test_populations_start_from_scratch_on_the_raw_observation():
    config = from_scratch_config("aciliande", 3, "out", 4, steps=5000, teams=True)
    assert config.warm_start is None and config.features == "raw"
    assert config.team_play and config.baseline_opponents == ("random",)
    assert config.seed == 3 and config.game_options == {"teams": True}
    assert config.total_timesteps == 5000 and config.time_budget_s is None
    with pytest.raises(ValueError, match="workers"):
        train_populations([config], workers=0)


def test_batched_populations_start_from_scratch_too():
    config = from_scratch_config(
        "aciliande", 3, "out", 4, steps=5000, trainer="batched", teams=True
    )
    assert isinstance(config, BatchedPPOConfig)
    assert config.init_policy is None and config.features == "raw"
    assert config.team_play and config.baseline_opponents == ("random",)
    assert config.seed == 3 and config.game_options == {"teams": True}
    assert config.total_timesteps == 5000 and config.time_budget_s is None
    with pytest.raises(ValueError, match="trainer must be one of"):
        from_scratch_config("aciliande", 3, "out", 4, trainer="rllib")


@pytest.mark.slow("aciliande")
def test_a_batched_population_trains_and_writes_its_policy(tmp_path):
    require("train")
    config = from_scratch_config(
        "aciliande", 0, tmp_path, 4, steps=200, trainer="batched", eval_games=4, teams=True
    )
    small = dataclasses.replace(config, num_envs=8, rollout_steps=8, minibatch_size=32)
    (path,) = train_populations([small])
    assert path == tmp_path / "policy.pt"
    assert PPOAgent.load(path, game="aciliande", num_players=4).features.name == "raw"


def test_dmc_populations_start_from_scratch_against_random_alone():
    config = from_scratch_config("presages", 2, "out", 4, steps=5000, trainer="dmc")
    assert isinstance(config, DMCConfig) and config.init_policy is None
    assert config.team_play and config.baseline_opponents == ("random",)
    assert config.seed == 2 and config.total_timesteps == 5000
    with pytest.raises(ValueError, match="no critic"):
        from_scratch_config("presages", 2, "out", 4, trainer="dmc", critic="global")


def test_a_dmc_population_trains_and_loads_as_the_agent_it_wrote(tmp_path):
    require("train")
    config = from_scratch_config("presages", 0, tmp_path, 4, steps=200, trainer="dmc")
    small = dataclasses.replace(
        config,
        num_envs=8,
        rollout_steps=8,
        minibatch_size=32,
        net_arch=(16,),
        action_net_arch=(8,),
        head_net_arch=(16,),
        buffer_size=1024,
        eval_opponents=(),
    )
    (path,) = train_populations([small])
    assert path == tmp_path / "policy.pt"
    agent = load_population(small)
    assert agent.scorer.metadata["game"] == "presages"
    vec = presages_env.make_vec("presages", 8, seed=1)
    for _ in range(20):  # an illegal action would raise
        vec.step(agent.act_batch(vec.obs, vec.masks))


@pytest.mark.slow("presages")
def test_the_ci_budget_runs_end_to_end(tmp_path):
    require("train")
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    command = [sys.executable, str(ROOT / "baselines" / "coordination.py"), "--budget", "ci"]
    subprocess.run(
        [*command, "--workers", "2", "--out", str(tmp_path)], check=True, env=env, cwd=ROOT
    )
    report = (tmp_path / "results.md").read_text()
    assert "| self-play (i + i), 3 populations | 120 |" in report
    assert "**gap** (self-play − cross-play)" in report
    assert "ad hoc: population + search" in report
    assert (tmp_path / "presages4" / "cross_play.png").stat().st_size > 0
    assert all((tmp_path / "presages4" / f"pop{i}" / "policy.pt").exists() for i in range(3))
