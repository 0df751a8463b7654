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


def test_a_decision_budget_alone_is_every_arms_budget_and_the_figures_axis(tmp_path, monkeypatch):
    """Arms compared on a busy machine get the same decisions, not the same seconds: given
    ``--decisions`` alone no arm has a time budget, and the figure draws the curves over
    decisions (it was always drawn over seconds, where a busy machine skews the arms)."""
    import json

    ablation = load_script()
    budgets, drawn = {}, []

    def fake_run_arm(arm, game, seconds, eval_games, seed, out, label, decisions, **shared):
        budgets[label] = (seconds, decisions)
        (out / label).mkdir(parents=True, exist_ok=True)
        (out / label / "config.json").write_text(json.dumps({"time_budget_s": seconds}))

    monkeypatch.setattr(ablation, "run_arm", fake_run_arm)
    monkeypatch.setattr(ablation, "read_arm", lambda out, run: [{"timesteps": 1.0}])
    monkeypatch.setattr(ablation, "plot_comparison", lambda curves, path, **kw: drawn.append(kw))
    monkeypatch.setattr(ablation, "summary", lambda curves: "")
    arms = ["--arms", "dmc", "flat"]
    ablation.main([*arms, "--decisions", "5000", "--out", str(tmp_path / "decisions")])
    assert budgets == {"dmc": (None, 5000), "flat": (None, 5000)}
    ablation.main([*arms, "--seconds", "60", "--out", str(tmp_path / "seconds")])
    assert budgets["dmc"] == (60.0, ablation.MOST_DECISIONS)
    assert drawn == [{"x": "timesteps"}, {"x": "seconds"}]
