"""Zero-shot coordination: how well agents trained apart play *together*.

K populations (independent self-play runs of one algorithm that differ only in their seed)
are paired as partners against a fixed opponent team. Pair (i, i) is self-play; pair (i, j)
with i ≠ j is cross-play, a team of two agents that never met. The self-play/cross-play gap
measures how much each population relies on conventions of its own. Ad-hoc teamwork pairs
each population with a partner none of them trained with (the heuristic, the search).

Every series rotates the focused team and the seat within it (:func:`partners`) and all
series are played on the same deals. Intervals pool the games of a row (game-level
uncertainty; with few populations the spread between them is shown by the matrix).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from presages_env.agents.base import Agent
from presages_env.core.game import Game
from presages_env.evaluation.report import markdown_table
from presages_env.evaluation.stats import (
    Estimate,
    difference_interval,
    format_number,
    format_percent,
    mean_interval,
    win_rate,
)
from presages_env.evaluation.tournament import CrossPlayResult, MatchResult, cross_play, partners


@dataclass(frozen=True, eq=False)
class CoordinationResult:
    """``cross``: every ordered pair of populations; ``ad_hoc[partner]``: one series per
    population, the population in one seat and ``partner`` in the rest of the team."""

    game: str
    num_players: int
    opponent: str
    cross: CrossPlayResult
    ad_hoc: dict[str, list[MatchResult]]

    @property
    def populations(self) -> list[str]:
        return self.cross.names

    def self_play(self) -> list[MatchResult]:
        return [self.cross.matches[x, x] for x in self.populations]

    def cross_play(self) -> list[MatchResult]:
        names = self.populations
        return [self.cross.matches[x, y] for x in names for y in names if x != y]

    def gap(self, confidence: float = 0.95) -> tuple[Estimate, Estimate]:
        """Self-play minus cross-play: in win rate, and in mean reward."""
        own, mixed = self.self_play(), self.cross_play()
        return (
            difference_interval(_outcomes(own), _outcomes(mixed), confidence),
            difference_interval(_rewards(own), _rewards(mixed), confidence),
        )


def evaluate_coordination(
    game: str | Game,
    populations: dict[str, Agent],
    opponent: Agent,
    num_games: int,
    ad_hoc_partners: dict[str, Agent] | None = None,
    partner_games: dict[str, int] | None = None,
    num_players: int | None = None,
    seed: int = 0,
    *,
    progress: bool = False,
    **options: Any,
) -> CoordinationResult:
    """The cross-play matrix of ``populations`` (``num_games`` per ordered pair) and, for
    each agent of ``ad_hoc_partners``, one ad-hoc series per population (``partner_games[name]``
    games, default ``num_games``: a search partner may need fewer)."""
    if len(populations) < 2:
        raise ValueError(f"cross-play needs at least two populations, got {len(populations)}")
    common = {"num_players": num_players, "seed": seed, "progress": progress, **options}
    cross = cross_play(game, populations, opponent, num_games, **common)
    ad_hoc = {}
    for name, partner in (ad_hoc_partners or {}).items():
        games = (partner_games or {}).get(name, num_games)
        ad_hoc[name] = [
            partners(game, agent, partner, opponent, games, names=(pop, name), **common)
            for pop, agent in populations.items()
        ]
    first = cross.matches[cross.names[0], cross.names[0]]
    return CoordinationResult(first.game, first.num_players, opponent.name, cross, ad_hoc)


def coordination_table(result: CoordinationResult, confidence: float = 0.95) -> str:
    """Markdown: self-play, cross-play, their gap and each ad-hoc partner, pooled over the
    populations, as win rates and mean rewards against the opponent team."""
    k = len(result.populations)
    rows = [
        _pooled_row(f"self-play (i + i), {k} populations", result.self_play(), confidence),
        _pooled_row(
            f"cross-play (i + j, i ≠ j), {k * (k - 1)} pairs", result.cross_play(), confidence
        ),
    ]
    rate_gap, reward_gap = result.gap(confidence)
    rows.append(
        [
            "**gap** (self-play − cross-play)",
            "",
            "",
            f"{100 * rate_gap.value:+.1f} pts ± {100 * rate_gap.half_width:.1f}",
            format_number(reward_gap),
        ]
    )
    for name, series in result.ad_hoc.items():
        rows.append(_pooled_row(f"ad hoc: population + {name}", series, confidence))
    header = [
        "pairing",
        "games",
        "chance",
        f"win rate vs {result.opponent} ({confidence:.0%} CI)",
        "mean reward",
    ]
    return markdown_table(header, rows)


def _pooled_row(label: str, series: Sequence[MatchResult], confidence: float) -> list[str]:
    outcomes = _outcomes(series)
    return [
        label,
        f"{outcomes.size:,}",
        f"{100 * np.mean([match.chance for match in series]):.0f}%",
        format_percent(win_rate(outcomes, confidence)),
        format_number(mean_interval(_rewards(series), confidence)),
    ]


def _outcomes(series: Sequence[MatchResult]) -> np.ndarray:
    return np.concatenate([match.outcomes() for match in series])


def _rewards(series: Sequence[MatchResult]) -> np.ndarray:
    return np.concatenate([match.focus_rewards() for match in series])
