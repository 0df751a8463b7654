"""Markdown tables and PNG plots of tournament results.

Plots draw on matplotlib's Agg canvas directly, without pyplot, so they work on machines
without a display and never change the backend of a notebook that imports this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from presages_env.evaluation.stats import format_number, format_percent
from presages_env.evaluation.tournament import CrossPlayResult, MatchResult, Rating


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def results_table(results: Sequence[MatchResult], confidence: float = 0.95) -> str:
    """One row per head-to-head: the agent playing one side, its opponents, its win rate and
    mean reward with their intervals, and the win rate of an equally strong agent."""
    level = f"{confidence:.0%} CI"
    header = [
        "agent",
        "opponents",
        "games",
        f"win rate ({level})",
        "chance",
        f"mean reward ({level})",
    ]
    rows = [
        [
            result.focus,
            result.others,
            f"{result.num_games:,}",
            format_percent(result.win_rate_ci(confidence)),
            f"{result.chance:.1%}",
            format_number(result.mean_reward_ci(confidence)),
        ]
        for result in results
    ]
    return markdown_table(header, rows)


def ratings_table(ratings: dict[str, Rating]) -> str:
    """Agents from best to worst by ordinal (mu - 3·sigma)."""
    ranked = sorted(ratings.items(), key=lambda item: item[1].ordinal, reverse=True)
    rows = [
        [str(rank), name, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}"]
        for rank, (name, r) in enumerate(ranked, start=1)
    ]
    return markdown_table(["rank", "agent", "mu", "sigma", "ordinal"], rows)


def cross_play_table(result: CrossPlayResult, confidence: float = 0.95) -> str:
    """Win rate of each pair: row agent in one seat of the team, column agent in the rest."""
    header = ["one seat \\ partner(s)", *result.names]
    rates = result.win_rates(confidence)
    rows = [
        [name, *(format_percent(estimate) for estimate in row)]
        for name, row in zip(result.names, rates, strict=True)
    ]
    return markdown_table(header, rows)


def plot_win_rates(
    results: Sequence[MatchResult], path: str | Path, confidence: float = 0.95
) -> Path:
    """Horizontal bars of the win rates with their interval as error bars, and a dashed
    line at the chance level of an equally strong agent."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    estimates = [result.win_rate_ci(confidence) for result in results]
    values = np.array([100 * e.value for e in estimates])
    # rounding can put a Wilson bound a hair past the rate (1e-17 at a 0% rate)
    errors = np.clip(
        [
            [100 * (e.value - e.low) for e in estimates],
            [100 * (e.high - e.value) for e in estimates],
        ],
        0,
        None,
    )
    labels = [f"{result.focus} vs {result.others}" for result in results]
    figure = Figure(figsize=(7, 1.2 + 0.4 * len(results)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = np.arange(len(results))[::-1]
    axes.barh(positions, values, xerr=errors, capsize=3, color="tab:blue", alpha=0.8)
    for chance in sorted({round(100 * result.chance, 6) for result in results}):
        axes.axvline(chance, color="grey", linestyle="--", linewidth=1)
    axes.set_yticks(positions, labels)
    axes.set_xlim(0, 100)
    axes.set_xlabel(f"win rate, % (bars: {confidence:.0%} Wilson interval; dashed: chance)")
    if results:
        first = results[0]
        axes.set_title(
            f"{first.game}, {first.num_players} players\n"
            "first agent plays one side, the second all others"
        )
    return _save(figure, path)


def plot_cross_play(result: CrossPlayResult, path: str | Path, confidence: float = 0.95) -> Path:
    """Heat map of the cross-play win rates, each cell annotated with its interval."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rates = result.win_rates(confidence)
    values = np.array([[100 * e.value for e in row] for row in rates])
    size = 1.5 + 1.3 * len(result.names)
    figure = Figure(figsize=(size + 1, size), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    image = axes.imshow(values, vmin=0, vmax=100, cmap="viridis")
    for (row, column), estimate in np.ndenumerate(np.array(rates, dtype=object)):
        colour = "white" if estimate.value < 0.5 else "black"
        axes.text(column, row, format_percent(estimate), ha="center", va="center", color=colour)
    ticks = np.arange(len(result.names))
    axes.set_xticks(ticks, result.names)
    axes.set_yticks(ticks, result.names)
    axes.set_xlabel("partner(s)")
    axes.set_ylabel("one seat")
    axes.set_title(f"cross-play win rate vs {result.opponent}")
    figure.colorbar(image, ax=axes, label="win rate, %")
    return _save(figure, path)


def _save(figure, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path
