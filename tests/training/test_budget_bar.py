"""The training progress bar shows the budget that binds, the decisions per second and the
latest win rates beside their chance level."""

from __future__ import annotations

from presages_env.evaluation.learning_curve import LearningCurve
from presages_env.training.run_log import BudgetBar


def test_a_time_budget_that_binds_shows_time():
    bar = BudgetBar(total_steps=1_000_000, time_budget_s=180)
    bar.update(steps=47_000, elapsed=90)
    assert bar.bar.n == 50 and bar.status.startswith("90/180 s")
    assert "522 decisions/s" in bar.status
    bar.close()


def test_a_step_total_that_binds_shows_steps():
    bar = BudgetBar(total_steps=100_000, time_budget_s=3600)
    bar.update(steps=75_000, elapsed=60)
    assert bar.bar.n == 75 and bar.status.startswith("75,000/100,000 decisions")
    bar = BudgetBar(total_steps=100_000, time_budget_s=None)
    bar.update(steps=10_000, elapsed=5)
    assert bar.bar.n == 10
    bar.close()


def test_the_bar_shows_the_latest_win_rates_with_their_chance_and_no_stray_comma():
    """It showed seconds and steps only, after a stray ", " (tqdm's postfix prefix)."""
    rows = [{"timesteps": 0, "win_rate_vs_random": 0.4, "win_rate_vs_heuristic": 0.1}]
    bar = BudgetBar(total_steps=100_000, time_budget_s=None, label="run")
    bar.show_win_rates(
        LearningCurve(rows + [dict(rows[0], win_rate_vs_heuristic=0.248)], chance=0.25)
    )
    bar.update(steps=10_000, elapsed=5)
    assert bar.status.endswith("vs random 40.0%, vs heuristic 24.8% (chance 25%)")
    line = str(bar.bar)
    assert "| 10,000/100,000 decisions, 5 s, 2,000 decisions/s, vs random" in line
    assert "|, " not in line
    bar.close()


def test_the_last_frame_shows_the_last_win_rates():
    """The final evaluation comes after the last update: its win rates waited for an update
    that never came, and the bar's last frame showed the ones before."""
    rows = [{"timesteps": 0, "win_rate_vs_heuristic": 0.1}]
    bar = BudgetBar(total_steps=100_000, time_budget_s=None, label="run")
    bar.show_win_rates(LearningCurve(rows))
    bar.update(steps=100_000, elapsed=5)
    bar.show_win_rates(LearningCurve(rows + [{"timesteps": 100_000, "win_rate_vs_heuristic": 0.3}]))
    assert bar.status.endswith("vs heuristic 30.0%") and "100,000/100,000" in bar.status
    assert "vs heuristic 30.0%" in str(bar.bar)
    bar.close()
