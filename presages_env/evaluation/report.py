"""Markdown tables and PNG plots of tournament results.

Plots draw on matplotlib's Agg canvas directly, without pyplot, so they work on machines
without a display and never change the backend of a notebook that imports this module. Every
figure's title names the game, the player count and the method, and says what its
intervals are; win rates against a field carry a labelled chance line. ``*_figure``
functions build a figure (to inspect or show), ``plot_*`` ones save it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from presages_env.evaluation.stats import format_number, format_percent
from presages_env.evaluation.tournament import CrossPlayResult, MatchResult, Rating

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def results_table(results: Sequence[MatchResult], confidence: float = 0.95) -> str:
    """One row per head-to-head: the agent playing one side, its opponents, its win rate and
    mean reward with their intervals, and the win rate of an equally strong agent.

    Args:
        results: head-to-head results.
        confidence: the confidence level of the intervals.

    Returns:
        A Markdown table.
    """
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
    """Agents from best to worst by ordinal (mu - 3·sigma).

    Args:
        ratings: each agent's rating by name (:func:`rate`).

    Returns:
        A Markdown table.
    """
    ranked = sorted(ratings.items(), key=lambda item: item[1].ordinal, reverse=True)
    rows = [
        [str(rank), name, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}"]
        for rank, (name, r) in enumerate(ranked, start=1)
    ]
    return markdown_table(["rank", "agent", "mu", "sigma", "ordinal"], rows)


def cross_play_table(result: CrossPlayResult, confidence: float = 0.95) -> str:
    """Win rate of each pair: row agent in one seat of the team, column agent in the rest.

    Args:
        result: a :func:`cross_play` result.
        confidence: the confidence level of the intervals.

    Returns:
        A Markdown table.
    """
    header = ["one seat \\ partner(s)", *result.names]
    rates = result.win_rates(confidence)
    rows = [
        [name, *(format_percent(estimate) for estimate in row)]
        for name, row in zip(result.names, rates, strict=True)
    ]
    return markdown_table(header, rows)


HEAD_TO_HEAD = "head-to-head, seats rotated"
MARGIN = 4  # pixels a title keeps from the image's edge (text is hinted a little wider when saved)
PARTNERS = "agents paired as partners"


def plot_win_rates(
    results: Sequence[MatchResult],
    path: str | Path,
    confidence: float = 0.95,
    *,
    method: str = HEAD_TO_HEAD,
    game: str | None = None,
) -> Path:
    """Save :func:`win_rates_figure` as a PNG at ``path``; returns the path.

    Args:
        results: head-to-head results.
        path: the PNG file to write.
        confidence: the confidence level of the intervals.
        method: how the results were played, for the figure's caption.
        game: the game's title in the caption; None: the results' game.

    Returns:
        ``path``, as a ``Path``.
    """
    return save_figure(win_rates_figure(results, confidence, method=method, game=game), path)


def win_rates_figure(
    results: Sequence[MatchResult],
    confidence: float = 0.95,
    *,
    method: str = HEAD_TO_HEAD,
    game: str | None = None,
) -> Figure:
    """Horizontal bars of the win rates with their interval as error bars, and a
    labelled dashed line at the chance level of an equally strong agent. The title names the
    game (``game`` overrides the results' own, e.g. to name a variant), the player count and
    ``method`` (what the agents are), and says what the bars are."""
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
    counts = {result.num_games for result in results}
    labels = [f"{result.focus} vs {result.others}" for result in results]
    if len(counts) > 1:
        labels = [f"{label} (n={r.num_games:,})" for label, r in zip(labels, results, strict=True)]
    games = f"{counts.pop():,} games each" if len(counts) == 1 else "the n games in each label"
    figure = new_figure(7.5, 1.8 + 0.4 * len(results))
    axes = figure.add_subplot()
    positions = np.arange(len(results))[::-1]
    axes.barh(positions, values, xerr=errors, capsize=3, color="tab:blue", alpha=0.8)
    for chance in sorted({round(100 * result.chance, 6) for result in results}):
        draw_chance(axes, chance, vertical=True)
    axes.set_yticks(positions, labels)
    axes.set_xlim(0, 100)
    # two lines: centred under the axes, which long agent names push right, one ran off the edge
    axes.set_xlabel("win rate of the first agent, %\n(a tie for the top counts as half a win)")
    setting = setting_title(
        [game] if game else [r.game for r in results], [r.num_players for r in results], method
    )
    if results:  # below the plot: inside, the chance line's label covered the last bar
        figure.legend(loc="outside lower center", fontsize=8, frameon=False)
    fit_title(
        axes,
        setting,
        "first agent plays one side, the second all others",
        f"bars: {confidence:.0%} {interval_name(results)} over {games}",
    )
    return figure


def interval_name(results: Sequence[MatchResult]) -> str:
    """What the win rates' intervals are: Wilson's over the games, or over the effective games
    that the spread between the deal groups of duplicate deals implies."""
    duplicate = {result.group_size > 1 for result in results}
    if duplicate == {True}:
        return "Wilson interval over the duplicate deals"
    if duplicate == {False, True}:
        return "Wilson interval (over the deals where duplicate)"
    return "Wilson interval"


def plot_cross_play(
    result: CrossPlayResult,
    path: str | Path,
    confidence: float = 0.95,
    *,
    method: str = PARTNERS,
    game: str | None = None,
) -> Path:
    """Save :func:`cross_play_figure` as a PNG at ``path``; returns the path.

    Args:
        result: a :func:`cross_play` result.
        path: the PNG file to write.
        confidence: the confidence level of the intervals.
        method: how the agents were paired, for the figure's caption.
        game: the game's title in the caption; None: the result's game.

    Returns:
        ``path``, as a ``Path``.
    """
    return save_figure(cross_play_figure(result, confidence, method=method, game=game), path)


def cross_play_figure(
    result: CrossPlayResult,
    confidence: float = 0.95,
    *,
    method: str = PARTNERS,
    game: str | None = None,
) -> Figure:
    """Heat map of the cross-play win rates as differences from the self-play mean (the
    diagonal's), on a diverging scale centred on 0: a 0-100 scale would hide a gap of a few
    points. Its limits span at least the widest interval's full width, so a difference within
    a cell's noise never takes more than half the colour. Each cell is annotated with its win
    rate, interval and difference."""
    from matplotlib.patches import Rectangle

    rates = result.win_rates(confidence)
    values = np.array([[100 * e.value for e in row] for row in rates])
    half_widths = np.array([[100 * e.half_width for e in row] for row in rates])
    self_play = float(np.mean(np.diag(values)))
    gaps = values - self_play
    limit = float(max(np.abs(gaps).max(), 2 * half_widths.max()))
    size = 1.5 + 1.3 * len(result.names)
    figure = new_figure(max(size + 2, 7), size + 0.6)
    axes = figure.add_subplot()
    image = axes.imshow(gaps, cmap="RdBu", vmin=-limit, vmax=limit)
    for (row, column), gap in np.ndenumerate(gaps):
        text = f"{values[row, column]:.1f}% ± {half_widths[row, column]:.1f}\n{gap:+.1f} pts"
        colour = "white" if abs(gap) > 0.6 * limit else "black"
        axes.text(column, row, text, ha="center", va="center", color=colour, fontsize=9)
    for diagonal in range(len(result.names)):
        corner = (diagonal - 0.5, diagonal - 0.5)
        axes.add_patch(Rectangle(corner, 1, 1, fill=False, edgecolor="black", linewidth=1.5))
    ticks = np.arange(len(result.names))
    axes.set_xticks(ticks, result.names)
    axes.set_yticks(ticks, result.names)
    axes.set_xlabel("partner(s); outlined: self-play")
    axes.set_ylabel("one seat")
    matches = list(result.matches.values())
    counts = {match.num_games for match in matches}
    games = f"{counts.pop():,} games" if len(counts) == 1 else "each pair's games"
    setting = setting_title(
        [game] if game else [m.game for m in matches], [m.num_players for m in matches], method
    )
    figure.colorbar(image, ax=axes, label=f"win rate − self-play mean ({self_play:.1f}%), points")
    fit_title(
        axes,
        setting,
        f"cross-play win rate vs {result.opponent}: self-play mean {self_play:.1f}%, "
        f"chance {100 * matches[0].chance:.1f}%",
        f"cells: win rate ± half its {confidence:.0%} Wilson interval over {games}",
    )
    return figure


def game_title(name: str) -> str:
    """``name``'s title ("Présages") if it names a registered game, else ``name`` as it is."""
    from presages_env.games import GAME_CLASSES, get_game

    return get_game(name).title if name in GAME_CLASSES else name


def setting_title(games: Iterable[str], players: Iterable[int], method: str) -> str:
    """A figure's first title line: the game(s) as people write them, the player count(s)
    and the method."""
    names = ", ".join(dict.fromkeys(game_title(game) for game in games)) or "no games"
    counts = "/".join(str(n) for n in sorted(set(players)))
    return f"{names}, {counts} players: {method}" if counts else f"{names}: {method}"


def wrapped_title(figure: Figure, *lines: str, width: int | None = None) -> str:
    """Title lines wrapped to the figure's width at font size 10 (matplotlib never wraps a
    title: a long method name would run off the image), or to ``width`` characters; each
    line wrapped evenly (:func:`even_fill`)."""
    width = width or int(13 * figure.get_figwidth())
    return "\n".join(even_fill(line, width) for line in lines)


def even_fill(line: str, width: int) -> str:
    """``line`` wrapped to at most ``width`` characters, in as few lines as that takes, all of
    about the same length: never a long line and a lone last word (``"... hints\nread)"``)."""
    wrapped = textwrap.wrap(line, width, break_on_hyphens=False) or [line]
    narrowest = -(-len(line) // len(wrapped))
    for narrower in range(narrowest, width):
        even = textwrap.wrap(line, narrower, break_on_hyphens=False)
        if len(even) == len(wrapped):
            return "\n".join(even)
    return "\n".join(wrapped)


def fit_title(axes: Axes, *lines: str, fontsize: float = 10) -> None:
    """Set ``axes``' title to ``lines``, wrapped narrower until it lies inside the figure and
    clear of a legend beside the plot: a title is centred over its axes, which long tick
    labels push to one side, so a title wrapped to the figure's width can still run off one
    edge or under the legend."""
    figure = axes.get_figure()
    width = int(13 * figure.get_figwidth() * 10 / fontsize)
    while True:
        axes.set_title(wrapped_title(figure, *lines, width=width), fontsize=fontsize)
        figure.canvas.draw()  # lays the figure out, so the title's place is known
        box, frame = axes.title.get_window_extent(), figure.bbox
        right = frame.x1 - MARGIN
        for legend in figure.legends:  # a legend beside the plot, level with the title
            beside = legend.get_window_extent()
            if beside.y0 < box.y1 and beside.y1 > box.y0:
                right = min(right, beside.x0 - MARGIN)
        if (box.x0 >= frame.x0 + MARGIN and box.x1 <= right) or width <= 20:
            return
        width -= max(2, width // 10)


def draw_chance(axes: Axes, chance: float, *, vertical: bool) -> None:
    """A labelled dashed line at ``chance`` (in %): the win rate of an agent exactly as
    strong as its opponents, 1 / the number of sides."""
    line = axes.axvline if vertical else axes.axhline
    line(
        chance, color="grey", linestyle="--", linewidth=1, label=f"chance {chance:.1f}% (1 / sides)"
    )


def new_figure(width: float, height: float) -> Figure:
    """A figure on matplotlib's Agg canvas, without pyplot (see the module's docstring)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def save_figure(figure: Figure, path: str | Path) -> Path:
    """Write ``figure`` as a PNG at ``path`` (its folder created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path
