"""The ablation script runs every arm and summarises the curves (tiny budgets)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from extras import require

require("train")

SCRIPT = Path(__file__).parents[2] / "baselines" / "ablation.py"


def load_script():
    spec = importlib.util.spec_from_file_location("ablation", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_arm_trains_and_the_summary_has_a_row_per_arm(tmp_path):
    ablation = load_script()
    curves = {
        arm: ablation.run_arm(
            arm, "president", 2.0, 8, 0, tmp_path, num_envs=16, net_arch=(16,), device="cpu"
        )
        for arm in ablation.ARMS
    }
    for arm in ablation.ARMS:
        assert (tmp_path / arm / "policy.pt").exists()
    table = ablation.summary(curves)
    assert all(f"| {arm} |" in table for arm in ablation.ARMS)
