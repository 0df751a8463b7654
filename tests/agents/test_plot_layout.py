"""Every plot the library makes fits its image: titles, axis labels, tick labels and legends
inside the figure, and the legend clear of the data (the demo's ``winrates.png`` had its
title and x label cut off and the chance legend over the last bar; ``learning_curves.png``'s
title wrapped a lone "read)"). Each figure is drawn with small synthetic data shaped like the
demo's: long agent names and methods, six pairings, two runs against two opponents."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from presages_env.evaluation import CrossPlayResult
from presages_env.evaluation.learning_curve import (
    LearningCurve,
    comparison_figure,
    learning_curve_figure,
)
from presages_env.evaluation.report import cross_play_figure, win_rates_figure
from presages_env.evaluation.tournament import MatchResult

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SAVED_DPI = 120  # report.save_figure's
MARGIN = 2  # pixels every text keeps from the image's edge
DEMO_AGENTS = ["ppo (warm-started)", "dmc (from scratch)", "heuristic", "random"]
DEMO_METHOD = (
    "from scratch (batched PPO) vs warm-started (MaskablePPO, heuristic cloned, hints read)"
)


def series(focus: str, others: str, wins: int, games: int = 200, teams: int = 2) -> MatchResult:
    """``games`` games of two seats per team; the focus's team (side 0) wins the first ``wins``."""
    sides = np.tile(np.arange(2 * teams) % teams, (games, 1))
    winner = np.where(np.arange(games) < wins, 0, 1)
    rewards = np.where(sides == winner[:, None], 1.0, -1.0)
    focus_side = np.zeros(games, dtype=np.int64)
    return MatchResult(focus, others, "aciliande", 2 * teams, rewards, sides, focus_side)


def win_rates():
    pairs = [(a, b) for i, a in enumerate(DEMO_AGENTS) for b in DEMO_AGENTS[i + 1 :]]
    results = [
        series(a, b, wins) for (a, b), wins in zip(pairs, (96, 150, 196, 20, 190, 199), strict=True)
    ]
    return win_rates_figure(results, method=f"round robin of {', '.join(DEMO_AGENTS)}")


def run(climb: float) -> LearningCurve:
    rows = [
        {
            "timesteps": step,
            "seconds": step / 10_000,
            "win_rate_vs_heuristic": min(0.95, 0.06 + climb * i),
            "win_rate_vs_random": min(0.99, 0.5 + climb * i),
        }
        for i, step in enumerate(range(0, 700_001, 100_000))
    ]
    curve = LearningCurve(rows, method="batched PPO")
    curve.measured_by(series("learner", "heuristic", 100))
    return curve


def long_method():
    """One run whose method is long enough to reach the legend beside the plot."""
    method = "Deep Monte-Carlo over action features, from scratch, 60 min"
    return learning_curve_figure({"DMC over action features": run(0.01)}, method=method)


def learning_curves():
    return learning_curve_figure(
        {"from scratch": run(0.06), "warm-started": run(0.1)}, method=DEMO_METHOD
    )


def cross_play():
    names = ["population 0", "population 1", "population 2"]
    matches = {
        (a, b): series(f"{a} + {b}", "random", 120 + 3 * i)
        for i, (a, b) in enumerate((a, b) for a in names for b in names)
    }
    return cross_play_figure(
        CrossPlayResult(names, "heuristic", matches),
        method="independent MaskablePPO populations, 5 seeds each",
    )


def ablation():
    arms = ("flat", "global_critic", "curriculum", "action_features", "dmc", "combined")
    return comparison_figure({arm: run(0.01 * i) for i, arm in enumerate(arms)})


FIGURES = {
    "winrates": win_rates,
    "learning_curves": learning_curves,
    "crossplay": cross_play,
    "ablation": ablation,
    "long_method": long_method,
}


def texts_of(figure):
    """Every text artist a reader should see, with what it is."""
    for axes in figure.axes:
        for what, text in (
            ("title", axes.title),
            ("x label", axes.xaxis.label),
            ("y label", axes.yaxis.label),
        ):
            if text.get_text():
                yield what, text
        for axis, (low, high) in ((0, axes.get_xlim()), (1, axes.get_ylim())):
            labels = axes.get_xticklabels() if axis == 0 else axes.get_yticklabels()
            for tick in labels:  # the ticks past the limits are listed but not drawn
                at = tick.get_position()[axis]
                if tick.get_text() and min(low, high) <= at <= max(low, high):
                    yield "tick label", tick
        legend = axes.get_legend()
        if legend is not None:
            yield "legend", legend
    for legend in figure.legends:
        yield "legend", legend


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_text_of_each_plot_is_inside_the_figure(name):
    figure = FIGURES[name]()
    figure.set_dpi(SAVED_DPI)  # checked as saved: text is hinted differently at each size
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    frame = figure.bbox
    cut = []
    for what, artist in texts_of(figure):
        box = artist.get_window_extent(renderer)
        inside = (
            box.x0 >= frame.x0 + MARGIN
            and box.y0 >= frame.y0 + MARGIN
            and box.x1 <= frame.x1 - MARGIN
            and box.y1 <= frame.y1 - MARGIN
        )
        if not inside:
            cut.append(
                f"{what} {getattr(artist, 'get_text', lambda: '')()!r}: {box} not in {frame}"
            )
    assert not cut, cut
    titles = [artist for what, artist in texts_of(figure) if what == "title"]
    titles += [figure._suptitle] if figure._suptitle is not None else []
    for title in titles:
        for legend in figure.legends:
            box, beside = title.get_window_extent(renderer), legend.get_window_extent(renderer)
            assert not box.overlaps(beside), f"title {title.get_text()!r} under the legend"
    ARTIFACTS.mkdir(exist_ok=True)
    figure.savefig(ARTIFACTS / f"plot_{name}.png", dpi=SAVED_DPI)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_no_title_line_is_a_lone_word(name):
    """The learning curves' title wrapped a lone "read)" onto a line of its own."""
    figure = FIGURES[name]()
    for axes in figure.axes:
        lines = axes.get_title().split("\n")
        short = [line for line in lines[1:] if len(line.split()) < 3]
        assert not short, lines


@pytest.mark.parametrize("name", ["winrates", "learning_curves"])
def test_the_legend_leaves_the_data_clear(name):
    """The win-rate plot's chance legend sat over the last bar."""
    figure = FIGURES[name]()
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    (legend,) = [*figure.legends, *filter(None, [axes.get_legend()])]
    legend = legend.get_window_extent(renderer)
    data = [patch.get_window_extent(renderer) for patch in axes.patches]
    data += [
        line.get_window_extent(renderer)
        for line in axes.lines
        if not line.get_label().startswith("chance")
    ]
    hidden = [box for box in data if box.overlaps(legend)]
    if name == "learning_curves":  # a line's extent is its whole box: check its points instead
        hidden = []
        inverse = axes.transData
        for line in axes.lines:
            if line.get_label().startswith("chance"):
                continue
            points = inverse.transform(np.column_stack(line.get_data()))
            hidden += [p for p in points if legend.contains(*p)]
    assert not hidden, hidden


def test_every_run_is_drawn_each_in_its_own_style():
    """Past four runs the fifth and later were silently left off the plot."""
    rows = [{"timesteps": step, "win_rate_vs_random": 0.5} for step in (0, 100)]
    figure = learning_curve_figure({f"run {i}": rows for i in range(6)})
    lines = [line for line in figure.axes[0].get_lines() if line.get_label().startswith("run")]
    assert len(lines) == 6
    assert len({(line.get_linestyle(), line.get_marker()) for line in lines}) == 6


def test_an_empty_run_is_refused_by_name():
    rows = [{"timesteps": 0, "win_rate_vs_random": 0.5}]
    with pytest.raises(ValueError, match="'warm-started' has no point"):
        learning_curve_figure({"from scratch": rows, "warm-started": []})
