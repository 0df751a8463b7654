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


@pytest.mark.slow("kuhn_poker")
def test_on_a_cold_numba_cache_the_learner_still_trains_and_says_why_it_waits(tmp_path):
    """The first `make run` trained nothing: compiling ate the time budget ("over 0 learner
    decisions"), in silence. Now the budget starts after the warm-up, and a line says what
    the wait is. An empty numba cache, the smallest game and budget."""
    cache = tmp_path / "numba_cache"
    cache.mkdir()
    command = [sys.executable, str(ROOT / "baselines" / "demo.py"), "--game", "kuhn_poker"]
    tiny = ["--budget", "1", "--clone-samples", "100", "--curve-games", "2", "--eval-games", "2"]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "NUMBA_CACHE_DIR": str(cache)}
    run = subprocess.run(
        [*command, *tiny, "--showcase", "0", "--out", str(tmp_path / "demo")],
        check=True,
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert "compiling the game's kernels, first run only (about" in run.stdout
    scratch = next(line for line in run.stdout.splitlines() if line.startswith("from scratch:"))
    decisions = int(scratch.split(" over ")[1].split()[0].replace(",", ""))
    assert decisions > 0, scratch
