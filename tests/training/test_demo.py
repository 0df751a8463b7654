"""`make run`'s demo end to end at a tiny budget: both runs, one plot, results and ratings,
then the Aciliande team-variant showcase."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow("presages")
def test_the_demo_trains_both_runs_and_writes_its_plot_and_ratings(tmp_path):
    command = [sys.executable, str(ROOT / "baselines" / "demo.py"), "--budget", "4"]
    tiny = ["--clone-samples", "500", "--curve-games", "4", "--eval-games", "4", "--showcase", "2"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    run = subprocess.run(
        [*command, *tiny, "--out", str(tmp_path)],
        check=True,
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert "from scratch: vs random" in run.stdout and "warm-started: vs random" in run.stdout
    assert "aciliande teams from scratch: vs random" in run.stdout
    results = (tmp_path / "results.md").read_text()
    assert "| ppo (warm-started) | dmc (from scratch) | 4 |" in results
    assert "## Ratings" in results and "| heuristic |" in results
    for plot in ("learning_curves.png", "winrates.png", "learning_curve_aciliande_teams.png"):
        assert (tmp_path / plot).stat().st_size > 0
    for run_dir in ("from_scratch", "warm_started"):
        assert (tmp_path / run_dir / "policy.pt").exists()
