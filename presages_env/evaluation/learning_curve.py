"""A run's learning curve: its evaluations, what they measured, and the plot of them.

Every trainer records one (``training/run_log.py`` adds its points); it lives here, beside
the tournament it is measured by and the other plots (``report.py``), so that evaluation
never imports the training layer.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from presages_env.evaluation.report import (
    draw_chance,
    fit_title,
    new_figure,
    save_figure,
    setting_title,
)
from presages_env.evaluation.stats import wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from presages_env.evaluation.tournament import MatchResult

WIN_RATE = "win_rate_vs_"  # a curve row's column prefix, then the opponent's name


class LearningCurve(list):
    """A run's evaluations, one dict each (``timesteps``, ``seconds``, ``win_rate_vs_<name>``,
    ``mean_reward_vs_<name>``), and what they measured, so that a plot can say it: the game,
    its player count, the method trained, the games behind each point and the chance win
    rate (of a learner exactly as strong as its opponents). ``None``: not recorded."""

    def __init__(
        self,
        rows: Iterable[dict] = (),
        *,
        method: str = "MaskablePPO self-play",
        game: str | None = None,
        num_players: int | None = None,
        games_per_point: int | None = None,
        chance: float | None = None,
    ) -> None:
        super().__init__(rows)
        self.method = method
        self.game = game
        self.num_players = num_players
        self.games_per_point = games_per_point
        self.chance = chance

    def measured_by(self, result: MatchResult) -> None:
        """Record the setting of an evaluation (every point of a run has the same)."""
        self.game, self.num_players = result.game, result.num_players
        self.games_per_point, self.chance = result.num_games, result.chance

    def win_rates(self) -> dict[str, float]:
        """The latest point's win rate against each opponent, by the opponent's name."""
        return win_rates(self[-1] if self else {})


def win_rates(row: dict) -> dict[str, float]:
    """A curve row's win rate against each opponent, by the opponent's name."""
    return {k[len(WIN_RATE) :]: v for k, v in row.items() if k.startswith(WIN_RATE)}


def plot_learning_curve(
    curve: list[dict] | dict[str, list[dict]],
    path: str | Path,
    *,
    method: str | None = None,
    confidence: float = 0.95,
) -> Path:
    """Save :func:`learning_curve_figure` as a PNG at ``path``; returns the path."""
    figure = learning_curve_figure(curve, method=method, confidence=confidence)
    return save_figure(figure, path)


def learning_curve_figure(
    curve: list[dict] | dict[str, list[dict]],
    *,
    method: str | None = None,
    confidence: float = 0.95,
) -> Figure:
    """Win rates against each evaluation opponent over learner decisions, each point with a
    band of its Wilson interval, and a labelled chance line. Several named runs
    (``{"from scratch": curve, ...}``) share the plot: one line style per run, one colour per
    opponent. The game, player count, method (``method`` overrides the runs' own), games per
    point and chance come from :class:`LearningCurve`; a plain list of rows has none."""
    runs = curve if isinstance(curve, dict) else {"": curve}
    described = [rows for rows in runs.values() if isinstance(rows, LearningCurve)]
    figure = new_figure(8, 4.8)
    axes = figure.add_subplot()
    colours: dict[str, str] = {}
    for index, (run, rows) in enumerate(runs.items()):
        if len(rows) == 0:
            raise ValueError(f"run {run!r} has no point to plot")
        style, marker = _run_style(index)
        steps = [row["timesteps"] for row in rows]
        games = getattr(rows, "games_per_point", None)
        for key in rows[0]:
            if key.startswith(WIN_RATE):
                opponent = key[len("win_rate_") :].replace("_", " ")
                colour = colours.setdefault(opponent, f"C{len(colours)}")
                label = f"{run}: {opponent}" if run else opponent
                rates = np.array([row[key] for row in rows])
                axes.plot(steps, 100 * rates, style, color=colour, marker=marker, label=label)
                if games:
                    low, high = _wilson_band(rates, games, confidence)
                    axes.fill_between(steps, 100 * low, 100 * high, color=colour, alpha=0.15)
    for chance in sorted({rows.chance for rows in described if rows.chance is not None}):
        draw_chance(axes, 100 * chance, vertical=False)
    methods = [rows.method for rows in described] or ["method not recorded"]
    setting = setting_title(
        [rows.game for rows in described if rows.game] or ["game not recorded"],
        [rows.num_players for rows in described if rows.num_players],
        method or " / ".join(dict.fromkeys(methods)),
    )
    axes.set_xlabel("learner decisions")
    axes.set_ylabel("win rate, % (a tie for the top counts as half a win)")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3)
    figure.legend(loc="outside right upper", fontsize=8)  # beside the plot: never over a line
    fit_title(axes, setting, _band_note(runs, confidence))
    return figure


def _run_style(index: int) -> tuple[str, str]:
    """The line style and marker of the ``index``-th run: every run is drawn, the first
    twenty each with a pair of their own (then the pairs come round again)."""
    styles, markers = ("-", "--", ":", "-."), ("o", "s", "^", "D", "v")
    index %= len(styles) * len(markers)
    return styles[index % len(styles)], markers[index // len(styles)]


def _wilson_band(rates: np.ndarray, games: int, confidence: float):
    """Lower and upper Wilson bounds of win rates each measured over ``games`` games."""
    bounds = [wilson_interval(min(max(r * games, 0.0), games), games, confidence) for r in rates]
    return np.array(bounds).T


def _band_note(runs: dict[str, list[dict]], confidence: float) -> str:
    """What the bands are: the interval and the games behind each point."""
    games = {getattr(rows, "games_per_point", None) for rows in runs.values()}
    recorded = games - {None}
    if not recorded:
        return "no bands: the games behind each point were not recorded"
    count = f"{recorded.pop():,} games" if len(recorded) == 1 else "each run's games"
    unbanded = "; runs without a band did not record their games" if None in games else ""
    return f"bands: {confidence:.0%} Wilson interval over {count} per point{unbanded}"
