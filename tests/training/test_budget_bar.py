"""The training progress bar shows the budget that binds."""

from __future__ import annotations

from presages_env.training.self_play import BudgetBar


def test_a_time_budget_that_binds_shows_time():
    bar = BudgetBar(total_steps=1_000_000, time_budget_s=180)
    bar.update(steps=47_000, elapsed=90)
    assert bar.bar.n == 50 and bar.bar.postfix.startswith("90/180 s")
    bar.close()


def test_a_step_total_that_binds_shows_steps():
    bar = BudgetBar(total_steps=100_000, time_budget_s=3600)
    bar.update(steps=75_000, elapsed=60)
    assert bar.bar.n == 75 and bar.bar.postfix.startswith("75,000/100,000 steps")
    bar = BudgetBar(total_steps=100_000, time_budget_s=None)
    bar.update(steps=10_000, elapsed=5)
    assert bar.bar.n == 10
    bar.close()
