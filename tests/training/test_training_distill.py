"""Distilling the search: its visit shares recorded from real games, and a policy fitted to
soft targets without touching its value head."""

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from presages_env.agents import RandomAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.games import get_game
from presages_env.training.distill import search_targets
from presages_env.training.imitation import imitate
from presages_env.training.vec_env import SelfPlayVecEnv


def test_search_targets_are_the_search_s_visit_shares_at_its_own_decisions():
    game = get_game("president")
    obs, masks, shares, returns = search_targets(
        "president", ISMCTSAgent("president", simulations=16, seed=2), RandomAgent(0), 4, 4, 3
    )
    assert returns is None
    assert obs.shape == (len(shares), game.obs_size(4)) and obs.dtype == game.obs_dtype
    assert masks.shape == shares.shape == (len(shares), game.num_actions(4))
    assert (masks.sum(axis=1) > 1).all()  # forced moves are left out
    assert np.allclose(shares.sum(axis=1), 1.0) and (shares[masks == 0] == 0).all()
    assert np.allclose(shares * 16, np.round(shares * 16))  # whole visits of 16 simulations


def test_soft_targets_are_fitted_and_the_value_head_is_left_alone():
    env = SelfPlayVecEnv("president", 4, [RandomAgent(1)], num_players=4, seed=0)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, seed=0)
    rng = np.random.default_rng(0)
    size = 2000
    masks = (rng.random((size, env.action_space.n)) < 0.3).astype(np.int8)
    masks[:, 0] = 1
    obs = rng.integers(0, 2, (size, env.observation_space.shape[0])).astype(np.int8)
    favourite = obs[:, 0].astype(np.int64)  # the target leans on action obs[0]
    masks[np.arange(size), favourite] = 1
    shares = masks * 0.1
    shares[np.arange(size), favourite] = 1.0
    shares /= shares.sum(axis=1, keepdims=True)
    inputs = torch.as_tensor(obs[:50].astype(np.float32))
    values_before = model.policy.predict_values(inputs).detach().clone()
    data = (obs, masks, shares.astype(np.float32), None)
    before = imitate(model.policy, data, epochs=0)
    after = imitate(model.policy, data, epochs=5, batch_size=100)
    assert after["agreement"] > max(before["agreement"] + 0.3, 0.75), (before, after)
    assert after["action_nll"] < before["action_nll"] or before["action_nll"] == 0.0
    assert torch.equal(model.policy.predict_values(inputs), values_before)


@pytest.mark.slow("president")
def test_the_distillation_script_searches_fits_and_scores(tmp_path):
    """``baselines/distill_search.py`` end to end at a tiny size, then again on its saved
    targets with half the pull towards the search."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "baselines" / "distill_search.py"
    common = ["--game", "president", "--init", "presages_env/checkpoints/president.pt"]
    common += ["--epochs", "1", "--eval-games", "4", "--out", str(tmp_path)]
    cwd = script.parents[1]
    first = subprocess.run(
        [sys.executable, str(script), *common, "--simulations", "8", "--games", "2"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "searched decisions" in first and "| epochs1 | 4 |" in first
    assert (tmp_path / "targets.npz").exists() and (tmp_path / "epochs1.pt").exists()
    again = subprocess.run(
        [
            sys.executable,
            str(script),
            *common,
            "--targets",
            str(tmp_path / "targets.npz"),
            "--mix",
            "0.5",
            "--min-top-share",
            "0.3",
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "searched decisions" not in again and "decisions kept" in again
