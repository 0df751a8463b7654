"""Evaluation: tournaments with rotated seats (or duplicate deals, each deal played once per
side), win rates with confidence intervals, openskill ratings, cross-play matrices and game
statistics (length, legal actions per decision) (numpy only; openskill and matplotlib are
imported when rating and plotting, Ray when a :class:`RayExecutor` fans chunks out)."""

from presages_env.evaluation.distributed import LocalExecutor, RayExecutor, chunked_round_robin
from presages_env.evaluation.game_stats import GameStatistics, game_statistics, statistics_table
from presages_env.evaluation.report import (
    cross_play_table,
    plot_cross_play,
    plot_win_rates,
    ratings_table,
    results_table,
)
from presages_env.evaluation.stats import (
    Estimate,
    format_number,
    format_percent,
    grouped_interval,
    grouped_win_rate,
    mean_interval,
    wilson_interval,
    win_rate,
)
from presages_env.evaluation.tournament import (
    CrossPlayResult,
    MatchResult,
    Rating,
    cross_play,
    deal_group_size,
    has_teams,
    head_to_head,
    rate,
    round_robin,
)

__all__ = [
    "LocalExecutor",
    "RayExecutor",
    "chunked_round_robin",
    "CrossPlayResult",
    "Estimate",
    "GameStatistics",
    "MatchResult",
    "Rating",
    "cross_play",
    "cross_play_table",
    "deal_group_size",
    "format_number",
    "format_percent",
    "game_statistics",
    "grouped_interval",
    "grouped_win_rate",
    "has_teams",
    "head_to_head",
    "mean_interval",
    "plot_cross_play",
    "plot_win_rates",
    "rate",
    "ratings_table",
    "results_table",
    "round_robin",
    "statistics_table",
    "wilson_interval",
    "win_rate",
]
