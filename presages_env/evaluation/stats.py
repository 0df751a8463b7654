"""Confidence intervals for tournament results (numpy and the standard library only)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np


@dataclass(frozen=True)
class Estimate:
    """A point estimate with the bounds of its confidence interval, from ``n`` samples."""

    value: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def z_score(confidence: float) -> float:
    """The two-sided normal quantile, e.g. 1.96 for 0.95."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a success proportion.

    Unlike the normal ("Wald") interval it stays inside [0, 1] and keeps its coverage near
    0% and 100%, which is where one-sided match-ups end up. ``successes`` may be fractional
    (a tie counts as half a success), and so may ``n`` (an effective number of games).

    Args:
        successes: the number of successes (a tie: half of one).
        n: the number of trials (or an effective number of games).
        confidence: the confidence level of the intervals.

    Returns:
        The interval's lower and upper bounds, in [0, 1].
    """
    if n <= 0:
        raise ValueError(f"a win rate needs at least one game, got n={n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within [0, n={n}], got {successes}")
    z = z_score(confidence)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


def win_rate(outcomes: np.ndarray, confidence: float = 0.95) -> Estimate:
    """Win rate of per-game outcomes 1 (win), 0.5 (tie for the top) or 0 (loss).

    A tie counts as half a win, so two equally strong agents score 50% however often they
    tie; the Wilson interval is then taken on the fractional number of wins.

    Args:
        outcomes: each game's outcome: 1, 0.5 or 0.
        confidence: the confidence level of the intervals.

    Returns:
        The win rate as an :class:`Estimate` with its Wilson interval.
    """
    outcomes = np.asarray(outcomes, dtype=np.float64)
    wins = float(outcomes.sum())
    low, high = wilson_interval(wins, outcomes.size, confidence)
    return Estimate(wins / outcomes.size, low, high, outcomes.size)


def mean_interval(values: np.ndarray, confidence: float = 0.95) -> Estimate:
    """Mean with the normal-approximation interval ``mean ± z·s/√n`` (needs n ≥ 2).

    Args:
        values: the samples (at least 2).
        confidence: the confidence level of the intervals.

    Returns:
        The mean as an :class:`Estimate` with its interval.
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2:
        raise ValueError(f"a mean's interval needs at least two values, got {values.size}")
    mean = float(values.mean())
    spread = z_score(confidence) * float(values.std(ddof=1)) / math.sqrt(values.size)
    return Estimate(mean, mean - spread, mean + spread, values.size)


def grouped_interval(values: np.ndarray, group_size: int, confidence: float = 0.95) -> Estimate:
    """Mean of values that come in consecutive correlated groups (the games of a duplicate
    deal), with the normal interval over the groups' means: the groups, not the values, are
    the independent samples. ``group_size`` 1 is :func:`mean_interval`.

    Args:
        values: the values, group after group.
        group_size: how many consecutive values make a group.
        confidence: the confidence level of the interval.

    Returns:
        The :class:`Estimate`; its ``n`` counts the groups (at least two).
    """
    values = np.asarray(values, dtype=np.float64)
    if group_size < 1 or values.size % group_size:
        raise ValueError(f"{values.size} values do not make whole groups of {group_size}")
    return mean_interval(values.reshape(-1, group_size).mean(axis=1), confidence)


def grouped_win_rate(outcomes: np.ndarray, group_size: int, confidence: float = 0.95) -> Estimate:
    """Win rate of outcomes in correlated groups (duplicate deals): the Wilson interval on
    the effective number of games ``p(1 - p) / SE²``, the standard error taken over the
    groups' means (Kish's design effect). It stays inside [0, 1] and, at a win rate of 0 or
    1 (no spread to measure), falls back to the games' own count; groups that never differ
    from the mean give a zero-width interval.

    Args:
        outcomes: each game's outcome (1 a win, 0.5 a tie, 0 a loss), group after group.
        group_size: how many consecutive games make a group.
        confidence: the confidence level of the interval.

    Returns:
        The :class:`Estimate`; its ``n`` counts the groups.
    """
    outcomes = np.asarray(outcomes, dtype=np.float64)
    groups = grouped_interval(outcomes, group_size, confidence).n  # checks whole groups
    p = float(outcomes.mean())
    variance = float(outcomes.reshape(groups, group_size).mean(axis=1).var(ddof=1)) / groups
    if 0.0 < p < 1.0 and variance == 0.0:
        return Estimate(p, p, p, groups)
    effective = p * (1 - p) / variance if 0.0 < p < 1.0 else outcomes.size
    low, high = wilson_interval(p * effective, effective, confidence)
    return Estimate(p, low, high, groups)


def difference_interval(
    first: np.ndarray, second: np.ndarray, confidence: float = 0.95
) -> Estimate:
    """``mean(first) - mean(second)`` with the normal interval of a difference of two
    independent means (each side needs n ≥ 2); ``n`` is the smaller sample."""
    first, second = (np.asarray(v, dtype=np.float64) for v in (first, second))
    if min(first.size, second.size) < 2:
        raise ValueError(
            f"a difference's interval needs two values a side, got {first.size} and {second.size}"
        )
    value = float(first.mean() - second.mean())
    variance = first.var(ddof=1) / first.size + second.var(ddof=1) / second.size
    spread = z_score(confidence) * math.sqrt(float(variance))
    return Estimate(value, value - spread, value + spread, min(first.size, second.size))


def format_percent(estimate: Estimate) -> str:
    """``"52.3% ± 2.1"``: the estimate and half the interval's width, in percentage points.

    Wilson intervals are slightly asymmetric; the ± shows their half-width, and the exact
    bounds stay in the :class:`Estimate`.

    Args:
        estimate: a proportion and its interval.

    Returns:
        The text, such as ``52.3% ± 2.1``.
    """
    return f"{100 * estimate.value:.1f}% ± {100 * estimate.half_width:.1f}"


def format_number(estimate: Estimate) -> str:
    """``"+0.123 ± 0.045"`` for a mean such as a reward.

    Args:
        estimate: a mean and its interval.

    Returns:
        The text, such as ``+0.123 ± 0.045``.
    """
    return f"{estimate.value:+.3f} ± {estimate.half_width:.3f}"
