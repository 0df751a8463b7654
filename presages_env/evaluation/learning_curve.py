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
    wrapped_title,
)
from presages_env.evaluation.stats import wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from presages_env.evaluation.tournament import MatchResult

WIN_RATE = "win_rate_vs_"  # a curve row's column prefix, then the opponent's name
X_AXES = {"timesteps": "learner decisions", "seconds": "seconds of training"}


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
    x: str = "timesteps",
) -> Path:
    """Save :func:`learning_curve_figure` as a PNG at ``path``; returns the path."""
    figure = learning_curve_figure(curve, method=method, confidence=confidence, x=x)
    return save_figure(figure, path)


def learning_curve_figure(
    curve: list[dict] | dict[str, list[dict]],
    *,
    method: str | None = None,
    confidence: float = 0.95,
    x: str = "timesteps",
) -> Figure:
    """Win rates against each evaluation opponent over learner decisions (``x="seconds"``:
    over seconds of training, to compare runs of equal wall time), each point with a band of
    its Wilson interval, and a labelled chance line. Several named runs
    (``{"from scratch": curve, ...}``) share the plot: one line style per run, one colour per
    opponent. The game, player count, method (``method`` overrides the runs' own), games per
    point and chance come from :class:`LearningCurve`; a plain list of rows has none."""
    if x not in X_AXES:
        raise ValueError(f"x must be one of {list(X_AXES)}, got {x!r}")
    runs = curve if isinstance(curve, dict) else {"": curve}
    described = [rows for rows in runs.values() if isinstance(rows, LearningCurve)]
    figure = new_figure(8, 4.8)
    axes = figure.add_subplot()
    colours: dict[str, str] = {}
    for index, (run, rows) in enumerate(runs.items()):
        if len(rows) == 0:
            raise ValueError(f"run {run!r} has no point to plot")
        style, marker = _run_style(index)
        for key in rows[0]:
            if key.startswith(WIN_RATE):
                opponent = _opponent(key)
                colour = colours.setdefault(opponent, f"C{len(colours)}")
                label = f"{run}: {opponent}" if run else opponent
                _draw_curve(
                    axes,
                    rows,
                    key,
                    x,
                    confidence,
                    color=colour,
                    label=label,
                    linestyle=style,
                    marker=marker,
                )
    for chance in sorted({rows.chance for rows in described if rows.chance is not None}):
        draw_chance(axes, 100 * chance, vertical=False)
    methods = [rows.method for rows in described] or ["method not recorded"]
    setting = setting_title(
        [rows.game for rows in described if rows.game] or ["game not recorded"],
        [rows.num_players for rows in described if rows.num_players],
        method or " / ".join(dict.fromkeys(methods)),
    )
    axes.set_xlabel(X_AXES[x])
    axes.set_ylabel("win rate, % (a tie for the top counts as half a win)")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3)
    figure.legend(loc="outside right upper", fontsize=8)  # beside the plot: never over a line
    fit_title(axes, setting, _band_note(runs, confidence))
    return figure


def plot_comparison(
    runs: dict[str, list[dict]], path: str | Path, *, x: str = "seconds", confidence: float = 0.95
) -> Path:
    """Save :func:`comparison_figure` as a PNG at ``path``; returns the path."""
    return save_figure(comparison_figure(runs, x=x, confidence=confidence), path)


def comparison_figure(
    runs: dict[str, list[dict]], *, x: str = "seconds", confidence: float = 0.95
) -> Figure:
    """Several runs side by side (an ablation): one panel per evaluation opponent, one colour
    per run, each point with its Wilson band, over seconds of training (``x="timesteps"``:
    over learner decisions). Where :func:`learning_curve_figure` gives each opponent a
    colour, this keeps the runs apart however many there are."""
    if x not in X_AXES:
        raise ValueError(f"x must be one of {list(X_AXES)}, got {x!r}")
    empty = [run for run, rows in runs.items() if len(rows) == 0]
    if not runs or empty:
        raise ValueError(f"every run needs a point to plot; none in {empty or 'no runs'}")
    opponents = list(
        dict.fromkeys(k for rows in runs.values() for k in rows[0] if k.startswith(WIN_RATE))
    )
    if not opponents:
        raise ValueError("the runs measured no win rate (no win_rate_vs_<opponent> column)")
    chances = {rows.chance for rows in runs.values() if getattr(rows, "chance", None)}
    figure = new_figure(5 * len(opponents) + 2.5, 4.8)
    panels = figure.subplots(1, len(opponents), squeeze=False)[0]
    for axes, key in zip(panels, opponents, strict=True):
        top = 0.0
        for index, (run, rows) in enumerate(runs.items()):
            if key in rows[0]:
                colour, marker = f"C{index % 10}", _run_style(index)[1]
                top = max(
                    top,
                    _draw_curve(
                        axes,
                        rows,
                        key,
                        x,
                        confidence,
                        color=colour,
                        label=run,
                        marker=marker,
                        markersize=4,
                    ),
                )
        # each panel's own scale, so that runs far below chance stay apart; the chance line
        # where it fits, else named in the panel's title
        top = min(100.0, max(10.0, 1.15 * top))
        shown = [chance for chance in sorted(chances) if 100 * chance <= top]
        for chance in shown:
            draw_chance(axes, 100 * chance, vertical=False)
        above = sorted(set(chances) - set(shown))
        note = f" (chance {', '.join(f'{c:.0%}' for c in above)}, above)" if above else ""
        axes.set_title(f"against {_opponent(key)}{note}", fontsize=10)
        axes.set_xlabel(X_AXES[x])
        axes.set_ylim(0, top)
        axes.grid(alpha=0.3)
    panels[0].set_ylabel("win rate, % (a tie for the top counts as half a win)")
    labelled = max(panels, key=lambda axes: len(axes.get_legend_handles_labels()[1]))
    figure.legend(*labelled.get_legend_handles_labels(), loc="outside right upper", fontsize=8)
    described = [rows for rows in runs.values() if isinstance(rows, LearningCurve)]
    setting = setting_title(
        [rows.game for rows in described if rows.game] or ["game not recorded"],
        [rows.num_players for rows in described if rows.num_players],
        f"{len(runs)} runs compared",
    )
    figure.suptitle(wrapped_title(figure, setting, _band_note(runs, confidence)), fontsize=10)
    return figure


def _opponent(key: str) -> str:
    """The opponent a ``win_rate_vs_<name>`` column measures against, in words."""
    return key[len(WIN_RATE) :].replace("_", " ")


def _draw_curve(axes, rows: list[dict], key: str, x: str, confidence: float, **style) -> float:
    """One run's win rates of column ``key`` over ``x``, with their Wilson band where the
    run recorded its games per point; returns the top of what was drawn, in %."""
    steps = [row[x] for row in rows]
    rates = np.array([row[key] for row in rows])
    axes.plot(steps, 100 * rates, **style)
    games = getattr(rows, "games_per_point", None)
    if not games:
        return float(100 * rates.max())
    low, high = _wilson_band(rates, games, confidence)
    axes.fill_between(steps, 100 * low, 100 * high, color=style.get("color"), alpha=0.15)
    return float(100 * high.max())


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
